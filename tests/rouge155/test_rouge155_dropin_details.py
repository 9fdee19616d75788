"""The drop-in's last details, each held to ROUGE-1.5.5.pl itself: the exit
code of an input format it cannot read, the ``readText: PATH -> empty text``
warnings under ``-l``/``-b``, Perl's ``NaN``/``Inf``, and the data directory
it checks with or without ``-m``/``-s``.  Every comparison runs on the
compiled kernel and on the pure Python one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import perl_rouge
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from perl_rouge import perl  # noqa: F401  (the fixture)

from kurenai import _backend, _variants_py
from kurenai.rouge155.cli import main

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("perl")]
_SETTINGS = settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.fixture(params=["compiled", "python"])
def kernel(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The ROUGE-1.5.5 kernel in turn: compiled, then the pure Python spec."""
    if request.param == "python":
        monkeypatch.setattr(_backend, "perl", None)
        monkeypatch.setattr(_backend, "variants", _variants_py)
    elif _backend.perl is None:
        pytest.skip("the compiled extension is not built")
    yield request.param


def outcomes(
    capsys: pytest.CaptureFixture[str], args: list[str], cwd: Path
) -> tuple[tuple[int, str, str], tuple[int, str, str]]:
    """(Perl's, kurenai's) exit code, stdout and stderr for ``args``, run in ``cwd``."""
    script = perl_rouge.run_script(args, cwd=cwd)
    perl_result = (script.returncode, script.stdout.decode(), script.stderr.decode())
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(cwd)
        code = main(args)
    out, err = capsys.readouterr()
    return perl_result, (code, out, err)


def files(root: Path, summaries: dict[str, str], pairs: list[list[str]]) -> Path:
    """The summaries under ``root`` and a ``-z`` file list of ``pairs``."""
    root.mkdir(parents=True, exist_ok=True)
    for name, text in summaries.items():
        (root / name).write_text(text, encoding="utf-8")
    listed = root / "files.txt"
    listed.write_text("".join(" ".join(pair) + "\n" for pair in pairs), encoding="utf-8")
    return listed


@pytest.mark.parametrize("fmt", ["SIMPLE", "simple", "FOO"])
@pytest.mark.parametrize("peer", ["p.txt", "missing.txt"])
def test_a_format_the_script_cannot_read_exits_as_it_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kernel: str, fmt: str, peer: str
) -> None:
    listed = files(tmp_path, {"p.txt": "a b\n", "m.txt": "a c\n"}, [[peer, "m.txt"]])
    data = str(perl_rouge.data_dir())
    perl_result, ours = outcomes(capsys, ["-e", data, "-z", fmt, "-n", "1", str(listed)], tmp_path)
    assert ours[0] == perl_result[0]  # 25 (ENOTTY, left by opening the peer), or 2
    assert ours[1] == perl_result[1] == ""
    assert perl_result[2].strip() in ours[2]


def test_the_format_harness_catches_another_exit_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Negative control: the comparison above tells 255 (a refusal) from 25."""
    listed = files(tmp_path, {"p.txt": "a b\n", "m.txt": "a c\n"}, [["p.txt", "m.txt"]])
    data = str(perl_rouge.data_dir())
    perl_result, ours = outcomes(capsys, ["-e", data, "-z", "SIMPLE", str(listed)], tmp_path)
    assert perl_result[0] == ours[0] == 25
    assert perl_result[0] != 255


_UNITS = st.sampled_from(["the cat sat", "a dog", "cat", "the the mat", "sat on a mat", "-"])
_SUMMARY = st.lists(_UNITS, max_size=3).map(lambda units: "".join(u + "\n" for u in units))
_LIMITS = st.sampled_from([[], ["-l", "2"], ["-l", "5"], ["-b", "4"], ["-b", "12"]])
_METRICS = st.sampled_from(
    [["-n", "1"], ["-n", "2", "-x"], ["-n", "1", "-w", "1.2"], ["-n", "1", "-U", "-2", "1"]]
)


@_SETTINGS
@given(
    summaries=st.lists(_SUMMARY, min_size=2, max_size=5),
    rows=st.lists(st.lists(st.integers(0, 4), min_size=2, max_size=3), min_size=1, max_size=3),
    limits=_LIMITS,
    metrics=_METRICS,
    extra=st.sampled_from([[], ["-d"], ["-t", "1"], ["-f", "B"]]),
)
def test_reports_and_warnings_equal_the_scripts(
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    kernel: str,
    summaries: list[str],
    rows: list[list[int]],
    limits: list[str],
    metrics: list[str],
    extra: list[str],
) -> None:
    """Summaries, some empty, under -l/-b or none: the same stdout, stderr and
    exit code as the script (which dies where a model has no words under -w)."""
    root = tmp_path_factory.mktemp("details")
    names = {f"s{i}.txt": text for i, text in enumerate(summaries)}
    pairs = [[f"s{i % len(summaries)}.txt" for i in row] for row in rows]
    listed = files(root, names, pairs)
    args = ["-e", str(perl_rouge.data_dir()), "-z", "SPL", *limits, *metrics, *extra, str(listed)]
    perl_result, ours = outcomes(capsys, args, root)
    if perl_result[0] != 0:  # the script's division by zero: kurenai prints no partial report
        assert ours[0] == perl_result[0] and ours[1] == ""
        return
    assert ours == perl_result


@pytest.mark.parametrize("weight", ["1e308", "1000", "1e200"])
@pytest.mark.parametrize("extra", [[], ["-d"], ["-t", "1"], ["-t", "2"], ["-f", "B"]])
def test_overflowing_weights_print_perls_nan_and_inf(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kernel: str, weight: str, extra: list[str]
) -> None:
    summaries = {"p.txt": "hello world foo bar\n", "m.txt": "hello there foo bar baz\n"}
    listed = files(tmp_path, summaries, [["p.txt", "m.txt", "p.txt"]])
    args = ["-e", str(perl_rouge.data_dir()), "-z", "SPL", "-n", "1", "-w", weight, *extra]
    perl_result, ours = outcomes(capsys, [*args, str(listed)], tmp_path)
    assert ours[:2] == perl_result[:2]
    assert "nan" not in ours[1] and "inf" not in ours[1]
    # Perl's own interpreter warnings (sorting NaN samples) are not the script's.
    perl_lines = perl_result[2].splitlines()
    assert [line for line in perl_lines if not line.startswith("Use of uninitialized")] == []
    assert ours[2] == ""


@pytest.mark.parametrize("stem", [[], ["-m"], ["-s"]])
def test_a_named_data_directory_must_hold_the_scripts_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], stem: list[str]
) -> None:
    listed = files(tmp_path, {"p.txt": "a b\n", "m.txt": "a c\n"}, [["p.txt", "m.txt"]])
    partial = tmp_path / "partial"
    partial.mkdir()
    (partial / "smart_common_words.txt").write_bytes(b"the\n")
    for data in (tmp_path / "nonexistent", partial):
        args = ["-e", str(data), *stem, "-z", "SPL", "-n", "1", str(listed)]
        perl_result, ours = outcomes(capsys, args, tmp_path)
        assert (ours[0], ours[1]) == (perl_result[0], perl_result[1]) == (2, "")
        assert perl_result[2].strip() in ours[2]

"""Bad input: one clear error naming the file or option, the script's exit
code, and nothing on stdout."""

from __future__ import annotations

from pathlib import Path

import perl_rouge
import pytest
from perl_rouge import perl  # noqa: F401  (the fixture)
from rouge155_corpus import write_setup

from kurenai.rouge155.cli import main

RECORDS = [(["The cat sat.", "A cat."], {"lead": "the cat", "alt": "a dog"})]


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return write_setup(tmp_path, RECORDS)[0]


def test_a_missing_model_is_named_with_the_scripts_exit_code(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (config.parent / "models" / "0.1.txt").unlink()
    code, out, err = _run(capsys, "-a", "-n", "1", str(config))
    assert (code, out) == (2, "")
    assert "Cannot find model summary: " in err and "0.1.txt" in err


def test_a_missing_peer_is_named(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (config.parent / "peers" / "0.alt.txt").unlink()
    code, out, err = _run(capsys, "-a", "-n", "1", str(config))
    assert (code, out) == (2, "")
    assert "Cannot open " in err and "0.alt.txt" in err


def test_a_non_utf8_summary_is_named(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (config.parent / "peers" / "0.lead.txt").write_bytes(b"caf\xe9")
    code, out, err = _run(capsys, "-a", str(config))
    assert (code, out) == (1, "")
    assert "0.lead.txt is not UTF-8" in err


def test_a_missing_or_broken_configuration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run(capsys, "-a", str(tmp_path / "none.xml"))[:2] == (2, "")
    (tmp_path / "bad.xml").write_text("<ROUGE-EVAL><EVAL ID='1'>")
    code, out, err = _run(capsys, "-a", str(tmp_path / "bad.xml"))
    assert (code, out) == (255, "") and "bad.xml is not valid XML" in err


def test_a_system_in_no_evaluation(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, str(config), "nobody")
    assert (code, out) == (255, "") and "'nobody' has no summary" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-3", "HM"], "Basic Elements (-3) are not supported"),
        (["-M"], "-M (stem the models only) is not supported"),
        (["-l", "10", "-b", "5"], "not both"),
        (["-c", "101"], "Confidence interval should be within 0 and 100"),
        (["-w", "0"], "ROUGE-W weight factor must greater than 0"),
        (["-p", "2"], "between 0 and 1"),
        (["-r", "0"], "-r must be at least 1"),
        (["-n", "x"], "-n takes an integer, got 'x'"),
        (["-n", str(10**12)], "-n 1000000000000 is too large (at most 1,000 ROUGE-N orders)"),
        (["-r", str(10**12)], "-r 1000000000000 is too large (at most 10,000,000 bootstrap"),
    ],
)
def test_refused_options_name_themselves(
    args: list[str], message: str, config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(capsys, *args, "-a", str(config))
    assert (code, out) == (255, "")
    assert message in err and err.count("\n") == 1 and err.startswith("rouge155: ")


def test_usage_and_unknown_options(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys)  # no configuration: the script's die $usage
    assert (code, out) == (255, "") and err.startswith("usage: rouge155 ")
    for asked in ("-h", "-H", "--help"):  # kurenai's: the usage on stdout, status 0
        code, out, err = _run(capsys, asked)
        assert (code, err) == (0, "") and out.startswith("usage: rouge155 ") and "--help" in out
    code, out, err = _run(capsys, "--tokenzier", "char", str(config))
    assert (code, out) == (255, "") and "--tokenzier (did you mean '--tokenizer'?)" in err
    code, out, err = _run(capsys, "-q", "-a", "-n", "1", "-r", "10", str(config))
    assert code == 0 and "Unknown option: q" in err and "ROUGE-1 Average_R" in out


@pytest.mark.slow
@pytest.mark.usefixtures("perl")
def test_a_model_without_words_under_w_fails_as_the_script_dies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_setup(tmp_path, [(["-- ...", "cat"], {"lead": "the cat"})])[0]
    args = ["-e", str(perl_rouge.data_dir()), "-a", "-n", "1", "-w", "1.2", str(config)]
    script = perl_rouge.run_script(args)
    assert script.returncode == 255 and b"Illegal division by zero" in script.stderr
    code, out, err = _run(capsys, *args)
    assert (code, out) == (255, "") and "Illegal division by zero in evaluation 1" in err

"""Every file the command line writes is checked against every file it reads, and against
each other, before anything is read: ``--output``, ``--report``, with ``--systems``,
``--system-fields`` and ``--baseline-file``, and files2rouge's ``--saveto``.

The reproducers of the audit first, then a generated family: any choice of inputs,
outputs (the same names, links to them, new files, a directory) and modes; the run is
refused exactly when an output is a directory, an input or another output, naming the
option at fault, and no input ever changes.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cli_support import call_main
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kurenai import cli
from kurenai.cli import _reporting
from kurenai.rouge155 import _files2rouge

POSIX = pytest.mark.skipif(os.name == "nt", reason="POSIX links")
TEXTS = {
    "t.txt": "the cat sat\n",
    "p.txt": "the cat\n",
    "q.txt": "a cat\n",
    "x.jsonl": '{"a": "the cat sat", "b": "the cat", "c": "a cat"}\n',
}


def _files(directory: Path) -> None:
    for name, text in TEXTS.items():
        (directory / name).write_text(text)


def _unchanged(directory: Path, names: list[str] | None = None) -> None:
    for name in names or TEXTS:
        assert (directory / name).read_text() == TEXTS[name], name


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    _files(tmp_path)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def no_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if the run gets as far as reading an input."""

    def fail(*args: object, **kwargs: object) -> None:
        raise AssertionError("an input was read")

    monkeypatch.setattr(cli, "count_records", fail)
    monkeypatch.setattr(_reporting, "_read", fail)


PAIR = ["--target-file", "t.txt", "--prediction-file", "p.txt"]
# Three systems as fields of one JSONL file: the references a, the predictions b, c.
FIELDS = ["--target-file", "x.jsonl", "--prediction-file", "x.jsonl", "--target-field", "a"]
FIELDS += ["--prediction-field", "b", "--system-fields", "c"]


# ------------------------------------------------------------ the audit's reproducers


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            [*PAIR, "--systems", "q.txt", "--report", "t.txt"],
            "--report t.txt is the input file t.txt; refusing to replace it",
        ),
        (
            [*PAIR, "--systems", "q.txt", "--report", "q.txt"],
            "--report q.txt is the input file q.txt; refusing to replace it",
        ),
        (
            [*FIELDS, "--report", "x.jsonl"],
            "--report x.jsonl is the input file x.jsonl; refusing to replace it",
        ),
        (
            [*PAIR, "--systems", "q.txt", "--output", "out.csv", "--report", "."],
            "cannot write --report .: it is a directory",
        ),
        (
            [*PAIR, "--report", "out.csv", "--output", "out.csv"],
            "--output out.csv and --report out.csv are the same file; give each its own",
        ),
        (
            [*PAIR, "--report", "t.txt"],
            "--report t.txt is the input file t.txt; refusing to replace it",
        ),
        (
            [*PAIR, "--report", "-"],
            "--output - and --report - both write to stdout; give each its own",
        ),
    ],
)
def test_the_audits_reproducers_are_refused_before_reading(
    capsys: pytest.CaptureFixture[str],
    here: Path,
    no_reading: None,
    argv: list[str],
    message: str,
) -> None:
    (here / "out.csv").write_text("precious\n")
    result = call_main(capsys, *argv)
    assert (result.code, result.out, result.err) == (1, "", f"kurenai: error: {message}\n")
    _unchanged(here)
    assert (here / "out.csv").read_text() == "precious\n"


def test_files2rouge_saveto_an_input_is_refused_before_reading(
    capsys: pytest.CaptureFixture[str], here: Path
) -> None:
    code = _files2rouge.main(["t.txt", "p.txt", "--saveto", "p.txt"])
    captured = capsys.readouterr()
    assert (code, captured.out) == (1, "")
    assert captured.err == (
        "files2rouge: error: --saveto p.txt is the input file p.txt; refusing to replace it\n"
    )
    _unchanged(here)


# ------------------------------------------------------------ the generated family

# What an output option may name: an input, a link to one, a new file, a directory.
_OUTPUTS = [
    "t.txt",
    "p.txt",
    "q.txt",
    "x.jsonl",
    "soft.txt",
    "hard.txt",
    "./t.txt",
    "new.csv",
    "new.html",
    "sub/../new.csv",
    ".",
    "missing/new.csv",
    None,
]
_MODES = {
    "pair": [*PAIR],
    "baseline": [*PAIR, "--baseline-file", "q.txt"],
    "systems": [*PAIR, "--systems", "q.txt"],
    "fields": FIELDS,
}
_INPUTS = {
    "pair": ["t.txt", "p.txt"],
    "baseline": ["t.txt", "p.txt", "q.txt"],
    "systems": ["t.txt", "p.txt", "q.txt"],
    "fields": ["x.jsonl"],
}


def _identity(path: str) -> object:
    """The file ``path`` names: its inode if it exists, else where it would be."""
    try:
        info = os.stat(path)
    except OSError:
        return os.path.realpath(path)
    return (info.st_dev, info.st_ino)


def _expected(mode: str, outputs: list[tuple[str, str]]) -> str | None:
    """The refusal a naive reading of the rule gives, or None."""
    inputs = {_identity(name): name for name in _INPUTS[mode]}
    seen: dict[object, str] = {}
    for option, path in outputs:
        if os.path.isdir(path):
            return f"cannot write {option} {path}: it is a directory"
        if not os.path.isdir(os.path.dirname(os.path.abspath(path))):
            return f"cannot write {option} {path}: No such file or directory"
        if _identity(path) in inputs:
            name = inputs[_identity(path)]
            return f"{option} {path} is the input file {name}; refusing to replace it"
        if _identity(path) in seen:
            return f"--output {seen[_identity(path)]} and --report {path} are the same file"
        seen[_identity(path)] = path
    return None


@POSIX
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    mode=st.sampled_from(sorted(_MODES)),
    output=st.sampled_from(_OUTPUTS),
    report=st.sampled_from(_OUTPUTS),
)
def test_no_output_replaces_an_input_or_another_output(
    capsys: pytest.CaptureFixture[str],
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    mode: str,
    output: str | None,
    report: str | None,
) -> None:
    here = tmp_path_factory.mktemp("outputs")
    _files(here)
    (here / "sub").mkdir()
    os.symlink(here / "p.txt", here / "soft.txt")
    os.link(here / "q.txt", here / "hard.txt")
    monkeypatch.chdir(here)
    outputs = [("--output", output or "new.out")] + ([("--report", report)] if report else [])
    argv = [*_MODES[mode], "--bootstrap-samples", "10", "--seed", "0"]
    if mode == "pair":
        argv += ["--aggregate", "bootstrap"]
    for option, path in outputs:
        argv += [option, path]
    expected = _expected(mode, outputs)
    monkeypatch.setattr(_reporting, "_write", lambda *args, **kwargs: None)  # no HTML needed
    result = call_main(capsys, *argv)
    _unchanged(here, _INPUTS[mode])
    assert (here / "sub").is_dir()
    if expected is None:
        assert result.code == 0, result.err
    else:
        assert result.code == 1
        assert result.err.startswith(f"kurenai: error: {expected}"), (result.err, expected)
        assert result.err.count("\n") == 1

"""The command line on bad input: one clear line on stderr, the right exit code, no debris."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Callable

import pytest
from cli_support import Result, Run, call_main

from kurenai import cli, tokenizers
from kurenai.rouge_scorer import RougeScorer


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    """``run(*argv)`` calls ``cli.main``; every failure must be exactly one stderr line."""

    def call(*argv: str) -> Result:
        result = call_main(capsys, *argv)
        if result.code:
            assert result.err.count("\n") == 1, result.err
            assert result.err.startswith("kurenai: "), result.err
        assert "Traceback" not in result.err
        return result

    return call


@pytest.fixture
def files(tmp_path: Path) -> Callable[..., list[str]]:
    """``files(targets, predictions)``: write both, return the file options."""

    def make(
        targets: str | bytes, predictions: str | bytes, suffixes: tuple[str, str] = (".txt", ".txt")
    ) -> list[str]:
        paths = []
        for name, content, suffix in zip("tp", (targets, predictions), suffixes):
            path = tmp_path / f"{name}{suffix}"
            data = content.encode() if isinstance(content, str) else content
            path.write_bytes(data)
            paths.append(str(path))
        return ["--target-file", paths[0], "--prediction-file", paths[1]]

    return make


Files = Callable[..., list[str]]


# ------------------------------------------------------------ usage errors: exit 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rouge-types", "rouge1,rouge10"], "invalid ROUGE type 'rouge10'; valid types: "),
        (
            ["--rouge-types", "rougel"],
            "invalid ROUGE type 'rougel' (did you mean 'rougeL'?); valid",
        ),
        (["--rouge-types", "rouge1,rouge1"], "ROUGE type 'rouge1' asked for twice"),
        (["--rouge-types", ","], "rouge_types must name at least one ROUGE type"),
        (["--tokenizer", "nope"], "unknown tokenizer 'nope'; available: "),
        (["--jobs", "-2"], "argument --jobs: expected an integer >= -1, got '-2'"),
        (["--chunk-size", "0"], "argument --chunk-size: expected an integer >= 1"),
        (["--bootstrap-samples", "many"], "expected an integer from 1 to 1000000, got 'many'"),
        (["--confidence-interval", "95"], "expected a number from 0 to 1, got '95'"),
        (["--output-format", "xml"], "invalid choice: 'xml'"),
        (["--seed", "3"], "--seed only applies with --aggregate bootstrap"),
        (["--no-such-option"], "unrecognized arguments: --no-such-option"),
    ],
)
def test_usage_errors_exit_2(run: Run, files: Files, argv: list[str], message: str) -> None:
    result = run(*argv, *files("a", "a"))
    assert result.code == 2
    assert message in result.err
    assert result.err.endswith("(see --help)\n")
    assert result.out == ""


def test_missing_required_file_option(run: Run) -> None:
    result = run("--target-file", "t.txt")
    assert result.code == 2
    assert "--prediction-file" in result.err


def test_both_sides_on_stdin_need_jsonl(run: Run) -> None:
    result = run("--target-file", "-", "--prediction-file", "-")
    assert result.code == 2
    assert "only JSONL or CSV input can give several sides on stdin" in result.err


# ------------------------------------------------------------ input errors: exit 1


def test_missing_file(run: Run, tmp_path: Path, files: Files) -> None:
    args = files("a", "a")
    args[1] = str(tmp_path / "absent.txt")
    result = run(*args)
    assert result.code == 1
    assert result.err == f"kurenai: error: cannot read {args[1]}: No such file or directory\n"


def test_unreadable_file(run: Run, tmp_path: Path, files: Files) -> None:
    args = files("a", "a")
    args[3] = str(tmp_path)  # a directory
    result = run(*args)
    assert result.code == 1
    assert f"cannot read {tmp_path}" in result.err


@pytest.mark.parametrize("side", [0, 1])
def test_invalid_utf8_names_file_and_line(run: Run, files: Files, side: int) -> None:
    good, bad = b"a\nb\nc\n", b"a\nb\n\xe3\x81x\n"
    args = files(bad, good) if side == 0 else files(good, bad)
    result = run(*args)
    assert result.code == 1
    assert result.err == (
        f"kurenai: error: {args[1 + 2 * side]}: line 3: invalid UTF-8 (byte 0xe3 at column 1)\n"
    )


def test_invalid_utf8_in_jsonl(run: Run, files: Files) -> None:
    args = files(b'{"target": "a"}\n{"target": "\xff"}\n', b"a\nb\n", (".jsonl", ".txt"))
    result = run(*args)
    assert result.code == 1
    assert f"{args[1]}: line 2: invalid UTF-8 (byte 0xff at column 13)" in result.err


def test_different_record_counts_name_both(run: Run, files: Files) -> None:
    args = files("a\nb\nc\n", "a\nb\n")
    result = run(*args)
    assert result.code == 1
    assert result.err == f"kurenai: error: {args[1]} has 3 records but {args[3]} has 2\n"
    assert result.out == ""  # found before any output


@pytest.mark.parametrize(
    ("stdin", "other", "counts"),
    [("a\nb\n", "a\nb\nc\nd", "has 4 records but <stdin> has 2"),
     ("a\nb\nc\nd\ne\n", "a", "has 1 records but <stdin> has 5")],
)  # fmt: skip
def test_different_record_counts_when_streaming(
    run: Run, files: Files, monkeypatch: pytest.MonkeyPatch, stdin: str, other: str, counts: str
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    args = files(other, "")
    result = run(*args[:3], "-", "--chunk-size", "1")
    assert result.code == 1
    assert result.err == f"kurenai: error: {args[1]} {counts}\n"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"target": "a", ', "line 2: malformed JSON (Expecting property name"),
        ('["a", "b"]', "line 2: expected a JSON object"),
        ('{"reference": "a"}', "line 2: no field 'target' (fields: 'reference')"),
        ('{"target": 3}', "line 2: field 'target' must be a string or a non-empty list"),
        ('{"target": []}', "line 2: field 'target' must be a string or a non-empty list"),
        ('{"target": ["a", 1]}', "line 2: field 'target' must be"),
    ],
)
def test_malformed_jsonl_names_the_line(run: Run, files: Files, line: str, message: str) -> None:
    args = files('{"target": "x"}\n' + line + "\n", "x\ny\n", (".jsonl", ".txt"))
    result = run(*args)
    assert result.code == 1
    assert result.err.startswith(f"kurenai: error: {args[1]}: {message}")


def test_prediction_must_be_one_string(run: Run, files: Files) -> None:
    args = files('{"target": "a", "prediction": ["a"]}\n', "", (".jsonl", ".jsonl"))
    result = run("--target-file", args[1], "--prediction-file", args[1])
    assert result.code == 1
    assert "line 1: field 'prediction' must be a string\n" in result.err


@pytest.mark.parametrize(
    ("targets", "predictions", "message"),
    [("", "", "no records in"), ("", "a\n", "has 0 records but")],
)
def test_empty_input(run: Run, files: Files, targets: str, predictions: str, message: str) -> None:
    result = run(*files(targets, predictions))
    assert result.code == 1
    assert message in result.err
    assert result.out == ""


def test_empty_stdin(run: Run, files: Files, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"")))
    result = run("--format", "jsonl", "--target-file", "-", "--prediction-file", "-")
    assert (result.code, result.out) == (1, "")
    assert "no records in <stdin>" in result.err


def test_missing_optional_tokenizer_package(
    run: Run, files: Files, registered_tokenizer: Callable[..., None]
) -> None:
    def missing(use_stemmer: bool = False) -> tokenizers.Tokenizer:
        raise ImportError("the 'test' tokenizer needs foo: pip install foo")

    registered_tokenizer("test-missing", missing)
    result = run("--tokenizer", "test-missing", *files("a", "a"))
    assert result.code == 1
    assert "cannot use tokenizer 'test-missing': the 'test' tokenizer needs foo" in result.err


# ------------------------------------------------------------ output files


def test_output_directory_missing(run: Run, files: Files, tmp_path: Path) -> None:
    target = tmp_path / "no" / "scores.csv"
    result = run(*files("a", "a"), "--output", str(target))
    assert result.code == 1
    assert f"cannot write --output {target}: No such file or directory" in result.err


def test_failed_run_keeps_existing_output_and_leaves_no_temporary_file(
    run: Run, files: Files, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    output = tmp_path / "scores.csv"
    output.write_text("precious\n")
    args = files("a\nb\n", "")
    before = sorted(tmp_path.iterdir())
    # The mismatch shows only at the end of stdin, after records were written.
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"a\nb\nc\n")))
    result = run(*args[:3], "-", "--chunk-size", "1", "--output", str(output))
    assert result.code == 1
    assert output.read_text() == "precious\n"
    assert sorted(tmp_path.iterdir()) == before


def test_output_file_permissions_are_normal_or_kept(run: Run, files: Files, tmp_path: Path) -> None:
    output = tmp_path / "scores.csv"
    assert run(*files("a", "a"), "--output", str(output)).code == 0
    mask = os.umask(0)
    os.umask(mask)
    assert output.stat().st_mode & 0o777 == 0o666 & ~mask
    output.chmod(0o640)
    assert run(*files("b", "b"), "--output", str(output)).code == 0
    assert output.stat().st_mode & 0o777 == 0o640


# ------------------------------------------------------------ interruptions


def test_ctrl_c_exits_130_and_keeps_existing_output(
    run: Run, files: Files, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(RougeScorer, "score_batch", interrupted)
    output = tmp_path / "scores.csv"
    output.write_text("precious\n")
    result = run(*files("a", "a"), "--output", str(output))
    assert result == (130, "", "kurenai: interrupted\n")
    assert output.read_text() == "precious\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.txt", "scores.csv", "t.txt"]


def test_broken_pipe_is_quiet(
    capsys: pytest.CaptureFixture[str], files: Files, monkeypatch: pytest.MonkeyPatch
) -> None:
    class ClosedPipe(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    dup2_calls: list[int] = []
    monkeypatch.setattr("sys.stdout", ClosedPipe())
    monkeypatch.setattr(os, "dup2", lambda fd, fd2: dup2_calls.append(fd2))
    monkeypatch.setattr(ClosedPipe, "fileno", lambda self: 99, raising=False)
    # 128 + SIGPIPE, as a shell reports a writer the pipe's end killed.
    assert cli.main(files("a", "a")) == 128 + 13
    assert capsys.readouterr().err == ""
    assert dup2_calls == [99]

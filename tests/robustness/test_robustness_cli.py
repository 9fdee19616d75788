"""The command line on damaged input and unusable output: one line, no traceback.

Each fault (a corrupt or truncated gzip body, a lone surrogate that reaches
the output, a closed stdout or stderr) ends the run with exit status 1 and one
line on stderr; an existing ``--output`` is left as it was and no temporary
file stays beside it.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_support import call_main

RECORDS = [{"id": f"r{i}", "target": "the cat sat", "prediction": "the cat"} for i in range(500)]
BODY = gzip.compress("".join(json.dumps(r) + "\n" for r in RECORDS).encode(), mtime=0)


def _flip(data: bytes, index: int) -> bytes:
    damaged = bytearray(data)
    damaged[index] ^= 0xFF
    return bytes(damaged)


# name -> damaged .jsonl.gz body, and the phrase its error names
DAMAGED: dict[str, tuple[Callable[[], bytes], str]] = {
    "deflate-block": (lambda: BODY[:10] + b"\xff" + BODY[11:], "invalid block type"),
    "crc": (lambda: _flip(BODY, len(BODY) - 6), "CRC check failed"),
    "truncated": (lambda: BODY[: len(BODY) // 2], "ended before the end-of-stream marker"),
    "not-gzip": (lambda: b'{"id": 1}\n', "Not a gzipped file"),
}


def _leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


@pytest.mark.parametrize("damage", sorted(DAMAGED))
def test_a_damaged_gzip_body_is_one_line_and_exit_1(
    backend: str, damage: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make, phrase = DAMAGED[damage]
    source = tmp_path / "pairs.jsonl.gz"
    source.write_bytes(make())
    output = tmp_path / "scores.csv"
    output.write_text("before\n")
    result = call_main(capsys, "--target-file", str(source), "--prediction-file", str(source),
                       "--output", str(output))  # fmt: skip
    assert result.code == 1
    assert result.err.count("\n") == 1 and phrase in result.err, result.err
    assert result.err.startswith(f"kurenai: error: cannot read {source}: ")
    assert result.out == ""
    assert output.read_text() == "before\n"
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("fmt", ["csv", "json", "jsonl"])
def test_a_lone_surrogate_in_an_id_is_one_line_and_exit_1(
    backend: str, fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "pairs.jsonl"
    lines = [json.dumps(r) for r in RECORDS[:3]]
    lines.append('{"id": "bad\\ud800", "target": "a b", "prediction": "a"}')
    source.write_text("\n".join(lines) + "\n")
    output = tmp_path / "scores.out"
    output.write_text("before\n")
    options = ["--id-field", "id", "--output-format", fmt, "--output", str(output)]
    result = call_main(capsys, "--target-file", str(source), "--prediction-file", str(source),
                       *options)  # fmt: skip
    assert result.code == 1
    assert result.err == (
        "kurenai: error: cannot write the output: U+D800 (a lone surrogate, "
        "from a JSON escape) has no utf-8 encoding\n"
    )
    assert output.read_text() == "before\n"
    assert _leftovers(tmp_path) == []


def test_a_lone_surrogate_in_a_text_separates_words(
    backend: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "pairs.jsonl"
    source.write_text('{"id": "x", "target": "a\\ud800 b", "prediction": "a\\udfff"}\n')
    result = call_main(capsys, "--target-file", str(source), "--prediction-file", str(source),
                       "--id-field", "id", "--rouge-types", "rouge1",
                       "--tokenizer", "unicode")  # fmt: skip
    assert result.code == 0, result.err
    assert result.out.splitlines()[1] == "x,1.000000,0.500000,0.666667"


def test_a_lone_surrogate_in_a_text_reaches_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("jinja2")
    pytest.importorskip("plotly")
    source = tmp_path / "pairs.jsonl"
    source.write_text('{"id": "x", "target": "a\\ud800 b", "prediction": "a\\udfff"}\n')
    page = tmp_path / "report.html"
    result = call_main(capsys, "--target-file", str(source), "--prediction-file", str(source),
                       "--report", str(page), "--output", str(tmp_path / "s.csv"))  # fmt: skip
    assert result.code == 0, result.err
    assert "a\\ud800 b" in page.read_text(encoding="utf-8")


def test_a_closed_stdout_in_process_is_one_line_and_exit_1(
    backend: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    source = tmp_path / "pairs.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in RECORDS[:3]))
    monkeypatch.setattr(sys, "stdout", None)  # what Python sets when fd 1 is closed
    code = call_main_without_stdout(source)
    assert code == 1
    assert capsys.readouterr().err == "kurenai: error: cannot write the output: stdout is closed\n"


def call_main_without_stdout(source: Path) -> int:
    from kurenai import cli

    return cli.main(["--target-file", str(source), "--prediction-file", str(source)])


def _run_with_closed(fd: int, source: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """``python -m kurenai ... N>&-`` on ``source``, this tree's kurenai."""
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    argv = [sys.executable, "-m", "kurenai", "--target-file", str(source),
            "--prediction-file", str(source), *extra]  # fmt: skip
    return subprocess.run(
        ["sh", "-c", f'"$@" {fd}>&-', "sh", *argv],
        capture_output=fd != 1 and fd != 2,
        stdout=subprocess.PIPE if fd == 2 else None,
        stderr=subprocess.PIPE if fd == 1 else None,
        text=True,
        env=env,
        timeout=120,
    )


def test_a_closed_stdout_in_a_process_is_one_line_and_exit_1(tmp_path: Path) -> None:
    source = tmp_path / "pairs.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in RECORDS))
    run = _run_with_closed(1, source)
    assert run.returncode == 1
    assert run.stderr == "kurenai: error: cannot write the output: stdout is closed\n"
    output = tmp_path / "scores.csv"
    run = _run_with_closed(1, source, "--output", str(output), "--quiet")
    assert (run.returncode, run.stderr) == (0, "")  # stdout is not needed then
    assert len(output.read_text().splitlines()) == len(RECORDS) + 1


def test_a_closed_stderr_keeps_messages_out_of_stdout(tmp_path: Path) -> None:
    source = tmp_path / "pairs.jsonl.gz"
    source.write_bytes(b"not gzip\n")
    run = _run_with_closed(2, source)
    assert (run.returncode, run.stdout) == (1, "")
    source.write_bytes(BODY)
    run = _run_with_closed(2, source, "--signature")
    assert run.returncode == 0
    assert run.stdout.count("\n") == len(RECORDS) + 1
    assert "kurenai" not in run.stdout

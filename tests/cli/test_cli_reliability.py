"""The command line never destroys a file, cleans up on signals, and fails in one line.

Each failure mode below has its regression test: the output file is an input, FIFOs and
devices, signals, bad options and input, an output directory, ``--jobs -1``, repeated files.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from cli_support import Result, Run, call_main, kurenai_command

from kurenai import cli

POSIX = pytest.mark.skipif(os.name == "nt", reason="POSIX files and signals")


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    def call(*argv: str) -> Result:
        result = call_main(capsys, *argv)
        if result.code not in (0, 3):
            assert result.err.count("\n") == 1, result.err
            assert result.err.startswith("kurenai: "), result.err
        assert "Traceback" not in result.err
        return result

    return call


@pytest.fixture
def pair(tmp_path: Path) -> tuple[Path, Path]:
    targets, predictions = tmp_path / "t.txt", tmp_path / "p.txt"
    targets.write_text("a b c\nd e\n")
    predictions.write_text("a b\nd\n")
    return targets, predictions


def files(pair: tuple[Path, Path]) -> list[str]:
    return ["--target-file", str(pair[0]), "--prediction-file", str(pair[1])]


@pytest.fixture
def no_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if the run gets as far as reading the inputs."""

    def fail(*args: object) -> None:
        raise AssertionError("the inputs were read")

    monkeypatch.setattr(cli, "count_records", fail)


# ------------------------------------------------------------ output is an input


@POSIX
@pytest.mark.parametrize("how", ["same", "symlink", "hardlink", "relative"])
def test_output_naming_an_input_is_refused_before_reading(
    run: Run, pair: tuple[Path, Path], how: str, no_reading: None, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    output = str(pair[1])
    if how == "symlink":
        output = str(tmp_path / "link.csv")
        os.symlink(pair[1], output)
    elif how == "hardlink":
        output = str(tmp_path / "hard.csv")
        os.link(pair[1], output)
    elif how == "relative":
        monkeypatch.chdir(tmp_path)
        output = "./p.txt"
    result = run(*files(pair), "--output", output)
    assert result.code == 1
    assert result.err == (
        f"kurenai: error: --output {output} is the input file {pair[1]}; refusing to replace it\n"
    )
    assert pair[1].read_text() == "a b\nd\n"


def test_output_naming_the_baseline_is_refused(
    run: Run, pair: tuple[Path, Path], no_reading: None
) -> None:
    result = run(*files(pair), "--baseline-file", str(pair[0]), "--output", str(pair[0]))
    assert result.code == 1
    assert pair[0].read_text() == "a b c\nd e\n"


# ------------------------------------------------------------ FIFOs and devices


@POSIX
def test_fifo_output_is_written_directly(run: Run, pair: tuple[Path, Path], tmp_path: Path) -> None:
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    result = run(*files(pair), "--rouge-types", "rouge1", "--output", str(fifo))
    reader.join(timeout=30)
    assert result.code == 0
    assert received[0].decode().startswith("id,rouge1-P,rouge1-R,rouge1-F\n0,")
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.fifo", "p.txt", "t.txt"]


@POSIX
def test_dev_null_output_stays_a_device(run: Run, pair: tuple[Path, Path]) -> None:
    result = run(*files(pair), "--output", os.devnull)
    assert (result.code, result.out) == (0, "")
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
    assert not [name for name in os.listdir("/dev") if name.startswith(".null.")]


# ------------------------------------------------------------ signals


@POSIX
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_signals_clean_up_and_keep_the_existing_output(tmp_path: Path, signum: int) -> None:
    targets = tmp_path / "t.txt"
    targets.write_text("a\nb\nc\n")
    output = tmp_path / "scores.csv"
    output.write_text("precious\n")
    child = subprocess.Popen(
        kurenai_command("--target-file", str(targets), "--prediction-file", "-",
                        "--chunk-size", "1", "--output", str(output)),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert child.stdin is not None
    child.stdin.write(b"a\n")
    child.stdin.flush()
    # Wait until the temporary file exists: the run is past its start, blocked on stdin.
    for _ in range(3000):
        if any(p.name.endswith(".tmp") for p in tmp_path.iterdir()):
            break
        threading.Event().wait(0.01)
    child.send_signal(signum)
    _, err = child.communicate(timeout=30)
    assert child.returncode == 128 + signum
    expected = "interrupted" if signum == signal.SIGINT else f"terminated by signal {signum}"
    assert err.decode() == f"kurenai: {expected}\n"
    assert output.read_text() == "precious\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scores.csv", "t.txt"]


def test_previous_signal_handlers_come_back(run: Run, pair: tuple[Path, Path]) -> None:
    before = signal.getsignal(signal.SIGTERM)
    assert run(*files(pair)).code == 0
    assert signal.getsignal(signal.SIGTERM) is before


# ------------------------------------------------------------ options and input


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--seed", "4294967296"], "--seed: expected an integer from 0 to 4294967295"),
        (["--seed", "-1"], "--seed: expected an integer from 0 to 4294967295"),
        (["--seed", "9" * 5000], "--seed: expected an integer from 0 to 4294967295, got '999"),
        (["--bootstrap-samples", "1000000000"], "expected an integer from 1 to 1000000, got"),
        (["--confidence-interval", "9" * 5000], "expected a number from 0 to 1"),
        (["--chunk-size", "1" * 5000], "--chunk-size: expected an integer >= 1"),
    ],
)
def test_options_are_checked_before_reading(
    run: Run, pair: tuple[Path, Path], options: list[str], message: str, no_reading: None
) -> None:
    result = run(*files(pair), "--use-aggregator", *options)
    assert result.code == 2
    assert message in result.err
    assert len(result.err) < 300


@pytest.mark.parametrize("parser", ["json", "orjson"])
@pytest.mark.parametrize(
    "line",
    [
        '{"target": ' + "[" * 100_000 + "]" * 100_000 + "}",
        '{"target": "a", "n": ' + "7" * 5000 + "}",
        '{"target": ' + "[" * 100_000,
        '{"target": "\\ud800", "prediction": 1e999999}',
    ],
    ids=["deep", "huge number", "deep unclosed", "surrogate"],
)
def test_hostile_jsonl_lines_are_one_line_errors(
    run: Run, tmp_path: Path, line: str, parser: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if parser == "json":
        monkeypatch.setenv("KURENAI_NO_ORJSON", "1")
    path = tmp_path / "r.jsonl"
    path.write_text('{"target": "a", "prediction": "a"}\n' + line + "\n")
    result = run("--target-file", str(path), "--prediction-file", str(path), "--quiet")
    assert result.code == 1
    assert result.err.startswith(f"kurenai: error: {path}: line 2: ")
    assert len(result.err) < 300


def test_deep_nesting_message_from_the_json_module(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KURENAI_NO_ORJSON", "1")
    path = tmp_path / "r.jsonl"
    path.write_text('{"target": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    result = run("--target-file", str(path), "--prediction-file", str(path))
    assert result.err == f"kurenai: error: {path}: line 1: JSON nested too deeply\n"
    # A number past Python's int digit limit is read (exactly), so the line is
    # refused for what it lacks, not for a member the run never uses.
    path.write_text('{"n": ' + "7" * 5000 + "}\n")
    result = run("--target-file", str(path), "--prediction-file", str(path))
    assert result.err == f"kurenai: error: {path}: line 1: no field 'target' (fields: 'n')\n"


# ------------------------------------------------------------ --output a directory


@pytest.mark.parametrize("where", ["directory", "missing parent"])
def test_output_directory_is_checked_up_front(
    run: Run, pair: tuple[Path, Path], tmp_path: Path, no_reading: None, where: str
) -> None:
    output = tmp_path if where == "directory" else tmp_path / "no" / "scores.csv"
    result = run(*files(pair), "--output", str(output))
    assert result.code == 1
    reason = "it is a directory" if where == "directory" else "No such file or directory"
    assert result.err == f"kurenai: error: cannot write --output {output}: {reason}\n"


# ------------------------------------------------------------ --jobs -1


def test_jobs_minus_one_means_all_cores(run: Run, pair: tuple[Path, Path]) -> None:
    assert run(*files(pair), "--jobs", "-1") == run(*files(pair))


# ------------------------------------------------------------ files named twice, empty files


def test_empty_file_given_twice_is_named_once(run: Run, tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    result = run("--target-file", str(empty), "--prediction-file", str(empty))
    assert result.err == f"kurenai: error: no records in {empty}\n"
    other = tmp_path / "other.txt"
    other.write_text("")
    result = run("--target-file", str(empty), "--prediction-file", str(other))
    assert result.err == f"kurenai: error: no records in {empty} and {other}\n"


def test_summary_line_at_the_end_unless_quiet(
    capsys: pytest.CaptureFixture[str], pair: tuple[Path, Path]
) -> None:
    assert cli.main([*files(pair), "--signature"]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith("kurenai: 2 records in ") and lines[0].endswith(" records/s)")
    assert lines[1].startswith("rouge:")  # the signature, last
    assert cli.main([*files(pair), "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_summary_line_in_a_subprocess(pair: tuple[Path, Path]) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "kurenai", *files(pair), "--aggregate", "mean"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0
    assert result.stderr.startswith("kurenai: 2 records in ")
    assert json.dumps(result.stdout.splitlines()[0]) == '"score_type,mean"'

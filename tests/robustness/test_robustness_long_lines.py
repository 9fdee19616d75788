"""Hostile lines in bounded memory: the audit's three, scaled down.

A gzip of hundreds of megabytes of NUL bytes (one line, a few hundred
kilobytes on disk), a JSONL field of hundreds of megabytes, and as long a
line on stdin with ``--max-chars 1000``: each run ends in one line (an error
naming the line, or the record null), and its peak memory stays within a
few blocks of a run on a tiny corpus (the line is never held whole).  The
audit's sizes (10 GB, 3 GB, 1 GB) differ only in the time to make them.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest
from rss import MIB, maxrss_bytes

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="resource.getrusage"),
]

SIZE = 300 * MIB  # the hostile line
BOUND = 1 * MIB  # --max-line-bytes
# The command line, then its own peak RSS on stderr's last line.
PEAK = (
    "import resource, sys\n"
    "from kurenai.cli import main\n"
    "code = main(sys.argv[1:])\n"
    "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
    "sys.exit(code)\n"
)


def _run(argv: list[str], stdin: Path | None = None) -> tuple[int, str, str, float]:
    """Exit code, stdout, stderr (without the peak) and the peak in MiB."""
    with open(stdin or "/dev/null", "rb") as source:
        done = subprocess.run(
            [sys.executable, "-c", PEAK, *argv],
            stdin=source,
            capture_output=True,
            text=True,
            timeout=300,
        )
    *lines, peak = done.stderr.splitlines()
    return (
        done.returncode,
        done.stdout,
        "".join(f"{line}\n" for line in lines),
        (maxrss_bytes(int(peak)) / MIB),
    )


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, float]:
    """Three short records, and the peak of scoring them."""
    path = tmp_path_factory.mktemp("tiny") / "t.txt"
    path.write_text("a b\nx y\nc d\n")
    code, _, err, peak = _run(["--target-file", str(path), "--prediction-file", str(path)])
    assert code == 0, err
    return path, peak


def _within(peak: float, tiny_peak: float) -> None:
    assert peak < tiny_peak + 48, f"peak {peak:.0f} MiB, a tiny run's {tiny_peak:.0f} MiB"


def test_a_gzip_of_nul_bytes_is_refused_in_bounded_memory(
    tiny: tuple[Path, float], tmp_path: Path
) -> None:
    path = tmp_path / "p.txt.gz"
    with gzip.open(path, "wb", compresslevel=1) as stream:
        stream.write(b"a b\n")
        for _ in range(SIZE // MIB):
            stream.write(bytes(MIB))
        stream.write(b"\nc d\n")
    code, out, err, peak = _run(
        [
            "--target-file",
            str(tiny[0]),
            "--prediction-file",
            str(path),
            "--max-line-bytes",
            str(BOUND),
        ]
    )
    assert (code, out) == (1, "")
    assert (
        err == f"kurenai: error: {path}: line 2: longer than {BOUND:,} bytes (--max-line-bytes)\n"
    )
    _within(peak, tiny[1])


def test_a_huge_jsonl_field_on_stdin_is_refused_in_bounded_memory(
    tiny: tuple[Path, float], tmp_path: Path
) -> None:
    path = tmp_path / "d.jsonl"
    with open(path, "wb") as stream:
        stream.write(json.dumps({"target": "a b", "prediction": "a"}).encode() + b"\n")
        stream.write(b'{"target": "x y", "prediction": "')
        for _ in range(SIZE // MIB):
            stream.write(b"x" * MIB)
        stream.write(b'"}\n')
    for argv in (
        ["--max-line-bytes", str(BOUND)],
        ["--max-line-bytes", str(BOUND), "--max-chars", "1000"],
    ):
        code, out, err, peak = _run(
            ["--target-file", "-", "--prediction-file", "-", "--format", "jsonl", *argv], stdin=path
        )
        assert (code, out) == (1, "")
        assert (
            err == f"kurenai: error: <stdin>: line 2: longer than {BOUND:,} bytes "
            "(--max-line-bytes)\n"
        )
        _within(peak, tiny[1])


def test_a_huge_line_on_stdin_over_max_chars_is_null_in_bounded_memory(
    tiny: tuple[Path, float], tmp_path: Path
) -> None:
    # Not refused (whatever --max-line-bytes): over --max-chars anyway, it is
    # kept only to what the limit needs and the rest is skipped unread.
    path = tmp_path / "p.txt"
    with open(path, "wb") as stream:
        stream.write(b"a b\n")
        for _ in range(SIZE // MIB):
            stream.write("é".encode() * (MIB // 2))
        stream.write(b"\nc d\n")
    code, out, err, peak = _run(
        [
            "--target-file",
            str(tiny[0]),
            "--prediction-file",
            "-",
            "--max-chars",
            "1000",
            "--rouge-types",
            "rouge1",
        ],
        stdin=path,
    )
    assert code == 0, err
    assert out.splitlines()[2] == "1,,,"
    assert "1 records over --max-tokens or --max-chars" in err
    _within(peak, tiny[1])

"""A line is bounded while it is read, before it is held whole (``--max-line-bytes``).

The generated family: files of lines of any length (plain text, JSONL, CSV,
gzip, stdin), read in tiny blocks so that lines span many of them; the run
refuses the first line over ``--max-line-bytes`` with one line naming it, as
a naive reading of the file finds it, or gives exactly the output of the run
without the bound.  Plain text with ``--max-chars`` is never refused: a line
longer than the limit allows is kept only to its bound, skipped unread, and
scores null as any record over the limit.  ``tests/robustness`` holds the
memory to the bound on lines of hundreds of megabytes.
"""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

import pytest
from cli_support import call_main
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kurenai.cli import _sources

WORDS = ["the", "cat", "sat", "on", "a", "mat", "é", "猫", "dog"]


def _text(seed: int, size: int) -> str:
    return " ".join(WORDS[(seed * 7 + i) % len(WORDS)] for i in range(size))


def _lines(fmt: str, sizes: list[int]) -> list[bytes]:
    """The file's physical lines (without their newlines): header first for CSV."""
    if fmt == "text":
        return [_text(k, n).encode() for k, n in enumerate(sizes)]
    if fmt == "jsonl":
        return [
            json.dumps(
                {"target": _text(k, n), "prediction": _text(k + 1, 3)}, ensure_ascii=k % 2 == 0
            ).encode()
            for k, n in enumerate(sizes)
        ]
    return [b"target,prediction"] + [
        f"{_text(k, n)},{_text(k + 1, 3)}".encode() for k, n in enumerate(sizes)
    ]


def _run(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    path: Path,
    data: bytes,
    stdin: bool,
    argv: list[str],
) -> tuple[int, str, str]:
    if stdin:
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    name = "-" if stdin else str(path)
    result = call_main(capsys, "--target-file", name, "--prediction-file", name, *argv)
    return result.code, result.out, result.err


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    fmt=st.sampled_from(["text", "jsonl", "csv"]),
    sizes=st.lists(st.integers(0, 120), min_size=1, max_size=12),
    max_line=st.integers(1, 400),
    block=st.sampled_from([1, 7, 64, 1 << 18]),
    max_chars=st.one_of(st.none(), st.integers(0, 200)),
    compressed=st.booleans(),
    stdin=st.booleans(),
    final_newline=st.booleans(),
)
def test_a_line_over_the_bound_is_refused_as_it_is_read(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path_factory: pytest.TempPathFactory,
    fmt: str,
    sizes: list[int],
    max_line: int,
    block: int,
    max_chars: int | None,
    compressed: bool,
    stdin: bool,
    final_newline: bool,
) -> None:
    if fmt == "text":
        sizes = [max(1, n) for n in sizes]  # a blank line of text is a record too; keep it simple
    lines = _lines(fmt, sizes)
    data = b"\n".join(lines) + (b"\n" if final_newline else b"")
    stdin = stdin and not compressed and fmt != "text"  # one side only of text on stdin
    path = tmp_path_factory.mktemp("long") / f"d.{fmt}{'.gz' if compressed else ''}"
    path.write_bytes(gzip.compress(data) if compressed else data)
    argv = ["--format", fmt, "--rouge-types", "rouge1", "--output-format", "jsonl", "--quiet"]
    if fmt != "text":
        argv += ["--target-field", "target", "--prediction-field", "prediction"]
    if max_chars is not None:
        argv += ["--max-chars", str(max_chars)]
    expected = _run(capsys, monkeypatch, path, data, stdin, argv)  # the bound far away
    monkeypatch.setattr(_sources, "_BLOCK_BYTES", block)
    found = _run(capsys, monkeypatch, path, data, stdin, [*argv, "--max-line-bytes", str(max_line)])
    over = [k for k, line in enumerate(lines, 1) if len(line) > max_line]
    if over and not (fmt == "text" and max_chars is not None and _cut_applies(max_chars, max_line)):
        name = "<stdin>" if stdin else str(path)
        assert found == (
            1,
            "",
            f"kurenai: error: {name}: line {over[0]}: longer than "
            f"{max_line:,} bytes (--max-line-bytes)\n",
        )
    else:
        assert found == expected


def _cut_applies(max_chars: int, max_line: int) -> bool:
    """Whether lines of plain text are cut (not refused): see ``line_limits``."""
    return _sources.line_limits("text", max_line, max_chars)[1] is not None


def test_a_cut_line_keeps_whole_characters_and_scores_null(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # 4 (N + 1) + 4 bytes of 2-byte characters end inside one: the cut steps back.
    monkeypatch.setattr(_sources, "_BLOCK_BYTES", 16)
    path = tmp_path / "t.txt"
    path.write_text("a b\n" + "é" * 5000 + "\nc d\n")
    result = call_main(
        capsys,
        "--target-file",
        str(path),
        "--prediction-file",
        str(path),
        "--max-chars",
        "10",
        "--rouge-types",
        "rouge1",
    )
    assert result.code == 0, result.err
    assert result.out.splitlines()[1:] == [
        "0,1.000000,1.000000,1.000000",
        "1,,,",
        "2,1.000000,1.000000,1.000000",
    ]
    source = _sources.Source(str(path), "text", "", max_line=1 << 20, cut=45)
    blocks = b"".join(_sources.raw_blocks(source)).split(b"\n")
    assert blocks[1] == "é".encode() * 22  # 44 bytes: whole characters only


@pytest.mark.parametrize("block", [64, 1 << 18])
def test_a_last_line_without_a_newline_is_bounded_too(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, block: int
) -> None:
    path = tmp_path / "d.txt"
    path.write_bytes("the\n猫 dog".encode())  # the last line (7 bytes) has no newline
    monkeypatch.setattr(_sources, "_BLOCK_BYTES", block)
    found = _run(capsys, monkeypatch, path, b"", False, ["--quiet", "--max-line-bytes", "3"])
    assert found == (
        1,
        "",
        f"kurenai: error: {path}: line 2: longer than 3 bytes (--max-line-bytes)\n",
    )

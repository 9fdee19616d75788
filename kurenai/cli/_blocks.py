"""The rows of a source a block at a time: what :func:`~kurenai.cli._sources.rows`
gives, as lists.

:func:`row_blocks` reads a file in blocks of whole lines (a few hundred
kilobytes, so memory does not grow with the file) and gives each block's
rows as one list, with their line numbers: a block of plain text is decoded
and split at once, a block of JSONL whose objects are string members only
(no escapes) read into columns of the fields asked for by
``kurenai._records.simple_columns``, without a JSON parser (:class:`ColumnRows`),
any other block of JSONL parsed with one ``map``; a block that
holds anything unusual (a blank line, a line the fast parser refuses, bytes
that are no UTF-8) goes through :mod:`~kurenai.cli._sources`'s per-line
readers, which give the same rows and the same messages.  CSV and TSV rows
come from the csv module, grouped.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator, Sequence
from typing import Callable, cast, overload

from kurenai import _backend
from kurenai.cli._sources import (
    Row,
    Source,
    _csv_rows,
    _decoded,
    _json_row,
    _orjson_loads,
    raw_blocks,
)

__all__ = ["ColumnRows", "RowBlock", "joined", "row_blocks"]

# (line numbers, rows) of consecutive records.
RowBlock = tuple[Sequence[int], Sequence[Row]]
_CSV_ROWS = 4096
_BOM = b"\xef\xbb\xbf"


class ColumnRows(Sequence[Row]):
    """JSONL rows held as columns: ``columns[i][r]`` is the text of
    ``fields[i]`` in row ``r``.  As a sequence, each row is the dict of the
    fields (the only ones its reader asked for); :meth:`column` gives a
    field's texts as a list, without making the dicts."""

    def __init__(self, fields: tuple[str, ...], columns: list[list[str]]) -> None:
        self.fields, self.columns = fields, columns

    def column(self, field: str) -> list[str]:
        """The texts of ``field`` (one of ``fields``), a new list."""
        return list(self.columns[self.fields.index(field)])

    def __len__(self) -> int:
        return len(self.columns[0])

    @overload
    def __getitem__(self, index: int) -> Row: ...

    @overload
    def __getitem__(self, index: slice) -> ColumnRows: ...

    def __getitem__(self, index: int | slice) -> Row | ColumnRows:
        if isinstance(index, slice):
            return ColumnRows(self.fields, [column[index] for column in self.columns])
        return {field: column[index] for field, column in zip(self.fields, self.columns)}

    def __iter__(self) -> Iterator[Row]:
        for values in zip(*self.columns):
            yield dict(zip(self.fields, values))


def joined(first: Sequence[Row], second: Sequence[Row]) -> Sequence[Row]:
    """The rows of ``first`` then those of ``second``."""
    if (
        isinstance(first, ColumnRows)
        and isinstance(second, ColumnRows)
        and first.fields == second.fields
    ):
        return ColumnRows(first.fields, [a + b for a, b in zip(first.columns, second.columns)])
    return [*first, *second]


def row_blocks(source: Source, fields: tuple[str, ...] = ()) -> Iterator[RowBlock]:
    """The (line number, row) pairs of ``rows(source)``, a block at a time.

    ``fields``: the fields of JSONL objects the caller reads; given, a block
    of simple objects that all have them comes as :class:`ColumnRows`."""
    if source.fmt == "jsonl":
        return _json_blocks(source, fields)
    if source.fmt in ("csv", "tsv"):
        return _grouped(_csv_rows(source))
    return _text_blocks(source)


# ------------------------------------------------------------ reading


def _text_blocks(source: Source) -> Iterator[RowBlock]:
    number = 1  # of the block's first line
    for block in raw_blocks(source):
        try:
            text = block.decode("utf-8")
        except UnicodeDecodeError:
            yield from _grouped(_lines_of(source, number, block))
            number += block.count(b"\n") + (not block.endswith(b"\n"))
            continue
        lines = text.split("\n")
        if text.endswith("\n"):
            lines.pop()
        if number == 1 and lines[0].startswith("\ufeff"):
            lines[0] = lines[0][1:]  # a byte-order mark would stick to the first token
        yield range(number, number + len(lines)), cast("list[Row]", lines)
        number += len(lines)


def _lines_of(source: Source, number: int, block: bytes) -> Iterator[tuple[int, Row]]:
    """The block's lines one by one, as ``_sources._lines`` reads them: the
    first that is no UTF-8 raises its CliError."""
    raws = block.split(b"\n")
    if block.endswith(b"\n"):
        raws.pop()
    for offset, raw in enumerate(raws):
        line = _decoded(source, number + offset, raw)
        yield number + offset, line[1:] if number + offset == 1 and line[:1] == "\ufeff" else line


def _json_blocks(source: Source, fields: tuple[str, ...]) -> Iterator[RowBlock]:
    fast = _orjson_loads()
    number = 1  # of the block's first line
    for block in raw_blocks(source):
        body = block[3:] if number == 1 and block.startswith(_BOM) else block
        columns = _backend.records.simple_columns(body, fields) if fields and body else None
        rows: Sequence[Row] | None = _parsed(body, fast) if columns is None else None
        if columns is not None:
            rows = ColumnRows(fields, columns)
        if rows is not None:  # one per line
            yield range(number, number + len(rows)), rows
            number += len(rows)
        else:
            yield from _grouped(_json_lines_of(source, number, block, fast))
            number += block.count(b"\n") + (not block.endswith(b"\n"))


def _parsed(block: bytes, fast: Callable[[bytes], object] | None) -> list[Row] | None:
    """Every line's object, or None if a line is blank, is refused by the
    parser or is no object: the per-line reader then decides."""
    lines = block.split(b"\n")
    if block.endswith(b"\n"):
        lines.pop()
    try:
        if fast is not None:
            rows = list(map(fast, lines))
        else:
            rows = list(map(json.loads, block.decode("utf-8").split("\n")[: len(lines)]))
    except Exception:  # any refusal: the per-line reader gives the verdict
        return None
    return cast("list[Row]", rows) if set(map(type, rows)) == {dict} else None


def _json_lines_of(
    source: Source, number: int, block: bytes, fast: Callable[[bytes], object] | None
) -> Iterator[tuple[int, Row]]:
    """The block's objects line by line, as ``_sources._json_objects`` reads them."""
    raws = block.split(b"\n")
    last = raws.pop()  # b"" after a final newline, else the file's last line
    for offset, raw in enumerate(raws):
        row = _json_row(source, number + offset, raw + b"\n", fast)
        if row is not None:
            yield number + offset, row
    if last:
        row = _json_row(source, number + len(raws), last, fast)
        if row is not None:
            yield number + len(raws), row


def _grouped(pairs: Iterator[tuple[int, Row]]) -> Iterator[RowBlock]:
    """(number, row) pairs gathered into blocks."""
    while group := list(itertools.islice(pairs, _CSV_ROWS)):
        numbers, rows = zip(*group)
        yield list(numbers), list(rows)

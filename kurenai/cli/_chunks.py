"""The command line's records a chunk at a time, as columns.

:func:`read_chunks` gives what :func:`~kurenai.cli._io.read_records` gives,
``size`` records at a time, as lists: the targets, the predictions, the
baseline's predictions and the ids.  Each file is read in blocks
(:mod:`~kurenai.cli._blocks`) and each column taken from a chunk's rows with
one pass of C loops; a chunk holding anything else than a string in a text
field or a string or integer id (a list of references, a missing field, ids
out of step) is built record by record with :mod:`~kurenai.cli._io`'s own
helpers, which give the same records and raise the same errors.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NamedTuple, cast

from kurenai.cli._blocks import ColumnRows, RowBlock, joined, row_blocks
from kurenai.cli._io import (
    Record,
    RecordId,
    Sides,
    Target,
    _count_error,
    _files,
    _record_id,
    _target_getter,
    _text_getter,
    unescape_newlines,
)
from kurenai.cli._sources import Row, Source

__all__ = ["Chunk", "chunked", "read_chunks"]

_ID_TYPES = {str, int}


class Chunk(NamedTuple):
    """Consecutive records as columns; ``baselines`` and ``ids`` are None
    when the run has no baseline or no ids."""

    targets: list[Target]
    predictions: list[str]
    baselines: list[str] | None
    ids: list[RecordId] | None


def read_chunks(sides: Sides, size: int) -> Iterator[Chunk]:
    """Every record, ``size`` at a time (never an empty chunk), in order.
    Raises CliError as :func:`~kurenai.cli._io.read_records` does."""
    sources = sides.all
    files = _files(sources)
    buffers = [_Buffer(row_blocks(group[0], _fields(group))) for group in files]
    where = {id(source): i for i, group in enumerate(files) for source in group}
    reads = [where[id(source)] for source in sources]
    done = 0
    while True:
        taken = [buffer.take(size) for buffer in buffers]
        lengths = [len(rows) for _, rows in taken]
        if min(lengths) != max(lengths):
            # The records both sides have come first, with their own errors.
            _slow(sources, reads, [(n[: min(lengths)], r[: min(lengths)]) for n, r in taken])
            counts = [done + n + buffer.drain() for n, buffer in zip(lengths, buffers)]
            raise _count_error(files, counts)
        if not lengths[0]:
            return
        found = [taken[i] for i in reads]
        yield _fast(sources, found) or _slow(sources, reads, taken)
        done += lengths[0]


def _fields(group: list[Source]) -> tuple[str, ...]:
    """The fields the sides read from one file: its rows need no others."""
    names = (name for s in group for name in (s.field, s.id_field) if name is not None)
    return tuple(dict.fromkeys(names))


def chunked(records: Iterable[Record], size: int) -> Iterator[Chunk]:
    """``records`` as chunks of ``size``."""
    iterator = iter(records)
    while chunk := list(itertools.islice(iterator, size)):
        ids = None if chunk[0].id is None else [r.id for r in chunk]
        baselines = None if chunk[0].baseline is None else [r.baseline or "" for r in chunk]
        yield Chunk([r.target for r in chunk], [r.prediction for r in chunk], baselines, ids)


# ------------------------------------------------------------ columns


def _fast(sources: list[Source], found: list[RowBlock]) -> Chunk | None:
    """The chunk's columns, or None if a record needs a closer look."""
    columns = []
    for source, (_, rows) in zip(sources, found):
        column = _texts(source, rows)
        if column is None:
            return None
        columns.append(column)
    ids = None
    if any(source.id_field is not None for source in sources):
        ids = _ids([(s, rows) for s, (_, rows) in zip(sources, found) if s.id_field is not None])
        if ids is None:
            return None
    baselines = columns[2] if len(columns) > 2 else None
    return Chunk(list(columns[0]), columns[1], baselines, ids)


def _texts(source: Source, rows: Sequence[Row]) -> list[str] | None:
    """The side's texts, if every row gives a string."""
    if isinstance(rows, ColumnRows):  # strings, every one
        return rows.column(source.field)
    if not source.structured:  # lines, always strings
        lines = cast("list[str]", rows)
        return list(map(unescape_newlines, lines)) if source.escapes else lines
    try:
        values = list(map(operator.itemgetter(source.field), rows))
    except (KeyError, TypeError):
        return None
    return values if set(map(type, values)) == {str} else None


def _ids(sides: list[tuple[Source, Sequence[Row]]]) -> list[RecordId] | None:
    """The records' ids, if each side has a string or integer one and they agree."""
    found: list[list[Any]] = []
    for source, rows in sides:
        if isinstance(rows, ColumnRows) and source.id_field is not None:
            found.append(rows.column(source.id_field))
            continue
        try:
            values = list(map(operator.itemgetter(source.id_field), rows))
        except (KeyError, TypeError):
            return None
        if not set(map(type, values)) <= _ID_TYPES:
            return None
        found.append(values)
    return found[0] if all(values == found[0] for values in found[1:]) else None


def _slow(sources: list[Source], reads: list[int], taken: Sequence[RowBlock]) -> Chunk:
    """The chunk record by record, with read_records's checks and messages."""
    getters: list[Any] = [_target_getter(sources[0]), *map(_text_getter, sources[1:])]
    with_ids = [source.id_field is not None for source in sources]
    columns: list[list[Any]] = [[] for _ in sources]
    ids: list[RecordId] = []
    for current in zip(*(zip(numbers, rows) for numbers, rows in taken)):
        found = [current[i] for i in reads]
        for column, get, row in zip(columns, getters, found):
            column.append(get(*row))
        if any(with_ids):
            ids.append(_record_id(sources, found, with_ids))
    baselines = columns[2] if len(columns) > 2 else None
    return Chunk(columns[0], columns[1], baselines, ids if any(with_ids) else None)


class _Buffer:
    """The rows of one file, taken ``n`` at a time across its blocks."""

    def __init__(self, blocks: Iterator[RowBlock]) -> None:
        self._blocks = blocks
        self._numbers: Sequence[int] = []
        self._rows: Sequence[Row] = []
        self._start = 0

    def take(self, n: int) -> RowBlock:
        """The next ``n`` rows (fewer at the end of the file)."""
        while len(self._rows) - self._start < n:
            block = next(self._blocks, None)
            if block is None:
                break
            self._keep(block)
        start, stop = self._start, self._start + n
        self._start = min(stop, len(self._rows))
        return self._numbers[start:stop], self._rows[start:stop]

    def drain(self) -> int:
        """How many rows are left; reads them all."""
        left = len(self._rows) - self._start
        self._rows, self._numbers, self._start = [], [], 0
        return left + sum(len(rows) for _, rows in self._blocks)

    def _keep(self, block: RowBlock) -> None:
        numbers, rows = block
        start = self._start
        if start >= len(self._rows):  # nothing left of the last block
            self._numbers, self._rows = numbers, rows
        else:
            kept = self._numbers[start:]
            if (
                isinstance(kept, range)
                and isinstance(numbers, range)
                and kept.stop == numbers.start
            ):
                self._numbers = range(kept.start, numbers.stop)
            else:
                self._numbers = [*kept, *numbers]
            self._rows = joined(self._rows[start:], rows)
        self._start = 0

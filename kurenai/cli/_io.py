"""The command line's records: targets, predictions (and a baseline) in lockstep.

Each side is a :class:`~kurenai.cli._sources.Source`; a file that gives
several sides (targets and predictions from one JSONL file, or stdin) is
read once.  :func:`read_records` streams :class:`Record` objects in order and
raises :class:`CliError` as soon as the sides disagree on the number of
records or a record lacks what it needs, naming the file and line.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple, Union, cast

from kurenai.cli._sources import CliError, Row, Source, count, ends_blank, rows

__all__ = [
    "CliError",
    "Record",
    "Sides",
    "Target",
    "count_records",
    "read_records",
    "unescape_newlines",
]

Target = Union[str, list[str]]
RecordId = Union[str, int, None]


@dataclass(frozen=True)
class Sides:
    """The sources of a run: targets, predictions and an optional baseline."""

    targets: Source
    predictions: Source
    baseline: Source | None = None

    @property
    def all(self) -> list[Source]:
        """Every source, targets first."""
        return [s for s in (self.targets, self.predictions, self.baseline) if s is not None]

    def describe(self) -> str:
        """The distinct file names, for messages: ``a.txt and b.txt``."""
        names = list(dict.fromkeys(source.name for source in self.all))
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class Record(NamedTuple):
    """One record: its target(s), prediction, baseline prediction and id."""

    target: Target
    prediction: str
    baseline: str | None
    id: RecordId


def unescape_newlines(text: str) -> str:
    r"""Turn the two-character escape ``\n`` into a newline and ``\\`` into ``\``.

    >>> unescape_newlines(r"one.\ntwo \\n")
    'one.\ntwo \\n'
    """
    if "\\\\" not in text:  # no escaped backslash: every \n is a newline
        return text.replace("\\n", "\n") if "\\" in text else text
    # Split at escaped backslashes (left to right, as a scan would), then the
    # \n left in each piece are newlines: string methods, no per-match callback.
    return "\\".join(piece.replace("\\n", "\n") for piece in text.split("\\\\"))


def read_records(sides: Sides) -> Iterator[Record]:
    """Every record, streamed in order.  Raises CliError if the files hold
    different numbers of records or a record lacks a field."""
    sources = sides.all
    files = _files(sources)
    readers = [rows(group[0]) for group in files]
    where = {id(source): i for i, group in enumerate(files) for source in group}
    # Per side: the reader it takes its row from, and what it takes from it.
    reads = [where[id(source)] for source in sources]
    getters = [_target_getter(sides.targets), *map(_text_getter, sources[1:])]
    with_ids = [source.id_field is not None for source in sources]
    any_ids = any(with_ids)
    end = object()
    if len(sources) == 2 and not any_ids:
        yield from _pairs(readers, getters, files)
        return
    for done, current in enumerate(itertools.zip_longest(*readers, fillvalue=end)):
        if end in current:
            counts = [
                done + (row is not end) + sum(1 for _ in r) for row, r in zip(current, readers)
            ]
            raise _count_error(files, counts)
        found = [current[i] for i in reads]
        values = [get(*row) for get, row in zip(getters, found)]  # type: ignore[misc]
        record_id = _record_id(sources, found, with_ids) if any_ids else None
        baseline = cast(str, values[2]) if len(values) > 2 else None
        yield Record(values[0], cast(str, values[1]), baseline, record_id)


def _pairs(
    readers: list[Iterator[tuple[int, Row]]], getters: list[Any], files: list[list[Source]]
) -> Iterator[Record]:
    """The usual case, fast: targets and predictions, no ids, no baseline."""
    get_target, get_prediction = getters
    if len(readers) == 1:  # both fields of one file
        for number, row in readers[0]:
            yield Record(get_target(number, row), get_prediction(number, row), None, None)
        return
    end = (0, None)
    for done, (target, prediction) in enumerate(itertools.zip_longest(*readers, fillvalue=end)):
        if target is end or prediction is end:
            drained = [done + (row is not end) + sum(1 for _ in r) for row, r in
                       zip((target, prediction), readers)]  # fmt: skip
            raise _count_error(files, drained)
        yield Record(get_target(*target), get_prediction(*prediction), None, None)


def count_records(sides: Sides, for_progress: bool) -> int | None:
    """The number of records, counted before scoring, or None for a stream.

    Counting first reports a count mismatch or an empty input before any
    output, and gives the progress display its total; a single file is not
    counted unless ``for_progress``.  Raises CliError.
    """
    files = _files(sides.all)
    if len(files) == 1 and not for_progress:
        return None
    counts = [count(group[0]) for group in files]
    known = [(group, n) for group, n in zip(files, counts) if n is not None]
    if len({n for _, n in known}) > 1:
        raise _count_error([g for g, _ in known], [n for _, n in known])
    return None if None in counts else counts[0]


# ------------------------------------------------------------ fields


def _record_id(sources: list[Source], found: list[Any], with_ids: list[bool]) -> RecordId:
    """The record's id, the same in every file that has one."""
    ids = [_id(source, *row) for source, row, wanted in zip(sources, found, with_ids) if wanted]
    if any(value != ids[0] for value in ids[1:]):
        given = " but ".join(
            f"{source.name} line {row[0]} has id {value!r}"
            for source, row, value in zip([s for s in sources if s.id_field], found, ids)
        )
        raise CliError(f"records out of step: {given}")
    return ids[0] if ids else None


def _target_getter(source: Source) -> Callable[[int, Row], Target]:
    field = source.field

    def get(number: int, row: Row) -> Target:
        if type(row) is dict:
            value = row.get(field)
            if type(value) is str:
                return value
        return _target(source, number, row)

    return get


def _text_getter(source: Source) -> Callable[[int, Row], str]:
    """What takes the text out of a row of ``source``, quickly in the usual case."""
    field = source.field

    def line(number: int, row: Row) -> str:
        return cast(str, row)

    def get(number: int, row: Row) -> str:
        value = cast("dict[str, object]", row).get(field)
        return value if type(value) is str else _text(source, number, row)

    def escaped(number: int, row: Row) -> str:
        return _text(source, number, row)

    if not source.structured:
        return escaped if source.escapes else line
    return get


def _target(source: Source, number: int, row: Row) -> Target:
    """The reference, or the non-empty list of references (JSONL)."""
    if isinstance(row, dict):
        value = row.get(source.field)
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            return value
    return _text(source, number, row, "a string or a non-empty list of strings")


def _text(source: Source, number: int, row: Row, wanted: str = "a string") -> str:
    if isinstance(row, str):
        return unescape_newlines(row) if source.escapes else row
    value = row.get(source.field)
    if isinstance(value, str):
        return value
    where = f"{source.name}: line {number}"
    if source.field not in row:
        fields = ", ".join(map(repr, row)) or "none"
        raise CliError(f"{where}: no field {source.field!r} (fields: {fields})")
    raise CliError(f"{where}: field {source.field!r} must be {wanted}")


def _id(source: Source, number: int, row: Row) -> RecordId:
    if not isinstance(row, dict) or source.id_field is None:
        return None
    if source.id_field not in row:
        fields = ", ".join(map(repr, row)) or "none"
        raise CliError(
            f"{source.name}: line {number}: no id field {source.id_field!r} (fields: {fields})"
        )
    value = row[source.id_field]
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise CliError(
            f"{source.name}: line {number}: id field {source.id_field!r} must be "
            "a string or an integer"
        )
    return value


# ------------------------------------------------------------ files


def _files(sources: Sequence[Source]) -> list[list[Source]]:
    """The sources grouped by the file (and format) they read, in order."""
    groups: dict[object, list[Source]] = {}
    for source in sources:
        groups.setdefault((_identity(source.path), source.fmt), []).append(source)
    return list(groups.values())


def _identity(path: str) -> object:
    try:
        info = os.stat(path) if path != "-" else None
    except OSError:
        return os.path.abspath(path)
    return "-" if info is None else (info.st_dev, info.st_ino)


def _count_error(files: list[list[Source]], counts: list[int]) -> CliError:
    first = counts[0]
    other = next(i for i, n in enumerate(counts) if n != first)
    message = (
        f"{files[0][0].name} has {first} records but {files[other][0].name} has {counts[other]}"
    )
    longer = files[0 if first > counts[other] else other][0]
    if abs(first - counts[other]) == 1 and ends_blank(longer):
        message += (
            f"; {longer.name} ends with a blank line, which is a record of its own: "
            "most likely the reason"
        )
    return CliError(message)

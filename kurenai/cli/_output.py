"""The command line's output formats: one table, ``FORMATS``, name -> writers.

Each format has a *record* writer, which streams per-record scores as they
arrive (a :class:`Block` at a time: one float64 array, types x
precision/recall/F x records, and the records' ids, so memory does not grow
with the file), a *corpus* writer, which writes a corpus report (mean,
bootstrap intervals, comparison: a :class:`Corpus`) at the end, and a
*leaderboard* writer (``--systems``: ``kurenai.report``'s ``Leaderboard``).
The ``--output-format`` choices are the table's names; a new format is one
entry.

The measures' order is rouge-score's: per-record columns are precision,
recall, F (``rouge_score/io.py``'s per-record CSV, and ``Score``'s fields);
a corpus table's rows are recall, precision, F per type (its aggregate CSV,
which kurenai 0.1.0's ``--use-aggregator`` printed too).  JSON names them,
in ``Score``'s order.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from json.encoder import encode_basestring  # json.dumps's quoting, with ensure_ascii=False
from typing import IO, TYPE_CHECKING, Any, Callable, NamedTuple, Protocol, Union

import numpy as np
import numpy.typing as npt

from kurenai import _backend
from kurenai._core.plan import SCORE_FIELDS
from kurenai.cli._floats import fixed6_rows, json_floats
from kurenai.cli._sources import CliError

if TYPE_CHECKING:  # kurenai.report loads only for a leaderboard
    from kurenai.report import Leaderboard

__all__ = [
    "CORPUS_COLUMNS",
    "FORMATS",
    "MEASURE_COLUMNS",
    "Block",
    "Corpus",
    "OutputFormat",
    "Report",
    "output_format",
    "record_report",
    "write_corpus",
    "write_leaderboard",
]

# (column letter, Score field), in the order of the block's second axis.
MEASURE_COLUMNS = tuple(zip(("P", "R", "F"), SCORE_FIELDS))
# A corpus table's rows per type, as rouge-score's aggregate CSV writes them:
# (position in MEASURE_COLUMNS, column letter, Score field).
CORPUS_COLUMNS = tuple((m, *MEASURE_COLUMNS[m]) for m in (1, 0, 2))
RecordId = Union[str, int]


@dataclass(frozen=True)
class Block:
    """Scores of consecutive records: ``values[type, measure, record]``.

    ``ids`` are the records' ids (their 0-based positions when the input has
    none); ``baseline`` holds the baseline system's scores in a comparison.
    """

    ids: Sequence[RecordId]
    values: npt.NDArray[np.float64]
    baseline: npt.NDArray[np.float64] | None = None

    def over_limits(self) -> npt.NDArray[np.bool_]:
        """Per record, whether it went unscored because a text is over
        ``--max-tokens`` or ``--max-chars`` on either side (NaN: a real score
        never is)."""
        over = np.asarray(np.isnan(self.values[:, 2]).any(axis=0))
        if self.baseline is not None:
            over |= np.isnan(self.baseline[:, 2]).any(axis=0)
        return over


class Report(Protocol):
    """Receives the blocks in order, then writes what is left in ``close``."""

    def add(self, block: Block) -> None: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class Corpus:
    """A corpus report, computed and ready to write.

    ``name`` is its key in JSON (``mean``, ``aggregate``, ``comparison``);
    ``columns`` are the table's columns after ``score_type`` and ``rows``
    its (label, values) rows, e.g. ``("rouge1-P", [0.5])``; ``per_type``
    holds each type's JSON object; ``count`` is the number of records.
    """

    name: str
    columns: tuple[str, ...]
    rows: list[tuple[str, list[float]]]
    per_type: dict[str, dict[str, Any]]
    count: int


class OutputFormat(NamedTuple):
    """A format's writers: per-record ``records(stream, rouge_types,
    signature) -> Report``, ``corpus(stream, corpus, signature)`` and
    ``leaderboard(stream, board, count, signature)`` (``count`` records)."""

    records: Callable[[IO[str], Sequence[str], str], Report]
    corpus: Callable[[IO[str], Corpus, str], None]
    leaderboard: Callable[[IO[str], Leaderboard, int, str], None]


def output_format(name: str) -> OutputFormat:
    """The writers of format ``name``; a usage error naming the formats if unknown."""
    try:
        return FORMATS[name]
    except KeyError:
        raise CliError(
            f"unknown output format {name!r}; choose from {', '.join(FORMATS)}", 2
        ) from None


def record_report(stream: IO[str], fmt: str, rouge_types: Sequence[str], signature: str) -> Report:
    """The per-record report of output format ``fmt``."""
    return output_format(fmt).records(stream, rouge_types, signature)


def write_corpus(stream: IO[str], fmt: str, corpus: Corpus, signature: str) -> None:
    """Write ``corpus`` in output format ``fmt``."""
    output_format(fmt).corpus(stream, corpus, signature)


def write_leaderboard(
    stream: IO[str], fmt: str, board: Leaderboard, count: int, signature: str
) -> None:
    """Write ``board`` (of ``count`` records) in output format ``fmt``."""
    output_format(fmt).leaderboard(stream, board, count, signature)


# ------------------------------------------------------------ CSV


class _CsvRecords:
    """``id,rouge1-P,rouge1-R,rouge1-F,...``: rouge-score's columns, 6 decimals
    (``%f``: ``kurenai._records.records_text`` and, for what it declines,
    :func:`~kurenai.cli._floats.fixed6_rows` write the very same)."""

    def __init__(self, stream: IO[str], rouge_types: Sequence[str], signature: str) -> None:
        self._stream = stream
        self._row = "%s," + ",".join(["%f"] * (3 * len(rouge_types))) + "\n"
        self._cells = ["", *[","] * (3 * len(rouge_types)), "\n"]  # around the id and values
        header = [f"{t}-{letter}" for t in rouge_types for letter, _ in MEASURE_COLUMNS]
        stream.write(",".join(["id", *_csv_cells(header)]) + "\n")

    def add(self, block: Block) -> None:
        count = block.values.shape[-1]
        ids = list(map(str, block.ids)) if isinstance(block.ids, range) else _csv_ids(block.ids)
        values = np.ascontiguousarray(block.values.reshape(-1, count), dtype=np.float64)
        text = _backend.records.records_text(values, ids, self._cells, fixed6=True)
        if text is not None:
            self._stream.write(text)
            return
        # A non-ASCII id, or a value of many digits: the general path.
        table = values.T
        rows = fixed6_rows(table)
        if rows is not None:
            self._stream.write("".join(map(operator.add, ids, rows)))
        elif np.isnan(table).any():  # over --max-tokens/--max-chars: empty cells
            cells = (
                [i, *("" if v != v else f"{v:f}" for v in values)]
                for i, values in zip(ids, table.tolist())
            )
            self._stream.write("".join(",".join(line) + "\n" for line in cells))
        else:  # a value outside [0, 1]: % itself, row by row
            self._stream.write(csv_rows(self._row, ids, table))

    def close(self) -> None:
        pass


def csv_rows(row: str, ids: Sequence[str], table: npt.NDArray[np.float64]) -> str:
    """The CSV rows of ``table`` (records x scores), one ``row % values`` each:
    how every row was written before the block formatting, kept as its reference."""
    return "".join([row % (i, *values) for i, values in zip(ids, table.tolist())])


def _csv_ids(ids: Sequence[RecordId]) -> list[str]:
    return _csv_cells([str(i) for i in ids])


def _csv_corpus(stream: IO[str], corpus: Corpus, signature: str) -> None:
    """``score_type,<columns>`` then one row per label, 6 decimals."""
    lines = [",".join(["score_type", *corpus.columns])]
    lines += [",".join([label, *(f"{v:f}" for v in values)]) for label, values in corpus.rows]
    stream.write("".join(line + "\n" for line in lines))


def _csv_cells(cells: list[str]) -> list[str]:
    """Quote the cells that need it, as the csv module would."""
    special = (",", '"', "\n", "\r")
    return [
        '"' + cell.replace('"', '""') + '"' if any(c in cell for c in special) else cell
        for cell in cells
    ]


# The leaderboard's CSV: a row per system and type, its interval and its
# comparison with the best system; with --all-pairs a row per pair and type
# after them, with the intervals' cells empty.
_BOARD_COLUMNS = "rank,system,score_type,low,mid,high,compared_to,difference,p_value"


def _csv_leaderboard(stream: IO[str], board: Leaderboard, count: int, signature: str) -> None:
    rows = []
    for s in board.standings:
        for rouge_type, interval in s.intervals.items():
            found = s.comparison.get(rouge_type)
            compared = ["", "", ""] if found is None else [s.compared_to or "", *_paired(found)]
            cells = [str(s.rank), s.system, rouge_type, *(f"{v:f}" for v in interval)]
            rows.append([*cells, *compared])
    for (system, baseline), comparison in board.pairs.items():
        for rouge_type, found in comparison.items():
            rows.append(["", system, rouge_type, "", "", "", baseline, *_paired(found)])
    lines = [_BOARD_COLUMNS] + [",".join(_csv_cells(row)) for row in rows]
    stream.write("".join(line + "\n" for line in lines))


def _paired(found: Any) -> list[str]:
    """A comparison's difference and p-value, as the CSV writes them."""
    return [f"{found.difference:f}", f"{found.p_value:f}"]


# ------------------------------------------------------------ JSON and JSONL


class _JsonRecords:
    """JSONL: one object per record.  JSON: ``{"signature", "records": [...]}``."""

    def __init__(
        self, stream: IO[str], rouge_types: Sequence[str], signature: str, lines: bool
    ) -> None:
        self._stream, self._types, self._lines = stream, list(rouge_types), lines
        self._count = 0
        if not lines:
            stream.write(f'{{"signature": {json.dumps(signature)}, "records": [\n')

    def add(self, block: Block) -> None:
        count = len(block.ids)
        if not count:
            return
        separator = "\n" if self._lines else ",\n"
        values = np.ascontiguousarray(block.values.reshape(-1, count), dtype=np.float64)
        text = _backend.records.records_text(values, _json_ids(block.ids), self._keys(separator))
        if text is None:  # a non-ASCII id
            text = "".join(self._pieces(block, separator).ravel().tolist())
        if self._lines:
            self._stream.write(text)
        else:
            self._stream.write((",\n" if self._count else "") + text[: -len(separator)])
        self._count += count

    def _keys(self, separator: str) -> list[str]:
        """What comes before the id, between the values and after the last:
        ``{"id": ``, ``, "rouge1": {"precision": ``, ..., ``}}`` and the separator."""
        keys = ['{"id": ']
        for t, rouge_type in enumerate(self._types):
            for m, (_, name) in enumerate(MEASURE_COLUMNS):
                key = encode_basestring(name)
                if not m:
                    key = f"{encode_basestring(rouge_type)}: {{{key}"
                keys.append(("}, " if t and not m else ", ") + key + ": ")
        return [*keys, "}}" + separator]

    def _pieces(self, block: Block, separator: str) -> npt.NDArray[np.object_]:
        """Per record, the pieces of its line: ``{"id": ``, the id, then each
        score's key and value, then ``}}`` and the separator.  The general
        path (any id), which ``records_text`` reproduces for ASCII ids."""
        count, types = len(block.ids), len(self._types)
        pieces = np.empty((count, 2 + 2 * 3 * types + 1), dtype=object)
        pieces[:, 0] = '{"id": '
        pieces[:, 1] = _json_ids(block.ids)
        values = json_floats(block.values)
        values[np.isnan(block.values)] = "null"  # over --max-tokens/--max-chars
        column = 2
        for t, rouge_type in enumerate(self._types):
            for m, (_, name) in enumerate(MEASURE_COLUMNS):
                key = encode_basestring(name)
                if not m:
                    key = f"{encode_basestring(rouge_type)}: {{{key}"
                pieces[:, column] = ("}, " if t and not m else ", ") + key + ": "
                pieces[:, column + 1] = values[t, m]
                column += 2
        pieces[:, column] = "}}" + separator
        return pieces

    def close(self) -> None:
        if not self._lines:
            self._stream.write("\n]}\n" if self._count else "]}\n")


def _json_ids(ids: Sequence[RecordId]) -> list[str]:
    """The ids as ``json.dumps(id, ensure_ascii=False)`` writes them."""
    if isinstance(ids, range):
        return list(map(str, ids))
    kinds = set(map(type, ids))
    if kinds == {str}:
        return list(map(encode_basestring, ids))  # type: ignore[arg-type]
    if kinds == {int}:
        return list(map(int.__repr__, ids))
    return [json.dumps(i, ensure_ascii=False) for i in ids]


def _json_corpus(stream: IO[str], corpus: Corpus, signature: str) -> None:
    """One document: ``{"signature", "count", <name>: {type: ...}}``."""
    document = {"signature": signature, "count": corpus.count, corpus.name: corpus.per_type}
    stream.write(json.dumps(document, indent=2) + "\n")


def _jsonl_corpus(stream: IO[str], corpus: Corpus, signature: str) -> None:
    """One object per type: ``{"score_type": type, ...}``."""
    for rouge_type, value in corpus.per_type.items():
        stream.write(json.dumps({"score_type": rouge_type, **value}) + "\n")


def _json_leaderboard(stream: IO[str], board: Leaderboard, count: int, signature: str) -> None:
    """One document: ``{"signature", "count", "rouge_types", "confidence",
    "standings", "pairs"}``."""
    document = {"signature": signature, "count": count, **board.as_dict()}
    stream.write(json.dumps(document, indent=2) + "\n")


def _jsonl_leaderboard(stream: IO[str], board: Leaderboard, count: int, signature: str) -> None:
    """One object per standing (``{"system", "rank", ...}``), then per pair
    (``{"system", "baseline", "comparison"}``), then with a rank stability
    ``{"rank_stability": ...}``."""
    document = board.as_dict()
    stability = [{"rank_stability": document["rank_stability"]}] if board.stability else []
    for item in [*document["standings"], *document["pairs"], *stability]:
        stream.write(json.dumps(item) + "\n")


# The formats, by their --output-format name (the first is the default).
FORMATS: dict[str, OutputFormat] = {
    "csv": OutputFormat(_CsvRecords, _csv_corpus, _csv_leaderboard),
    "json": OutputFormat(
        lambda stream, types, signature: _JsonRecords(stream, types, signature, lines=False),
        _json_corpus,
        _json_leaderboard,
    ),
    "jsonl": OutputFormat(
        lambda stream, types, signature: _JsonRecords(stream, types, signature, lines=True),
        _jsonl_corpus,
        _jsonl_leaderboard,
    ),
}

"""The command line's per-record reports: CSV, JSON or JSONL, streamed.

Scores arrive a block of records at a time as a :class:`Block`: one float64
array (types x precision/recall/F x records) and the records' ids.  Each
block is written at once, so memory does not grow with the file.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, Protocol, Union

import numpy as np
import numpy.typing as npt

__all__ = ["FORMATS", "MEASURES", "Block", "Report", "record_report"]

FORMATS = ("csv", "json", "jsonl")
# (column letter, Score field), in the order of the block's second axis.
MEASURES = (("P", "precision"), ("R", "recall"), ("F", "fmeasure"))
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


class Report(Protocol):
    """Receives the blocks in order, then writes what is left in ``close``."""

    def add(self, block: Block) -> None: ...

    def close(self) -> None: ...


def record_report(stream: IO[str], fmt: str, rouge_types: Sequence[str], signature: str) -> Report:
    """The per-record report for output format ``fmt``."""
    if fmt == "csv":
        return _CsvRecords(stream, rouge_types)
    return _JsonRecords(stream, rouge_types, signature, lines=fmt == "jsonl")


class _CsvRecords:
    """``id,rouge1-P,rouge1-R,rouge1-F,...``: rouge-score's columns, 6 decimals."""

    def __init__(self, stream: IO[str], rouge_types: Sequence[str]) -> None:
        self._stream = stream
        # One %-format per row: the CLI's hot loop when the scorer is fast.
        self._row = "%s," + ",".join(["%f"] * (3 * len(rouge_types))) + "\n"
        header = [f"{t}-{letter}" for t in rouge_types for letter, _ in MEASURES]
        stream.write(",".join(["id", *_csv_cells(header)]) + "\n")

    def add(self, block: Block) -> None:
        rows = block.values.reshape(-1, block.values.shape[-1]).T.tolist()
        ids = block.ids if isinstance(block.ids, range) else _csv_cells([str(i) for i in block.ids])
        row = self._row
        self._stream.write("".join([row % (i, *values) for i, values in zip(ids, rows)]))

    def close(self) -> None:
        pass


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
        values = block.values.tolist()
        parts = []
        for column, record_id in enumerate(block.ids):
            record: dict[str, object] = {"id": record_id}
            for t, rouge_type in enumerate(self._types):
                record[rouge_type] = {
                    name: values[t][m][column] for m, (_, name) in enumerate(MEASURES)
                }
            parts.append(json.dumps(record, ensure_ascii=False))
        if not parts:
            return
        if self._lines:
            self._stream.write("\n".join(parts) + "\n")
        else:
            self._stream.write((",\n" if self._count else "") + ",\n".join(parts))
        self._count += len(parts)

    def close(self) -> None:
        if not self._lines:
            self._stream.write("\n]}\n" if self._count else "]}\n")


def _csv_cells(cells: list[str]) -> list[str]:
    """Quote the cells that need it, as the csv module would."""
    special = (",", '"', "\n", "\r")
    return [
        '"' + cell.replace('"', '""') + '"' if any(c in cell for c in special) else cell
        for cell in cells
    ]

"""The corpus mean of the command line, in memory that does not grow with records.

``np.mean`` of a contiguous column sums it pairwise (NumPy's
``pairwise_sum``): blocks of at most 128 values summed in eight interleaved
accumulators, and halves split at a multiple of eight.  The split points
depend on the final count, unknown while records stream in, so the scores go
to an anonymous temporary file (8 bytes per value, on disk) and are summed at
the end in the same order, reading the file front to back in chunks: the
result is ``np.mean``'s to the last bit, in memory of one chunk.
"""

from __future__ import annotations

import tempfile

import numpy as np
import numpy.typing as npt

__all__ = ["StreamingMean", "pairwise_sum"]

_BLOCK = 128  # NumPy's PW_BLOCKSIZE
_LANES = 8  # its accumulators
_CHUNK = 1 << 15  # rows read at once


class StreamingMean:
    """Column means of rows appended in blocks; each column's mean equals
    ``np.mean`` of that column held whole."""

    def __init__(self, columns: int) -> None:
        self._columns = columns
        self._file = tempfile.TemporaryFile()  # noqa: SIM115 (closed in means)
        self.count = 0

    def add(self, rows: npt.NDArray[np.float64]) -> None:
        """Append ``rows`` (records x columns)."""
        rows = np.ascontiguousarray(rows, dtype=np.float64)
        if rows.shape[1] != self._columns:
            raise ValueError(f"expected {self._columns} columns, got {rows.shape[1]}")
        self._file.write(rows.tobytes())
        self.count += rows.shape[0]

    def means(self) -> npt.NDArray[np.float64]:
        """Per column, the mean of every row added (NaN if none); closes the file."""
        with self._file:
            if not self.count:
                return np.full(self._columns, np.nan)
            self._file.seek(0)
            reader = _Rows(self._file, self._columns)
            return pairwise_sum(reader, self.count) / self.count


class _Rows:
    """Consecutive rows of the file, handed out front to back."""

    def __init__(self, file: object, columns: int) -> None:
        self._file, self._columns = file, columns
        self._buffer = np.empty((0, columns))
        self._at = 0

    def take(self, count: int) -> npt.NDArray[np.float64]:
        if self._at + count > len(self._buffer):
            rest = self._buffer[self._at :]
            data = self._file.read(8 * self._columns * max(count, _CHUNK))  # type: ignore[attr-defined]
            fresh = np.frombuffer(data, dtype=np.float64).reshape(-1, self._columns)
            self._buffer, self._at = np.concatenate([rest, fresh]), 0
        rows = self._buffer[self._at : self._at + count]
        self._at += count
        return rows


def pairwise_sum(reader: _Rows, count: int) -> npt.NDArray[np.float64]:
    """The next ``count`` rows' column sums, in NumPy's pairwise order."""
    if count <= _BLOCK:
        return _block_sum(reader.take(count))
    half = count // 2
    half -= half % _LANES
    left = pairwise_sum(reader, half)
    return left + pairwise_sum(reader, count - half)


def _block_sum(rows: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    count = len(rows)
    total: npt.NDArray[np.float64]
    if count < _LANES:
        total = np.zeros(rows.shape[1])
        for row in rows:
            total = total + row
        return total
    whole = count - count % _LANES
    lanes = rows[:whole].reshape(-1, _LANES, rows.shape[1])
    acc: npt.NDArray[np.float64] = lanes[0].copy()
    for step in lanes[1:]:
        acc += step
    total = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]))
    for row in rows[whole:]:
        total = total + row
    return total

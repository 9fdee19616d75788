"""The command line's streamed corpus mean: ``np.mean``'s bits in memory that
does not grow with the records."""

from __future__ import annotations

import io
import json
import tracemalloc

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kurenai.cli._aggregate import Resampling, aggregate_report
from kurenai.cli._mean import StreamingMean
from kurenai.cli._output import Block


def _streamed(rows: np.ndarray, cuts: list[int]) -> np.ndarray:
    mean = StreamingMean(rows.shape[1])
    start = 0
    for cut in [*sorted(cuts), len(rows)]:
        mean.add(rows[start:cut])
        start = max(start, cut)
    return mean.means()


def _numpy(rows: np.ndarray) -> np.ndarray:
    return np.array([np.mean(np.ascontiguousarray(column)) for column in rows.T])


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(1, 3000),
    seed=st.integers(0, 2**32 - 1),
    cuts=st.lists(st.integers(0, 3000), max_size=8),
)
def test_equals_numpy_mean_to_the_bit(count: int, seed: int, cuts: list[int]) -> None:
    rng = np.random.default_rng(seed)
    rows = rng.random((count, 3)) * 10.0 ** rng.integers(-6, 3, (count, 3))
    assert (_streamed(rows, [c for c in cuts if c <= count]) == _numpy(rows)).all()


def test_large_counts_and_the_order_matters() -> None:
    rng = np.random.default_rng(7)
    for count in (129, 4097, 32768 + 9, 70001, 300_007):
        rows = rng.random((count, 2)) * 10.0 ** rng.integers(-8, 4, (count, 2))
        assert (_streamed(rows, [count // 3, count // 2]) == _numpy(rows)).all()
    # Negative control: a left-to-right sum, the obvious streaming mean, differs.
    assert any(
        sum(rows[:, 0].tolist()) / len(rows) != _numpy(rows)[0]
        for rows in (rng.random((5000, 1)) for _ in range(5))
    )


def _peak_while_adding(records: int) -> int:
    stream = io.StringIO()
    report = aggregate_report("mean", stream, "json", ["rouge1", "rougeL"], "", Resampling())
    rng = np.random.default_rng(0)
    tracemalloc.start()
    try:
        for start in range(0, records, 1000):
            block = Block(range(start, start + 1000), rng.random((2, 3, 1000)))
            report.add(block)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    report.close()
    assert json.loads(stream.getvalue())["count"] == records
    return peak


def test_memory_does_not_grow_with_records() -> None:
    small, large = _peak_while_adding(10_000), _peak_while_adding(200_000)
    # 200k records x 6 values held would be 9.6 MB; streamed, the peak is one block's.
    assert large < small + 1_000_000, (small, large)

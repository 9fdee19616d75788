"""Resampling correlations: bootstrap intervals, and tests of two metrics.

Deutsch, Dror & Roth (2021) resample the (systems x documents) matrices of
a metric and of the human scores three ways: the systems (rows, with
replacement), the documents (columns), or both (the rows and the columns
drawn independently, the sample their intersection).  A bootstrap interval
is the percentile interval of the correlation over the samples (samples
where it is undefined are left out, and counted).  Their permutation test
of "metric A correlates better than metric B" swaps A's and B's scores (of
whole systems, whole documents or single summaries), after standardising
each metric's matrix, and counts the swaps whose difference of
correlations is at least the observed one.  Williams' test (Williams 1959;
Graham & Baldwin 2014) is the closed-form test of two dependent
correlations sharing the human side.

Every draw comes from ``numpy.random.default_rng(seed)``: one seed gives
one answer on every machine.  A bootstrap draws all its systems' indices
(``integers(0, systems, size=(samples, systems))``) and then all its
documents' (likewise); a permutation test draws each trial's swaps in turn
(``random(shape) < 0.5``, the shape (systems, 1), (1, documents) or
(systems, documents)).  The draws of a bootstrap are shared by every
metric and coefficient, so that their intervals are of the same samples.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Callable

import numpy as np
import numpy.typing as npt

from kurenai.stats._bootstrap import check_draws
from kurenai.stats._correlation import (
    RESAMPLING,
    batch_level,
    check_choice,
)
from kurenai.stats._williams import williams_test

__all__ = [
    "Comparison",
    "Interval",
    "bootstrap_intervals",
    "permutation_test",
    "williams_comparison",
]

Matrix = npt.NDArray[np.float64]
# Matrix cells per block of resamples.
_BLOCK_CELLS = 1 << 20


@dataclass(frozen=True)
class Interval:
    """A bootstrap percentile interval; ``samples``: the resamples where the
    correlation was defined (the interval's quantiles are of those)."""

    low: float
    high: float
    samples: int


@dataclass(frozen=True)
class Comparison:
    """A test of metric ``a`` against metric ``b`` (their correlations with
    the same human scores): ``difference`` is a's correlation minus b's,
    ``p_value`` two-sided (NaN when the test is undefined)."""

    a: str
    b: str
    method: str
    difference: float
    p_value: float


def bootstrap_intervals(
    metrics: Mapping[str, Matrix],
    human: Matrix,
    level: str,
    coefficients: Sequence[str],
    resample: str = "both",
    n_samples: int = 1000,
    confidence: float = 0.95,
    seed: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[tuple[str, str], Interval]:
    """(metric, coefficient) -> the interval of its ``level`` correlation with
    ``human``, over ``n_samples`` resamples of ``resample``.  ``progress`` is
    called with the resamples done after each block."""
    check_choice(resample, RESAMPLING, "resampling")
    check_draws(n_samples, "n_samples")
    rng = np.random.default_rng(seed)
    n_systems, n_documents = human.shape
    found: dict[tuple[str, str], list[Matrix]] = {(m, c): [] for m in metrics for c in coefficients}
    block = max(1, _BLOCK_CELLS // max(1, human.size))
    # Every system index is drawn before any document's (the documented
    # stream), kept in the smallest integer type; the documents' are drawn
    # block by block, so memory grows by a few bytes per sample, not a row.
    all_rows = None
    if resample in ("systems", "both"):
        all_rows = _indices(rng, n_systems, n_samples, block)
    for start in range(0, n_samples, block):
        size = min(block, n_samples - start)
        if all_rows is None:
            rows = np.broadcast_to(np.arange(n_systems), (size, n_systems))
        else:
            rows = all_rows[start : start + size].astype(np.intp)
        if resample in ("documents", "both"):
            cols = rng.integers(0, n_documents, size=(size, n_documents))
        else:
            cols = np.broadcast_to(np.arange(n_documents), (size, n_documents))
        index = (rows[:, :, None], cols[:, None, :])
        sampled_human = human[index]
        for name, matrix in metrics.items():
            sampled = matrix[index]
            for coefficient in coefficients:
                found[(name, coefficient)].append(
                    batch_level(coefficient, level, sampled, sampled_human)
                )
        if progress is not None:
            progress(size)
    return {key: _interval(np.concatenate(values), confidence) for key, values in found.items()}


def _indices(
    rng: np.random.Generator, bound: int, n_samples: int, block: int
) -> npt.NDArray[np.unsignedinteger]:
    """``rng.integers(0, bound, size=(n_samples, bound))``, drawn block by
    block (the same stream) into the smallest unsigned type that holds them."""
    kept = np.empty((n_samples, bound), dtype=np.min_scalar_type(max(bound - 1, 0)))
    for start in range(0, n_samples, block):
        stop = min(start + block, n_samples)
        kept[start:stop] = rng.integers(0, bound, size=(stop - start, bound))
    return kept


def _interval(samples: Matrix, confidence: float) -> Interval:
    defined = samples[~np.isnan(samples)]
    if not defined.size:
        return Interval(float("nan"), float("nan"), 0)
    tail = 100 * (1 - confidence) / 2
    low, high = np.percentile(defined, [tail, 100 - tail])
    return Interval(float(low), float(high), int(defined.size))


def permutation_test(
    a: tuple[str, Matrix],
    b: tuple[str, Matrix],
    human: Matrix,
    level: str,
    coefficient: str,
    resample: str = "both",
    n_samples: int = 1000,
    seed: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Comparison:
    """Deutsch et al.'s permutation test of metric ``a`` against ``b``: the
    two-sided p-value ``(1 + #{|swapped difference| >= |observed|}) /
    (1 + n_samples)``; ``progress`` is called with the trials done after
    each block."""
    check_choice(resample, RESAMPLING, "resampling")
    check_draws(n_samples, "n_samples")
    (name_a, x), (name_b, y) = a, b
    observed = _difference(coefficient, level, x[None], y[None], human[None])[0]
    if np.isnan(observed):
        return Comparison(name_a, name_b, "permutation", float("nan"), float("nan"))
    x, y = _standardised(x), _standardised(y)
    standard = abs(_difference(coefficient, level, x[None], y[None], human[None])[0])
    rng = np.random.default_rng(seed)
    shape = {"systems": (x.shape[0], 1), "documents": (1, x.shape[1]), "both": x.shape}[resample]
    block = max(1, _BLOCK_CELLS // max(1, x.size))
    at_least = 0
    for start in range(0, n_samples, block):
        size = min(block, n_samples - start)
        swap = rng.random((size, *shape)) < 0.5
        swapped = _difference(
            coefficient, level, np.where(swap, y, x), np.where(swap, x, y), human[None]
        )
        # A difference undefined after a swap counts as not extreme.
        with np.errstate(invalid="ignore"):
            at_least += int(np.count_nonzero(np.abs(swapped) >= standard * (1 - 1e-12)))
        if progress is not None:
            progress(size)
    p_value = (at_least + 1) / (n_samples + 1)
    return Comparison(name_a, name_b, "permutation", float(observed), p_value)


def _difference(coefficient: str, level: str, x: Matrix, y: Matrix, human: Matrix) -> Matrix:
    human = np.broadcast_to(human, x.shape)
    return batch_level(coefficient, level, x, human) - batch_level(coefficient, level, y, human)


def _standardised(matrix: Matrix) -> Matrix:
    """``matrix`` on a common scale (mean 0, deviation 1 over its scored
    cells), so that swapped cells mean the same to either metric."""
    spread = np.nanstd(matrix)
    return (matrix - np.nanmean(matrix)) / (spread if spread > 0 else 1.0)  # type: ignore[no-any-return]


def williams_comparison(
    a: tuple[str, Matrix],
    b: tuple[str, Matrix],
    human: Matrix,
    level: str,
    coefficient: str,
    absolute: bool = False,
) -> Comparison:
    """Two-tailed Williams' test of a's correlation against b's
    (:func:`kurenai.stats.williams_test`), as a :class:`Comparison`
    (method ``williams`` or, under ``absolute``, ``williams-absolute``)."""
    (name_a, x), (name_b, y) = a, b
    found = williams_test(x, y, human, level, coefficient, absolute=absolute)
    method = "williams-absolute" if absolute else "williams"
    return Comparison(name_a, name_b, method, float(found.difference), found.p_value)

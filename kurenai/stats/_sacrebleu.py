"""sacrebleu's paired tests, as sacrebleu 2.6 computes them, on per-record scores.

sacrebleu (``sacrebleu/significance.py``) compares two systems by their
corpus scores computed from per-segment sufficient statistics.  ROUGE's
corpus score is the mean of the records' scores, so here a record's
statistic is its score and a corpus score is the statistics' sum over the
number of records: these functions give the p-values sacrebleu's
``_paired_bs_test`` and ``_paired_ar_test`` give for a metric built that way,
``==`` for the same scores, seed and number of draws
(``tests/stats/test_sacrebleu_conventions.py`` calls sacrebleu's own
functions).  Their rules, which differ from kurenai's own tests:

- **paired bootstrap** (``sacrebleu-bs``, after Moses'
  ``bootstrap-hypothesis-difference-significance.pl``): the record indices
  ``rng.choice(n, size=(samples, n))`` shared by both systems and every
  type; the scores gathered and summed in float32 (sacrebleu converts the
  statistics to float32); per resample the *absolute* difference of the two
  means; statistics ``|d_k| - mean_k |d_k|``; p = (count of statistics
  strictly greater than the observed absolute difference + 1) / (samples +
  1).  About a one-sided count: where kurenai's two-sided test gives 0.05,
  this gives about 0.02.
- **approximate randomization** (``sacrebleu-ar``): ``rng.integers(2,
  size=(trials, n), dtype=bool)`` says which records swap; per trial the
  absolute difference of the two pseudo-systems' means (summed by a matrix
  product, as sacrebleu does); the same p rule (strictly greater).

The generator is ``numpy.random.default_rng(seed)``; ``seed`` None is
sacrebleu's default, 12345 (``SACREBLEU_SEED`` unset).  The draws come in
blocks (a bounded amount of memory whatever the count), cut where they
leave NumPy's stream unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Callable, Union

import numpy as np
import numpy.typing as npt

from kurenai.stats._bootstrap import (
    PairedResult,
    check_draws,
    no_evidence,
    paired_differences,
)

__all__ = [
    "SACREBLEU_SEED",
    "sacrebleu_paired_bootstrap",
    "sacrebleu_paired_randomization",
]

#: sacrebleu's seed when ``SACREBLEU_SEED`` is unset.
SACREBLEU_SEED = 12345
# Values (records x draws) per block: bounds the index, gather and product arrays.
_BLOCK_VALUES = 1 << 22

SacreSeed = Union[int, np.random.Generator, None]
Matrix = npt.NDArray[np.float64]


def sacrebleu_paired_bootstrap(
    system: Mapping[str, npt.ArrayLike],
    baseline: Mapping[str, npt.ArrayLike],
    n_samples: int = 1000,
    seed: SacreSeed = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, PairedResult]:
    """sacrebleu's paired bootstrap (``--paired-bs``) of two systems'
    per-record scores, per type: sacrebleu 2.6's p-value (see the module);
    no interval of the difference (``low``/``high`` NaN: sacrebleu's own
    interval is of each system's score, which :func:`kurenai.stats.bootstrap`
    gives).  Records that carry no evidence give p = 1 with a note.

    >>> s = {"rouge1": [0.31, 0.45, 0.52, 0.28, 0.40, 0.61, 0.35, 0.47, 0.39, 0.50]}
    >>> b = {"rouge1": [0.29, 0.47, 0.44, 0.30, 0.35, 0.55, 0.37, 0.40, 0.41, 0.44]}
    >>> round(sacrebleu_paired_bootstrap(s, b, 10_000, seed=1)["rouge1"].p_value, 4)
    0.0176
    """
    return _results(system, baseline, n_samples, "n_samples", "sacrebleu-bs", seed, progress)


def sacrebleu_paired_randomization(
    system: Mapping[str, npt.ArrayLike],
    baseline: Mapping[str, npt.ArrayLike],
    n_trials: int = 10_000,
    seed: SacreSeed = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, PairedResult]:
    """sacrebleu's approximate randomization (``--paired-ar``) of two
    systems' per-record scores, per type: sacrebleu 2.6's p-value (see the
    module), no interval.  Records that carry no evidence give p = 1 with a
    note."""
    return _results(system, baseline, n_trials, "n_trials", "sacrebleu-ar", seed, progress)


def _results(
    system: Mapping[str, npt.ArrayLike],
    baseline: Mapping[str, npt.ArrayLike],
    draws: int,
    what: str,
    test: str,
    seed: SacreSeed,
    progress: Callable[[int], None] | None,
) -> dict[str, PairedResult]:
    if isinstance(draws, bool) or not isinstance(draws, (int, np.integer)) or draws <= 0:
        raise ValueError(f"{what} must be a positive integer, got {draws!r}")
    check_draws(int(draws), what)
    rng = generator(seed)
    differences = paired_differences(system, baseline)
    sys_m = np.column_stack([np.asarray(system[t], np.float64) for t in system])
    base_m = np.column_stack([np.asarray(baseline[t], np.float64) for t in system])
    compute = bs_p_values if test == "sacrebleu-bs" else ar_p_values
    p_values = compute(sys_m, base_m, int(draws), rng, progress)
    found = {}
    for i, rouge_type in enumerate(system):
        system_mean = float(np.mean(sys_m[:, i]))
        baseline_mean = float(np.mean(base_m[:, i]))
        note = no_evidence(differences[:, i])
        found[rouge_type] = PairedResult(
            system_mean, baseline_mean, system_mean - baseline_mean, math.nan, math.nan,
            1.0 if note else float(p_values[i]), test, note,
        )  # fmt: skip
    return found


def generator(seed: SacreSeed) -> np.random.Generator:
    """sacrebleu's generator: ``default_rng(seed)``, None meaning its default seed."""
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None:
        return np.random.default_rng(SACREBLEU_SEED)
    if isinstance(seed, (bool, np.random.RandomState)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(
            f"sacrebleu's tests draw from numpy.random.default_rng: seed must be an int, "
            f"a numpy.random.Generator or None, got {seed!r}"
        )
    return np.random.default_rng(int(seed))


def _rows(size: int, count: int, multiple: int) -> Iterator[tuple[int, int]]:
    """Blocks of draws of about ``_BLOCK_VALUES`` values, each a multiple of
    ``multiple`` draws (but the last)."""
    per_block = max(multiple, (_BLOCK_VALUES // max(size, 1)) // multiple * multiple)
    for start in range(0, count, per_block):
        yield start, min(start + per_block, count)


def bs_p_values(
    system: Matrix,
    baseline: Matrix,
    n_samples: int,
    seed: SacreSeed,
    progress: Callable[[int], None] | None = None,
) -> npt.NDArray[np.float64]:
    """Per column (type) of the (records x types) scores, sacrebleu's paired
    bootstrap p-value."""
    rng = generator(seed)
    size, types = system.shape
    # Each type's statistics as sacrebleu holds them: a contiguous float32 column.
    sys32 = [_column(system, t).astype(np.float32) for t in range(types)]
    base32 = [_column(baseline, t).astype(np.float32) for t in range(types)]
    sample_diffs = np.empty((n_samples, types))
    # Whole rows of indices: choice draws each index from the stream on its own.
    for start, stop in _rows(size, n_samples, 1):
        idxs = rng.choice(size, size=(stop - start, size), replace=True)
        for t in range(types):
            # As sacrebleu: a resample's statistics (float32) summed over its records.
            sums_sys = sys32[t][idxs].sum(axis=1)[:, 0]
            sums_base = base32[t][idxs].sum(axis=1)[:, 0]
            scores_sys = sums_sys.astype(np.float64) / size
            scores_base = sums_base.astype(np.float64) / size
            sample_diffs[start:stop, t] = np.abs(scores_sys - scores_base)
        if progress is not None:
            progress(stop - start)
    observed = np.abs(_means(baseline) - _means(system))
    found = np.empty(types)
    for t in range(types):
        stats = sample_diffs[:, t] - sample_diffs[:, t].mean()
        found[t] = _p_value(stats, observed[t])
    return found


def ar_p_values(
    system: Matrix,
    baseline: Matrix,
    n_trials: int,
    seed: SacreSeed,
    progress: Callable[[int], None] | None = None,
) -> npt.NDArray[np.float64]:
    """Per column (type) of the (records x types) scores, sacrebleu's
    approximate randomization p-value."""
    rng = generator(seed)
    size, types = system.shape
    trial_diffs = np.empty((n_trials, types))
    columns = [(_column(baseline, t), _column(system, t)) for t in range(types)]
    # A bool takes one bit of a 32-bit word, and a call's leftover bits are
    # dropped: blocks of whole words keep the stream one call would draw.
    multiple = 32 // np.gcd(size, 32)
    for start, stop in _rows(size, n_trials, int(multiple)):
        pos_sel = rng.integers(2, size=(stop - start, size), dtype=bool)
        neg_sel = ~pos_sel
        for t in range(types):
            bl_stats, sys_stats = columns[t]
            shuf_a = pos_sel @ bl_stats + neg_sel @ sys_stats
            shuf_b = neg_sel @ bl_stats + pos_sel @ sys_stats
            trial_diffs[start:stop, t] = np.abs(shuf_a[:, 0] / size - shuf_b[:, 0] / size)
        if progress is not None:
            progress(stop - start)
    observed = np.abs(_means(baseline) - _means(system))
    return np.array([_p_value(trial_diffs[:, t], observed[t]) for t in range(types)])


def _column(scores: Matrix, t: int) -> Matrix:
    """Type ``t``'s statistics as sacrebleu holds a metric's: (records x 1), contiguous."""
    return np.ascontiguousarray(scores[:, t], dtype=np.float64).reshape(-1, 1)


def _means(scores: Matrix) -> Matrix:
    """Per column, the corpus score: the records' sum over their number."""
    types = range(scores.shape[1])
    return np.array([np.sum(_column(scores, t), axis=0)[0] / len(scores) for t in types])


def _p_value(stats: Matrix, observed: float) -> float:
    """sacrebleu's ``_compute_p_value``: strictly greater, +1 over +1."""
    count = int(np.sum(stats > observed))
    return (count + 1) / (len(stats) + 1)

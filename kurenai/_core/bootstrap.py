"""Bootstrap confidence intervals, vectorised: rouge-score's numbers, faster.

:func:`bootstrap` gives exactly what rouge-score's ``BootstrapAggregator``
gives under the same random state.  That aggregator, for each type in turn,
draws ``n_samples`` times ``np.random.choice(n, size=n)`` (which is
``randint(0, n, size=n)``), averages the chosen rows with ``np.mean(axis=0)``
and takes ``np.percentile`` of the means.  Here the same integers are drawn
in a few large calls (NumPy's legacy generator yields one stream however it is
cut), and the rows are summed in the same order, record after record: by the
compiled kernel ``kurenai._resample`` in one pass, or with NumPy for many
samples at once (its pure twin, used when kurenai runs as pure Python).
:func:`paired_bootstrap` resamples two systems with shared indices for a
paired significance test.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Callable, Union

import numpy as np
import numpy.typing as npt

from kurenai import _backend
from kurenai.scoring import AggregateScore, Score

__all__ = ["PairedResult", "bootstrap", "check_settings", "paired_bootstrap", "random_state"]

Seed = Union[int, np.random.RandomState, None]
Matrix = npt.NDArray[np.float64]
# Indices drawn per block of samples: enough to amortise NumPy's per-call
# cost, few enough to keep the block's arrays small (8 MiB each).
_BLOCK_VALUES = 1 << 20


# Chosen in kurenai._backend; None: the NumPy code below.
_SUMS: Callable[..., None] | None = getattr(_backend.resample, "resampled_sums", None)


def random_state(seed: Seed) -> np.random.RandomState:
    """The generator a seed stands for: ``None`` is NumPy's global one (as
    rouge-score uses), an int a fresh ``RandomState(seed)``, which draws what
    the global one draws after ``np.random.seed(seed)``."""
    if seed is None:
        return np.random.mtrand._rand
    if isinstance(seed, np.random.RandomState):
        return seed
    return np.random.RandomState(seed)


def bootstrap(
    scores: Mapping[str, npt.ArrayLike],
    n_samples: int = 1000,
    confidence: float = 0.95,
    seed: Seed = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, AggregateScore]:
    """Per type, the (low, mid, high) bootstrap bounds of the mean score.

    ``scores`` maps each type, in rouge-score's order (the order its scores
    were added), to an (records x 3) matrix of precision, recall, F-measure.
    The result equals ``BootstrapAggregator(confidence, n_samples)``'s after
    the same records were added and the generator was in the same state.
    ``progress`` is called with the number of samples drawn after each block.

    >>> matrix = [[0.5, 1.0, 2 / 3], [1.0, 0.5, 2 / 3], [0.0, 0.0, 0.0]]
    >>> result = bootstrap({"rouge1": matrix}, n_samples=200, seed=1)
    >>> round(float(result["rouge1"].mid.precision), 4)
    0.5
    """
    check_settings(n_samples, confidence)
    rng = random_state(seed)
    result = {}
    for rouge_type, values in scores.items():
        matrix = np.asarray(values, dtype=np.float64)
        if matrix.ndim != 2 or not len(matrix):
            raise ValueError(f"{rouge_type}: expected a non-empty (records x measures) matrix")
        means = _resampled_means(matrix, n_samples, rng, progress)
        bounds = np.percentile(means, _percentiles(confidence), axis=0)
        low, mid, high = (Score(*row) for row in bounds)
        result[rouge_type] = AggregateScore(low=low, mid=mid, high=high)
    return result


@dataclass(frozen=True)
class PairedResult:
    """One type's paired comparison of a system against a baseline (F-measure)."""

    system: float
    baseline: float
    difference: float
    low: float
    high: float
    p_value: float


def paired_bootstrap(
    system: Mapping[str, npt.ArrayLike],
    baseline: Mapping[str, npt.ArrayLike],
    n_samples: int = 1000,
    confidence: float = 0.95,
    seed: Seed = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, PairedResult]:
    """Paired bootstrap test of two systems' per-record F-measures, per type.

    Both systems are resampled with the same record indices (shared by every
    type, as sacrebleu's paired bootstrap does).  ``low``/``high`` bound the
    mean difference (system - baseline) at ``confidence``; the two-sided
    ``p_value`` is the share of resampled differences, centred on their mean
    (the null hypothesis), at least as far from 0 as the observed one, with
    sacrebleu's +1 smoothing: identical systems give a difference of 0 and
    p = 1.

    >>> result = paired_bootstrap({"rouge1": [0.2, 0.4]}, {"rouge1": [0.2, 0.4]}, seed=0)
    >>> result["rouge1"].difference, result["rouge1"].p_value
    (0.0, 1.0)
    """
    check_settings(n_samples, confidence)
    given = [np.asarray(side[name], np.float64) for side in (system, baseline) for name in system]
    if len({c.shape for c in given}) != 1 or given[0].ndim != 1 or not len(given[0]):
        raise ValueError("expected one non-empty column of the same length per type and system")
    size = len(given[0])
    columns = {name: given[i] - given[len(system) + i] for i, name in enumerate(system)}
    rng = random_state(seed)
    sums = {name: np.empty(n_samples) for name in columns}
    for start, indices in _index_blocks(rng, size, n_samples):
        for rouge_type, column in columns.items():
            sums[rouge_type][start : start + len(indices)] = column[indices].sum(axis=1)
        if progress is not None:
            progress(len(indices))
    return {
        name: _paired_result(system[name], baseline[name], sums[name] / size, confidence)
        for name in columns
    }


def _paired_result(
    system: npt.ArrayLike, baseline: npt.ArrayLike, diffs: Matrix, confidence: float
) -> PairedResult:
    system_mean = float(np.mean(np.asarray(system, np.float64)))
    baseline_mean = float(np.mean(np.asarray(baseline, np.float64)))
    observed = system_mean - baseline_mean
    low, high = np.percentile(diffs, _percentiles(confidence)[[0, 2]])
    centred = np.abs(diffs - diffs.mean())
    # A tolerance for rounding: a resample equal to the observed difference counts.
    extreme = int(np.count_nonzero(centred >= abs(observed) - 1e-12))
    p_value = (extreme + 1) / (len(diffs) + 1)
    return PairedResult(system_mean, baseline_mean, observed, float(low), float(high), p_value)


def check_settings(n_samples: int, confidence: float) -> None:
    """rouge-score's own argument checks, with its messages."""
    if not 0 <= confidence <= 1:
        raise ValueError("confidence_interval must be in range [0, 1]")
    if n_samples <= 0:
        raise ValueError("n_samples must be positive")


def _percentiles(confidence: float) -> npt.NDArray[np.float64]:
    delta = (1 - confidence) / 2
    return 100 * np.array([delta, 0.5, 1 - delta])


def _resampled_means(
    matrix: Matrix,
    n_samples: int,
    rng: np.random.RandomState,
    progress: Callable[[int], None] | None,
) -> Matrix:
    """(samples x measures) means of resampled rows, as rouge-score computes them."""
    size = len(matrix)
    if _SUMS is not None:
        rows = np.ascontiguousarray(matrix.T)  # (measures x records)
        means = np.empty((n_samples, matrix.shape[1]))
        for start, indices in _index_blocks(rng, size, n_samples):
            _SUMS(rows, indices.astype(np.int64, copy=False), means, start)
            if progress is not None:
                progress(len(indices))
        means /= size
        return means
    columns = [np.ascontiguousarray(matrix[:, k]) for k in range(matrix.shape[1])]
    means = np.empty((n_samples, len(columns)))
    for start, indices in _index_blocks(rng, size, n_samples):
        stop = start + len(indices)
        # (records x samples), C order: reducing axis 0 adds the records one
        # after another, as rouge-score's np.mean(axis=0) of (records x
        # measures) does, for every sample of the block at once.
        by_record = np.ascontiguousarray(indices.T)
        for k, column in enumerate(columns):
            if len(indices) == 1:
                # One sample: reduce would sum pairwise; cumsum adds in order.
                means[start, k] = np.cumsum(column.take(indices[0]))[-1]
            else:
                means[start:stop, k] = np.add.reduce(column.take(by_record), axis=0)
        if progress is not None:
            progress(len(indices))
    means /= size  # np.mean divides the sum by the count
    return means


def _index_blocks(
    rng: np.random.RandomState, size: int, n_samples: int
) -> Iterable[tuple[int, npt.NDArray[np.int_]]]:
    """(first sample, its block of sample indices), in the generator's order."""
    block = max(2, _BLOCK_VALUES // size)
    for start in range(0, n_samples, block):
        count = min(block, n_samples - start)
        yield start, rng.randint(0, size, size=(count, size))

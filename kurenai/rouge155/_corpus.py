"""Corpus level as ``computeAverages`` computes it: the bootstrap and its interval.

The script prints, for R, P and F, the *mean of the bootstrap samples* (not
the plain mean) and an interval interpolated between sorted samples.
Sample i (i = 0..r-1) re-seeds Perl's generator with ``srand(i)`` and draws
as many evaluations as there are (``int(rand(n))``), in the string order of
their ``"evalID.peerID"`` names, summing their values in draw order; under
``-t 0`` a sample is the mean of the drawn (R, P, F), under ``-t 1`` the
ratios of the summed counts (with the script's F).  ``-t 2`` prints the
summed counts and draws nothing.

Every float is added in the script's order (NumPy's accumulate, never its
pairwise sum), so the printed five decimals are the script's.  The compiled
``kurenai._perl.corpus_values`` computes the same numbers in C where it is
built (without NumPy, which then is not even imported); the NumPy code here
is its spec.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from kurenai import _backend

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Matrix = npt.NDArray[np.float64]

__all__ = ["Average", "Interval", "corpus_averages", "perl_fixed"]

# Draws per block of samples: the index block stays at 8 MiB.
_BLOCK_VALUES = 1 << 20
_INF = float("inf")


def perl_fixed(value: float) -> str:
    """``sprintf("%7.5f", value)`` as Perl prints it: a NaN as ``NaN``, an
    infinity as ``Inf`` / ``-Inf`` (C, and Python, spell them ``nan``, ``inf``).

    >>> perl_fixed(0.5), perl_fixed(float("nan")), perl_fixed(float("-inf"))
    ('0.50000', '    NaN', '   -Inf')
    """
    if value != value:
        return "    NaN"
    if value in (_INF, -_INF):
        return "    Inf" if value > 0 else "   -Inf"
    return f"{value:7.5f}"


class Interval(NamedTuple):
    """A printed average with its interval, as the script's strings."""

    mean: str
    low: str
    high: str


class Average(NamedTuple):
    """One metric over the corpus: R, P and F with intervals (``-t 0/1``), or
    the summed counts (``-t 2``: model count, peer count, hit)."""

    recall: Interval | None
    precision: Interval | None
    f_measure: Interval | None
    counts: tuple[float, float, float]


def corpus_averages(
    values: Sequence[float],
    metrics: int,
    counting: int | None,
    alpha: float,
    resamples: int,
    confidence: float,
) -> list[Average]:
    """Per metric, its corpus average from ``values`` (evaluations x metrics x
    3, flat, the evaluations in the script's string order)."""
    kernel = _backend.perl
    if kernel is not None:
        found = kernel.corpus_values(
            values if isinstance(values, array) else array("d", values),
            metrics,
            counting,
            alpha,
            resamples,
            confidence,
        )
        return [_average(found[12 * m : 12 * m + 12], counting) for m in range(metrics)]
    import numpy as np

    table = np.array(values, dtype=np.float64).reshape(-1, metrics, 3)
    return _numpy_averages(
        np.ascontiguousarray(table.transpose(1, 0, 2)), counting, alpha, resamples, confidence
    )


def _average(numbers: Sequence[float], counting: int | None) -> Average:
    """An :class:`Average` from the kernel's 12 numbers: sums, then R, P, F."""
    counts = (numbers[0], numbers[1], numbers[2])
    if counting == 2:
        return Average(None, None, None, counts)
    r, p, f = (Interval(*(perl_fixed(value) for value in numbers[k : k + 3])) for k in (3, 6, 9))
    return Average(r, p, f, counts)


def _numpy_averages(
    values: Matrix, counting: int | None, alpha: float, resamples: int, confidence: float
) -> list[Average]:
    """The spec of the compiled ``corpus_values``: ``values`` is metrics x
    evaluations x 3.  Infinite counts (``-w 1000``) give NaN and Inf as in C
    and Perl, without NumPy's warnings."""
    import numpy as np

    metrics = values.shape[0]
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        counts = _ordered_sums(values)
        if counting == 2:
            return [Average(None, None, None, _triple(counts[m])) for m in range(metrics)]
        samples = _samples(values, counting, alpha, resamples)  # resamples x metrics x 3
        found = []
        for m in range(metrics):
            r, p, f = (_interval(samples[:, m, k], resamples, confidence) for k in range(3))
            found.append(Average(r, p, f, _triple(counts[m])))
    return found


def _triple(row: Any) -> tuple[float, float, float]:
    return float(row[0]), float(row[1]), float(row[2])


def _ordered_sums(values: Matrix) -> Matrix:
    """Per metric and column, the values added one evaluation after another."""
    import numpy as np

    if values.shape[1] == 0:
        return np.zeros((values.shape[0], 3))
    return np.add.accumulate(values, axis=1)[:, -1, :]


def _samples(values: Matrix, counting: int | None, alpha: float, resamples: int) -> Matrix:
    import numpy as np

    from kurenai.rouge155._perl_random import perl_indices

    metrics, size = values.shape[0], values.shape[1]
    if size == 0:
        return np.zeros((resamples, metrics, 3))
    columns = np.ascontiguousarray(values.transpose(0, 2, 1).reshape(metrics * 3, size))
    sums = np.empty((resamples, metrics * 3))
    block = max(1, _BLOCK_VALUES // size)
    for start in range(0, resamples, block):
        seeds = range(start, min(start + block, resamples))
        _resampled_sums(columns, perl_indices(seeds, size), sums, start)
    sums = sums.reshape(resamples, metrics, 3)
    if counting is None:
        return sums / float(size)
    return _ratios(sums, alpha)


def _resampled_sums(
    columns: Matrix, indices: npt.NDArray[np.int64], out: Matrix, start: int
) -> None:
    """``out[start + s, k]``: the drawn values of column k added in draw order."""
    total = columns[:, indices[:, 0]].copy()
    for j in range(1, indices.shape[1]):
        total += columns[:, indices[:, j]]
    out[start : start + indices.shape[0]] = total.T


def _ratios(sums: Matrix, alpha: float) -> Matrix:
    """``-t 1``: per sample R = hit / model count, P = hit / peer count, and
    F = R·P / ((1-α)·P + α·R), each 0 where its denominator is not positive."""
    import numpy as np

    m_count, p_count, hit = sums[..., 0], sums[..., 1], sums[..., 2]
    recall = np.divide(hit, m_count, out=np.zeros_like(hit), where=m_count > 0)
    precision = np.divide(hit, p_count, out=np.zeros_like(hit), where=p_count > 0)
    denominator = (1 - alpha) * precision + alpha * recall
    f = np.divide(recall * precision, denominator, out=np.zeros_like(hit), where=denominator > 0)
    return np.stack([recall, precision, f], axis=-1)


def _interval(samples: Matrix, resamples: int, confidence: float) -> Interval:
    """The mean of the sorted samples and the script's interpolated bounds."""
    import numpy as np

    ranked = np.sort(samples, kind="stable")
    mean = np.add.accumulate(ranked)[-1] / resamples
    delta = resamples * ((100 - confidence) / 2.0) / 100.0
    upper = int(resamples - delta - 1)
    lower = int(delta)
    ratio = resamples - delta - 1 - upper

    def at(index: int) -> float:
        # A Perl array element: past either end it is undef, that is 0.
        if -len(ranked) <= index < len(ranked):
            return float(ranked[index])
        return 0.0

    low = at(lower) + (at(lower + 1) - at(lower)) * ratio
    high = at(upper) + (at(upper + 1) - at(upper)) * ratio
    return Interval(perl_fixed(mean), perl_fixed(low), perl_fixed(high))

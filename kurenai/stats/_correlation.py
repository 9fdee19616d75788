"""Correlations of a metric with human judgments, and how far to trust them.

Scores come as (systems x documents) matrices, NaN where a summary has no
score.  The *summary-level* correlation is the mean, over documents, of the
correlation across that document's systems; the *system-level* correlation
is the correlation of the systems' mean scores (Deutsch, Dror & Roth 2021,
the definitions SacreROUGE uses).  A correlation is undefined (NaN) for a
vector of fewer than :data:`MIN_PAIRS` scored pairs or a constant one; a
document whose correlation is undefined is left out of the summary-level
mean, and the mean of none is NaN.

The point estimates are ``scipy.stats``' own (``pearsonr``, ``spearmanr``,
``kendalltau`` with its default tau-b), called on each vector.  Resampling
calls a vectorised twin (:func:`batch_correlation`: masked sums over a whole
block of resamples at once) which agrees with them to rounding; a thousand
resamples of a hundred documents would otherwise be a few hundred thousand
SciPy calls.  SciPy is the ``correlate`` extra, imported on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import numpy.typing as npt

from kurenai._data.extras import pip_install
from kurenai._data.spelling import did_you_mean

__all__ = [
    "COEFFICIENTS",
    "DEFAULT_LEVELS",
    "LEVELS",
    "MIN_PAIRS",
    "RESAMPLING",
    "batch_correlation",
    "batch_level",
    "check_choice",
    "correlation",
    "level_correlation",
    "scipy_stats",
]

Matrix = npt.NDArray[np.float64]
COEFFICIENTS = ("pearson", "spearman", "kendall")
# summary: per document across systems, averaged; system: the systems' mean
# scores; global: every scored summary at once (SacreROUGE's three levels).
LEVELS = ("summary", "system", "global")
# What correlate computes unless asked: the two levels kurenai always had.
DEFAULT_LEVELS = ("summary", "system")
# Deutsch et al.'s three ways to resample a (systems x documents) matrix.
RESAMPLING = ("systems", "documents", "both")
MIN_PAIRS = 3
# Values per block of Kendall's (rows x pairs) arrays: small enough to stay in cache.
_BLOCK_VALUES = 1 << 16

# Vectors longer than this take SciPy's Kendall, one call each (O(n log n)).
KENDALL_PAIRWISE_UP_TO = 200


def scipy_stats() -> Any:
    """``scipy.stats``, or an ImportError naming the extra that installs it."""
    try:
        return importlib.import_module("scipy.stats")
    except ImportError as error:
        raise ImportError(f"correlations need SciPy: {pip_install('correlate')}") from error


def check_choice(value: str, choices: tuple[str, ...], what: str) -> str:
    """``value`` if it is one of ``choices``, else a ValueError listing them
    (and the likely one, as every other refusal of a name does)."""
    if value not in choices:
        hint = did_you_mean(value, choices)
        raise ValueError(f"unknown {what} {value!r}{hint}: choose from {', '.join(choices)}")
    return value


def correlation(coefficient: str, x: npt.ArrayLike, y: npt.ArrayLike) -> float:
    """``scipy.stats``' coefficient of the pairs where both are scored; NaN
    when undefined (fewer than :data:`MIN_PAIRS` pairs, or a constant side),
    without SciPy's warning."""
    a, b = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    kept = ~(np.isnan(a) | np.isnan(b))
    a, b = a[kept], b[kept]
    if a.size < MIN_PAIRS or np.ptp(a) == 0 or np.ptp(b) == 0:
        return float("nan")
    stats = scipy_stats()
    if coefficient == "pearson":
        return float(stats.pearsonr(a, b)[0])
    if coefficient == "spearman":
        return float(stats.spearmanr(a, b)[0])
    check_choice(coefficient, COEFFICIENTS, "coefficient")
    return float(stats.kendalltau(a, b)[0])


def level_correlation(coefficient: str, level: str, x: Matrix, z: Matrix) -> tuple[float, int]:
    """(correlation, vectors it averages) of metric ``x`` with human ``z``
    at ``level``: summary (mean over documents of the defined per-document
    correlations; the count of those documents), system (one vector of the
    systems' mean scores) or global (one vector of every summary)."""
    if check_choice(level, LEVELS, "level") == "system":
        with np.errstate(invalid="ignore"):
            value = correlation(coefficient, _row_means(x), _row_means(z))
        return value, int(not np.isnan(value))
    if level == "global":
        value = correlation(coefficient, np.ravel(x), np.ravel(z))
        return value, int(not np.isnan(value))
    values = [correlation(coefficient, x[:, j], z[:, j]) for j in range(x.shape[1])]
    defined = [v for v in values if not np.isnan(v)]
    return (float(np.mean(defined)) if defined else float("nan")), len(defined)


def _row_means(matrix: Matrix) -> Matrix:
    """Each row's mean over its scored cells (NaN for a row with none)."""
    counts = (~np.isnan(matrix)).sum(axis=-1)
    sums = np.nansum(matrix, axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)


# ------------------------------------------------------------ vectorised twin


def batch_correlation(coefficient: str, x: Matrix, y: Matrix) -> Matrix:
    """The coefficient along the last axis of ``x`` and ``y`` (same shape),
    for every leading index at once: :func:`correlation`'s values, to
    rounding, NaN where it is undefined."""
    x, y = np.array(x, dtype=np.float64), np.array(y, dtype=np.float64)
    missing = np.isnan(x) | np.isnan(y)
    x[missing] = np.nan
    y[missing] = np.nan
    count = (~missing).sum(axis=-1)
    undefined = (count < MIN_PAIRS) | _constant(x, missing) | _constant(y, missing)
    if coefficient == "kendall" and x.shape[-1] > KENDALL_PAIRWISE_UP_TO:
        # Long vectors (the global level): SciPy's O(n log n) tau-b per vector,
        # where the pairwise signs would take O(n^2) memory and time.
        flat_x, flat_y = x.reshape(-1, x.shape[-1]), y.reshape(-1, y.shape[-1])
        rows = [correlation("kendall", a, b) for a, b in zip(flat_x, flat_y)]
        value = np.array(rows, dtype=np.float64).reshape(x.shape[:-1])
    elif coefficient == "kendall":
        value = _kendall(x, y)
    else:
        if check_choice(coefficient, COEFFICIENTS, "coefficient") == "spearman":
            policy = {"nan_policy": "omit"} if missing.any() else {}  # omit is slower
            x = scipy_stats().rankdata(x, axis=-1, **policy)
            y = scipy_stats().rankdata(y, axis=-1, **policy)
        value = _pearson(x, y, missing, count)
    with np.errstate(invalid="ignore"):
        return np.where(undefined, np.nan, np.clip(value, -1.0, 1.0))


def _constant(values: Matrix, missing: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    high = np.where(missing, -np.inf, values).max(axis=-1)
    low = np.where(missing, np.inf, values).min(axis=-1)
    return high == low  # type: ignore[no-any-return]


def _pearson(x: Matrix, y: Matrix, missing: npt.NDArray[np.bool_], count: Any) -> Matrix:
    size = np.maximum(count, 1)
    dx = np.where(missing, 0.0, x - (np.nansum(x, axis=-1) / size)[..., None])
    dy = np.where(missing, 0.0, y - (np.nansum(y, axis=-1) / size)[..., None])
    with np.errstate(invalid="ignore", divide="ignore"):
        return (dx * dy).sum(axis=-1) / np.sqrt((dx * dx).sum(axis=-1) * (dy * dy).sum(axis=-1))  # type: ignore[no-any-return]


def _kendall(x: Matrix, y: Matrix) -> Matrix:
    """Tau-b: sum of sign products over pairs, over the root of the pairs
    untied in x times those untied in y (pairs with a missing side count in
    neither), in blocks of rows to bound the (rows x pairs) arrays."""
    n = x.shape[-1]
    first, second = np.triu_indices(n, k=1)
    flat_x, flat_y = x.reshape(-1, n), y.reshape(-1, n)
    rows = max(1, _BLOCK_VALUES // max(1, first.size))
    out = np.empty(flat_x.shape[0])
    for start in range(0, flat_x.shape[0], rows):
        bx, by = flat_x[start : start + rows], flat_y[start : start + rows]
        sx, sy = _signs(bx, first, second), _signs(by, first, second)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[start : start + rows] = (sx * sy).sum(axis=1, dtype=np.int64) / np.sqrt(
                np.abs(sx).sum(axis=1, dtype=np.int64) * np.abs(sy).sum(axis=1, dtype=np.int64)
            )
    return out.reshape(x.shape[:-1])


def _signs(values: Matrix, first: Any, second: Any) -> Any:
    """sign(v[first] - v[second]) per pair as int8; 0 for a tie or a NaN
    (every comparison with NaN is false)."""
    a, b = values[:, first], values[:, second]
    return (a > b).view(np.int8) - (a < b).view(np.int8)


def batch_level(coefficient: str, level: str, x: Matrix, z: Matrix) -> Matrix:
    """:func:`level_correlation` of each (systems x documents) matrix in a
    stack ``(samples x systems x documents)``: one value per sample."""
    if level == "system":
        return batch_correlation(coefficient, _row_means(x), _row_means(z))
    if level == "global":
        flat = (x.shape[0], -1)
        return batch_correlation(coefficient, x.reshape(flat), np.reshape(z, flat))
    per_document = batch_correlation(coefficient, np.swapaxes(x, 1, 2), np.swapaxes(z, 1, 2))
    defined = ~np.isnan(per_document)
    sums = np.where(defined, per_document, 0.0).sum(axis=1)
    counts = defined.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)

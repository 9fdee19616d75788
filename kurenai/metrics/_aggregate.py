"""Summaries of per-pair scores for ``kurenai.metrics``: mean and bootstrap.

Scores live in a float64 *table* of shape (types, 3, pairs): precision,
recall and F-measure of every pair, per ROUGE type.  :func:`bootstrap`
returns exactly what rouge-score's ``BootstrapAggregator`` returns for the
same scores and the same state of NumPy's global generator (the resampling
is :mod:`kurenai.stats._bootstrap`'s, shared with the command line).
"""

from __future__ import annotations

import numpy as np

from kurenai.stats import _bootstrap as _bootstrap

__all__ = ["bootstrap", "mean"]


def bootstrap(
    table: np.ndarray,
    n_samples: int = 1000,
    confidence_interval: float = 0.95,
    seed: int | None = None,
) -> np.ndarray:
    """Per type, rouge-score's (low, mid, high) x (precision, recall, F).

    Returns an array of shape (types, 3, 3).  Without a seed it draws from
    NumPy's global generator, as rouge-score does; ``seed`` draws what that
    generator would after ``np.random.seed(seed)``, without touching it (the
    resampling is the command line's, :func:`kurenai.stats._bootstrap.bootstrap`).
    """
    per_type = {str(index): scores.T for index, scores in enumerate(table)}
    found = _bootstrap.bootstrap(per_type, n_samples, confidence_interval, seed)
    return np.array([[list(bound) for bound in found[key]] for key in per_type])


def mean(table: np.ndarray) -> np.ndarray:
    """Per type, the plain mean of precision, recall and F over pairs: (types, 3)."""
    return np.asarray(table.mean(axis=2))

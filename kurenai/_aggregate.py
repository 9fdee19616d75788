"""Summaries of per-pair scores for ``kurenai.metrics``: mean and bootstrap.

Scores live in a float64 *table* of shape (types, 3, pairs): precision,
recall and F-measure of every pair, per ROUGE type.  :func:`bootstrap`
returns exactly what rouge-score's ``BootstrapAggregator`` returns for the
same scores and the same state of NumPy's global generator (the resampling
is :mod:`kurenai._bootstrap`'s, shared with the command line).
"""

from __future__ import annotations

import numpy as np

from kurenai import _bootstrap

__all__ = ["bootstrap", "check_bootstrap", "mean"]


def check_bootstrap(n_samples: int, confidence_interval: float) -> None:
    """rouge-score's argument checks, with its messages."""
    if not 0 <= confidence_interval <= 1:
        raise ValueError("confidence_interval must be in range [0, 1]")
    if n_samples <= 0:
        raise ValueError("n_samples must be positive")


def bootstrap(
    table: np.ndarray, n_samples: int = 1000, confidence_interval: float = 0.95
) -> np.ndarray:
    """Per type, rouge-score's (low, mid, high) x (precision, recall, F).

    Returns an array of shape (types, 3, 3).  Draws from NumPy's global
    generator, as rouge-score does (the resampling is the command line's,
    :func:`kurenai._bootstrap.bootstrap`).
    """
    check_bootstrap(n_samples, confidence_interval)
    per_type = {str(index): scores.T for index, scores in enumerate(table)}
    found = _bootstrap.bootstrap(per_type, n_samples, confidence_interval)
    return np.array([[list(bound) for bound in found[key]] for key in per_type])


def mean(table: np.ndarray) -> np.ndarray:
    """Per type, the plain mean of precision, recall and F over pairs: (types, 3)."""
    return np.asarray(table.mean(axis=2))

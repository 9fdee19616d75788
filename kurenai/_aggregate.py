"""Summaries of per-pair scores: rouge-score's bootstrap, computed faster.

Scores live in a float64 *table* of shape (types, 3, pairs): precision,
recall and F-measure of every pair, per ROUGE type.

:func:`bootstrap` returns exactly what rouge-score's ``BootstrapAggregator``
returns for the same scores and the same state of NumPy's global generator,
and leaves the generator in the same state.  The aggregator draws, per type
in order, ``n_samples`` times ``np.random.choice(n, n)`` (legacy ``randint``
draws, one stream), averages each resample with ``np.mean(axis=0)`` (a
sequential sum per measure, then a division by n) and takes
``np.percentile`` of those means.  Here the draws come in blocks of samples
from one ``randint`` call (the same stream), and each block is summed down a
(pairs, samples) matrix, whose reduction over its outer axis is the same
sequential sum, vectorised over samples.
"""

from __future__ import annotations

import numpy as np

__all__ = ["bootstrap", "check_bootstrap", "mean"]

# Index draws per block: bounds the memory (a few MiB) whatever the corpus.
_BLOCK_DRAWS = 1 << 18


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
    generator, as rouge-score does.
    """
    check_bootstrap(n_samples, confidence_interval)
    delta = (1 - confidence_interval) / 2
    q = 100 * np.array([delta, 0.5, 1 - delta])
    result = np.empty((table.shape[0], 3, 3))
    for index, scores in enumerate(table):
        result[index] = np.percentile(_resample_means(scores, n_samples), q, axis=0)
    return result


def mean(table: np.ndarray) -> np.ndarray:
    """Per type, the plain mean of precision, recall and F over pairs: (types, 3)."""
    return np.asarray(table.mean(axis=2))


def _resample_means(scores: np.ndarray, n_samples: int) -> np.ndarray:
    """(n_samples, 3) means of bootstrap resamples of ``scores`` (3, pairs)."""
    size = scores.shape[1]
    means = np.empty((n_samples, 3))
    block = max(2, _BLOCK_DRAWS // max(size, 1))
    for start in range(0, n_samples, block):
        count = min(block, n_samples - start)
        drawn = np.random.randint(0, size, size=(count, size))
        if count == 1:
            # A (pairs, 1) matrix would be summed as one contiguous run
            # (pairwise), not sequentially: use rouge-score's own expression.
            means[start] = np.mean(scores.T[drawn[0], :], axis=0)
            continue
        rows = np.ascontiguousarray(drawn.T)  # (pairs, samples)
        for measure in range(3):
            means[start : start + count, measure] = scores[measure].take(rows).sum(axis=0)
        means[start : start + count] /= size
    return means

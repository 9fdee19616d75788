"""rouge-score's scoring utilities, re-exported: the very same objects.

``Score`` results from kurenai and rouge-score are interchangeable, and
rouge-score's ``BootstrapAggregator`` aggregates both.  kurenai adds
:func:`seeded_bootstrap`, because that aggregator samples from NumPy's global
random generator and so differs from run to run.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
from rouge_score.scoring import (
    AggregateScore,
    BaseScorer,
    BootstrapAggregator,
    Score,
    fmeasure,
)

__all__ = [
    "AggregateScore",
    "BaseScorer",
    "BootstrapAggregator",
    "Score",
    "fmeasure",
    "seeded_bootstrap",
]


@contextmanager
def seeded_bootstrap(seed: int | None) -> Iterator[None]:
    """Make ``BootstrapAggregator.aggregate()`` reproducible inside the block.

    Seeds NumPy's global generator (which rouge-score's aggregator samples
    with ``np.random.choice``) and restores its previous state afterwards, so
    the result equals rouge-score's after ``np.random.seed(seed)``.  ``None``
    leaves the generator alone.

    >>> aggregator = BootstrapAggregator(n_samples=100)
    >>> for value in (0.2, 0.4, 0.9):
    ...     aggregator.add_scores({"rouge1": Score(value, value, value)})
    >>> with seeded_bootstrap(0):
    ...     first = aggregator.aggregate()
    >>> with seeded_bootstrap(0):
    ...     again = aggregator.aggregate()
    >>> first == again
    True
    """
    if seed is None:
        yield
        return
    state = np.random.get_state()
    np.random.seed(seed)
    try:
        yield
    finally:
        np.random.set_state(state)

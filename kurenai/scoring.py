"""rouge-score's scoring utilities, re-exported: the very same objects.

``Score`` results from kurenai and rouge-score are interchangeable, and
rouge-score's ``BootstrapAggregator`` aggregates both.  kurenai adds
:func:`seeded_bootstrap`, because that aggregator samples from NumPy's global
random generator and so differs from run to run.

rouge-score ships no type information, so type checkers would see these names
as ``Any``.  For them (and only for them) this module declares their typed
shape: ``Score`` is a named tuple of three floats, ``AggregateScore`` of three
``Score``s.  At run time the names are rouge-score's own classes.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import abc
    from typing import NamedTuple

    class Score(NamedTuple):
        """Precision, recall and F-measure of one ROUGE type."""

        precision: float
        recall: float
        fmeasure: float

    class AggregateScore(NamedTuple):
        """Bootstrap confidence interval: the low, mid and high ``Score``."""

        low: Score
        mid: Score
        high: Score

    class BaseScorer(abc.ABC):
        """What rouge-score's scorers (and kurenai's ``RougeScorer``) provide."""

        @abc.abstractmethod
        def score(self, target: str, prediction: str) -> dict[str, Score]: ...

    class BootstrapAggregator:
        """Bootstrap resampling of per-pair scores into confidence intervals."""

        def __init__(self, confidence_interval: float = 0.95, n_samples: int = 1000) -> None: ...
        def add_scores(self, scores: Mapping[str, Score]) -> None: ...
        def aggregate(self) -> dict[str, AggregateScore]: ...

    def fmeasure(precision: float, recall: float) -> float: ...

else:
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

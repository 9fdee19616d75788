"""rouge-score's scoring utilities, re-exported: the very same objects.

``Score`` results from kurenai and rouge-score are interchangeable, and
rouge-score's ``BootstrapAggregator`` aggregates both.
"""

from rouge_score.scoring import (
    AggregateScore,
    BaseScorer,
    BootstrapAggregator,
    Score,
    fmeasure,
)

__all__ = ["AggregateScore", "BaseScorer", "BootstrapAggregator", "Score", "fmeasure"]

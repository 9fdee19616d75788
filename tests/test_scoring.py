"""kurenai.scoring re-exports rouge-score's objects themselves."""

from __future__ import annotations

import rouge_score.scoring as rs_scoring

import kurenai.scoring
from kurenai.rouge_scorer import RougeScorer


def test_reexports_are_the_same_objects() -> None:
    for name in ("Score", "AggregateScore", "BootstrapAggregator", "BaseScorer", "fmeasure"):
        assert getattr(kurenai.scoring, name) is getattr(rs_scoring, name)


def test_scores_work_with_rouge_score_aggregator() -> None:
    scorer = RougeScorer(["rouge1"])
    assert isinstance(scorer, rs_scoring.BaseScorer)
    aggregator = rs_scoring.BootstrapAggregator(n_samples=10)
    aggregator.add_scores(scorer.score("a b", "a b"))
    assert aggregator.aggregate()["rouge1"].mid == rs_scoring.Score(1.0, 1.0, 1.0)

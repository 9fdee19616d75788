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


def test_seeded_bootstrap_is_reproducible_and_restores_the_rng() -> None:
    import numpy as np

    from kurenai.scoring import seeded_bootstrap

    aggregator = rs_scoring.BootstrapAggregator(n_samples=50)
    for value in (0.1, 0.5, 0.7, 1.0):
        aggregator.add_scores({"rougeL": rs_scoring.Score(value, value / 2, value)})
    np.random.seed(123)
    expected_next = np.random.random()
    np.random.seed(123)
    with seeded_bootstrap(7):
        first = aggregator.aggregate()
    assert np.random.random() == expected_next  # the caller's RNG state is back
    with seeded_bootstrap(7):
        assert aggregator.aggregate() == first
    np.random.seed(7)
    assert aggregator.aggregate() == first  # what rouge-score gives after seeding

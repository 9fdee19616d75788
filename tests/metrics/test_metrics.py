"""kurenai.metrics.compute against evaluate's rouge algorithm run on rouge-score.

evaluate's metric cannot be loaded offline (it fetches its script from the
Hub), so :func:`evaluate_rouge` runs its documented algorithm on the
installed rouge-score: ``score`` (or ``score_multi`` when the references are
lists) per pair, ``BootstrapAggregator``, the F-measure of ``mid``; or a list
of F-measures per type without the aggregator.  ``evaluate.load("rouge",
seed=S)`` runs it after ``np.random.seed(S)`` and restores NumPy's state.
"""

from __future__ import annotations

import functools
import random
from typing import Any

import numpy as np
import pytest
from rouge_score import rouge_scorer, scoring

from kurenai import metrics
from kurenai.scoring import AggregateScore, Score

WORDS = [
    "the",
    "cat",
    "cats",
    "sat",
    "sitting",
    "on",
    "a",
    "mat",
    "dog",
    "dogs",
    "running",
    "runs",
    "ran",
    "42",
    "x.",
    "fox,",
    "and",
]
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def evaluate_rouge(
    predictions: list[str],
    references: list[Any],
    rouge_types: list[str] | None = None,
    use_aggregator: bool = True,
    use_stemmer: bool = False,
) -> dict[str, Any]:
    """evaluate's ``rouge._compute``, on rouge-score."""
    scorer = rouge_scorer.RougeScorer(rouge_types or TYPES, use_stemmer=use_stemmer)
    multi_ref = isinstance(references[0], list)
    all_scores = [
        scorer.score_multi(ref, pred) if multi_ref else scorer.score(ref, pred)
        for ref, pred in zip(references, predictions)
    ]
    if not use_aggregator:
        return {key: [s[key].fmeasure for s in all_scores] for key in all_scores[0]}
    aggregator = scoring.BootstrapAggregator()
    for scores in all_scores:
        aggregator.add_scores(scores)
    return {key: value.mid.fmeasure for key, value in aggregator.aggregate().items()}


def seeded(seed: int, function: Any, *args: Any, **kwargs: Any) -> Any:
    state = np.random.get_state()
    np.random.seed(seed)
    try:
        return function(*args, **kwargs)
    finally:
        np.random.set_state(state)


def text(rng: random.Random, lines: int = 3) -> str:
    """ASCII text with sentences on lines; sometimes empty or punctuation only."""
    if rng.random() < 0.05:
        return rng.choice(["", "...", "\n"])
    return "\n".join(
        " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 9)))
        for _ in range(rng.randint(1, lines))
    )


def corpus(seed: int, size: int, multi: bool = False) -> tuple[list[str], list[Any]]:
    rng = random.Random(seed)
    predictions = [text(rng) for _ in range(size)]
    if multi:
        return predictions, [[text(rng) for _ in range(rng.randint(1, 4))] for _ in range(size)]
    return predictions, [text(rng) for _ in range(size)]


@pytest.mark.parametrize("multi", [False, True], ids=["single-ref", "multi-ref"])
@pytest.mark.parametrize("use_stemmer", [False, True], ids=["plain", "stemmer"])
@pytest.mark.parametrize("tokenizer", ["rouge-score", None], ids=["rouge-score-tok", "default"])
def test_equals_evaluate_bit_for_bit(
    backend: str, multi: bool, use_stemmer: bool, tokenizer: str | None
) -> None:
    predictions, references = corpus(7 + multi + 2 * use_stemmer, 60, multi)
    per_pair, aggregated = _expected(multi, use_stemmer)
    options: dict[str, Any] = {"use_stemmer": use_stemmer, "tokenizer": tokenizer}
    got = metrics.compute(predictions, references, use_aggregator=False, **options)
    assert got == per_pair
    assert all(type(value) is float for values in got.values() for value in values)
    got = metrics.compute(predictions, references, seed=3, **options)
    assert got == aggregated
    assert all(type(value) is float for value in got.values())


@functools.cache
def _expected(multi: bool, use_stemmer: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    # The same for every backend and both tokenizers: computed once.
    predictions, references = corpus(7 + multi + 2 * use_stemmer, 60, multi)
    options = {"use_stemmer": use_stemmer}
    return (
        evaluate_rouge(predictions, references, use_aggregator=False, **options),
        seeded(3, evaluate_rouge, predictions, references, **options),
    )


def test_seed_restores_numpy_state_and_none_uses_the_global_generator() -> None:
    predictions, references = corpus(11, 40)
    np.random.seed(123)
    before = np.random.get_state()
    first = metrics.compute(predictions, references, ["rouge1", "rougeL"], seed=9)
    after = np.random.get_state()
    assert all(np.array_equal(a, b) for a, b in zip(before, after))
    assert metrics.compute(predictions, references, ["rouge1", "rougeL"], seed=9) == first
    np.random.seed(5)
    unseeded = metrics.compute(predictions, references, ["rouge1"], tokenizer="rouge-score")
    ours_after = np.random.get_state()[1].copy()
    np.random.seed(5)
    assert unseeded == evaluate_rouge(predictions, references, ["rouge1"])
    assert np.array_equal(np.random.get_state()[1], ours_after)


def test_default_types_values_and_order() -> None:
    result = metrics.compute(["a b c"], ["a b d"], seed=0)
    assert list(result) == TYPES
    assert result["rouge1"] == pytest.approx(2 / 3)


def test_mean_aggregate_is_the_plain_mean() -> None:
    predictions, references = corpus(5, 30)
    per_pair = metrics.compute(predictions, references, use_aggregator=False)
    means = metrics.compute(predictions, references, aggregate="mean")
    for rouge_type in TYPES:
        assert means[rouge_type] == float(np.mean(per_pair[rouge_type]))


def test_details_give_precision_and_recall() -> None:
    predictions, references = corpus(2, 25, multi=True)
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"])
    expected = [scorer.score_multi(refs, p) for refs, p in zip(references, predictions)]
    options: dict[str, Any] = {"rouge_types": ["rouge1", "rougeL"], "tokenizer": "rouge-score"}
    pairs = metrics.compute(predictions, references, use_aggregator=False, details=True, **options)
    assert pairs["rougeL"] == [scores["rougeL"] for scores in expected]
    boot = metrics.compute(predictions, references, details=True, seed=1, **options)
    aggregator = scoring.BootstrapAggregator()
    for scores in expected:
        aggregator.add_scores(scores)
    assert boot == seeded(1, aggregator.aggregate)
    assert isinstance(boot["rouge1"], AggregateScore)
    mean = metrics.compute(predictions, references, aggregate="mean", details=True, **options)
    assert isinstance(mean["rouge1"], Score)
    assert mean["rouge1"].recall == float(np.mean([s["rouge1"].recall for s in expected]))


def test_bootstrap_options_reach_the_aggregator() -> None:
    predictions, references = corpus(4, 20)
    got = metrics.compute(
        predictions, references, ["rouge2"], details=True, seed=2, n_samples=50,
        confidence_interval=0.5, tokenizer="rouge-score",
    )  # fmt: skip
    scorer = rouge_scorer.RougeScorer(["rouge2"])
    aggregator = scoring.BootstrapAggregator(confidence_interval=0.5, n_samples=50)
    for prediction, reference in zip(predictions, references):
        aggregator.add_scores(scorer.score(reference, prediction))
    assert got == seeded(2, aggregator.aggregate)


def test_any_script_and_callable_tokenizers() -> None:
    assert metrics.compute(["いぬ ねこ"], ["いぬ ねこ"], ["rouge1"], seed=0) == {"rouge1": 1.0}
    got = metrics.compute(["今日は晴れ"], ["今日は雨"], ["rouge1"], tokenizer="char", seed=0)
    assert got["rouge1"] == pytest.approx(2 * 0.6 * 0.75 / 1.35)
    upper = metrics.compute(["A b"], ["a b"], ["rouge1"], tokenizer=str.split, seed=0)
    assert upper == {"rouge1": 0.5}


def test_several_references_best_and_avg() -> None:
    predictions, references = ["a b c"], [["a x y", "a b c d"]]
    best = metrics.compute(predictions, references, ["rouge1"], details=True, aggregate="mean")
    assert best["rouge1"] == Score(0.75 / 0.75 * 0.75 / 0.75, 0.75, 2 * 0.75 / 1.75)
    avg = metrics.compute(
        predictions, references, ["rouge1"], details=True, aggregate="mean", accumulate="avg"
    )
    assert avg["rouge1"].precision == pytest.approx((1 / 3 + 1) / 2)
    assert avg["rouge1"].fmeasure == pytest.approx((1 / 3 + 2 * 0.75 / 1.75) / 2)


def test_mixed_single_and_list_references() -> None:
    got = metrics.compute(["a b", "c"], ["a b", ["x", "c"]], ["rouge1"], use_aggregator=False)
    assert got == {"rouge1": [1.0, 1.0]}


@pytest.mark.parametrize(
    ("predictions", "references", "options", "error", "message"),
    [
        ([], [], {}, ValueError, "no predictions"),
        (["a"], ["a", "b"], {}, ValueError, "1 predictions but 2 references"),
        (["a"], [[]], {}, ValueError, r"references\[0\] is an empty list"),
        (["a"], [["a", 3]], {}, TypeError, r"references\[0\]\[1\] must be a str"),
        (["a", 1], ["a", "b"], {}, TypeError, r"predictions\[1\] must be a str"),
        ([None], ["a"], {}, TypeError, r"predictions\[0\] must be a str, got a null"),
        (["a"], [float("nan")], {}, TypeError, r"references\[0\] must be a str or a list"),
        ("a b", ["a"], {}, TypeError, "not a single string"),
        (["a"], ["a"], {"aggregate": "median"}, ValueError, "aggregate must be one of"),
        (["a"], ["a"], {"accumulate": "max"}, ValueError, "invalid multi-reference mode 'max'"),
        (["a"], ["a"], {"rouge_types": "rouge1"}, TypeError, "list of ROUGE types"),
        (["a"], ["a"], {"rouge_types": ["rouge0"]}, ValueError, "invalid ROUGE type"),
        (["a"], ["a"], {"n_samples": 0}, ValueError, "n_samples must be positive"),
        (["a"], ["a"], {"tokenizer": "nope"}, ValueError, "unknown tokenizer"),
    ],
)
def test_bad_input_gets_one_clear_error(
    predictions: Any, references: Any, options: dict[str, Any], error: type, message: str
) -> None:
    with pytest.raises(error, match=message):
        metrics.compute(predictions, references, **options)


def test_threads_give_the_same_numbers() -> None:
    predictions, references = corpus(9, 300, multi=True)
    one = metrics.compute(predictions, references, use_aggregator=False)
    assert metrics.compute(predictions, references, use_aggregator=False, n_jobs=2) == one

"""ROUGE-W/S/SU and the multi-reference modes through RougeScorer's API."""

from __future__ import annotations

import math
import pickle

import pytest

from kurenai import _backend, _lcs_py, _variants_py
from kurenai.rouge_scorer import ROUGE_TYPES, RougeScorer
from kurenai.scoring import Score

VARIANTS = ["rougeW", "rougeS4", "rougeSU4", "rougeS", "rougeSU", "rougeS1"]
MIXED = ["rouge1", "rougeW", "rougeL", "rougeSU4", "rougeLsum", "rouge2"]
TARGETS = ["the cat sat on the mat\nit was warm", "猫 が いる\nthe mat", "a b c d e f", ""]
PREDICTIONS = ["the cat sat\non a mat", "猫 が いた", "a c b d f e", "x y"]


@pytest.mark.parametrize("name", VARIANTS)
def test_variant_types_are_accepted(name: str) -> None:
    scores = RougeScorer([name]).score("a b c d", "a b c d")
    assert list(scores) == [name]
    assert scores[name].precision == 1.0


@pytest.mark.parametrize(
    "name", ["rougeS0", "rougeSU04", "rougeW2", "rougeX", "rougeS-1", "rouges4"]
)
def test_invalid_names_are_rejected(name: str) -> None:
    with pytest.raises(ValueError, match="rougeSU"):
        RougeScorer([name])


@pytest.mark.parametrize("weight", [0, -1.2, math.inf, math.nan])
def test_weight_must_be_positive(weight: float) -> None:
    with pytest.raises(ValueError, match="rouge_w_weight"):
        RougeScorer(["rougeW"], rouge_w_weight=weight)


def test_weight_must_be_a_number() -> None:
    with pytest.raises(TypeError, match="rouge_w_weight"):
        RougeScorer(["rougeW"], rouge_w_weight="1.2")  # type: ignore[arg-type]


def test_rouge_score_types_are_unchanged_beside_variants(backend: str) -> None:
    mixed, plain = RougeScorer(MIXED), RougeScorer([t for t in MIXED if t in ROUGE_TYPES])
    for target, prediction in zip(TARGETS, PREDICTIONS):
        scores = mixed.score(target, prediction)
        assert list(scores) == MIXED
        expected = plain.score(target, prediction)
        assert {t: scores[t] for t in expected} == expected


def test_identical_texts_show_perls_double_weighting(backend: str) -> None:
    # ROUGE-1.5.5 prints R 0.69883, P 1.00000 for two identical 6-token texts.
    score = RougeScorer(["rougeW"]).score("a b c d e f", "a b c d e f")["rougeW"]
    assert (f"{score.recall:.5f}", score.precision) == ("0.69883", 1.0)


def test_su_drops_the_last_unigram(backend: str) -> None:
    assert RougeScorer(["rougeSU4"]).score("b a", "a b")["rougeSU4"] == Score(0.0, 0.0, 0.0)


def test_empty_sides_score_zero(backend: str) -> None:
    scorer = RougeScorer(VARIANTS)
    for target, prediction in [("", "a b"), ("a b", ""), ("", ""), ("a", "a")]:
        for score in scorer.score(target, prediction).values():
            assert score == Score(0.0, 0.0, 0.0) or target == prediction == "a"


def test_batch_equals_per_pair_scores(backend: str) -> None:
    scorer = RougeScorer(MIXED)
    expected = [scorer.score(t, p) for t, p in zip(TARGETS, PREDICTIONS)]
    assert scorer.score_batch(TARGETS, PREDICTIONS) == expected
    assert scorer.score_batch(TARGETS, PREDICTIONS, n_jobs=2) == expected
    columns = scorer.score_batch(
        [*TARGETS, None], [*PREDICTIONS, "a"], columnar=True, allow_none=True
    )
    for rouge_type in MIXED:
        assert list(columns[rouge_type].recall[:-1]) == [s[rouge_type].recall for s in expected]
        assert math.isnan(columns[rouge_type].recall[-1])


def test_size_limit_applies_to_variants(backend: str) -> None:
    scorer = RougeScorer(MIXED)
    scores = scorer.score_batch(["a b c", "a b"], ["a b", "a b"], max_tokens=2)
    assert scores == [None, scorer.score("a b", "a b")]


@pytest.mark.parametrize("mode", ["best", "best-recall", "average", "mean"])
def test_one_reference_is_the_plain_score_in_every_mode(backend: str, mode: str) -> None:
    scorer = RougeScorer(MIXED)
    for target, prediction in zip(TARGETS, PREDICTIONS):
        combined = scorer.score_multi([target], prediction, mode=mode)
        single = scorer.score(target, prediction)
        for rouge_type in MIXED:
            assert combined[rouge_type] == pytest.approx(single[rouge_type], rel=1e-12)


def test_modes_on_two_references() -> None:
    scorer = RougeScorer(["rouge1"])
    references, prediction = ["a b c d", "a x"], "a b"
    best = scorer.score_multi(references, prediction)
    # F: 2/3 against the first, 1/2 against the second; recall 1/2 for both.
    assert best["rouge1"] == scorer.score("a b c d", "a b")["rouge1"]
    assert scorer.score_multi(references, prediction, mode="best-recall") == best
    mean = scorer.score_multi(references, prediction, mode="mean")["rouge1"]
    assert mean == Score((1.0 + 0.5) / 2, (0.5 + 0.5) / 2, (2 / 3 + 0.5) / 2)
    # -f A pools: 3 hits of 6 reference tokens, 3 hits of 2 x 2 prediction tokens.
    average = scorer.score_multi(references, prediction, mode="average")["rouge1"]
    assert (average.recall, average.precision) == (3 / 6, 3 / 4)


def test_best_recall_keeps_the_first_of_equal_rounded_recalls() -> None:
    scorer = RougeScorer(["rouge1"])
    # Recalls 1/3 and 1/3 (equal); F prefers the second (shorter prediction match).
    references = ["a b c", "a x y"]
    chosen = scorer.score_multi(references, "a", mode="best-recall")["rouge1"]
    assert chosen == scorer.score(references[0], "a")["rouge1"]


def test_multi_batch_takes_the_mode(backend: str) -> None:
    scorer = RougeScorer(MIXED)
    targets, predictions = [TARGETS[:2], TARGETS[2:]], PREDICTIONS[:2]
    for mode in ["best", "average"]:
        expected = [scorer.score_multi(t, p, mode=mode) for t, p in zip(targets, predictions)]
        assert scorer.score_multi_batch(targets, predictions, mode=mode) == expected


def test_unknown_mode_is_rejected() -> None:
    with pytest.raises(ValueError, match="best-recall"):
        RougeScorer(["rouge1"]).score_multi(["a"], "a", mode="max")
    with pytest.raises(ValueError, match="average"):
        RougeScorer(["rougeW"]).score_multi_batch([["a"]], ["a"], mode="A")


def test_scorer_with_variants_pickles(backend: str) -> None:
    scorer = RougeScorer(MIXED, rouge_w_weight=1.5)
    clone = pickle.loads(pickle.dumps(scorer))
    assert clone.score(TARGETS[0], PREDICTIONS[0]) == scorer.score(TARGETS[0], PREDICTIONS[0])


def test_custom_tokenizer_feeds_the_variants(backend: str) -> None:
    scorer = RougeScorer(["rougeS4"], tokenizer="char")
    assert scorer.score("いぬねこ", "いぬねこ")["rougeS4"].fmeasure == 1.0


@pytest.mark.compiled_only
@pytest.mark.parametrize("mode", ["best", "best-recall", "average", "mean"])
@pytest.mark.parametrize("tokenizer", ["whitespace", "rouge-score", "char"])
def test_compiled_and_pure_paths_agree_bit_for_bit(
    monkeypatch: pytest.MonkeyPatch, mode: str, tokenizer: str
) -> None:
    def scores() -> tuple[object, ...]:
        scorer = RougeScorer(
            [*MIXED, "rougeS", "rougeSU1"], tokenizer=tokenizer, rouge_w_weight=1.7
        )
        multi = [
            scorer.score_multi(TARGETS[:k] + TARGETS[k + 1 :], p, mode=mode)
            for k, p in enumerate(PREDICTIONS)
        ]
        return scorer.score_batch(TARGETS, PREDICTIONS), multi

    compiled = scores()
    monkeypatch.setattr(_backend, "fused", None)
    monkeypatch.setattr(_backend, "kernels", _lcs_py)
    monkeypatch.setattr(_backend, "variants", _variants_py)
    assert scores() == compiled


def test_weight_reaches_the_plan(backend: str) -> None:
    light, heavy = RougeScorer(["rougeW"]), RougeScorer(["rougeW"], rouge_w_weight=2.0)
    target, prediction = "a b c x a d b e c", "a b c"
    assert heavy.score(target, prediction)["rougeW"].precision == pytest.approx(3**0.5 / 3)
    assert light.score(target, prediction) != heavy.score(target, prediction)
    clone = pickle.loads(pickle.dumps(heavy))
    assert clone.score(target, prediction) == heavy.score(target, prediction)

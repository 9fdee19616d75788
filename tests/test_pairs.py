"""``kurenai.pairs``: MBR selection, self-ROUGE and one-to-many, held to the
naive loops over ``RougeScorer.score`` they replace."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kurenai import pairs
from kurenai.rouge_scorer import RougeScorer

WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog", "ran", "running"]
text = st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join)


def naive_utilities(samples: list[str], rouge_type: str, measure: str) -> list[float]:
    scorer = RougeScorer([rouge_type])
    return [
        math.fsum(
            getattr(scorer.score(other, sample)[rouge_type], measure)
            for j, other in enumerate(samples)
            if j != i
        )
        / (len(samples) - 1)
        for i, sample in enumerate(samples)
    ]


@settings(max_examples=40)
@given(
    samples=st.lists(text, min_size=2, max_size=7),
    rouge_type=st.sampled_from(["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeSU4"]),
    measure=st.sampled_from(["precision", "recall", "fmeasure"]),
)
def test_mbr_is_the_first_best_of_the_naive_loop(
    samples: list[str], rouge_type: str, measure: str
) -> None:
    expected = naive_utilities(samples, rouge_type, measure)
    found = pairs.expected_utilities(samples, rouge_type, measure)
    assert found.tolist() == expected
    assert pairs.mbr_select(samples, rouge_type, measure) == expected.index(max(expected))


def test_ties_go_to_the_first_sample_and_the_check_can_fail() -> None:
    # Samples 1 and 2 are the same text: equal utilities, the first wins.
    samples = ["a b c", "a b d", "a b d", "x y z"]
    utilities = pairs.expected_utilities(samples, "rouge1")
    assert utilities[1] == utilities[2] == max(utilities)
    assert pairs.mbr_select(samples, "rouge1") == 1
    # Negative control: the naive loop's answer differs once a sample changes.
    assert pairs.mbr_select(["a b c", "x y z", "x y z"], "rouge1") == 1
    assert pairs.mbr_select(["only"]) == 0
    with pytest.raises(ValueError, match="must not be empty"):
        pairs.mbr_select([])


@settings(max_examples=30)
@given(texts=st.lists(text, min_size=2, max_size=6))
def test_self_rouge_is_the_mean_over_ordered_pairs(texts: list[str]) -> None:
    scorer = RougeScorer(["rouge2"])
    values = [
        scorer.score(b, a)["rouge2"].fmeasure
        for i, a in enumerate(texts)
        for j, b in enumerate(texts)
        if i != j
    ]
    assert pairs.self_rouge(texts, "rouge2") == math.fsum(values) / len(values)


@settings(max_examples=30)
@given(target=text, predictions=st.lists(text, max_size=8))
def test_one_to_many_is_score_of_each(target: str, predictions: list[str]) -> None:
    types = ["rouge1", "rougeL", "rougeW"]
    scorer = RougeScorer(types, use_stemmer=True)
    found = pairs.one_to_many(target, predictions, types, scorer=scorer)
    for k, prediction in enumerate(predictions):
        for name, score in scorer.score(target, prediction).items():
            cell = found[name]
            assert (cell.precision[k], cell.recall[k], cell.fmeasure[k]) == tuple(score)


def test_refusals() -> None:
    with pytest.raises(ValueError, match="did you mean 'fmeasure'"):
        pairs.mbr_select(["a", "b"], "rouge1", "fmesure")
    with pytest.raises(ValueError, match="at least two texts"):
        pairs.self_rouge(["a"])
    with pytest.raises(ValueError, match="computes rouge1, not rougeL"):
        pairs.mbr_select(["a", "b"], scorer=RougeScorer(["rouge1"]))
    with pytest.raises(TypeError, match="not with it"):
        pairs.mbr_select(["a", "b"], scorer=RougeScorer(["rougeL"]), use_stemmer=True)
    with pytest.raises(TypeError, match=r"samples\[1\] must be a str"):
        pairs.mbr_select(["a", None])  # type: ignore[list-item]
    assert isinstance(pairs.utility_matrix(["a b", "b"]), np.ndarray)

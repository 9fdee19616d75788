"""The jackknife over references: mode="jackknife" (and its -f B / -f A forms)
equal to the definition written plainly, on every path and surface."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kurenai.rouge_scorer import RougeScorer
from kurenai.scoring import Score

INNER = {
    "jackknife": "best",
    "jackknife-best-recall": "best-recall",
    "jackknife-average": "average",
}
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW", "rougeSU4"]
words = st.lists(st.sampled_from(["a", "b", "c", "the", "cat", "sat"]), min_size=0, max_size=8)
texts = words.map(" ".join)


def plain_jackknife(scorer: RougeScorer, refs: list[str], prediction: str, inner: str) -> dict:
    """The definition: the mean, over each set of references less one, of the
    inner mode's scores against that set; one reference: its own scores."""
    if len(refs) == 1:
        return scorer.score_multi(refs, prediction, mode=inner)
    found = [
        scorer.score_multi(refs[:j] + refs[j + 1 :], prediction, mode=inner)
        for j in range(len(refs))
    ]
    return {
        t: Score(
            *(
                sum(getattr(f[t], m) for f in found) / len(found)
                for m in ("precision", "recall", "fmeasure")
            )
        )
        for t in scorer.rouge_types
    }


@settings(max_examples=30, deadline=None)
@given(
    records=st.lists(
        st.tuples(st.lists(texts, min_size=1, max_size=4), texts), min_size=1, max_size=4
    )
)
def test_equals_the_definition(backend: str, records: list[tuple[list[str], str]]) -> None:
    scorer = RougeScorer(TYPES)
    for mode, inner in INNER.items():
        batch = scorer.score_multi_batch(
            [r for r, _ in records], [p for _, p in records], mode=mode
        )
        for (refs, prediction), from_batch in zip(records, batch):
            expected = plain_jackknife(scorer, refs, prediction, inner)
            assert scorer.score_multi(refs, prediction, mode=mode) == expected
            assert from_batch == expected


def test_differs_from_best_where_the_best_reference_is_left_out() -> None:
    """Negative control: leaving out the best reference lowers the score."""
    scorer = RougeScorer(["rouge1"])
    refs, prediction = ["the cat sat on the mat", "a cat sat", "the dog ran away"], "the cat sat"
    best = scorer.score_multi(refs, prediction)["rouge1"]
    jack = scorer.score_multi(refs, prediction, mode="jackknife")["rouge1"]
    assert jack != best
    assert jack == plain_jackknife(scorer, refs, prediction, "best")["rouge1"]


def test_one_reference_is_its_own_score() -> None:
    scorer = RougeScorer(["rouge1", "rougeL"])
    for mode in INNER:
        assert scorer.score_multi(["a b"], "a b c", mode=mode) == scorer.score("a b", "a b c")


def test_every_surface_takes_it(tmp_path: Any) -> None:
    from kurenai.explain import explain_multi
    from kurenai.metrics import Rouge

    scorer = RougeScorer(["rouge1"])
    refs, prediction = ["the cat sat on the mat", "a cat sat", "the dog ran away"], "the cat sat"
    expected = scorer.score_multi(refs, prediction, mode="jackknife")
    metric = Rouge(rouge_types=["rouge1"], accumulate="jackknife")
    metric.update([prediction], [refs])
    assert metric.compute(aggregate="mean")["rouge1"] == pytest.approx(expected["rouge1"].fmeasure)
    explained = explain_multi(scorer, refs, prediction, mode="jackknife")
    assert explained.scores == expected and explained.chosen == {"rouge1": None}
    signature = str(scorer.signature("jackknife"))
    assert "|refs:jackknife|" in signature
    with pytest.raises(ValueError, match="jackknife-average"):
        scorer.score_multi(refs, prediction, mode="jackknife-x")


def test_jackknife_average_refuses_past_its_stated_reference_count() -> None:
    from kurenai._core.jackknife import MAX_POOLED_REFERENCES

    scorer = RougeScorer(["rouge1"])
    refs = ["a b c"] * (MAX_POOLED_REFERENCES + 1)
    with pytest.raises(ValueError, match="at most 1,000 references per prediction, got 1,001"):
        scorer.score_multi(refs, "a b", mode="jackknife-average")
    # The picking modes take any number (in linear time): every reference equal.
    found = scorer.score_multi(refs * 5, "a b", mode="jackknife")["rouge1"]
    assert found == pytest.approx(scorer.score("a b c", "a b")["rouge1"], rel=1e-12)

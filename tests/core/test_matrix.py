"""``RougeScorer.score_matrix``: every cell is ``score(targets[j], predictions[i])``
to the bit, for every kind of type and a tokenizer of each class, on every
path (fused compiled, compiled kernels behind Python tokens, pure Python)."""

from __future__ import annotations

import importlib.util
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kurenai import _backend
from kurenai.rouge_scorer import RougeScorer

# Every kind: n-grams of two orders (one a 3-gram), L, Lsum, W, S with a gap, SU.
TYPES = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum", "rougeW", "rougeS4", "rougeSU"]
FAST = ["rouge1", "rouge2", "rougeL"]

# Words that stem, fold case, split on punctuation, or are not Latin; few
# enough that pairs share n-grams and long LCSs, and a text may pass 64 tokens.
WORDS = ["running", "Runs", "ran", "the", "a", "cats", "Cat's", "über", "東京", "に", "x1", "--"]
text = st.lists(st.sampled_from(WORDS), max_size=80).map(" ".join) | st.lists(
    st.sampled_from(WORDS), max_size=6
).map("\n".join)
texts = st.lists(text, min_size=1, max_size=6)

SCORERS = {
    "default": {},
    "default-stemmed": {"use_stemmer": True},
    "rouge-score": {"tokenizer": "rouge-score", "use_stemmer": True},
    "whitespace": {"tokenizer": "whitespace"},
    "char": {"tokenizer": "char"},
    "lang-de": {"lang": "de", "use_stemmer": True},
}
if importlib.util.find_spec("jieba") is not None:
    SCORERS["jieba"] = {"tokenizer": "jieba"}


def mismatches(scorer: RougeScorer, predictions: list[str], targets: list[str] | None) -> list[Any]:
    found = scorer.score_matrix(predictions, targets)
    against = predictions if targets is None else targets
    wrong = []
    for i, prediction in enumerate(predictions):
        for j, target in enumerate(against):
            for name, score in scorer.score(target, prediction).items():
                cell = found[name]
                got = (cell.precision[i, j], cell.recall[i, j], cell.fmeasure[i, j])
                if tuple(score) != got:
                    wrong.append((name, i, j, tuple(score), got))
    return wrong


@pytest.mark.parametrize("options", SCORERS.values(), ids=list(SCORERS))
@settings(max_examples=15)
@given(predictions=texts, targets=st.none() | texts)
def test_every_cell_is_score_of_its_pair(
    backend: str, options: dict[str, Any], predictions: list[str], targets: list[str] | None
) -> None:
    assert mismatches(RougeScorer(TYPES, **options), predictions, targets) == []


@settings(max_examples=30)
@given(predictions=texts, targets=st.none() | texts)
def test_the_fast_types_alone(backend: str, predictions: list[str], targets: Any) -> None:
    assert mismatches(RougeScorer(FAST), predictions, targets) == []


def test_the_harness_can_fail(backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Negative control: a kernel off by one ulp in one cell is caught."""
    real = _backend.pairs.fill

    def skewed(*args: Any) -> None:
        real(*args)
        out = args[-1]
        out[0, 2, 0, -1] = np.nextafter(out[0, 2, 0, -1], 2.0)

    monkeypatch.setattr(_backend.pairs, "fill", skewed)
    wrong = mismatches(RougeScorer(FAST), ["a b c", "b c d"], ["c b a", "a"])
    assert [(name, i, j) for name, i, j, *_ in wrong] == [("rouge1", 0, 1)]


def test_shapes_symmetry_and_progress(backend: str) -> None:
    scorer = RougeScorer(["rouge2", "rougeL"])
    texts = [f"w{k % 7} w{k % 3} w{k % 5} w{k}" for k in range(37)]
    seen: list[tuple[int, int]] = []
    found = scorer.score_matrix(
        texts, n_jobs=2, progress=lambda done, total: seen.append((done, total))
    )
    for score in found.values():
        assert score.precision.shape == (37, 37) and score.precision.dtype == np.float64
        assert np.array_equal(score.precision, score.recall.T)
        assert np.array_equal(score.fmeasure, score.fmeasure.T)
    assert seen[-1] == (37, 37) and [done for done, _ in seen] == sorted(done for done, _ in seen)
    empty = scorer.score_matrix([], ["a"])["rougeL"].fmeasure
    assert empty.shape == (0, 1)


def test_bad_input_names_the_item() -> None:
    scorer = RougeScorer(["rouge1"])
    with pytest.raises(TypeError, match=r"targets\[1\] must be a str"):
        scorer.score_matrix(["a"], ["b", 3])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="not a single string"):
        scorer.score_matrix("a b")
    with pytest.raises(TypeError, match="progress must be a callable"):
        scorer.score_matrix(["a"], progress=3)  # type: ignore[arg-type]

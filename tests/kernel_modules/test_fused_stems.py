"""The fused plan's stemming through its own stem cache: the same stems as the
Python stemmer (kurenai/_kernels/_fused_stems.pxd), bounded, never pickled, shared by
the batch driver's threads."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest
from conftest import on_compiled_plan
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import tokenizers as rs_tokenizers

from kurenai._core.plan import parse_types
from kurenai._data.rules import SCANS
from kurenai.rouge_scorer import RougeScorer
from kurenai.scoring import Score
from kurenai.tokenizers import UnicodeTokenizer
from kurenai.tokenizers._stemming import CachedPorterStemmer

FOUR = ["rouge1", "rouge2", "rougeL", "rougeLsum"]

# Words Porter changes, words of <= 3 characters it is never given, digits,
# non-ASCII letters (never stemmed) and ASCII words inside non-ASCII text.
HAND_WRITTEN = [
    "running runs ran cats cat ponies caresses generalizations dying lying",
    "a an the abc abcd ies sses 1990s 2024 x1y2 ing ed",
    "naïve über café straße running ünïcödé cats",
    "猫 running 犬 ponies 🙂 cats 𝔘nicode generalization",
    "ß ﬁ İstanbul cats ΣΊΣΥΦΟΣ ponies",
    "a" * 5_000 + " " + "ing" * 2_000 + " running",
]
words = st.text("abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=12)
odd_words = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=8)
stemmer_texts = st.lists(
    st.tuples(
        words | st.sampled_from(["running", "ponies", "ies", "sses", "eed", "a" * 60]) | odd_words,
        st.sampled_from([" ", "\n", ", ", "-", "é", "猫"]),
    ),
    max_size=30,
).map(lambda parts: "".join(w + j for w, j in parts))


def stemmed_plan(name: str) -> Any:
    scorer = RougeScorer(["rouge1"], tokenizer=name, use_stemmer=True)
    assert on_compiled_plan(scorer), f"{name} is not on the compiled path"
    return scorer


@pytest.mark.compiled_only
@pytest.mark.parametrize("name", list(SCANS))
@settings(max_examples=150, deadline=None)
@given(text=stemmer_texts)
def test_stems_equal_the_python_stemmers(name: str, text: str) -> None:
    scorer = stemmed_plan(name)
    expected = scorer.tokenizer.tokenize(text)
    assert scorer.plan.tokens(text, stemmed=True) == expected  # misses
    assert scorer.plan.tokens(text, stemmed=True) == expected  # hits


@pytest.mark.compiled_only
@pytest.mark.parametrize("name", list(SCANS))
@pytest.mark.parametrize("text", HAND_WRITTEN, ids=range(len(HAND_WRITTEN)))
def test_stems_equal_the_python_stemmers_on_hand_written_tokens(name: str, text: str) -> None:
    scorer = stemmed_plan(name)
    expected = scorer.tokenizer.tokenize(text)
    for _ in range(2):
        assert scorer.plan.tokens(text, stemmed=True) == expected
    # A text of another string kind holds the same ASCII words: the cache's
    # keys are code points, whatever kind they were read from.
    for wider in ("é ", "猫 ", "🙂 "):
        assert scorer.plan.tokens(wider + text, stemmed=True) == scorer.tokenizer.tokenize(
            wider + text
        )


@pytest.mark.compiled_only
def test_stems_equal_rouge_scores_tokenizer() -> None:
    scorer = stemmed_plan("rouge-score")
    reference = rs_tokenizers.DefaultTokenizer(use_stemmer=True)
    for text in HAND_WRITTEN:
        assert scorer.plan.tokens(text, stemmed=True) == reference.tokenize(text)


@pytest.mark.compiled_only
@pytest.mark.parametrize("max_bytes", [0, 200, 2_000])
def test_a_small_cache_empties_itself_and_stems_the_same(max_bytes: int) -> None:
    scorer = stemmed_plan("rouge-score")
    scorer.plan._stem_cache(max_bytes)
    rng = random.Random(max_bytes)
    vocabulary = [
        f"{w}{s}"
        for w in ("run", "pony", "walk", "cat", "generaliz")
        for s in ("", "s", "ing", "ed", "ation", "ies", "ations")
    ] + ["a" * 3_000]
    for _ in range(60):
        text = " ".join(rng.choice(vocabulary) for _ in range(20))
        assert scorer.plan.tokens(text, stemmed=True) == scorer.tokenizer.tokenize(text)
        assert scorer.plan._stem_cache()[1] <= max_bytes


@pytest.mark.compiled_only
def test_the_cache_asks_the_stemmer_once_per_token_and_remembers_drops() -> None:
    from kurenai import _fused

    calls: list[str] = []

    def stem(token: str) -> str | None:
        calls.append(token)
        return None if token.startswith("x") else token[:4]

    plan = _fused.FusedPlan(parse_types(["rouge1"]), _fused.SCAN_MODES["whitespace"], stem, Score)
    for _ in range(3):
        assert plan.tokens("xenon running runner ab xylophone", stemmed=True) == [
            "runn",
            "runn",
            "ab",
        ]
        plan.score("xenon running", "runner xylophone")
        plan.score_many(["xenon running"] * 3, ["runner xylophone"] * 3)
    assert sorted(calls) == ["runner", "running", "xenon", "xylophone"]
    assert plan._stem_cache()[0] == 4


@pytest.mark.compiled_only
def test_a_stemmer_returning_something_else_than_a_str_is_refused() -> None:
    from kurenai import _fused

    plan = _fused.FusedPlan(
        parse_types(["rouge1"]), _fused.SCAN_MODES["whitespace"], lambda token: 3, Score
    )
    with pytest.raises(TypeError, match="str or None"):
        plan.score("running", "running")
    with pytest.raises(TypeError, match="str or None"):
        plan.score_many(["running"], ["running"])


@pytest.mark.compiled_only
def test_the_cache_is_not_pickled_and_a_scorer_pickles_the_same_after_stemming() -> None:
    scorer = RougeScorer(FOUR, use_stemmer=True)
    before = pickle.dumps(scorer)
    scorer.score_batch(HAND_WRITTEN, HAND_WRITTEN[::-1])
    assert scorer.plan._stem_cache()[0] > 0
    assert pickle.dumps(scorer) == before
    # The plan after stemming pickles as a plan that never stemmed.  (Not
    # against its own unpickled copy: NLTK's stemmer holds a frozenset, which
    # an unpickled copy may iterate, and so pickle, in another order.)
    assert pickle.dumps(scorer.plan) == pickle.dumps(RougeScorer(FOUR, use_stemmer=True).plan)
    assert pickle.loads(pickle.dumps(scorer.plan))._stem_cache() == (0, 0)


@pytest.mark.compiled_only
def test_stems_do_not_depend_on_which_hash_the_cache_uses() -> None:
    """With the fast hash a constant every token collides: the cache switches
    to SipHash; a cache made under the other hash than its pairs' still
    answers (the pairs' hashes are recomputed, never mixed)."""
    from kurenai import _fused

    texts = [" ".join(f"w{k}{suffix}" for k in range(150)) for suffix in ("ing", "s", "ations")]
    before = stemmed_plan("rouge-score")  # its cache made under the fast hash
    expected = [before.tokenizer.tokenize(text) for text in texts]
    assert [before.plan.tokens(text, stemmed=True) for text in texts] == expected
    _fused._degrade_fast_hash(True)
    try:
        during = stemmed_plan("rouge-score")
        for _ in range(2):
            assert [during.plan.tokens(text, stemmed=True) for text in texts] == expected
            assert [before.plan.tokens(text, stemmed=True) for text in texts] == expected
    finally:
        _fused._degrade_fast_hash(False)
    assert [during.plan.tokens(text, stemmed=True) for text in texts] == expected
    stemmable = {word for text in texts for word in text.split() if len(word) > 3}
    assert during.plan._stem_cache()[0] == len(stemmable)


class RefusingDigits(UnicodeTokenizer):
    """The unicode scan with a post-stem filter that refuses any stem with a digit."""

    scan_mode = "unicode"

    def __init__(self) -> None:
        super().__init__(use_stemmer=True)
        self.stemmer = CachedPorterStemmer(keep=str.isalpha).stem_or_drop


@pytest.mark.compiled_only
@settings(max_examples=100, deadline=None)
@given(text=stemmer_texts)
def test_both_twins_ask_the_filter_only_of_stems(text: str) -> None:
    # The compiled scan gives its stemmer the stemmable tokens only; the
    # Python tokenizer's stemmer leaves the others alone: "123" and "x1" stay,
    # while "1990s" -> "1990" is refused in both.
    scorer = RougeScorer(["rouge1"], tokenizer=RefusingDigits())
    assert on_compiled_plan(scorer)
    fixed = "1990s 123 x1 running " + text
    assert scorer.plan.tokens(fixed, stemmed=True) == scorer.tokenizer.tokenize(fixed)
    assert scorer.tokenizer.tokenize("1990s 123 x1 running") == ["123", "x1", "run"]

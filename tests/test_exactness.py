"""kurenai equals the installed rouge-score bit for bit, given rouge-score's tokenizer.

``==`` on floats, and the int-vs-float type of every field too (rouge-score
returns int zeros for empty ROUGE-L/Lsum sides).
"""

from __future__ import annotations

import functools

import pytest
from conftest import on_compiled_plan
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer as rs
from rouge_score import tokenizers as rs_tokenizers

from kurenai.rouge_scorer import ROUGE_TYPES, RougeScorer
from kurenai.scoring import Score

# Tiny vocabularies make ties everywhere; the stemmable words and punctuation
# exercise the Porter path and rouge-score's separators.
WORDS = ["a", "b", "c", "the", "cats", "cat", "running", "runs", "run", "42", "x1"]
JOINERS = [" ", " ", " ", "\n", ", ", ". ", "\n\n", "  ", "-", " 猫 "]

fragments = st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(JOINERS)), max_size=30)
texts = fragments.map(lambda parts: "".join(w + j for w, j in parts))
# Many distinct words: exercises hash tables and n-gram levels at real sizes.
wide_texts = st.lists(
    st.tuples(st.text("abcdefgh", min_size=1, max_size=5), st.sampled_from(JOINERS)),
    max_size=150,
).map(lambda parts: "".join(w + j for w, j in parts))
any_text = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=40) | st.text(
    "ab \n.Σς", max_size=30
)

REAL_PAIRS = [
    (
        "The quick brown fox jumps over the lazy dog",
        "The quick brown dog jumps on the log.",
    ),
    (
        "Police killed the gunman.\nThe gunman had opened fire on the crowd.",
        "The gunman was shot dead by police.\nHe had fired on a crowd of people.",
    ),
    (
        "We propose a new method for training deep networks with noisy labels.\n"
        "It outperforms prior work on three benchmarks.",
        "This paper proposes training deep neural networks robustly under label noise, "
        "outperforming previous methods.\nExperiments cover CIFAR-10 and Clothing1M.",
    ),
    ("", ""),
    ("", "something"),
    ("   \n \n", "a"),
    ("!!! ???", "..."),
    ("one", "one"),
    ("a\n\nb\n", "b\na"),
    ("Cats RUNNING runs", "cat run running"),
]


@functools.cache
def reference_scorers(backend: str, stem: bool) -> tuple[RougeScorer, rs.RougeScorer]:
    """kurenai's scorer (built under ``backend``, which fixes its path) and rouge-score's."""
    tokenizer = rs_tokenizers.DefaultTokenizer(use_stemmer=stem)
    ours = RougeScorer(list(ROUGE_TYPES), tokenizer=tokenizer)
    assert on_compiled_plan(ours) == (backend == "fused"), backend
    return ours, rs.RougeScorer(list(ROUGE_TYPES), use_stemmer=stem)


def assert_identical(ours: dict[str, Score], theirs: dict[str, Score]) -> None:
    assert list(ours) == list(theirs)
    for rouge_type, expected in theirs.items():
        got = ours[rouge_type]
        assert type(got) is type(expected)
        assert got == expected, rouge_type
        assert [type(v) for v in got] == [type(v) for v in expected], rouge_type


@pytest.mark.parametrize("stem", [False, True], ids=["plain", "stemmer"])
@settings(max_examples=150, deadline=None)
@given(target=texts, prediction=texts)
def test_score_is_bit_identical(backend: str, stem: bool, target: str, prediction: str) -> None:
    ours, theirs = reference_scorers(backend, stem)
    assert_identical(ours.score(target, prediction), theirs.score(target, prediction))


@pytest.mark.parametrize("stem", [False, True], ids=["plain", "stemmer"])
@settings(max_examples=100, deadline=None)
@given(target=any_text, prediction=any_text)
def test_score_is_bit_identical_on_arbitrary_unicode(
    backend: str, stem: bool, target: str, prediction: str
) -> None:
    ours, theirs = reference_scorers(backend, stem)
    assert_identical(ours.score(target, prediction), theirs.score(target, prediction))


@settings(max_examples=60, deadline=None)
@given(target=wide_texts, prediction=wide_texts)
def test_score_is_bit_identical_with_many_distinct_words(
    backend: str, target: str, prediction: str
) -> None:
    ours, theirs = reference_scorers(backend, False)
    assert_identical(ours.score(target, prediction), theirs.score(target, prediction))


@pytest.mark.parametrize("stem", [False, True], ids=["plain", "stemmer"])
@settings(max_examples=60, deadline=None)
@given(targets=st.lists(texts, min_size=1, max_size=4), prediction=texts)
def test_score_multi_is_bit_identical(
    backend: str, stem: bool, targets: list[str], prediction: str
) -> None:
    ours, theirs = reference_scorers(backend, stem)
    assert_identical(ours.score_multi(targets, prediction), theirs.score_multi(targets, prediction))


@pytest.mark.parametrize("stem", [False, True], ids=["plain", "stemmer"])
@pytest.mark.parametrize("pair", REAL_PAIRS, ids=range(len(REAL_PAIRS)))
def test_hand_written_pairs(backend: str, stem: bool, pair: tuple[str, str]) -> None:
    ours, theirs = reference_scorers(backend, stem)
    assert_identical(ours.score(*pair), theirs.score(*pair))
    assert_identical(ours.score(pair[1], pair[0]), theirs.score(pair[1], pair[0]))


@pytest.mark.parametrize("rouge_types", [["rougeLsum"], ["rougeL"], ["rouge3", "rougeLsum"]])
@given(target=texts, prediction=texts)
@settings(max_examples=40, deadline=None)
def test_type_subsets(backend: str, rouge_types: list[str], target: str, prediction: str) -> None:
    tokenizer = rs_tokenizers.DefaultTokenizer()
    ours = RougeScorer(rouge_types, tokenizer=tokenizer)
    theirs = rs.RougeScorer(rouge_types)
    assert_identical(ours.score(target, prediction), theirs.score(target, prediction))


class KeepCase:
    """A custom tokenizer rouge-score also accepts: no line_separable promise."""

    def tokenize(self, text: str) -> list[str]:
        return text.replace("\n", " \n ").split(" ")


@given(target=texts, prediction=texts)
@settings(max_examples=60, deadline=None)
def test_custom_tokenizer_objects_are_used_as_is(
    backend: str, target: str, prediction: str
) -> None:
    ours = RougeScorer(list(ROUGE_TYPES), tokenizer=KeepCase())
    theirs = rs.RougeScorer(list(ROUGE_TYPES), tokenizer=KeepCase())
    assert_identical(ours.score(target, prediction), theirs.score(target, prediction))


def test_long_documents(backend: str) -> None:
    words = [f"w{i % 13}" for i in range(700)]
    target = " ".join(words[i] + ("\n" if i % 37 == 0 else "") for i in range(0, 700, 1))
    prediction = " ".join(words[i] + ("\n" if i % 29 == 0 else "") for i in range(5, 700, 2))
    ours, theirs = reference_scorers(backend, False)
    assert_identical(ours.score(target, prediction), theirs.score(target, prediction))


# Every character Python's str.split() treats as whitespace, and some it does not.
SPACES = "".join(chr(c) for c in range(0x3100) if chr(c).isspace()) + "\u200b\ufeff"
spaced_text = st.lists(
    st.sampled_from(
        [*SPACES, "a", "B", "cats", "Running", "猫", "今日は", "İ", "Σ", "ǅ", "e\u0301", "한국"]
    ),
    max_size=60,
).map("".join) | st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=40)


@pytest.mark.compiled_only
@pytest.mark.parametrize("tokenizer", [None, "rouge-score", "char", "unicode"])
@pytest.mark.parametrize("stem", [False, True], ids=["plain", "stemmer"])
@settings(max_examples=150, deadline=None)
@given(target=spaced_text, prediction=spaced_text)
def test_fused_tokenization_equals_the_python_tokenizers(
    tokenizer: str | None, stem: bool, target: str, prediction: str
) -> None:
    """The compiled scan must find exactly the Python tokenizers' tokens."""
    fused, generic = fused_and_generic(tokenizer, stem)
    assert_identical(fused.score(target, prediction), generic.score(target, prediction))


@functools.cache
def fused_and_generic(tokenizer: str | None, stem: bool) -> tuple[RougeScorer, RougeScorer]:
    """The same scorer twice: on the compiled text path, and on Python tokenizers."""
    from kurenai import _backend, _fused, _lcs

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_backend, "kernels", _lcs)
        patch.setattr(_backend, "fused", _fused)
        fused = RougeScorer(list(ROUGE_TYPES), tokenizer=tokenizer, use_stemmer=stem)
        patch.setattr(_backend, "fused", None)
        generic = RougeScorer(list(ROUGE_TYPES), tokenizer=tokenizer, use_stemmer=stem)
    assert on_compiled_plan(fused) and not on_compiled_plan(generic)
    return fused, generic

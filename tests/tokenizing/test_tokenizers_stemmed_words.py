"""With ``use_stemmer=True`` an analyser keeps every word it keeps without
the stemmer: only ASCII ``[a-z0-9]`` words of 4+ characters change (Porter),
and the post-stem filter judges only what Porter made.

Before, the filter also judged the words the stemmer left alone, so jieba,
Kiwi and Sudachi dropped every word holding a non-word character with the
stemmer on (jieba's ``5.00``, Kiwi's ``0.3``, Sudachi's ``gpt-4``); MeCab,
whose dictionary splits at punctuation, was unaffected, and stays so.
"""

from __future__ import annotations

import importlib.util
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.stem.porter import PorterStemmer
from optional import missing

from kurenai._data import rules
from kurenai.rouge_scorer import RougeScorer
from kurenai.tokenizers import get_tokenizer
from kurenai.tokenizers._stemming import CachedPorterStemmer

PACKAGES = {
    "mecab": "fugashi", "sudachi": "sudachipy", "jieba": "jieba", "kiwi": "kiwipiepy",
    "thai": "pythainlp", "lao": "laonlp", "khmer": "khmernltk",
}  # fmt: skip
# Words with a sign, a point or a hyphen in each script, ASCII words to stem.
PIECES = [
    "工作", "和", "收益", "今日は", "天気", "です", "수익률", "낮았다", "ภาษาไทย", "ພາສາ",
    "ខ្មែរ", "$5.00", "3.14", "0.3%", "GPT-4o", "c++", "e-mail", "1,000", "running",
    "cats", "COVID-19", "#1", "2024年", "v2.0", "x86_64",
]  # fmt: skip
SEPARATORS = [" ", "", "\n", "、", ", "]
TEXTS = st.lists(st.tuples(st.sampled_from(PIECES), st.sampled_from(SEPARATORS)), max_size=12).map(
    lambda parts: "".join(piece + gap for piece, gap in parts)
)


def require(name: str) -> None:
    if importlib.util.find_spec(PACKAGES[name]) is None:
        missing(f"{PACKAGES[name]} is not installed (pip install -e '.[ja,zh,ko,th,lo,km]')")


@cache
def tokenizers(name: str) -> tuple[Any, Any]:
    """The stemming tokenizer, and the same one without its stemmer (the
    words it stems: surfaces, or the Japanese analysers' dictionary forms)."""
    stemming = get_tokenizer(name, use_stemmer=True)
    unstemmed = get_tokenizer(name, use_stemmer=True)
    unstemmed.stemmer = None  # type: ignore[attr-defined]
    return stemming, unstemmed


def porter(word: str) -> str:
    """rouge-score's rule: Porter on ASCII [a-z0-9] words longer than 3."""
    if len(word) > 3 and word.isascii() and word.isalnum() and word.islower():
        return PorterStemmer().stem(word)  # type: ignore[no-any-return]
    return word


@pytest.mark.parametrize(
    ("name", "text", "words"),
    [
        ("jieba", "工作 $5.00 和 3.14", ["工作", "5.00", "和", "3.14"]),
        ("kiwi", "수익률 0.3% 낮았다", ["0.3"]),
        ("sudachi", "GPT-4oです", ["gpt-4"]),
    ],
)
def test_the_stemmer_keeps_words_with_signs(name: str, text: str, words: list[str]) -> None:
    require(name)
    stemming, _ = tokenizers(name)
    plain = get_tokenizer(name).tokenize(text)
    found = stemming.tokenize(text)
    assert all(word in plain and word in found for word in words), (plain, found)
    if name == "jieba":
        assert found == words


@pytest.mark.parametrize("name", sorted(PACKAGES))
@settings(max_examples=30, deadline=None)
@given(text=TEXTS)
def test_stemming_changes_words_and_drops_none(name: str, text: str) -> None:
    require(name)
    stemming, unstemmed = tokenizers(name)
    words = unstemmed.tokenize(text)
    assert stemming.tokenize(text) == [porter(word) for word in words]
    within = stemming.tokenize_within(text, len(words))
    assert within == [porter(word) for word in words]


@settings(max_examples=300, deadline=None)
@given(token=st.one_of(st.sampled_from(PIECES), st.text(max_size=8)))
def test_the_filter_judges_only_what_porter_made(token: str) -> None:
    stem = CachedPorterStemmer(keep=rules.keeps_stem("unicode")).stem_or_drop
    if rules.is_stemmable(token):
        assert stem(token) == porter(token)
    else:
        assert stem(token) == token


def test_scores_count_the_kept_numbers(backend: str) -> None:
    require("jieba")
    scorer = RougeScorer(["rouge1", "rougeL"], tokenizer="jieba", use_stemmer=True)
    for score in scorer.score("工作 $5.00 和 3.14", "5.00 和 3.14").values():
        assert (score.precision, score.recall) == (1.0, 0.75)

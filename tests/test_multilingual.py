"""Scoring raw text in many languages: the seeds' worked examples and cross-script checks.

Seed 001 is a Japanese tutorial's worked ROUGE example; seed 002 a product
page's table of rouge-score behaviour (ASCII tokenizer).  Morphological
tokenizers are skipped when missing, except under ``CI``.
"""

from __future__ import annotations

import importlib.util
import os
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer as rs

from kurenai.rouge_scorer import RougeScorer
from kurenai.scoring import Score
from kurenai.tokenizers import Tokenizer, get_tokenizer

MODULES = {"mecab": "fugashi", "sudachi": "sudachipy", "jieba": "jieba", "kiwi": "kiwipiepy"}
DICTIONARY_FREE = ["whitespace", "unicode", "char"]
_LOADED: dict[str, Tokenizer] = {}


def tokenizer(name: str) -> Tokenizer:
    """One shared instance per name (analysers load once per test session)."""
    module = MODULES.get(name)
    if module is not None and importlib.util.find_spec(module) is None:
        message = f"{module} is not installed (pip install 'kurenai[ja,zh,ko]')"
        if os.environ.get("CI"):
            pytest.fail(f"CI must install the tokenizer extras: {message}")
        pytest.skip(message)
    if name not in _LOADED:
        _LOADED[name] = get_tokenizer(name)
    return _LOADED[name]


def fractions(score: Score) -> tuple[Fraction, Fraction]:
    return (
        Fraction(score.precision).limit_denominator(100),
        Fraction(score.recall).limit_denominator(100),
    )


# -------------------------------------------------------------- seed 001


SEED_001 = ("猫 は マット の 上 に いる", "猫 が マット に いる")


@pytest.mark.parametrize("name", [None, "whitespace", "unicode"])
def test_seed_001_worked_example_on_words(name: str | None) -> None:
    scores = RougeScorer(["rouge1", "rouge2"], tokenizer=name).score(*SEED_001)
    assert fractions(scores["rouge1"]) == (Fraction(4, 5), Fraction(4, 7))
    assert fractions(scores["rouge2"]) == (Fraction(1, 4), Fraction(1, 6))
    assert round(scores["rouge1"].fmeasure, 3) == 0.667
    assert round(scores["rouge2"].fmeasure, 3) == 0.2


@pytest.mark.parametrize("name", ["mecab", "sudachi"])
def test_seed_001_worked_example_on_raw_text(name: str) -> None:
    scorer = RougeScorer(["rouge1", "rouge2"], tokenizer=tokenizer(name))
    scores = scorer.score("猫はマットの上にいる", "猫がマットにいる")
    assert fractions(scores["rouge1"]) == (Fraction(4, 5), Fraction(4, 7))
    assert fractions(scores["rouge2"]) == (Fraction(1, 4), Fraction(1, 6))


# ("tokenizer", target, prediction, rouge1 (P, R) or None for "0 < P, R < 1")
RAW_PAIRS = [
    ("mecab", "今日はとても良い天気だ", "今日は良い天気です", (Fraction(4, 5), Fraction(4, 6))),
    ("sudachi", "今日はとても良い天気だ", "今日は良い天気です", (Fraction(4, 5), Fraction(4, 6))),
    ("char", "今日はとても良い天気だ", "今日は良い天気です", (Fraction(7, 9), Fraction(7, 11))),
    ("jieba", "我们明天去北京开会", "我们今天在北京开会", None),
    ("char", "我们明天去北京开会", "我们今天在北京开会", (Fraction(7, 9), Fraction(7, 9))),
    ("kiwi", "오늘은 날씨가 정말 좋다", "오늘은 날씨가 좋다", (Fraction(1), Fraction(6, 7))),
    ("char", "오늘은 날씨가 정말 좋다", "오늘은 날씨가 좋다", (Fraction(1), Fraction(3, 4))),
    ("char", "วันนี้อากาศดีมาก", "วันนี้อากาศดี", (Fraction(1), Fraction(9, 12))),
    ("unicode", "Cristóbal Colón llegó a América", "Colón llegó a América", (1, Fraction(4, 5))),
]


@pytest.mark.parametrize(("name", "target", "prediction", "expected"), RAW_PAIRS)
def test_raw_text_scores_sensibly(
    name: str, target: str, prediction: str, expected: tuple[Fraction, Fraction] | None
) -> None:
    scores = RougeScorer(["rouge1", "rouge2", "rougeL"], tokenizer=tokenizer(name)).score(
        target, prediction
    )
    precision, recall = fractions(scores["rouge1"])
    if expected is None:
        assert 0 < precision < 1 and 0 < recall < 1
    else:
        assert (precision, recall) == expected
    assert 0 < scores["rouge2"].fmeasure < 1
    assert 0 < scores["rougeL"].fmeasure <= scores["rouge1"].fmeasure


def test_rouge_score_tokenizer_gives_zero_on_the_same_raw_text() -> None:
    scores = RougeScorer(["rouge1"], tokenizer="rouge-score").score(*SEED_001)
    assert scores["rouge1"].fmeasure == 0


# ------------------------------------------------- identical texts score 1


SCRIPTS = [
    "今日はとても良い天気だ。明日も晴れるでしょう。",
    "我们明天去北京开会。",
    "오늘은 날씨가 정말 좋다.",
    "วันนี้อากาศดีมาก",
    "Привет, как дела?",
    "مرحبا بالعالم",
    "नमस्ते दुनिया",
    "Cristóbal naïve Ærøskøbing",
    "東京タワーは2024年にTokyo Towerと呼ばれた😀",
]


@pytest.mark.parametrize("name", [*DICTIONARY_FREE, *MODULES])
@pytest.mark.parametrize("text", SCRIPTS)
def test_identical_raw_texts_score_one(name: str, text: str) -> None:
    scorer = RougeScorer(["rouge1", "rougeL", "rougeLsum"], tokenizer=tokenizer(name))
    for score in scorer.score(text, text).values():
        assert (score.precision, score.recall, score.fmeasure) == (1.0, 1.0, 1.0)


@pytest.mark.parametrize("name", DICTIONARY_FREE)
@settings(max_examples=100, deadline=None)
@given(text=st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=30))
def test_identical_texts_score_one_whenever_they_have_tokens(name: str, text: str) -> None:
    scorer = RougeScorer(["rouge1", "rougeL"], tokenizer=tokenizer(name))
    expected = 1.0 if tokenizer(name).tokenize(text) else 0.0
    assert all(s.fmeasure == expected for s in scorer.score(text, text).values())


# -------------------------------------------------------------- seed 002


# (rouge type, prediction, target, F) from seed 002, with rouge-score's tokenizer.
SEED_002 = [
    ("rouge1", "你好", "你好", 0.0),
    ("rouge1", "cat你好dog", "cat dog", 1.0),
    ("rouge1", "CAT 42", "cat 42", 1.0),
    ("rouge1", "", "", 0.0),
    ("rouge2", "the cat sat", "the cat slept", 0.5),
    ("rouge1", "the cat sat", "the cat sat", 1.0),
    ("rougeL", "cat sat", "sat cat", 0.5),
    ("rougeLsum", "cat sat.\ndog ran.", "dog ran.\ncat sat.", 1.0),
    ("rougeLsum", "cat sat. dog ran.", "dog ran. cat sat.", 0.5),
    ("rouge1", "the cat sat", "the cat slept", 2 / 3),
    ("rouge3", "the cat sat down", "the cat sat still", 0.5),
    ("rouge3", "the cat", "the cat", 0.0),
]


@pytest.mark.parametrize(("rouge_type", "prediction", "target", "expected"), SEED_002)
def test_seed_002_with_rouge_score_tokenizer(
    rouge_type: str, prediction: str, target: str, expected: float
) -> None:
    ours = RougeScorer([rouge_type], tokenizer="rouge-score").score(target, prediction)
    theirs = rs.RougeScorer([rouge_type]).score(target, prediction)
    assert ours[rouge_type].fmeasure == expected
    assert ours == theirs


def test_seed_002_stemmer_example() -> None:
    scorer = RougeScorer(["rouge1"], use_stemmer=True, tokenizer="rouge-score")
    assert scorer.score("car", "cars")["rouge1"] == Score(1.0, 1.0, 1.0)


@pytest.mark.parametrize(
    ("prediction", "target"),
    [
        ("The dog ran. The cat sat.", "The cat sat. The dog ran."),
        ("Cat sat. Dog ran.", "Dog ran. Cat sat."),
    ],
)
def test_seed_002_detected_sentences_with_built_in_splitter(prediction: str, target: str) -> None:
    scorer = RougeScorer(["rougeLsum"], split_summaries=True, tokenizer="rouge-score")
    assert scorer.score(target, prediction)["rougeLsum"] == Score(1.0, 1.0, 1.0)
    unsplit = RougeScorer(["rougeLsum"], tokenizer="rouge-score").score(target, prediction)
    assert unsplit["rougeLsum"].fmeasure < 1.0


def test_null_inputs_are_rejected() -> None:
    scorer = RougeScorer(["rouge1"], tokenizer="rouge-score")
    with pytest.raises(TypeError, match="prediction"):
        scorer.score("target", None)  # type: ignore[arg-type]

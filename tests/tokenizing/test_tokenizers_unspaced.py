"""The tokenizers of unspaced scripts: ``thai`` (PyThaiNLP's newmm), ``lao``
(LaoNLP), ``khmer`` (khmer-nltk).

Their words are the analyser's, less spaces and punctuation (the adapters'
rule), on written sentences and on generated text; nlpO3, the compiled
newmm, is shown not to give the same words (so ``thai`` does not use it).
The packages come with the extras ``th``, ``lo`` and ``km`` (in ``test``):
missing, a test skips, and fails under ``CI=true``.
"""

from __future__ import annotations

import importlib.util
import pickle
import random
import re
import unicodedata
from fractions import Fraction
from typing import Any, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from optional import missing
from unspaced_text import LANGUAGES, SENTENCES, analyser, generated

from kurenai.rouge_scorer import RougeScorer
from kurenai.tokenizers import MorphologicalTokenizer, get_tokenizer
from kurenai.tokenizers._analyser_calls import RUN_BOUND

PACKAGES = {"thai": "pythainlp", "lao": "laonlp", "khmer": "khmernltk"}


def require(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        missing(f"{module} is not installed (pip install -e '.[th,lo,km]')")


def reference(language: str) -> Callable[[str], list[str]]:
    """The analyser's own words of a text, as its package gives them."""
    require(PACKAGES[language])
    return analyser(language)


def expected_words(analysed: list[str], use_stemmer: bool) -> list[str]:
    """The adapters' documented rule, written here from its description
    rather than from their helpers: the analyser's words that hold a letter or
    a number, lowercased, a word of combining marks alone glued to the kept
    word before it; with ``use_stemmer``, rouge-score's stemming (NLTK's
    Porter on ASCII ``[a-z0-9]`` words of 4 or more characters; such a word
    whose stem is empty or not alphanumeric is dropped)."""
    from nltk.stem import porter

    words: list[str] = []
    glued = False
    for word in analysed:
        if glued and word and all(unicodedata.category(c).startswith("M") for c in word):
            words[-1] += word
        elif any(c.isalnum() for c in word):
            words.append(word.lower())
            glued = True
        else:
            glued = False
    if not use_stemmer:
        return words
    stemmer, kept = porter.PorterStemmer(), []
    for word in words:
        if re.fullmatch("[a-z0-9]{4,}", word):
            word = stemmer.stem(word)
            if not (word and (not word.isascii() or word.isalnum())):
                continue
        kept.append(word)
    return kept


_TOKENIZERS: dict[tuple[str, bool], MorphologicalTokenizer] = {}


def tokenizer(language: str, use_stemmer: bool = False) -> MorphologicalTokenizer:
    require(PACKAGES[language])
    key = (language, use_stemmer)
    if key not in _TOKENIZERS:
        _TOKENIZERS[key] = get_tokenizer(language, use_stemmer=use_stemmer)  # type: ignore[assignment]
    return _TOKENIZERS[key]


# Segmentations a reader of each language gives (not the analysers' output).
@pytest.mark.parametrize(
    ("language", "text", "words"),
    [
        ("thai", "ผมรักภาษาไทยมาก", ["ผม", "รัก", "ภาษาไทย", "มาก"]),
        ("thai", "ราคา 1,234.5 บาท เวลา 12:30", ["ราคา", "1,234.5", "บาท", "เวลา", "12:30"]),
        ("lao", "ພາສາລາວໃນປັດຈຸບັນ.", ["ພາສາລາວ", "ໃນ", "ປັດຈຸບັນ"]),
        ("khmer", "ខ្ញុំស្រលាញ់ភាសាខ្មែរ", ["ខ្ញុំ", "ស្រលាញ់", "ភាសា", "ខ្មែរ"]),
        ("khmer", "ភ្នំពេញជារាជធានី។", ["ភ្នំពេញ", "ជា", "រាជធានី"]),
    ],
)
def test_a_sentence_gives_its_words(language: str, text: str, words: list[str]) -> None:
    assert tokenizer(language).tokenize(text) == words


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("use_stemmer", [False, True])
def test_written_sentences_give_the_analysers_words(language: str, use_stemmer: bool) -> None:
    analyse = reference(language)
    for text in SENTENCES[language]:
        expected = expected_words(analyse(text), use_stemmer)
        assert tokenizer(language, use_stemmer).tokenize(text) == expected, text


@pytest.mark.parametrize("language", LANGUAGES)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), pieces=st.integers(0, 40), use_stemmer=st.booleans())
def test_generated_text_gives_the_analysers_words(
    language: str, seed: int, pieces: int, use_stemmer: bool
) -> None:
    text = generated(language, random.Random(seed), pieces)[:RUN_BOUND]  # one analyser call
    expected = expected_words(reference(language)(text), use_stemmer)
    assert tokenizer(language, use_stemmer).tokenize(text) == expected


@pytest.mark.parametrize("language", LANGUAGES)
def test_only_ascii_words_are_stemmed(language: str) -> None:
    text = SENTENCES[language][-1] + " Running dogs 3.14"
    plain, stemmed_words = (
        tokenizer(language).tokenize(text),
        tokenizer(language, True).tokenize(text),
    )
    assert len(plain) == len(stemmed_words)
    changed = {(a, b) for a, b in zip(plain, stemmed_words) if a != b}
    assert changed == {("running", "run"), ("dogs", "dog")}
    stem = tokenizer(language, True).signature_parts()["stem"]
    assert stem.startswith("porter(")  # no dictionary form: not "lemma+"


def test_khmer_line_breaks_and_tabs_separate_words() -> None:
    require("khmernltk")
    from khmernltk import word_tokenize

    # khmer-nltk alone deletes a line break, joining the words on either side
    # (the negative control), and keeps a tab inside a word.
    assert word_tokenize("abc\ndef") == ["abcdef"]
    words = tokenizer("khmer").tokenize("abc\ndef\tghi ខ្ញុំ\n\nស្រលាញ់")
    assert words == ["abc", "def", "ghi", "ខ្ញុំ", "ស្រលាញ់"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_whitespace_and_punctuation_alone_give_no_words(language: str) -> None:
    for text in ["", " ", "\n\t \n", ". , ! ( ) 😀", "\u200b"]:
        assert tokenizer(language).tokenize(text) == []


def test_nlpo3_does_not_give_newmm_words() -> None:
    """Why ``thai`` runs PyThaiNLP's newmm rather than nlpO3, its compiled
    port: nlpO3 joins a quote (or a loose mark) to the next Thai word."""
    require("nlpo3")
    from pythainlp.tokenize import word_tokenize

    def nlpo3(text: str) -> list[str]:
        return expected_words(word_tokenize(text, engine="nlpo3"), False)

    thai = tokenizer("thai")
    assert thai.tokenize('ข่าว "ฉง') == ["ข่าว", "ฉง"]
    assert nlpo3('ข่าว "ฉง') == ["ข่าว", '"ฉง']
    rng = random.Random(0)
    texts = [generated("thai", rng, 30) for _ in range(300)]
    differ = sum(thai.tokenize(text) != nlpo3(text) for text in texts)
    assert differ > 0  # measured: about one text in two
    assert all(thai.tokenize(text) == nlpo3(text) for text in SENTENCES["thai"][:4])


@pytest.mark.parametrize(
    ("language", "target", "prediction", "recall"),
    [
        ("thai", "ผมรักภาษาไทยมาก", "ผมรักภาษาไทย", Fraction(3, 4)),
        ("lao", "ພາສາລາວໃນປັດຈຸບັນ.", "ພາສາລາວ", Fraction(1, 3)),
        ("khmer", "ខ្ញុំស្រលាញ់ភាសាខ្មែរ", "ខ្ញុំស្រលាញ់", Fraction(1, 2)),
    ],
)
def test_scores_count_words(
    backend: str, language: str, target: str, prediction: str, recall: Fraction
) -> None:
    require(PACKAGES[language])
    scorer = RougeScorer(["rouge1", "rougeL", "rougeLsum"], tokenizer=language)
    for score in scorer.score(target, prediction).values():
        assert (score.precision, score.recall) == (1.0, float(recall))
    assert scorer.score(target, target)["rouge1"].fmeasure == 1.0


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_pickled_tokenizer_gives_the_same_words(language: str) -> None:
    require(PACKAGES[language])
    fresh = get_tokenizer(language, use_stemmer=True)
    text = SENTENCES[language][0] + " Running"
    before: Any = pickle.loads(pickle.dumps(fresh))
    words = fresh.tokenize(text)
    after: Any = pickle.loads(pickle.dumps(fresh))  # loaded: the analyser is left out
    assert before.tokenize(text) == after.tokenize(text) == words

"""lang=: the language table (kurenai._core.languages) and what RougeScorer
makes of it: the language's tokenizer and stemmer, its aliases, its errors."""

from __future__ import annotations

import pickle
import re
import sys

import pytest

from kurenai._core.languages import LANGUAGES, choices, known_languages, language
from kurenai._data.extras import pip_install
from kurenai.rouge_scorer import RougeScorer
from kurenai.tokenizers import available_tokenizers
from kurenai.tokenizers._stemming import available_stemmers

# XL-Sum's 45 languages, as its dataset and scorer spell them.
XLSUM = [
    "amharic",
    "arabic",
    "azerbaijani",
    "bengali",
    "burmese",
    "chinese_simplified",
    "chinese_traditional",
    "english",
    "french",
    "gujarati",
    "hausa",
    "hindi",
    "igbo",
    "indonesian",
    "japanese",
    "kirundi",
    "korean",
    "kyrgyz",
    "marathi",
    "nepali",
    "oromo",
    "pashto",
    "persian",
    "pidgin",
    "portuguese",
    "punjabi",
    "russian",
    "scottish_gaelic",
    "serbian_cyrillic",
    "serbian_latin",
    "sinhala",
    "somali",
    "spanish",
    "swahili",
    "tamil",
    "telugu",
    "thai",
    "tigrinya",
    "turkish",
    "ukrainian",
    "urdu",
    "uzbek",
    "vietnamese",
    "welsh",
    "yoruba",
]


def test_xlsum_has_45_languages_and_each_is_known() -> None:
    assert len(XLSUM) == 45
    for name in XLSUM:
        assert language(name).code in known_languages()
    # multilingual_rouge's own aliases name the same languages.
    assert language("bangla") == language("bengali") == language("bn")
    assert language("chinese_traditional") == language("chinese") == language("zh")
    assert language("turkce").code == "tr" and language("mundo").code == "es"


def test_codes_and_spellings_are_unique() -> None:
    spellings = [s for e in LANGUAGES for s in (e.code, e.name, *e.aliases)]
    assert len(spellings) == len(set(spellings))
    assert all(s == s.lower() for s in spellings)


@pytest.mark.parametrize("entry", [pytest.param(e, id=e.code) for e in LANGUAGES])
def test_every_language_tokenizer_is_registered(entry: object) -> None:
    assert entry.tokenizer in available_tokenizers()  # type: ignore[attr-defined]


def test_every_language_stemmer_is_a_stemmer() -> None:
    named = {e.stemmer for e in LANGUAGES if e.stemmer is not None}
    assert named <= set(available_stemmers())
    assert language("en").stemmer == "porter"


def test_a_language_is_spelt_in_any_case_with_hyphens() -> None:
    assert language(" Serbian-Latin ").code == "sr"
    assert RougeScorer(["rouge1"], lang="DE").lang == "de"


def test_lang_chooses_the_tokenizer_unless_one_is_named() -> None:
    assert choices("de", None, True) == ("unicode", "german")
    assert choices("de", "char", True) == ("char", "german")
    assert choices("am", None, True) == ("unicode", False)  # no stemmer: none
    assert choices("ja", None, True) == ("mecab", "porter")  # dictionary forms and Porter
    assert choices("de", None, False) == ("unicode", False)
    assert choices(None, None, True) == (None, True)


def test_english_scores_as_rouge_score_on_ascii_text(backend: str) -> None:
    rouge_score = pytest.importorskip("rouge_score.rouge_scorer")
    target, prediction = "The cats are running, aren't they?", "A cat runs: fast!"
    ours = RougeScorer(["rouge1", "rougeL"], use_stemmer=True, lang="en")
    theirs = rouge_score.RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
    assert ours.score(target, prediction) == theirs.score(target, prediction)


def test_the_language_stemmer_changes_the_scores(backend: str) -> None:
    target, prediction = "Die Häuser laufen", "Das Haus läuft"
    plain = RougeScorer(["rouge1"], lang="de").score(target, prediction)["rouge1"]
    stemmed = RougeScorer(["rouge1"], use_stemmer=True, lang="de").score(target, prediction)
    assert plain.fmeasure == 0.0 and stemmed["rouge1"].fmeasure > 0.0


@pytest.mark.parametrize("lang", ["de", "ru", "ar", "hi", "en", "am", "zh", "th"])
def test_text_in_the_wrong_script_still_scores(backend: str, lang: str) -> None:
    if lang in ("zh", "th"):
        pytest.importorskip({"zh": "jieba", "th": "pythainlp"}[lang])
    scorer = RougeScorer(["rouge1", "rougeL"], use_stemmer=True, lang=lang)
    for text in ["東京タワーに行きました", "Москва столица России", "Berlin ist schön", "😀 !!"]:
        score = scorer.score(text, text)["rouge1"]
        words = scorer.tokenizer.tokenize(text)
        assert score.fmeasure == (1.0 if words else 0.0)


def test_the_signature_records_the_language() -> None:
    signature = RougeScorer(["rouge1"], use_stemmer=True, lang="russian").signature()
    assert signature.lang == "ru"
    assert str(signature).startswith("rouge:rouge1|lang:ru|tok:unicode|stem:russian(pystemmer=")
    assert "lang:" not in str(RougeScorer(["rouge1"]).signature())


def test_a_scorer_with_a_language_pickles() -> None:
    scorer = RougeScorer(["rouge1"], use_stemmer=True, lang="de")
    copy = pickle.loads(pickle.dumps(scorer))
    assert copy.lang == "de" and copy.score("Häuser", "Haus") == scorer.score("Häuser", "Haus")
    assert repr(copy).endswith("lang='de')")


def test_a_missing_analyser_names_its_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "jieba", None)
    with pytest.raises(ImportError, match=re.escape(pip_install("zh"))):
        RougeScorer(["rouge1"], lang="zh")

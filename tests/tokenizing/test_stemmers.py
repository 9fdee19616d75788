"""The stemmer registry: every Snowball language by name, through PyStemmer
(libstemmer's C) or NLTK, stemmed alike by the compiled stem cache and the
pure tokenizers, under each stemmer's rule in kurenai._data.rules.STEM_RULES."""

from __future__ import annotations

import pickle
import random
import re
import sys
from collections import Counter
from importlib.metadata import version

import pytest
from conftest import on_compiled_plan
from hypothesis import given, settings
from hypothesis import strategies as st
from optional import missing

from kurenai._data.extras import pip_install
from kurenai._data.rules import SNOWBALL_MAX_LENGTH, STEM_RULES, stem_rule
from kurenai.rouge_scorer import RougeScorer
from kurenai.tokenizers import get_tokenizer
from kurenai.tokenizers._stemming import (
    NamedStemmer,
    available_stemmers,
    make_stemmer,
    porter_stemmer,
    stem_signature,
)
from kurenai.tokenizers._unicode import _word_pattern

try:
    import Stemmer as pystemmer
except ImportError:  # pragma: no cover - the test extra installs it
    pystemmer = None


@pytest.fixture(scope="module")
def libstemmer() -> object:
    if pystemmer is None:
        missing("PyStemmer is not installed (the stem extra)")
    return pystemmer


def test_every_libstemmer_algorithm_is_a_stemmer_with_a_rule(libstemmer: object) -> None:
    algorithms = set(libstemmer.algorithms())  # type: ignore[attr-defined]
    # PyStemmer's own "porter" is the original algorithm; kurenai's is NLTK's, rouge-score's.
    assert algorithms - {"porter"} <= set(available_stemmers())
    assert set(STEM_RULES) == (algorithms - {"porter"}) | {"porter"}


def test_every_nltk_snowball_language_is_a_stemmer() -> None:
    from nltk.stem.snowball import SnowballStemmer

    named = {name[len("nltk-") :] for name in available_stemmers() if name.startswith("nltk-")}
    assert named == set(SnowballStemmer.languages) - {"porter"}


WORDS = {
    "german": ["häuser", "laufen", "schönsten", "kinder"],
    "russian": ["красивые", "домами", "книгами", "читала"],
    "arabic": ["المكتبات", "الكبيرة", "يكتبون", "مدرسة"],
    "french": ["continuellement", "nationales", "mangeaient", "été"],
    "hindi": ["लड़कियों", "किताबें", "खेलते", "घरों"],
    "turkish": ["kitaplar", "evlerimizden", "gözlükçü", "çocuklar"],
}


@pytest.mark.parametrize("language", sorted(WORDS))
def test_a_named_stemmer_stems_as_its_package(language: str, libstemmer: object) -> None:
    direct = libstemmer.Stemmer(language)  # type: ignore[attr-defined]
    stemmer = make_stemmer(language)
    assert [stemmer.stem(w) for w in WORDS[language]] == direct.stemWords(WORDS[language])


@pytest.mark.parametrize("language", ["german", "russian", "arabic", "french"])
def test_the_nltk_twin_stems_as_nltk(language: str) -> None:
    from nltk.stem.snowball import SnowballStemmer

    direct = SnowballStemmer(language)
    stemmer = make_stemmer(f"nltk-{language}")
    assert [stemmer.stem(w) for w in WORDS[language]] == [direct.stem(w) for w in WORDS[language]]


def test_nltk_arabic_stems_each_word_as_a_fresh_stemmer() -> None:
    """NLTK's Arabic stemmer carries a flag over from the word before; the
    registry's stems a word alike whatever came before (the memo needs it)."""
    from nltk.stem.snowball import SnowballStemmer

    stateful = SnowballStemmer("arabic")
    stateful.stem("سيكتبونها")
    assert stateful.stem("قالوا") != SnowballStemmer("arabic").stem("قالوا")  # the control
    stemmer = make_stemmer("nltk-arabic")
    for before in ["سيكتبونها", "مدرسة"]:
        stemmer.stem(before)
        stemmer.memo.clear()
        stemmer._cache.clear()
        assert stemmer.stem("قالوا") == SnowballStemmer("arabic").stem("قالوا")


def test_the_rule_says_which_tokens_are_stemmed(libstemmer: object) -> None:
    german = make_stemmer("german")
    rule = stem_rule("german")
    assert stem_rule("nltk-german") == rule and not rule.words_only
    short = "häus"[: rule.min_length - 1]
    assert german.stem(short) == short  # under the minimum length: never stemmed
    assert german.stem("häuser") == "haus"  # non-ASCII: stemmed, unlike Porter
    assert make_stemmer("porter").stem("häuser") == "häuser"


def test_an_unknown_stemmer_lists_the_names() -> None:
    with pytest.raises(ValueError, match=r"^unknown stemmer 'klingon'; available: arabic, ") as e:
        make_stemmer("klingon")
    assert "nltk-german" in str(e.value) and "porter" in str(e.value)
    with pytest.raises(ValueError, match="unknown stemmer 'klingon'"):
        get_tokenizer("unicode", use_stemmer="klingon")


def test_without_pystemmer_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "Stemmer", None)
    with pytest.raises(ImportError, match=re.escape(pip_install("stem"))):
        RougeScorer(["rouge1"], use_stemmer=True, lang="de")
    # NLTK's twin needs no extra.
    assert get_tokenizer("unicode", use_stemmer="nltk-german").tokenize("Häuser") == ["haus"]


def test_the_signature_names_the_stemmer_and_its_version(libstemmer: object) -> None:
    assert stem_signature("german") == f"german(pystemmer={version('PyStemmer')})"
    assert stem_signature("nltk-german").startswith("nltk-german(nltk=")
    assert stem_signature(True).startswith("porter(nltk=") and stem_signature(False) == "no"


def test_a_named_stemmer_pickles_by_name(libstemmer: object) -> None:
    tokenizer = get_tokenizer("unicode", use_stemmer="russian")
    tokenizer.tokenize("красивые домами")
    copy = pickle.loads(pickle.dumps(tokenizer))
    assert copy.tokenize("красивые домами") == ["красив", "дом"]
    assert pickle.dumps(copy) == pickle.dumps(get_tokenizer("unicode", use_stemmer="russian"))
    assert repr(NamedStemmer("russian")) == "NamedStemmer('russian')"


# ------------------------------------------------- scored alike on every path

# Words of several scripts and kinds (Latin-1, Cyrillic, Arabic, Devanagari,
# beyond the BMP) in inflected forms, so that stems collide across forms.
VOCABULARY = [
    "haus", "häuser", "hauses", "laufen", "läuft", "lauf", "cats", "cat", "running",
    "дом", "домами", "дома", "книга", "книгами", "المكتبات", "مكتبة", "लड़कियों", "लड़की",
    "a", "ab", "1990s", "𝒳𝒴𝒵𝒲", "naïve", "über",
]  # fmt: skip
texts = st.lists(st.sampled_from(VOCABULARY), max_size=12).map(" ".join)


def _naive(target: str, prediction: str, language: str) -> tuple[float, float, float]:
    """rouge1 by hand: unicode words, the package's stems under the rule, overlaps."""
    rule, direct = stem_rule(language), pystemmer.Stemmer(language)  # type: ignore[union-attr]

    def tokens(text: str) -> Counter[str]:
        words = _word_pattern().findall(text.lower())
        return Counter(direct.stemWord(w) if rule.stemmable(w) else w for w in words)

    t, p = tokens(target), tokens(prediction)
    hits = sum((t & p).values())
    precision = hits / max(sum(p.values()), 1)
    recall = hits / max(sum(t.values()), 1)
    f = 0.0 if hits == 0 else 2 * precision * recall / (precision + recall)
    return precision, recall, f


@pytest.mark.parametrize("language", ["german", "russian", "arabic"])
@settings(max_examples=60, deadline=None)
@given(target=texts, prediction=texts)
def test_stemmed_scores_equal_the_naive_reference(
    backend: str, libstemmer: object, language: str, target: str, prediction: str
) -> None:
    code = {"german": "de", "russian": "ru", "arabic": "ar"}[language]
    scorer = RougeScorer(["rouge1"], use_stemmer=True, lang=code)
    assert on_compiled_plan(scorer) == (backend == "fused")  # stemming keeps the fused scan
    assert tuple(scorer.score(target, prediction)["rouge1"]) == pytest.approx(
        _naive(target, prediction, language), abs=1e-12
    )


def test_the_naive_reference_can_tell_stemming_apart(libstemmer: object) -> None:
    """Negative control: without stemming the same pair scores otherwise."""
    plain = RougeScorer(["rouge1"], lang="de").score("häuser laufen", "haus läuft")["rouge1"]
    assert tuple(plain) != pytest.approx(_naive("häuser laufen", "haus läuft", "german"))


@settings(max_examples=40, deadline=None)
@given(pairs=st.lists(st.tuples(texts, texts), min_size=1, max_size=6))
def test_the_compiled_cache_equals_the_pure_path_across_pairs(
    libstemmer: object, pairs: list[tuple[str, str]]
) -> None:
    """One scorer's stem cache, reused pair after pair and in a batch (texts
    of every kind, so a token's key comes in several widths), scores as
    the tokens of the pure tokenizer."""
    scorer = RougeScorer(["rouge1", "rougeL"], use_stemmer=True, lang="ru")
    tokenizer = get_tokenizer("unicode", use_stemmer="russian")
    expected = []
    for target, prediction in pairs:
        bare = RougeScorer(["rouge1", "rougeL"], tokenizer=_Fixed(tokenizer))
        expected.append(bare.score(target, prediction))
    assert [scorer.score(t, p) for t, p in pairs] == expected
    assert scorer.score_batch([t for t, _ in pairs], [p for _, p in pairs]) == expected


class _Fixed:
    """A tokenizer without a scan mode: always the Python plan."""

    def __init__(self, inner: object) -> None:
        self.inner = inner

    def tokenize(self, text: str) -> list[str]:
        return self.inner.tokenize(text)  # type: ignore[attr-defined, no-any-return]


def test_porter_stays_what_use_stemmer_means_without_a_language() -> None:
    assert porter_stemmer(True, "whitespace") is not None
    scorer = RougeScorer(["rouge1"], use_stemmer=True)
    assert scorer.tokenizer.tokenize("häuser running") == ["häuser", "run"]
    assert "stem:porter(nltk=" in str(scorer.signature())


def test_a_batch_on_several_workers_stems_as_one(libstemmer: object) -> None:
    rng = random.Random(7)
    pairs = [
        (" ".join(rng.choices(VOCABULARY, k=12)), " ".join(rng.choices(VOCABULARY, k=10)))
        for _ in range(64)
    ]
    scorer = RougeScorer(["rouge1", "rougeL"], use_stemmer=True, lang="ru")
    targets, predictions = [t for t, _ in pairs], [p for _, p in pairs]
    one = [scorer.score(t, p) for t, p in pairs]
    fresh = RougeScorer(["rouge1", "rougeL"], use_stemmer=True, lang="ru")
    assert fresh.score_batch(targets, predictions, n_jobs=2) == one


@pytest.mark.parametrize("name", ["german", "nltk-german"])
def test_pathological_tokens_are_stemmed_or_kept(backend: str, name: str) -> None:
    """A lone surrogate (no UTF-8 for libstemmer) and a 50,000-character word."""
    if not name.startswith("nltk-") and pystemmer is None:
        missing("PyStemmer is not installed (the stem extra)")
    scorer = RougeScorer(["rouge1"], tokenizer=get_tokenizer("whitespace", use_stemmer=name))
    assert scorer.tokenizer.tokenize("abc\ud800def Häuser") == ["abc\ud800def", "haus"]
    long = "x" * 10 + "ä" * 50_000
    assert scorer.score(long + " häuser", "haus")["rouge1"].recall == 0.5


# Several libstemmer stemmers take time quadratic in a token's length (Tamil:
# 0.6 s on 20,000 code points of one vowel sign, ~55 s on 200,000): a token
# longer than the rule's max_length is kept unstemmed, on every path.
_TAMIL_AT_LIMIT = "க" * (SNOWBALL_MAX_LENGTH - 6) + "கடலில்"  # stemmed: ends in கடல்
_TAMIL_OVER = "க" + _TAMIL_AT_LIMIT


def test_a_token_past_the_snowball_limit_is_kept_unstemmed(libstemmer: object) -> None:
    direct = libstemmer.Stemmer("tamil")  # type: ignore[attr-defined]
    rule = stem_rule("tamil")
    assert rule.max_length == SNOWBALL_MAX_LENGTH == len(_TAMIL_AT_LIMIT)
    assert all(rule.max_length == SNOWBALL_MAX_LENGTH for name, rule in STEM_RULES.items()
               if name != "porter")  # fmt: skip
    tamil = make_stemmer("tamil")
    assert tamil.stem(_TAMIL_AT_LIMIT) == direct.stemWord(_TAMIL_AT_LIMIT) != _TAMIL_AT_LIMIT
    assert tamil.stem(_TAMIL_OVER) == _TAMIL_OVER != direct.stemWord(_TAMIL_OVER)
    assert tamil.stem_or_drop(_TAMIL_OVER) == _TAMIL_OVER
    # The pathological token itself returns at once (quadratic before: ~55 s).
    vowels = "ா" * 200_000
    assert tamil.stem(vowels) == vowels


@pytest.mark.parametrize("tokenizer", ["unicode", "whitespace"])
def test_the_snowball_limit_holds_on_the_compiled_and_pure_paths(
    backend: str, libstemmer: object, tokenizer: str
) -> None:
    # Another form of the same word, which Tamil's stemmer stems alike.
    other = "க" * (SNOWBALL_MAX_LENGTH - 6) + "கடலால்"
    scorer = RougeScorer(["rouge1"], tokenizer=get_tokenizer(tokenizer, use_stemmer="tamil"))
    assert on_compiled_plan(scorer) == (backend == "fused")
    assert scorer.score(_TAMIL_AT_LIMIT, other)["rouge1"].fmeasure == 1.0
    assert scorer.score("க" + _TAMIL_AT_LIMIT, "க" + other)["rouge1"].fmeasure == 0.0
    assert scorer.score(_TAMIL_OVER, _TAMIL_OVER)["rouge1"].fmeasure == 1.0
    assert scorer.tokenizer.tokenize(f"{_TAMIL_OVER} கடலில்") == [_TAMIL_OVER, "கடல்"]

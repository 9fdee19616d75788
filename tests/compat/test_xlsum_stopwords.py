"""The stopword lists kurenai ships for XL-Sum's Snowball stemmers.

Without NLTK's ``stopwords`` corpus (a download, with no licence to copy it),
``kurenai.compat.xlsum`` stems with Snowball's published lists for the
languages whose words equal NLTK's.  That equality is checked against NLTK's
corpus itself: a SHA-256 of each language's words as NLTK's stemmer reads
them (a set), taken from nltk_data's ``stopwords.zip``, and the words
themselves where the corpus is installed.  Then NLTK's own stemmer reads the
shipped files through NLTK's own corpus reader (as if they were the
installed corpus), and kurenai's stemmer, with the corpus missing, must stem
every word alike: each stopword, each stopword with endings, and other words.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from optional import missing
from xlsum_samples import nltk_stopwords

from kurenai.compat import _xlsum_stemmers
from kurenai.compat._xlsum_stemmers import SHIPPED_STOPWORDS, shipped_stopwords

ENDINGS = ["", "s", "en", "er", "ene", "erne", "ing", "ista", "ssa", "ami", "ов", "ами", "ого"]
OTHERS = ["huset", "husene", "spelen", "taloissa", "házakat", "parlando", "bøkene", "домами"]

# NLTK's stopwords corpus, per language: the SHA-256 of its distinct words,
# sorted and joined by line breaks (UTF-8): NLTK's Snowball stemmer reads
# ``set(stopwords.words(language))``, so order and repeats (Norwegian lists 4
# words twice) do not count.  Taken from nltk_data's
# packages/corpora/stopwords.zip (last changed in nltk_data 4d5ecb6,
# 2022-07-04; the zip's SHA-256 is
# 15c94179887425ca1bedc265608cab9f27d650211f709bb929e320990a4b01d1).
NLTK_CORPUS_SHA256 = {
    "danish": "9d971e9ea9925f01320339a2c4cb1fbf43658b008f9826aead357af26898331f",
    "dutch": "cb335cbd3b59442edbf5a1eeea9183b2620ada41ad91dacfeed1226968c190d6",
    "finnish": "fbd3da9ccd5934041e6dc771047e9c7191b6291500d9dadb2d467e1625837c21",
    "hungarian": "972b61f8ce951aa901adca2401322d1f0b3f25909997d2df331c2880054fd3c8",
    "italian": "05233e321dd34af7cbfa2d63627249f70aa28e905834d54e6f73ed615688aad2",
    "norwegian": "05c2fe689d7e831472df36d5ca623669b487a9fb879072c09d76f29b2d690d75",
    "russian": "290ed6923974449a9426e4fd186649970433146ae9c40eb66bd0cd763e6d904a",
    "swedish": "1b6134d3305d3f9198d10476068a603ee2b4ee191b9cac7b631ce238253be516",
}


def _sha256(words: list[str]) -> str:
    """The digest of ``words`` as NLTK's stemmer reads them (a set)."""
    return hashlib.sha256("\n".join(sorted(set(words))).encode("utf-8")).hexdigest()


class _Missing:
    """``nltk.corpus.stopwords`` on a machine without the download."""

    def words(self, language: str) -> list[str]:
        raise LookupError(f"Resource stopwords not found ({language})")


def _nltk_stemmer(data_dir: Path, language: str, words: list[str]) -> Any:
    """NLTK's ``SnowballStemmer(language, ignore_stopwords=True)`` reading
    ``words`` as its installed corpus file."""
    import nltk.stem.snowball

    with pytest.MonkeyPatch.context() as patch:
        corpus = nltk_stopwords(data_dir, {language: words}, patch)
        patch.setattr(nltk.stem.snowball, "stopwords", corpus)
        return nltk.stem.snowball.SnowballStemmer(language, ignore_stopwords=True)


def _words(stopwords: list[str]) -> list[str]:
    return [word + ending for word in stopwords for ending in ENDINGS] + OTHERS


def test_every_shipped_list_has_nltks_digest() -> None:
    assert set(SHIPPED_STOPWORDS) == set(NLTK_CORPUS_SHA256)


@pytest.mark.parametrize("language", SHIPPED_STOPWORDS)
def test_shipped_lists_are_nltks_corpus(language: str) -> None:
    words = shipped_stopwords(language)
    assert words is not None
    assert _sha256(words) == NLTK_CORPUS_SHA256[language]


def test_shipped_lists_equal_the_installed_corpus() -> None:
    # Where NLTK's corpus is downloaded: the words themselves, and the digests
    # above recomputed from it.  (CI has no download; the digests stand in.)
    try:
        from nltk.corpus import stopwords

        stopwords.words("danish")
    except (ImportError, LookupError):
        pytest.skip(
            "NLTK's stopwords corpus is not installed (python -m nltk.downloader stopwords)"
        )
    for language in SHIPPED_STOPWORDS:
        theirs = stopwords.words(language)
        assert set(shipped_stopwords(language) or ()) == set(theirs), language
        assert _sha256(theirs) == NLTK_CORPUS_SHA256[language], language


@pytest.mark.parametrize("language", SHIPPED_STOPWORDS)
def test_shipped_lists_stem_as_nltk_with_its_corpus(
    language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    try:
        import nltk.stem.snowball
    except ImportError:
        missing("nltk is not installed (the xlsum extra)")
    stopwords = shipped_stopwords(language)
    assert stopwords
    theirs = _nltk_stemmer(tmp_path, language, stopwords)
    monkeypatch.setattr(nltk.stem.snowball, "stopwords", _Missing())
    ours = _xlsum_stemmers.stemmer_for(language)
    assert ours is not None
    words = _words(stopwords)
    assert [ours(word) for word in words] == [theirs.stem(word) for word in words]
    # Negative control: without the list, some stopword is stemmed.
    bare = nltk.stem.snowball.SnowballStemmer(language)
    assert [bare.stem(word) for word in stopwords] != [ours(word) for word in stopwords]


def test_other_languages_still_need_nltks_corpus(monkeypatch: pytest.MonkeyPatch) -> None:
    try:
        import nltk.stem.snowball
    except ImportError:
        missing("nltk is not installed (the xlsum extra)")
    monkeypatch.setattr(nltk.stem.snowball, "stopwords", _Missing())
    with pytest.raises(LookupError, match=r"python -m nltk\.downloader stopwords"):
        _xlsum_stemmers.stemmer_for("english")
    assert shipped_stopwords("english") is None

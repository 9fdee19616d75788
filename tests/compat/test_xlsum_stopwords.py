"""The stopword lists kurenai ships for XL-Sum's Snowball stemmers.

Without NLTK's ``stopwords`` corpus (a download, with no licence to copy it),
``kurenai.compat.xlsum`` stems with Snowball's published lists for the
languages whose words equal NLTK's.  Here NLTK's own stemmer reads those
files through NLTK's own corpus reader (as if they were the installed
corpus), and kurenai's stemmer, with the corpus missing, must stem every
word alike: each stopword, each stopword with endings, and other words.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from optional import missing
from xlsum_samples import nltk_stopwords

from kurenai.compat import _xlsum_stemmers
from kurenai.compat._xlsum_stemmers import SHIPPED_STOPWORDS, shipped_stopwords

ENDINGS = ["", "s", "en", "er", "ene", "erne", "ing", "ista", "ssa", "ami", "ов", "ами", "ого"]
OTHERS = ["huset", "husene", "spelen", "taloissa", "házakat", "parlando", "bøkene", "домами"]


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

"""XL-Sum's stemmers, by language name, and the rule that applies them.

``multilingual_rouge`` stems a token only if it is longer than
``min_char_length`` (3) characters, with:

- NLTK's Snowball stemmer, ``ignore_stopwords=True``, for every language of
  ``nltk.stem.SnowballStemmer.languages`` (its stopwords come from NLTK's
  ``stopwords`` corpus: ``python -m nltk.downloader stopwords``; without it,
  for the languages of ``SHIPPED_STOPWORDS``, from the same words as
  Snowball publishes them, shipped in ``kurenai/compat/stopwords``);
- NLTK's Porter (Snowball's ``porter``, stopwords kept) with no ``lang``;
- a suffix stripper for Hindi, Rafi's rule-based stemmer for Bengali and the
  ``TurkishStemmer`` package for Turkish;
- nothing (and a warning) for any other language.

The Hindi and Bengali stemmers are written again here from their rules,
which are data: Hindi's suffix list as ``multilingual_rouge`` (Apache-2.0)
has it, after Ramanathan & Rao (2003); Bengali's rules from
abhik1505040/bengali-stemmer's ``rafikamal2014/common.rules``, under its MIT
License, reproduced at the end of this module.  The Turkish stemmer is the
``TurkishStemmer`` package itself (Apache-2.0).
"""

from __future__ import annotations

import importlib
import warnings
from typing import Callable

__all__ = [
    "SHIPPED_STOPWORDS",
    "STATEFUL",
    "XlsumStemming",
    "bengali_stem",
    "hindi_stem",
    "shipped_stopwords",
    "stemmer_for",
]

# NLTK's Arabic stemmer keeps a flag from one word to the next
# (``suffixes_verb_step1_success`` is never reset): its stems depend on the
# words stemmed before, so it is called for every token, in the package's
# order, never memoized.
STATEFUL = frozenset({"arabic"})

Stem = Callable[[str], str]

# Rafi's Bengali rules (bengali-stemmer's rafikamal2014/common.rules, MIT,
# Copyright (c) 2017 BanglaKit Project Contributors): groups of suffixes, tried
# in order; the first suffix of a group that ends the word applies.
_BENGALI_GROUPS: tuple[tuple[str, ...], ...] = (
    (
        "\u0987",
        "\u0993",
        "\u09a4\u09cb",
    ),
    (
        "\u0995\u09c7",
        "\u09a4\u09c7",
        "\u09b0\u09be",
    ),
    (
        "\u099a\u09cd\u099b\u09bf",
        "\u099a\u09cd\u099b\u09bf\u09b2",
        "\u099a\u09cd\u099b\u09c7",
        "\u099a\u09cd\u099b\u09bf\u09b8",
        "\u099a\u09cd\u099b\u09bf\u09b2\u09c7\u09a8",
        "\u099a\u09cd\u099b",
        "\u09df\u09c7\u099b\u09c7",
        "\u09c7\u099b",
        "\u09c7\u099b\u09c7",
        "\u09c7\u099b\u09c7\u09a8",
        "\u09b0\u099b",
        "\u09b0\u09ac",
        "\u09c7\u09b2",
        "\u09c7\u09b2\u09cb",
        "\u0993\u09df\u09be",
        "\u09c7\u09df\u09c7",
        "\u09df",
        "\u09df\u09c7",
        "\u09df\u09c7\u099b\u09bf\u09b2",
        "\u09c7\u09df\u09c7\u099b\u09bf\u09b2",
        "\u09c7\u099b\u09bf\u09b2",
        "\u09c7\u09df\u09c7\u099b\u09bf\u09b2\u09c7\u09a8",
        "\u09c7.\u09c7\u099b\u09bf\u09b2\u09c7\u09a8",
        "\u09c7\u099b\u09bf\u09b2\u09c7\u09a8",
        "\u09b2\u09c7\u09a8",
        "\u09a6\u09c7\u09b0",
        "\u09c7.\u09c7",
        "\u09c7\u09b0",
        "\u09be\u09b0",
        "\u09c7\u09a8",
        "\u09ac\u09c7\u09a8",
        "\u09bf\u09b8",
        "\u099b\u09bf\u09b8",
        "\u099b\u09bf\u09b2\u09bf",
        "\u099b\u09bf",
        "\u099b\u09c7",
        "\u09b2\u09bf",
        "\u09ac\u09bf",
        "\u09c7",
    ),
    (
        "\u099f\u09bf",
        "\u099f\u09bf\u09b0",
        "\u09c7\u09b0\u099f\u09be",
        "\u09c7\u09b0\u099f\u09be\u09b0",
        "\u099f\u09be",
        "\u099f\u09be\u09b0",
        "\u0997\u09c1\u09b2\u09cb",
        "\u0997\u09c1\u09b2\u09cb\u09b0",
        "\u09c7\u09b0\u0997\u09c1\u09b2\u09cb",
        "\u09c7\u09b0\u0997\u09c1\u09b2\u09cb\u09b0",
    ),
)
# Suffixes replaced rather than cut: '.' keeps the word's character.
_BENGALI_REPLACE = {
    "\u09b0\u099b": "\u09b0",
    "\u09b0\u09ac": "\u09b0",
    "\u09c7\u09df\u09c7": "\u09be",
    "\u09c7\u09df\u09c7\u099b\u09bf\u09b2": "\u09be",
    "\u09c7\u09df\u09c7\u099b\u09bf\u09b2\u09c7\u09a8": "\u09be",
    "\u09c7.\u09c7\u099b\u09bf\u09b2\u09c7\u09a8": "\u09be.",
    "\u09c7.\u09c7": "\u09be.",
}
# XL-Sum's Hindi suffixes by the length cut (Ramanathan & Rao, 2003).
_HINDI_SUFFIXES: tuple[tuple[int, tuple[str, ...]], ...] = (
    (
        5,
        (
            "\u093e\u090f\u0902\u0917\u0940",
            "\u093e\u090f\u0902\u0917\u0947",
            "\u093e\u090a\u0902\u0917\u0940",
            "\u093e\u090a\u0902\u0917\u093e",
            "\u093e\u0907\u092f\u093e\u0901",
            "\u093e\u0907\u092f\u094b\u0902",
            "\u093e\u0907\u092f\u093e\u0902",
        ),
    ),
    (
        4,
        (
            "\u093e\u090f\u0917\u0940",
            "\u093e\u090f\u0917\u093e",
            "\u093e\u0913\u0917\u0940",
            "\u093e\u0913\u0917\u0947",
            "\u090f\u0902\u0917\u0940",
            "\u0947\u0902\u0917\u0940",
            "\u090f\u0902\u0917\u0947",
            "\u0947\u0902\u0917\u0947",
            "\u0942\u0902\u0917\u0940",
            "\u0942\u0902\u0917\u093e",
            "\u093e\u0924\u0940\u0902",
            "\u0928\u093e\u0913\u0902",
            "\u0928\u093e\u090f\u0902",
            "\u0924\u093e\u0913\u0902",
            "\u0924\u093e\u090f\u0902",
            "\u093f\u092f\u093e\u0901",
            "\u093f\u092f\u094b\u0902",
            "\u093f\u092f\u093e\u0902",
        ),
    ),
    (
        3,
        (
            "\u093e\u0915\u0930",
            "\u093e\u0907\u090f",
            "\u093e\u0908\u0902",
            "\u093e\u092f\u093e",
            "\u0947\u0917\u0940",
            "\u0947\u0917\u093e",
            "\u094b\u0917\u0940",
            "\u094b\u0917\u0947",
            "\u093e\u0928\u0947",
            "\u093e\u0928\u093e",
            "\u093e\u0924\u0947",
            "\u093e\u0924\u0940",
            "\u093e\u0924\u093e",
            "\u0924\u0940\u0902",
            "\u093e\u0913\u0902",
            "\u093e\u090f\u0902",
            "\u0941\u0913\u0902",
            "\u0941\u090f\u0902",
            "\u0941\u0906\u0902",
        ),
    ),
    (
        2,
        (
            "\u0915\u0930",
            "\u093e\u0913",
            "\u093f\u090f",
            "\u093e\u0908",
            "\u093e\u090f",
            "\u0928\u0947",
            "\u0928\u0940",
            "\u0928\u093e",
            "\u0924\u0947",
            "\u0940\u0902",
            "\u0924\u0940",
            "\u0924\u093e",
            "\u093e\u0901",
            "\u093e\u0902",
            "\u094b\u0902",
            "\u0947\u0902",
        ),
    ),
    (
        1,
        (
            "\u094b",
            "\u0947",
            "\u0942",
            "\u0941",
            "\u0940",
            "\u093f",
            "\u093e",
        ),
    ),
)
_BENGALI_VOWEL_SIGNS = frozenset("\u09be\u09bf\u09c0\u09c7\u09c1\u09c2\u09cb")


def hindi_stem(token: str) -> str:
    """The longest listed suffix cut, leaving at least two characters.

    >>> hindi_stem("लड़कियों")
    'लड़क'
    """
    for cut, suffixes in _HINDI_SUFFIXES:
        if len(token) > cut + 1 and token.endswith(suffixes):
            return token[:-cut]
    return token


def bengali_stem(word: str) -> str:
    """Rafi's stemmer: in each group, the first suffix that ends the word
    is replaced (by its rule) or cut (if a consonant stays).

    >>> bengali_stem("করেছিলেন")
    'কর'
    """
    for group in _BENGALI_GROUPS:
        for suffix in group:
            if not word.endswith(suffix):
                continue
            start = len(word) - len(suffix)
            replacement = _BENGALI_REPLACE.get(suffix)
            if replacement is not None:
                chars = list(word)
                for offset, char in enumerate(replacement):
                    if char != ".":
                        chars[start + offset] = char
                word = "".join(chars[: start + len(replacement)])
            elif any(char not in _BENGALI_VOWEL_SIGNS for char in word[:start]):
                word = word[:start]
            break
    return word


def _snowball(language: str) -> Stem:
    from nltk.stem import SnowballStemmer

    try:
        stemmer = SnowballStemmer(language, ignore_stopwords=language != "porter")
    except LookupError as missing:
        words = shipped_stopwords(language)
        if words is None:
            raise LookupError(
                f"XL-Sum's {language} stemmer ignores NLTK's {language} stopwords, which are "
                "not installed: python -m nltk.downloader stopwords (kurenai ships the same "
                f"words, from Snowball, only for {', '.join(SHIPPED_STOPWORDS)})"
            ) from missing
        stemmer = SnowballStemmer(language)
        # As ignore_stopwords=True fills it from NLTK's corpus.
        stemmer.stemmer.stopwords = stemmer.stopwords = set(words)
    return stemmer.stem  # type: ignore[no-any-return]


# The languages whose NLTK stopwords kurenai ships (kurenai/compat/stopwords:
# Snowball's lists, BSD, with the same words as NLTK's corpus files).
SHIPPED_STOPWORDS = (
    "danish",
    "dutch",
    "finnish",
    "hungarian",
    "italian",
    "norwegian",
    "russian",
    "swedish",
)


def shipped_stopwords(language: str) -> list[str] | None:
    """The words of NLTK's ``stopwords.words(language)``, from the Snowball
    lists kurenai ships, or None for a language it has none for.

    >>> shipped_stopwords("danish")[:3], shipped_stopwords("english")
    (['og', 'i', 'jeg'], None)
    """
    if language not in SHIPPED_STOPWORDS:
        return None
    from importlib.resources import files

    text = (
        files("kurenai.compat").joinpath("stopwords").joinpath(language).read_text(encoding="utf-8")
    )
    return [line for line in text.splitlines() if line.strip()]


def _turkish() -> Stem:
    module = importlib.import_module("TurkishStemmer")
    return module.TurkishStemmer().stem  # type: ignore[no-any-return]


def _snowball_languages() -> tuple[str, ...]:
    from nltk.stem import SnowballStemmer

    return tuple(SnowballStemmer.languages)


def stemmer_for(lang: str | None) -> Stem | None:
    """XL-Sum's stemmer for ``lang`` (a canonical name), None (with its
    warning) for a language it has none for."""
    if lang is None:
        # Snowball's "porter" is NLTK's PorterStemmer (stopwords kept): the
        # registry's compiled copy of it, NLTK only for what it cannot stem.
        from kurenai.tokenizers._stemming import porter_stem

        return porter_stem
    own: dict[str, Callable[[], Stem]] = {
        "bengali": lambda: bengali_stem,
        "hindi": lambda: hindi_stem,
        "turkish": _turkish,
    }
    if lang in own:
        return own[lang]()
    if lang in _snowball_languages():
        return _snowball(lang)
    warnings.warn("-" * 5 + f"unknown stemmer language-> {lang}" + "-" * 5, stacklevel=3)
    return None


class XlsumStemming:
    """XL-Sum's rule of stemming a token list: ``stem`` for tokens longer than
    ``min_length`` characters, memoized (up to 2**20 tokens) if ``memoize``;
    other tokens unchanged, empty stems dropped.  Not the registry's
    ``CachedStemmer``: the package's rule (its length test, a user's stemmer,
    NLTK's stateful Arabic in order) is its own; its Porter is the registry's
    compiled one (``porter_stem``)."""

    __slots__ = ("_cache", "_min_length", "_stem", "memoize")

    def __init__(self, stem: Stem | None, min_length: int = 3, memoize: bool = True) -> None:
        self._stem = stem
        self._min_length = min_length
        self._cache: dict[str, str] = {}
        self.memoize = memoize

    def tokens(self, tokens: list[str]) -> list[str]:
        """The stems of ``tokens``, empty ones dropped."""
        stem = self._stem
        if stem is None:
            return [token for token in tokens if token]
        if not self.memoize:
            return [s for s in (stem(t) if len(t) > self._min_length else t for t in tokens) if s]
        cache, longer = self._cache, self._min_length
        out = []
        for token in tokens:
            found = cache.get(token)
            if found is None:
                found = stem(token) if len(token) > longer else token
                if len(cache) < 1 << 20:
                    cache[token] = found
            if found:
                out.append(found)
        return out


# The Bengali rules above come from bengali-stemmer, under this licence:
#
# MIT License
#
# Copyright (c) 2017 BanglaKit Project Contributors
#
# Permission is hereby granted, free of charge, to any person obtaining a copy
# of this software and associated documentation files (the "Software"), to deal
# in the Software without restriction, including without limitation the rights
# to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
# copies of the Software, and to permit persons to whom the Software is
# furnished to do so, subject to the following conditions:
#
# The above copyright notice and this permission notice shall be included in all
# copies or substantial portions of the Software.
#
# THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
# IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
# FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
# AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
# LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
# OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
# SOFTWARE.

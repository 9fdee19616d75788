"""Porter stemming as rouge-score does it, memoized.

rouge-score stems with NLTK's ``PorterStemmer()`` in its default
``NLTK_EXTENSIONS`` mode, at ~12 us a token; real text repeats its words, so
each distinct token is stemmed once per stemmer.  NLTK is imported on first
use only: importing it costs about a second.
"""

from __future__ import annotations

from typing import Callable, Optional

from kurenai._core.rules import is_stemmable, keeps_stem
from kurenai.tokenizers._protocol import distribution_version

__all__ = [
    "MAX_CACHED",
    "MAX_CACHED_CHARS",
    "CachedPorterStemmer",
    "Stemmer",
    "is_stemmable",
    "porter_stemmer",
    "stem_signature",
    "stemmed",
]

# Bounds the memo on endless streams of new tokens; 2**20 short strings is
# tens of MiB at most.
MAX_CACHED = 1 << 20
# ... and on long ones: the characters of the keys and values it holds
# (2**25: 32 Mi characters, 32 to 128 MiB of text by the widest character;
# a pathological stream of 100,000-character tokens reaches it in ~300
# entries).  A token longer than that on its own is stemmed, never memoized.
MAX_CACHED_CHARS = 1 << 25

# What a tokenizer declares as its ``stemmer``: token -> stem, or None when
# the tokenizer drops the stemmed token.
Stemmer = Callable[[str], Optional[str]]


class CachedPorterStemmer:
    """``stem(token)``: Porter stem of stemmable tokens, other tokens unchanged.

    ``stem_or_drop(token)`` also applies ``keep``, the tokenizer's post-stem
    filter (``kurenai._core.rules.keeps_stem``) to what the stemmer made: a
    stem that fails it gives None; a token too short or not ASCII
    ``[a-z0-9]`` is returned unchanged, whatever it holds.
    Each has its own memo; a tokenizer uses one of them.

    >>> stemmer = CachedPorterStemmer(keep=str.isalpha)
    >>> stemmer.stem("running"), stemmer.stem_or_drop("running"), stemmer.stem_or_drop("1990s")
    ('run', 'run', None)
    >>> stemmer.stem_or_drop("5.00"), stemmer.stem_or_drop("c++")
    ('5.00', 'c++')
    """

    # Characters held by each memo (class defaults: a stemmer pickled before
    # they were counted starts from zero).
    _cache_chars = 0
    _kept_chars = 0

    def __init__(self, keep: Callable[[str], bool] | None = None) -> None:
        self._porter_stem: Callable[[str], str] = _load_porter()
        self._cache: dict[str, str] = {}
        self._kept: dict[str, str | None] = {}
        self._keep = keep

    def stem(self, token: str) -> str:
        cached = self._cache.get(token)
        if cached is not None:
            return cached
        result = self._porter_stem(token) if is_stemmable(token) else token
        size = len(token) + len(result)
        if len(self._cache) >= MAX_CACHED or self._cache_chars + size > MAX_CACHED_CHARS:
            self._cache.clear()
            self._cache_chars = 0
        if size <= MAX_CACHED_CHARS:
            self._cache[token] = result
            self._cache_chars += size
        return result

    def __getstate__(self) -> dict[str, object]:
        # Pickled without the memos: they refill, and a tokenizer pickles to
        # the same bytes however much it has stemmed (the worker processes of
        # kurenai._core.processes key their loaded plans on those bytes).
        state = {**self.__dict__, "_cache": {}, "_kept": {}}
        state.pop("_cache_chars", None)  # the empty memos' counts: the class's zeros
        state.pop("_kept_chars", None)
        return state

    @property
    def memo(self) -> dict[str, str | None]:
        """What ``stem_or_drop`` returned for each token it has seen: the
        compiled scan reads a hit here instead of calling the method."""
        return self._kept

    def stem_or_drop(self, token: str) -> str | None:
        # The compiled scan calls this once per distinct stemmable token of a
        # pair: a hit is one dict lookup.
        try:
            return self._kept[token]
        except KeyError:
            pass
        if is_stemmable(token):
            stem = self._porter_stem(token)
            kept = stem if self._keep is None or self._keep(stem) else None
        else:
            # The filter judges what the stemmer made, never a token it left
            # alone: an analyser's "5.00", "gpt-4" or "c++" stays, as without
            # the stemmer (and as the compiled scan, which asks for stemmable
            # tokens only).
            kept = token
        size = len(token) + (0 if kept is None else len(kept))
        if len(self._kept) >= MAX_CACHED or self._kept_chars + size > MAX_CACHED_CHARS:
            self._kept.clear()  # the same dict: the compiled scan holds it
            self._kept_chars = 0
        if size <= MAX_CACHED_CHARS:
            self._kept[token] = kept
            self._kept_chars += size
        return kept


def porter_stemmer(use_stemmer: bool, scan_mode: str) -> Stemmer | None:
    """rouge-score's Porter stemming followed by the post-stem filter of
    ``scan_mode`` (``kurenai._core.rules.SCANS``), or None without stemming."""
    if not use_stemmer:
        return None
    return CachedPorterStemmer(keep=keeps_stem(scan_mode)).stem_or_drop


def stemmed(tokens: list[str], stemmer: Stemmer | None) -> list[str]:
    """``tokens`` through ``stemmer``, less the ones it drops: the one
    stem-then-filter step of every tokenizer here.

    >>> stemmed(["cats", "dogs"], porter_stemmer(True, "rouge-score"))
    ['cat', 'dog']
    """
    if stemmer is None:
        return tokens
    return [s for s in map(stemmer, tokens) if s is not None]


def stem_signature(use_stemmer: bool) -> str:
    """How a tokenizer here stems, for the signature: ``no``, or Porter
    with the NLTK version (its rules have changed between releases)."""
    return f"porter(nltk={distribution_version('nltk')})" if use_stemmer else "no"


def _load_porter() -> Callable[[str], str]:
    try:
        from nltk.stem.porter import PorterStemmer
    except ImportError as error:  # pragma: no cover - nltk comes with rouge-score
        raise ImportError(
            "use_stemmer=True needs NLTK's Porter stemmer: pip install nltk"
        ) from error
    return PorterStemmer().stem  # type: ignore[no-any-return]

"""Porter stemming as rouge-score does it, memoized.

rouge-score stems with NLTK's ``PorterStemmer()`` in its default
``NLTK_EXTENSIONS`` mode, at ~12 us a token; real text repeats its words, so
each distinct token is stemmed once per stemmer.  NLTK is imported on first
use only: importing it costs about a second.
"""

from __future__ import annotations

import re
from typing import Callable

# Bounds the memo on endless streams of new tokens; 2**20 short strings is
# tens of MiB at most.
MAX_CACHED = 1 << 20


_STEMMABLE = re.compile(r"[a-z0-9]+")


def is_stemmable(token: str) -> bool:
    """rouge-score stems only tokens of ASCII [a-z0-9] longer than 3 characters."""
    return len(token) > 3 and _STEMMABLE.fullmatch(token) is not None


class CachedPorterStemmer:
    """``stem(token)``: Porter stem of stemmable tokens, other tokens unchanged."""

    def __init__(self) -> None:
        self._porter_stem: Callable[[str], str] = _load_porter()
        self._cache: dict[str, str] = {}

    def stem(self, token: str) -> str:
        cached = self._cache.get(token)
        if cached is not None:
            return cached
        result = self._porter_stem(token) if is_stemmable(token) else token
        if len(self._cache) >= MAX_CACHED:
            self._cache.clear()
        self._cache[token] = result
        return result


def _load_porter() -> Callable[[str], str]:
    try:
        from nltk.stem.porter import PorterStemmer
    except ImportError as error:  # pragma: no cover - nltk comes with rouge-score
        raise ImportError(
            "use_stemmer=True needs NLTK's Porter stemmer: pip install nltk"
        ) from error
    return PorterStemmer().stem  # type: ignore[no-any-return]

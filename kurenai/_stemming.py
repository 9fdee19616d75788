"""Porter stemming as rouge-score does it, memoized.

rouge-score stems with NLTK's ``PorterStemmer()`` in its default
``NLTK_EXTENSIONS`` mode, at ~12 us a token; real text repeats its words, so
each distinct token is stemmed once per stemmer.  NLTK is imported on first
use only: importing it costs about a second.
"""

from __future__ import annotations

from typing import Callable, Optional

from kurenai._rules import is_stemmable

__all__ = ["MAX_CACHED", "CachedPorterStemmer", "Stemmer", "is_stemmable"]

# Bounds the memo on endless streams of new tokens; 2**20 short strings is
# tens of MiB at most.
MAX_CACHED = 1 << 20

# What a tokenizer declares as its ``stemmer``: token -> stem, or None when
# the tokenizer drops the stemmed token.
Stemmer = Callable[[str], Optional[str]]


class CachedPorterStemmer:
    """``stem(token)``: Porter stem of stemmable tokens, other tokens unchanged.

    Called, it also applies ``keep``, the tokenizer's post-stem filter
    (``kurenai._rules.keeps_stem``): a stem that fails it gives None.

    >>> stemmer = CachedPorterStemmer(keep=str.isalpha)
    >>> stemmer.stem("running"), stemmer("running"), stemmer("1990s"), stemmer("abc")
    ('run', 'run', None, 'abc')
    """

    def __init__(self, keep: Callable[[str], bool] | None = None) -> None:
        self._porter_stem: Callable[[str], str] = _load_porter()
        self._cache: dict[str, str] = {}
        self._keep = keep

    def stem(self, token: str) -> str:
        cached = self._cache.get(token)
        if cached is not None:
            return cached
        result = self._porter_stem(token) if is_stemmable(token) else token
        if len(self._cache) >= MAX_CACHED:
            self._cache.clear()
        self._cache[token] = result
        return result

    def __call__(self, token: str) -> str | None:
        stemmed = self.stem(token)
        # Only a token the stemmer changed can fail the filter: the
        # tokenizers' own tokens all pass it.
        if stemmed is token or self._keep is None or self._keep(stemmed):
            return stemmed
        return None


def _load_porter() -> Callable[[str], str]:
    try:
        from nltk.stem.porter import PorterStemmer
    except ImportError as error:  # pragma: no cover - nltk comes with rouge-score
        raise ImportError(
            "use_stemmer=True needs NLTK's Porter stemmer: pip install nltk"
        ) from error
    return PorterStemmer().stem  # type: ignore[no-any-return]

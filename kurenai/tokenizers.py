"""Tokenizers: text -> list of token strings, with rouge-score's interface.

Every tokenizer here has ``tokenize(text) -> list[str]``, so it can be passed as
``RougeScorer(tokenizer=...)`` to kurenai or to rouge-score itself, and can be
made by name with :func:`get_tokenizer`.

A tokenizer whose class sets ``line_separable = True`` promises that
``tokenize(a + "\\n" + b) == tokenize(a) + tokenize(b)``; the scorer then
tokenizes each line once and reuses the lines for the whole text.
"""

from __future__ import annotations

import re
import sys
from typing import Any, Callable, Protocol, runtime_checkable

from kurenai._morphological import (
    JiebaTokenizer,
    KiwiTokenizer,
    MeCabTokenizer,
    MorphologicalTokenizer,
    SudachiTokenizer,
)
from kurenai._stemming import CachedPorterStemmer
from kurenai._unicode_tokenizers import (
    CharTokenizer,
    NormalizingTokenizer,
    UnicodeTokenizer,
    normalizing,
    with_normalization,
)

__all__ = [
    "AllCharacterSupportTokenizer",
    "CharTokenizer",
    "JiebaTokenizer",
    "KiwiTokenizer",
    "MeCabTokenizer",
    "MorphologicalTokenizer",
    "NormalizingTokenizer",
    "RougeScoreTokenizer",
    "SudachiTokenizer",
    "Tokenizer",
    "UnicodeTokenizer",
    "available_tokenizers",
    "get_tokenizer",
    "normalizing",
    "resolve_tokenizer",
]


@runtime_checkable
class Tokenizer(Protocol):
    """Anything with rouge-score's ``tokenize(text) -> list[str]``."""

    def tokenize(self, text: str) -> list[str]: ...


class AllCharacterSupportTokenizer:
    """kurenai's default: lowercase, split on whitespace, keep every character.

    Unlike rouge-score's tokenizer nothing is deleted, so Japanese, Chinese,
    Korean... text that is already split into words keeps its tokens.  With
    ``use_stemmer=True``, tokens made only of ASCII ``[a-z0-9]`` and longer than
    3 characters are Porter-stemmed exactly as rouge-score stems them; other
    tokens (including ones carrying punctuation, like ``dogs.``) are kept as is.

    >>> AllCharacterSupportTokenizer().tokenize("いぬ ねこ  Dog")
    ['いぬ', 'ねこ', 'dog']
    >>> AllCharacterSupportTokenizer(use_stemmer=True).tokenize("The dogs are running")
    ['the', 'dog', 'are', 'run']
    """

    line_separable = True

    def __init__(self, use_stemmer: bool = False) -> None:
        self.use_stemmer = use_stemmer
        self._stem = CachedPorterStemmer().stem if use_stemmer else None

    def tokenize(self, text: str) -> list[str]:
        tokens = text.lower().split()
        if self._stem is None:
            return tokens
        stem = self._stem
        return [stem(token) for token in tokens]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(use_stemmer={self.use_stemmer})"


_ROUGE_WORD = re.compile(r"[a-z0-9]+")


class RougeScoreTokenizer:
    """rouge-score's ``DefaultTokenizer``, token for token, but faster.

    Lowercases, keeps only runs of ASCII ``[a-z0-9]`` (everything else, including
    every non-ASCII character, separates or disappears), and with the stemmer
    Porter-stems tokens longer than 3 characters.  kurenai uses it in place of a
    ``rouge_score.tokenizers.DefaultTokenizer`` passed to ``RougeScorer``.

    >>> RougeScoreTokenizer().tokenize("Don't panic: 42 いぬ")
    ['don', 't', 'panic', '42']
    """

    line_separable = True

    def __init__(self, use_stemmer: bool = False) -> None:
        self.use_stemmer = use_stemmer
        self._stem = CachedPorterStemmer().stem if use_stemmer else None

    def tokenize(self, text: str) -> list[str]:
        tokens = _ROUGE_WORD.findall(text.lower())
        if self._stem is None:
            return tokens
        stem = self._stem
        # rouge-score drops anything its stemmer turns into a non-[a-z0-9]+ token.
        return [s for s in map(stem, tokens) if _ROUGE_WORD.fullmatch(s)]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(use_stemmer={self.use_stemmer})"


_REGISTRY: dict[str, Callable[..., Tokenizer]] = {
    "whitespace": with_normalization(AllCharacterSupportTokenizer),
    "rouge-score": with_normalization(RougeScoreTokenizer),
    "unicode": UnicodeTokenizer,
    "char": CharTokenizer,
    "mecab": MeCabTokenizer,
    "sudachi": SudachiTokenizer,
    "jieba": JiebaTokenizer,
    "kiwi": KiwiTokenizer,
}


def register_tokenizer(name: str, factory: Callable[..., Tokenizer]) -> None:
    """Make ``factory(use_stemmer=..., **options)`` available as ``name``."""
    _REGISTRY[name] = factory


def available_tokenizers() -> list[str]:
    """The names :func:`get_tokenizer` accepts."""
    return sorted(_REGISTRY)


def get_tokenizer(name: str, **options: Any) -> Tokenizer:
    """Make the tokenizer registered as ``name``, e.g. ``get_tokenizer("whitespace")``."""
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise ValueError(
            f"unknown tokenizer {name!r}; available: {', '.join(available_tokenizers())}"
        ) from None
    return factory(**options)


def resolve_tokenizer(tokenizer: Any, use_stemmer: bool = False) -> Tokenizer:
    """What ``RougeScorer(tokenizer=...)`` turns its argument into.

    None -> the default tokenizer; a name -> :func:`get_tokenizer`; rouge-score's
    own ``DefaultTokenizer`` -> the identical, faster :class:`RougeScoreTokenizer`;
    any other object with a ``tokenize`` method is used as it is.
    """
    if tokenizer is None:
        return AllCharacterSupportTokenizer(use_stemmer=use_stemmer)
    if isinstance(tokenizer, str):
        return get_tokenizer(tokenizer, use_stemmer=use_stemmer)
    if _is_rouge_score_default(tokenizer):
        return RougeScoreTokenizer(use_stemmer=tokenizer._stemmer is not None)
    if not callable(getattr(tokenizer, "tokenize", None)):
        raise TypeError(
            "tokenizer must be None, a tokenizer name or an object with a "
            f"tokenize(text) method, got {type(tokenizer).__name__}"
        )
    return tokenizer  # type: ignore[no-any-return]


def _is_rouge_score_default(tokenizer: Any) -> bool:
    # Compare with the class itself, not its name, and only if rouge-score's
    # tokenizers are already imported (importing them loads NLTK: ~1 s).
    module = sys.modules.get("rouge_score.tokenizers")
    default = getattr(module, "DefaultTokenizer", None)
    return (
        default is not None
        and type(tokenizer) is default
        and (getattr(tokenizer, "_stemmer", None) is None or _is_default_porter(tokenizer._stemmer))
    )


def _is_default_porter(stemmer: Any) -> bool:
    from nltk.stem.porter import PorterStemmer

    return type(stemmer) is PorterStemmer and stemmer.mode == PorterStemmer.NLTK_EXTENSIONS

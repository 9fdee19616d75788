"""Tokenizers: text -> list of token strings, with rouge-score's interface.

Every tokenizer here has ``tokenize(text) -> list[str]``, so it can be passed as
``RougeScorer(tokenizer=...)`` to kurenai or to rouge-score itself, and can be
made by name with :func:`get_tokenizer`.

A tokenizer whose class sets ``line_separable = True`` promises that
``tokenize(a + "\\n" + b) == tokenize(a) + tokenize(b)``; the scorer then
tokenizes each line once and reuses the lines for the whole text.

A tokenizer whose own class sets ``scan_mode`` (a name of
``kurenai._core.rules.SCAN_MODES``) promises that it tokenizes exactly as the
compiled scan of that mode, with its ``stemmer`` (None or ``token -> stem or
None``) applied to each token; the scorer then runs the compiled text path.
The attribute is read from the tokenizer's own class, never inherited, so a
subclass that tokenizes differently stays correct.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, ClassVar, Protocol, runtime_checkable

from kurenai._core.rules import ROUGE_WORD, keeps_stem
from kurenai.rouge155._tokenizer import Rouge155Tokenizer
from kurenai.tokenizers._morphological import (
    JiebaTokenizer,
    KiwiTokenizer,
    MeCabTokenizer,
    MorphologicalTokenizer,
    SudachiTokenizer,
)
from kurenai.tokenizers._stemming import CachedPorterStemmer, Stemmer
from kurenai.tokenizers._unicode import (
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
    "register_tokenizer",
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
    scan_mode: ClassVar[str | None] = "whitespace"

    def __init__(self, use_stemmer: bool = False) -> None:
        self.use_stemmer = use_stemmer
        self.stemmer: Stemmer | None = _stemmer(self.scan_mode, use_stemmer)

    def tokenize(self, text: str) -> list[str]:
        return _stemmed(text.lower().split(), self.stemmer)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(use_stemmer={self.use_stemmer})"


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
    scan_mode: ClassVar[str | None] = "rouge-score"

    def __init__(self, use_stemmer: bool = False) -> None:
        self.use_stemmer = use_stemmer
        # rouge-score drops anything its stemmer turns into a non-[a-z0-9]+ token.
        self.stemmer: Stemmer | None = _stemmer(self.scan_mode, use_stemmer)

    def tokenize(self, text: str) -> list[str]:
        return _stemmed(ROUGE_WORD.findall(text.lower()), self.stemmer)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(use_stemmer={self.use_stemmer})"


def _stemmer(scan_mode: str | None, use_stemmer: bool) -> Stemmer | None:
    """The Porter stemmer with the post-stem filter of ``scan_mode``, or None."""
    if not use_stemmer:
        return None
    return CachedPorterStemmer(keep=keeps_stem(scan_mode) if scan_mode else None).stem_or_drop


def _stemmed(tokens: list[str], stemmer: Stemmer | None) -> list[str]:
    if stemmer is None:
        return tokens
    return [s for s in map(stemmer, tokens) if s is not None]


_REGISTRY: dict[str, Callable[..., Tokenizer]] = {
    "whitespace": with_normalization(AllCharacterSupportTokenizer),
    "rouge-score": with_normalization(RougeScoreTokenizer),
    "unicode": UnicodeTokenizer,
    "char": CharTokenizer,
    "mecab": MeCabTokenizer,
    "sudachi": SudachiTokenizer,
    "jieba": JiebaTokenizer,
    "kiwi": KiwiTokenizer,
    "rouge155": Rouge155Tokenizer,
}


def register_tokenizer(name: str, factory: Callable[..., Tokenizer] | None) -> None:
    """Make ``factory(use_stemmer=..., **options)`` available as ``name``
    (None removes the name again).

    >>> register_tokenizer("upper", lambda use_stemmer=False: AllCharacterSupportTokenizer())
    >>> "upper" in available_tokenizers()
    True
    >>> register_tokenizer("upper", None)
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"a tokenizer name must be a non-empty str, got {name!r}")
    if factory is None:
        _REGISTRY.pop(name, None)
    elif not callable(factory):
        raise TypeError(f"a tokenizer factory must be callable, got {type(factory).__name__}")
    else:
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

"""Tokenizers: text -> list of token strings, with rouge-score's interface.

Every tokenizer here has ``tokenize(text) -> list[str]``, so it can be passed as
``RougeScorer(tokenizer=...)`` to kurenai or to rouge-score itself, and can be
made by name with :func:`get_tokenizer`.  :class:`Tokenizer` (defined in
``kurenai.tokenizers._protocol``) documents the optional attributes that make
one faster (``line_separable``, ``scan_mode`` with ``stemmer``) or
reproducible (``signature_parts``).

The registry resolves names lazily: the optional morphological tokenizers
(``mecab``, ``sudachi``, ``jieba``, ``kiwi``; ``thai``, ``lao``, ``khmer``)
are named by their module path, so ``import kurenai.tokenizers`` imports
neither their adapters nor their analysers' packages; :func:`tokenizer_info`
says which pip extra each needs.

A tokenizer's ``use_stemmer`` is True (rouge-score's Porter), False, or the
name of a stemmer (:func:`available_stemmers`: every Snowball language through
PyStemmer, the ``stem`` extra, and NLTK's Snowball as ``nltk-<language>``).
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any, Callable, ClassVar, NamedTuple, Union

from kurenai._data.rules import ROUGE_WORD
from kurenai._data.spelling import did_you_mean
from kurenai.tokenizers._protocol import Tokenizer, own_name
from kurenai.tokenizers._stemming import (
    Stemmer,
    StemmerChoice,
    available_stemmers,
    porter_stemmer,
    stem_signature,
    stemmed,
)
from kurenai.tokenizers._unicode import (
    CharTokenizer,
    NormalizingTokenizer,
    UnicodeTokenizer,
    normalizing,
    with_normalization,
)
from kurenai.tokenizers._xlsum_text import BurmeseTokenizer

if TYPE_CHECKING:  # imported on first use: see __getattr__
    from kurenai.tokenizers._morphological import (
        JiebaTokenizer,
        KiwiTokenizer,
        MeCabTokenizer,
        MorphologicalTokenizer,
        SudachiTokenizer,
    )
    from kurenai.tokenizers._unspaced import KhmerTokenizer, LaoTokenizer, ThaiTokenizer

__all__ = [
    "AllCharacterSupportTokenizer",
    "BurmeseTokenizer",
    "CharTokenizer",
    "JiebaTokenizer",
    "KhmerTokenizer",
    "KiwiTokenizer",
    "LaoTokenizer",
    "MeCabTokenizer",
    "MorphologicalTokenizer",
    "NormalizingTokenizer",
    "RougeScoreTokenizer",
    "SudachiTokenizer",
    "ThaiTokenizer",
    "Tokenizer",
    "TokenizerInfo",
    "UnicodeTokenizer",
    "available_stemmers",
    "available_tokenizers",
    "get_tokenizer",
    "normalizing",
    "register_tokenizer",
    "resolve_tokenizer",
    "tokenizer_info",
]

_MORPHOLOGICAL = "kurenai.tokenizers._morphological"
_UNSPACED = "kurenai.tokenizers._unspaced"
# class -> its module, imported on first use.
_LAZY_CLASSES = {
    "JiebaTokenizer": _MORPHOLOGICAL,
    "KiwiTokenizer": _MORPHOLOGICAL,
    "MeCabTokenizer": _MORPHOLOGICAL,
    "MorphologicalTokenizer": _MORPHOLOGICAL,
    "SudachiTokenizer": _MORPHOLOGICAL,
    "ThaiTokenizer": _UNSPACED,
    "LaoTokenizer": _UNSPACED,
    "KhmerTokenizer": _UNSPACED,
}


def __getattr__(name: str) -> Any:
    # The morphological adapters' modules are imported when one is first asked
    # for (their analysers' packages later still: at their first tokenize).
    if name in _LAZY_CLASSES:
        return getattr(importlib.import_module(_LAZY_CLASSES[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    name: ClassVar[str] = "whitespace"
    scan_mode: ClassVar[str | None] = name  # the compiled scan of that name

    def __init__(self, use_stemmer: StemmerChoice = False) -> None:
        self.use_stemmer = use_stemmer
        self.stemmer: Stemmer | None = porter_stemmer(use_stemmer, self.name)

    def tokenize(self, text: str) -> list[str]:
        return stemmed(text.lower().split(), self.stemmer)

    def signature_parts(self) -> dict[str, str]:
        """Its name and stemming, for the reproducibility signature."""
        return {"name": own_name(self), "stem": stem_signature(self.use_stemmer)}

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
    name: ClassVar[str] = "rouge-score"
    scan_mode: ClassVar[str | None] = name  # the compiled scan of that name

    def __init__(self, use_stemmer: StemmerChoice = False) -> None:
        self.use_stemmer = use_stemmer
        # rouge-score drops anything its stemmer turns into a non-[a-z0-9]+ token.
        self.stemmer: Stemmer | None = porter_stemmer(use_stemmer, self.name)

    def tokenize(self, text: str) -> list[str]:
        return stemmed(ROUGE_WORD.findall(text.lower()), self.stemmer)

    def signature_parts(self) -> dict[str, str]:
        """Its name and stemming, for the reproducibility signature."""
        return {"name": own_name(self), "stem": stem_signature(self.use_stemmer)}

    def __repr__(self) -> str:
        return f"{type(self).__name__}(use_stemmer={self.use_stemmer})"


class TokenizerInfo(NamedTuple):
    """What ``--help`` and error messages say about a registered tokenizer:
    one line on what it does, and the pip extra it needs (None: none)."""

    name: str
    summary: str
    extra: str | None


Factory = Callable[..., Tokenizer]
# A factory, or "module:attribute" naming one, imported on first use.
_Entry = Union[Factory, str]

# name -> (factory, one line of help).  The optional tokenizers are named as
# strings: neither their module nor their analyser is imported until used.
_BUILTIN: dict[str, tuple[_Entry, str]] = {
    AllCharacterSupportTokenizer.name: (
        with_normalization(AllCharacterSupportTokenizer),
        "lowercase and split at whitespace, keeping every character (text already "
        "split into words)",
    ),
    RougeScoreTokenizer.name: (
        with_normalization(RougeScoreTokenizer),
        "rouge-score's own: ASCII [a-z0-9] words only, everything else dropped",
    ),
    UnicodeTokenizer.name: (
        UnicodeTokenizer,
        "rouge-score's rule with letters and numbers of any script",
    ),
    CharTokenizer.name: (
        CharTokenizer,
        "each character of Chinese, Japanese, Thai... alone, words of other scripts; "
        "no dictionary (the choice for unspaced text)",
    ),
    "mecab": (f"{_MORPHOLOGICAL}:MeCabTokenizer", "Japanese words (MeCab, UniDic-lite)"),
    "sudachi": (f"{_MORPHOLOGICAL}:SudachiTokenizer", "Japanese words (Sudachi)"),
    "jieba": (f"{_MORPHOLOGICAL}:JiebaTokenizer", "Chinese words (jieba)"),
    "kiwi": (f"{_MORPHOLOGICAL}:KiwiTokenizer", "Korean morphemes (Kiwi)"),
    "thai": (f"{_UNSPACED}:ThaiTokenizer", "Thai words (PyThaiNLP's newmm)"),
    "lao": (f"{_UNSPACED}:LaoTokenizer", "Lao words (LaoNLP)"),
    "khmer": (f"{_UNSPACED}:KhmerTokenizer", "Khmer words (khmer-nltk)"),
    BurmeseTokenizer.name: (
        with_normalization(BurmeseTokenizer),
        "Burmese syllables, as XL-Sum's ROUGE segments them (punctuation dropped)",
    ),
    "rouge155": (
        "kurenai.rouge155._tokenizer:Rouge155Tokenizer",
        "ROUGE-1.5.5.pl's own text path: [a-z0-9] words, its Porter stemmer and stopwords",
    ),
}
_REGISTRY: dict[str, _Entry] = {name: entry for name, (entry, _) in _BUILTIN.items()}


def _factory(entry: _Entry) -> Factory:
    if not isinstance(entry, str):
        return entry
    module, _, attribute = entry.partition(":")
    return getattr(importlib.import_module(module), attribute)  # type: ignore[no-any-return]


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
    return _factory(_entry(name))(**options)


def tokenizer_info(name: str) -> TokenizerInfo:
    """What to tell about the tokenizer ``name``: a line of help and its extra.

    >>> tokenizer_info("jieba")
    TokenizerInfo(name='jieba', summary='Chinese words (jieba)', extra='zh')
    """
    entry = _entry(name)
    builtin = _BUILTIN.get(name)
    if builtin is not None and builtin[0] is entry:
        summary = builtin[1]
    else:
        summary = ((_factory(entry).__doc__ or "").strip().splitlines() or [""])[0]
    # The extra is the class's own (its ImportError names it); reading it
    # imports the adapter's module, never the analyser's package.
    extra = getattr(_factory(entry), "extra", None)
    return TokenizerInfo(name, summary, extra if isinstance(extra, str) else None)


def _entry(name: str) -> _Entry:
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        names = available_tokenizers()
        raise ValueError(
            f"unknown tokenizer {name!r}{did_you_mean(name, names)}; available: {', '.join(names)}"
        ) from None


def resolve_tokenizer(tokenizer: Any, use_stemmer: StemmerChoice = False) -> Tokenizer:
    """What ``RougeScorer(tokenizer=...)`` turns its argument into
    (``use_stemmer``: True for Porter, or a stemmer's name).

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

"""XL-Sum's tokenization: language names, segmenters, and the token lists
``kurenai.compat.xlsum`` counts.

``multilingual_rouge`` lowercases a text, sanitizes it into words
(``kurenai.tokenizers._xlsum_text.bert_words``), joins them with spaces and
hands that to the language's segmenter: jieba (``chinese``), MeCab through
fugashi with ``-O wakati -b 50000`` (``japanese``), pythainlp's ``newmm``
(``thai``), its Burmese syllables (``burmese``) or a ``callable_tokenizer``.
jieba and pythainlp return the spaces between words as tokens, and they are
kept.  Without a segmenter, or when it returns nothing, pyonmttok's
``aggressive`` mode splits the words (letters from digits, symbols off) and
each Han character becomes a token.  ROUGE-Lsum's sentences (the lines) are
the sanitizer's words only: no segmenter, no pyonmttok, no Han split.
"""

from __future__ import annotations

import logging
import warnings
from typing import Any, Callable

from kurenai.compat._xlsum_stemmers import XlsumStemming
from kurenai.tokenizers._mecab_taggers import shared_taggers
from kurenai.tokenizers._morphological import _import_quietly
from kurenai.tokenizers._private_cache import private_cache_dir
from kurenai.tokenizers._xlsum_text import bert_text, bert_words, burmese_syllables, han_split

__all__ = [
    "ALIASES",
    "MAX_CHARS",
    "MAX_RUN",
    "SEGMENTED",
    "Tokens",
    "XLSumLimitError",
    "analysed",
    "canonical",
    "check_limits",
    "check_longest",
    "segmenter",
    "wakati",
    "words_of",
]

Segment = Callable[[str], Any]

# XL-Sum's other names of its languages (its SPECIAL_LANGID_CONVERSION_MAP).
ALIASES = {
    "bangla": "bengali",
    "turkce": "turkish",
    "chinese_simplified": "chinese",
    "chinese_traditional": "chinese",
    "mundo": "spanish",
}
# The languages with a segmenter, and the package each needs.
SEGMENTED = {"chinese": "jieba", "japanese": "fugashi", "thai": "pythainlp", "burmese": None}
# The most code points of one text (its sanitized words joined by spaces) that
# XL-Sum's tokenizers are handed: pyonmttok holds ~70 bytes per code point
# (a 50 MB line: std::bad_alloc), jieba and pythainlp take 20-40 us per code
# point (2M: minutes).  ``RougeScorer(max_chars=...)`` changes it.
MAX_CHARS = 1_000_000
# The longest word (a run without whitespace after the sanitizer) handed to
# an analyser (jieba, MeCab, pythainlp) or, with ``use_stemmer``, to the
# tokenizer whose tokens are stemmed: MeCab crashes the process (SIGSEGV) on
# one run of ~200,000 Latin letters or ~1,000,000 Japanese characters, and
# its time (jieba's, and several Snowball stemmers': Tamil, Serbian, Arabic)
# grows with the square of a run of one character class.  No sentence of any
# language runs that long without a space or a punctuation mark (the
# sanitizer makes each one a space).
MAX_RUN = 10_000
# The languages whose segmenter is an analyser with the limits above.
_ANALYSERS = frozenset({"chinese", "japanese", "thai"})
_FALLBACK_WARNING = (
    "-" * 5 + "No tokens found using inferred tokenizer, switching to default tokenizer" + "-" * 5
)


def canonical(lang: str | None) -> str | None:
    """The language name XL-Sum works with: aliases resolved, ``""`` as None."""
    if not lang:
        return None
    return ALIASES.get(lang, lang)


class XLSumLimitError(ValueError):
    """A text over one of the XL-Sum dialect's limits (``MAX_CHARS``,
    ``MAX_RUN``), refused whole: XL-Sum's package crashes the process, runs
    out of memory or takes minutes on it.  Below the limits the scores are
    the package's, as everywhere."""


def check_limits(joined: str, max_chars: int | None, analysed: bool) -> None:
    """Refuse ``joined`` (sanitized words joined by spaces) if it is longer
    than ``max_chars`` code points or, for an analyser (``analysed``), holds
    a word longer than ``MAX_RUN``; linear, and free for a short text."""
    if max_chars is not None and len(joined) > max_chars:
        raise XLSumLimitError(
            f"a text of {len(joined):,} characters (after XL-Sum's sanitizer) is over the "
            f"XL-Sum dialect's limit of {max_chars:,} (max_chars)"
        )
    if analysed and len(joined) > MAX_RUN:
        check_longest(max(map(len, joined.split(" "))))


def check_longest(longest: int) -> None:
    """Refuse a text whose longest word has ``longest`` code points, past ``MAX_RUN``."""
    if longest > MAX_RUN:
        raise XLSumLimitError(
            f"a word of {longest:,} characters without a space or punctuation is over the "
            f"XL-Sum dialect's limit of {MAX_RUN:,} for its segmenters and stemmers (MeCab "
            "crashes on one of ~200,000; their time grows with its square)"
        )


def analysed(lang: str | None) -> bool:
    """Whether ``lang`` (canonical) is segmented by an analyser (``MAX_RUN`` guards it)."""
    return lang in _ANALYSERS


def _jieba() -> Segment:
    """jieba's global tokenizer, as XL-Sum segments with it, its dictionary
    cache in kurenai's private folder: jieba's default, a fixed name in the
    shared temporary directory, would load a cache another user planted."""
    jieba = _import_quietly("jieba")
    logging.getLogger("jieba").setLevel(logging.WARNING)
    if not jieba.dt.initialized and not jieba.dt.tmp_dir:
        jieba.dt.tmp_dir = private_cache_dir()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        jieba.initialize()
    return jieba.lcut  # type: ignore[no-any-return]


# XL-Sum's MeCab options: words separated by spaces, a 50,000-byte input buffer.
_WAKATI_ARGS = "-O wakati -b 50000"


def _mecab_text() -> Callable[[str], str]:
    """MeCab's ``-O wakati`` output of a text, from the process's taggers
    (every scorer and every unpickled copy share them: each tagger maps the
    dictionary, hundreds of megabytes, anew)."""
    fugashi = _import_quietly("fugashi")
    taggers = shared_taggers("fugashi", _WAKATI_ARGS, lambda: fugashi.Tagger(_WAKATI_ARGS))

    def parse(text: str) -> str:
        with taggers.lend() as tagger:
            return tagger.parse(text)  # type: ignore[attr-defined,no-any-return]

    return parse


def _mecab() -> Segment:
    return words_of(_mecab_text())


def _newmm() -> Segment:
    word_tokenize = _import_quietly("pythainlp.tokenize").word_tokenize
    return lambda text: word_tokenize(text, engine="newmm")


_SEGMENTERS: dict[str, Callable[[], Segment]] = {
    "chinese": _jieba,
    "japanese": _mecab,
    "thai": _newmm,
    "burmese": lambda: burmese_syllables,
}


# The segmenters whose output is text, its tokens separated by whitespace.
_WAKATI: dict[str, Callable[[], Callable[[str], str]]] = {"japanese": _mecab_text}


def segmenter(lang: str | None) -> Segment | None:
    """The segmenter XL-Sum runs for ``lang`` (canonical), loaded now."""
    make = _SEGMENTERS.get(lang) if lang else None
    return make() if make else None


def wakati(lang: str | None) -> Callable[[str], str] | None:
    """For a language whose segmenter writes text (MeCab's ``-O wakati``):
    that segmenter, loaded now, returning the text; XL-Sum's tokens are its
    ``str.split()``.  None for any other language."""
    make = _WAKATI.get(lang) if lang else None
    return make() if make else None


def words_of(write: Callable[[str], str]) -> Segment:
    """The segmenter that splits what ``write`` writes at whitespace."""
    return lambda text: write(text).split()


class Tokens:
    """One scorer's tokenization: its segmenter, pyonmttok and its stemmer.

    ``trusted``: the segmenter is XL-Sum's own (never an empty token), so
    unstemmed tokens need no filtering.
    """

    __slots__ = ("_analysed", "_max_chars", "_pretokenize", "_segment", "_stems", "_trusted")

    def __init__(
        self,
        segment: Segment | None,
        stems: XlsumStemming | None,
        trusted: bool = True,
        max_chars: int | None = MAX_CHARS,
        analysed: bool = False,
    ) -> None:
        self._segment = segment
        self._stems = stems
        self._trusted = trusted
        self._max_chars = max_chars
        self._analysed = analysed
        self._pretokenize: Callable[[str], Any] | None = None

    def check(self, joined: str) -> None:
        """``check_limits`` of a text's joined words, with this scorer's limits."""
        check_limits(joined, self._max_chars, self._analysed)

    def words(self, text: str) -> list[str]:
        """The tokens of a whole text (ROUGE-N and ROUGE-L)."""
        return self._joined(" ".join(bert_words(text.lower().strip())))

    def lines(self, text: str) -> list[list[str]]:
        """The tokens of each non-empty line (ROUGE-Lsum), sanitized only."""
        found = [bert_words(line.lower()) for line in text.split("\n") if line]
        if self._stems is not None and self._analysed and len(text) > MAX_RUN:
            check_longest(max((len(word) for words in found for word in words), default=0))
        return [self._stemmed(words) for words in found]

    def both(self, text: str) -> tuple[list[str], list[list[str]]]:
        """``words(text)`` and ``lines(text)``, sanitizing each line once: the
        sanitizer splits at line breaks, and lowercasing reads no context
        across one (a final sigma is final before a line break either way)."""
        lowered = text.lower()
        # One pass of the sanitizer: it keeps every line break where it was.
        clean = bert_text(lowered)
        if "\n" in lowered:
            pieces = zip(lowered.split("\n"), clean.split("\n"))
            sanitized = [line.split() for raw, line in pieces if raw]
        else:
            sanitized = [clean.split()] if lowered else []
        words = self._joined(" ".join(clean.split()))
        if self._stems is None and self._trusted:
            return words, sanitized
        return words, [self._stemmed(line) for line in sanitized]

    def _joined(self, joined: str) -> list[str]:
        """The stemmed tokens of the sanitized words ``joined`` by spaces."""
        self.check(joined)
        segment = self._segment
        if segment is None:
            tokens: list[str] = []
        else:  # XL-Sum's own segmenters return lists; a user's may not
            tokens = segment(joined) if self._trusted else list(segment(joined))
        if not tokens and joined:
            if self._segment is not None:
                warnings.warn(_FALLBACK_WARNING, stacklevel=5)
            tokens = han_split(" ".join(self._aggressive(joined)))
        return self._stemmed(tokens)

    def _stemmed(self, tokens: list[str]) -> list[str]:
        if self._stems is not None:
            return self._stems.tokens(tokens)
        if self._trusted:
            return tokens
        return [token for token in tokens if token]

    def _aggressive(self, text: str) -> list[str]:
        if self._pretokenize is None:
            pyonmttok = _import_quietly("pyonmttok")
            self._pretokenize = pyonmttok.Tokenizer("aggressive").tokenize
        return self._pretokenize(text)[0]  # type: ignore[no-any-return]

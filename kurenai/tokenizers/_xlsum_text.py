"""XL-Sum's text rules: its BERT-style sanitizer, its split of Han
characters, and its Burmese syllables (the ``burmese`` tokenizer).

These are the rules of csebuetnlp's multilingual ROUGE (``multilingual_rouge``
on the package index), written again from their description, for
``kurenai.compat.xlsum`` and the ``burmese`` tokenizer:

- :func:`bert_words`: control and format characters (Unicode category ``C*``),
  NUL and U+FFFD are deleted; ASCII non-alphanumerics and Unicode punctuation
  (``P*``) separate words and are dropped; whitespace separates words.
- :func:`han_split`: each CJK Unified Ideograph (the blocks BERT names) is a
  token of its own; other runs split at whitespace.
- :func:`burmese_syllables`: all whitespace is removed, then each character
  outside the dependent signs starts a unit, a unit holding the asat (U+103A)
  and shorter than 4 characters joins the unit before it (unless that one
  joined its own predecessor), and a lone virama (U+1039) glues its two
  neighbours.

The character classes come from the running interpreter's ``unicodedata``,
as the package's do, each code point's on its first sight.
"""

from __future__ import annotations

import re
import unicodedata
from typing import ClassVar

from kurenai.tokenizers._protocol import own_name
from kurenai.tokenizers._stemming import Stemmer, porter_stemmer, stem_signature, stemmed

__all__ = ["BurmeseTokenizer", "bert_text", "bert_words", "burmese_syllables", "han_split"]

# BERT's "Chinese characters": the CJK Unified Ideographs blocks and their
# compatibility blocks (Hiragana, Katakana and Hangul are not among them).
_HAN_RANGES = (
    (0x4E00, 0x9FFF),
    (0x3400, 0x4DBF),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F),
    (0x2B820, 0x2CEAF),
    (0xF900, 0xFAFF),
    (0x2F800, 0x2FA1F),
)
_HAN_CLASS = "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in _HAN_RANGES)
_HAN_OR_RUN = re.compile(f"[{_HAN_CLASS}]|[^\\s{_HAN_CLASS}]+")
_HAN = re.compile(f"[{_HAN_CLASS}]")
_ASCII_SEPARATORS = frozenset(
    chr(cp) for lo, hi in ((33, 47), (58, 64), (91, 96), (123, 126)) for cp in range(lo, hi + 1)
)

# Code points whose class is remembered: beyond, each is classified again.
_MAX_CLASSIFIED = 1 << 16


class _Classes(dict):  # type: ignore[type-arg]
    """code point -> None (deleted), " " (separates words) or itself, as
    ``str.translate`` takes it; each code point is classified on first sight."""

    def __missing__(self, code: int) -> int | str | None:
        char = chr(code)
        kind = unicodedata.category(char)
        value: int | str | None = code
        if (kind[0] == "C" and char not in "\t\n\r") or code == 0xFFFD:
            value = None
        elif kind[0] == "P" or char in _ASCII_SEPARATORS:
            value = " "
        if len(self) < _MAX_CLASSIFIED:
            self[code] = value
        return value


_CLASSES = _Classes()
for _code in range(128):
    _CLASSES[_code]


def bert_words(text: str) -> list[str]:
    """The sanitizer's words: deleted controls, dropped punctuation.

    After the deletions, a word is a run of neither whitespace (``str.split``'s,
    which includes every ``Zs`` character) nor a separator.

    >>> bert_words("Hello, world!\u200b  ক্ষ-১০")
    ['Hello', 'world', 'ক্ষ', '১০']
    """
    return text.translate(_CLASSES).split()


def bert_text(text: str) -> str:
    """``text`` with the sanitizer's deletions made and its separators turned
    into spaces: ``bert_text(text).split() == bert_words(text)``, and line
    breaks stay where they were (one pass over a text of many lines).

    >>> bert_text("a,b\\u200b\\nc")
    'a b\\nc'
    """
    return text.translate(_CLASSES)


def han_split(text: str) -> list[str]:
    """Whitespace-separated tokens with each Han character alone.

    >>> han_split("東京tokyo 2020年")
    ['東', '京', 'tokyo', '2020', '年']
    """
    # Without a Han character the runs are str.split()'s (re's \s is
    # str.isspace()), made in C without the pattern's per-run matching.
    if _HAN.search(text) is None:
        return text.split()
    return _HAN_OR_RUN.findall(text)


_ASAT = "\u103a"
_DOT_BELOW = "\u1037"
_VIRAMA = "\u1039"
# Dependent signs: a character of these never starts a unit.
_DEPENDENT = (
    "".join(chr(0x102B + x) for x in range(8))
    + "".join(chr(0x1036 + x) for x in range(3))
    + "".join(chr(0x103B + x) for x in range(4))
    + _ASAT
)
_D = f"[{_DEPENDENT}]"
# A unit of 2 or 3 characters holding the asat ("short asat unit"), whole.
_SHORT_ASAT = f"[^{_DEPENDENT}](?:{_ASAT}{_D}?|{_D}{_ASAT})(?!{_D})"
# Units as XL-Sum groups them: a unit takes the short asat unit after it,
# unless it is one itself (it joined its own predecessor, or stands alone
# after one that did); the first unit, of any kind, takes one too.
_SYLLABLE = re.compile(
    f"^(?:{_D}+|[^{_DEPENDENT}]{_D}*)(?:{_SHORT_ASAT})?"
    f"|(?!{_SHORT_ASAT})[^{_DEPENDENT}]{_D}*(?:{_SHORT_ASAT})?"
    f"|{_SHORT_ASAT}"
)


def burmese_syllables(text: str) -> list[str]:
    """XL-Sum's Burmese units (lowercased, every space removed).

    >>> burmese_syllables("မြန်မာ စာ")
    ['မြန်', 'မာ', 'စာ']
    """
    text = text.replace("\u200c", " ").replace(_DOT_BELOW + _ASAT, _ASAT + _DOT_BELOW)
    joined = " ".join(_SYLLABLE.findall("".join(text.lower().split())))
    if _VIRAMA in joined:
        joined = joined.replace(f" {_VIRAMA} ", _VIRAMA)
    return joined.split()


class BurmeseTokenizer:
    """Burmese syllables exactly as XL-Sum's ROUGE segments them.

    Lowercases, keeps the sanitizer's words (:func:`bert_words`: punctuation
    and control characters dropped) and cuts them into syllables with
    :func:`burmese_syllables`.  Spaces do not separate syllables (they are
    removed first), so Latin words become single letters, as in XL-Sum.

    >>> BurmeseTokenizer().tokenize("မြန်မာ, စာ")
    ['မြန်', 'မာ', 'စာ']
    """

    name: ClassVar[str] = "burmese"

    def __init__(self, use_stemmer: bool = False) -> None:
        self.use_stemmer = use_stemmer
        self.stemmer: Stemmer | None = porter_stemmer(use_stemmer, "whitespace")

    def tokenize(self, text: str) -> list[str]:
        words = bert_words(text.lower().strip())
        return stemmed(burmese_syllables(" ".join(words)), self.stemmer)

    def signature_parts(self) -> dict[str, str]:
        """Its name and stemming, for the reproducibility signature."""
        return {"name": own_name(self), "stem": stem_signature(self.use_stemmer)}

    def __repr__(self) -> str:
        return f"{type(self).__name__}(use_stemmer={self.use_stemmer})"

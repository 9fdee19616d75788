"""Tokenization rules as data: the one place both twins read them from.

The Python tokenizers (``kurenai.tokenizers``, ``kurenai.tokenizers._unicode``,
``kurenai.tokenizers._stemming``) and the compiled scan (``kurenai._fused``, which
copies these values into C tables when it is imported) both follow the rules
below, so a rule changed here changes both.
"""

from __future__ import annotations

import re
import sys
from typing import Callable, NamedTuple

__all__ = [
    "ALONE",
    "CLASS_TABLE_SIZE",
    "DIRECT_PLANES_END",
    "MARK",
    "PLANE_14",
    "PLANE_14_SIZE",
    "ROUGE_WORD",
    "ROUGE_WORD_CHARS",
    "SCANS",
    "SCAN_MODES",
    "SENTENCE_SEPARATOR",
    "SNOWBALL_MAX_LENGTH",
    "STEM_MIN_LENGTH",
    "STEM_RULES",
    "WORD",
    "ScanRule",
    "StemRule",
    "is_rouge_word",
    "is_stemmable",
    "keeps_stem",
    "stem_rule",
]

# rouge-score's tokenizer keeps runs of these (after lowercasing), and its
# stemmer only touches tokens made of them.
ROUGE_WORD_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789"
ROUGE_WORD = re.compile(f"[{ROUGE_WORD_CHARS}]+")
# rouge-score stems only tokens longer than 3 characters.
STEM_MIN_LENGTH = 4

# Without split_summaries, ROUGE-Lsum's sentences are the text's lines.
SENTENCE_SEPARATOR = "\n"

# Bit flags of the code point table (``kurenai.tokenizers._unicode.char_classes``)
# that the ``char`` and ``unicode`` scans read (the compiled plan installs the
# table itself when it is made for one of them).
ALONE = 1  # a letter of an unspaced script: a token of its own (``char``)
WORD = 2  # another letter or number: runs of them are words
MARK = 4  # a combining mark: continues the token before it

# The table's layout: one byte per code point of planes 0-3, then the first
# PLANE_14_SIZE code points of plane 14 (tags, variation selectors); every
# other code point has no flag.
DIRECT_PLANES_END = 0x40000
PLANE_14 = 0xE0000
PLANE_14_SIZE = 0x1000
CLASS_TABLE_SIZE = DIRECT_PLANES_END + PLANE_14_SIZE


def is_rouge_word(token: str) -> bool:
    """Whether ``token`` is one of rouge-score's words: ASCII ``[a-z0-9]+``."""
    return ROUGE_WORD.fullmatch(token) is not None


def is_stemmable(token: str) -> bool:
    """rouge-score stems only tokens of ASCII [a-z0-9] longer than 3 characters."""
    return len(token) >= STEM_MIN_LENGTH and is_rouge_word(token)


def _keeps_any(stemmed: str) -> bool:
    return True


def _keeps_alphanumeric(stemmed: str) -> bool:
    # As rouge-score: drop an ASCII token its stemmer made empty or non-alphanumeric.
    return bool(stemmed) and (not stemmed.isascii() or stemmed.isalnum())


class ScanRule(NamedTuple):
    """One tokenization the compiled scan reproduces.

    ``code`` is the scan's mode number (``kurenai._fused`` branches on it
    and checks its own copy against :data:`SCAN_MODES` when it loads);
    ``keeps`` is the post-stem filter (a stem it rejects drops the token).
    """

    code: int
    keeps: Callable[[str], bool]


# The one table of scan modes, by the ``scan_mode`` a tokenizer declares.
SCANS = {
    "whitespace": ScanRule(0, _keeps_any),
    "rouge-score": ScanRule(1, is_rouge_word),
    "char": ScanRule(2, _keeps_alphanumeric),
    "unicode": ScanRule(3, _keeps_alphanumeric),
}
# The mode numbers, which the compiled scan's own enum must equal.
SCAN_MODES = {name: rule.code for name, rule in SCANS.items()}


def keeps_stem(scan_mode: str) -> Callable[[str], bool]:
    """The post-stem filter ``str -> bool`` of the tokenizers of ``scan_mode``:
    it judges a stem, the stemmer's output for an :func:`is_stemmable` token;
    a token the stemmer leaves alone is kept as the tokenizer made it."""
    return SCANS[scan_mode].keeps


class StemRule(NamedTuple):
    """Which tokens a stemmer is given (the others are kept unchanged).

    A token of at least ``min_length`` and at most ``max_length`` code
    points is stemmed if ``words_only`` is False, or if it is one of
    rouge-score's words (ASCII ``[a-z0-9]``) when it is True.  The compiled
    scan reads every field.
    """

    min_length: int
    words_only: bool
    max_length: int = sys.maxsize

    def stemmable(self, token: str) -> bool:
        """Whether the stemmer sees ``token``."""
        return self.min_length <= len(token) <= self.max_length and (
            not self.words_only or is_rouge_word(token)
        )


# Porter, as rouge-score: ASCII words longer than 3 characters.
_PORTER = StemRule(STEM_MIN_LENGTH, True)
# The longest token a Snowball stemmer sees: a longer one is kept unstemmed.
# Several of libstemmer's stemmers take time quadratic in a token's length
# (Tamil: 0.6 s on 20,000 code points of one vowel sign, 2.2 s on 40,000;
# Serbian, Arabic and German too, with smaller constants); no word of any
# language comes near this length, which costs at most ~2 ms a token.
SNOWBALL_MAX_LENGTH = 1_000
# The Snowball stemmers see every token of 4 to SNOWBALL_MAX_LENGTH
# characters, in any script (as XL-Sum's scorer stems): a token of another
# script passes through a stemmer unchanged.
_SNOWBALL = StemRule(4, False, SNOWBALL_MAX_LENGTH)

# The stemming rule of each stemmer kurenai names (kurenai.tokenizers'
# stemmer registry), by its name; the NLTK twins ("nltk-german") share their
# language's rule.  One line a language: change a language's rule here.
STEM_RULES = {
    "porter": _PORTER,
    "arabic": _SNOWBALL,
    "armenian": _SNOWBALL,
    "basque": _SNOWBALL,
    "catalan": _SNOWBALL,
    "czech": _SNOWBALL,
    "danish": _SNOWBALL,
    "dutch": _SNOWBALL,
    "dutch_porter": _SNOWBALL,
    "english": _SNOWBALL,
    "esperanto": _SNOWBALL,
    "estonian": _SNOWBALL,
    "finnish": _SNOWBALL,
    "french": _SNOWBALL,
    "german": _SNOWBALL,
    "greek": _SNOWBALL,
    "hindi": _SNOWBALL,
    "hungarian": _SNOWBALL,
    "indonesian": _SNOWBALL,
    "irish": _SNOWBALL,
    "italian": _SNOWBALL,
    "lithuanian": _SNOWBALL,
    "nepali": _SNOWBALL,
    "norwegian": _SNOWBALL,
    "persian": _SNOWBALL,
    "polish": _SNOWBALL,
    "portuguese": _SNOWBALL,
    "romanian": _SNOWBALL,
    "russian": _SNOWBALL,
    "serbian": _SNOWBALL,
    "sesotho": _SNOWBALL,
    "spanish": _SNOWBALL,
    "swedish": _SNOWBALL,
    "tamil": _SNOWBALL,
    "turkish": _SNOWBALL,
    "yiddish": _SNOWBALL,
}


def stem_rule(stemmer: str) -> StemRule:
    """The rule of the stemmer named ``stemmer`` (an NLTK twin ``nltk-x``: x's)."""
    return STEM_RULES[stemmer[len("nltk-") :] if stemmer.startswith("nltk-") else stemmer]

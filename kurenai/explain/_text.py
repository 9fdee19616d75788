"""Where each character of a prepared text came from in the original text.

A tokenizer may normalise (NFC, NFKC, NFD, NFKD) and lowercase before it
finds tokens, and both can change a text's length: ``"ﬁ"`` is ``"fi"`` under
NFKC, ``"İ"`` lowercases to two code points.  :class:`Prepared` holds the
prepared text and, for each of its characters, the span of original
characters it came from, so that a token found in the prepared text becomes a
span of the original one.  A character made by normalising several original
ones (a composed ``é`` from ``e`` + U+0301) maps to all of them.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Callable

__all__ = ["Prepared", "prepare"]

Normalizer = Callable[[str], str]


@dataclass(frozen=True)
class Prepared:
    """A prepared text; ``starts[k]``/``ends[k]`` bound the original characters
    that its character ``k`` came from (None: the identity)."""

    text: str
    starts: list[int] | None = None
    ends: list[int] | None = None

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original span of the prepared characters ``start:end`` (end > start)."""
        if self.starts is None or self.ends is None:
            return start, end
        return self.starts[start], self.ends[end - 1]


def prepare(text: str, normalizer: Normalizer | None, lower: bool) -> Prepared:
    """``text`` normalised (if ``normalizer``) then lowercased (if ``lower``),
    as the tokenizers prepare it, with the map back to ``text``."""
    if normalizer is None:
        units = None
        prepared = text
    else:
        units = _normalized_units(text, normalizer)
        prepared = "".join(piece for piece, _, _ in units)
    if lower:
        lowered = prepared.lower()
        if len(lowered) != len(prepared):
            units = _lowered_units(prepared, units)
        prepared = lowered
    if units is None:
        return Prepared(prepared)
    starts: list[int] = []
    ends: list[int] = []
    for piece, start, end in units:
        starts.extend([start] * len(piece))
        ends.extend([end] * len(piece))
    return Prepared(prepared, starts, ends)


Unit = tuple[str, int, int]  # (prepared piece, original start, original end)


def _lowered_units(text: str, units: list[Unit] | None) -> list[Unit]:
    """Each character of ``text`` lowercased on its own, with its origin.

    Lowercasing one character at a time gives the same lengths as
    lowercasing the whole text (the only contextual rule, the final sigma,
    changes a letter, not a length), which is all the map needs."""
    found: list[Unit] = []
    for piece, start, end in units or [(c, i, i + 1) for i, c in enumerate(text)]:
        found.extend((char.lower(), start, end) for char in piece)
    return found


def _normalized_units(text: str, normalizer: Normalizer) -> list[Unit]:
    """``text`` cut where normalisation cannot reach across, each piece normalised.

    Pieces start at characters of canonical combining class 0; a piece whose
    normalisation joins with the one before (Hangul jamo, some Indic vowel
    signs) is merged into it.  If the pieces still do not add up to the
    normalised text, each line is one piece.
    """
    pieces: list[list[int]] = []  # [start, end] of original characters
    for i, char in enumerate(text):
        if pieces and unicodedata.combining(char):
            pieces[-1][1] = i + 1
        else:
            pieces.append([i, i + 1])
    units: list[Unit] = []
    for start, end in pieces:
        piece = normalizer(text[start:end])
        if units:
            before, first, _ = units[-1]
            joined = normalizer(text[first:end])
            if joined != before + piece:
                units[-1] = (joined, first, end)
                continue
        units.append((piece, start, end))
    if "".join(piece for piece, _, _ in units) == normalizer(text):
        return units
    lines: list[Unit] = []
    start = 0
    for line in text.splitlines(keepends=True):
        lines.append((normalizer(line), start, start + len(line)))
        start += len(line)
    return lines

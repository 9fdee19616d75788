"""How a text is cut into a morphological analyser's calls.

Untrusted input stays in each analyser's linear range (the cost model is in
docs/guides/untrusted-input.md): a run of more than ``RUN_BOUND`` code points
without whitespace or punctuation is cut every ``RUN_BOUND`` code points
(``_runs_cut``), and a long text reaches the analyser in pieces
(``MECAB_PIECE`` by ``_natural_pieces``, Sudachi's ``SUDACHI_PIECE`` by
``_pieces``) cut at line breaks, whitespace or punctuation.  Only a token
inside such a run, or next to a piece's cut, can differ from the analyser's
on the whole text.  ``MorphologicalTokenizer._calls`` puts the two together.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from kurenai.tokenizers._unicode import class_of

__all__ = ["MECAB_PIECE", "RUN_BOUND", "SUDACHI_PIECE"]

# SudachiPy refuses texts over 49,149 bytes of UTF-8: it gets pieces of at
# most 12,000 code points (48,000 bytes).
SUDACHI_PIECE = 12_000
# fugashi (MeCab) crashes the process (SIGSEGV) on one call of ~194,000
# characters (fewer with punctuation between them): it gets pieces of at most
# 10,000 code points, far below every crash seen and short enough that
# its time on an unbroken run of letters (quadratic in MeCab) stays small.
MECAB_PIECE = 10_000
# The cost model (measured by benchmarks/bench_robustness.py): MeCab's time
# on a run of characters with no whitespace or punctuation between them
# grows with the run's square (Latin letters, digits, Hangul: it weighs every
# length of unknown word), so do Kiwi's on Latin letters and jieba's on one
# Han character repeated; Sudachi's stays linear.  Every analyser gets runs
# of at most RUN_BOUND code points, a longer run being cut every RUN_BOUND
# code points from its start: each call then costs at most a constant, and a
# text costs time linear in its length.  No word of any language is that long,
# so only such a run's tokens can change.
RUN_BOUND = 1_024


@functools.cache
def _run_pattern() -> re.Pattern[str]:
    """A maximal run of characters that are neither whitespace nor punctuation
    (category P*) of the Basic Multilingual Plane; built once, ~15 ms."""
    # Plane 1's few punctuation marks (old scripts) are left out: a class
    # with code points past U+FFFF is a list of ranges to re, searched
    # linearly for each character (8x slower on every long text).
    punctuation = [c for c in range(0x10000) if unicodedata.category(chr(c))[0] == "P"]
    return re.compile(f"[^\\s{class_of(punctuation)[1:-1]}]+")


def _runs_cut(piece: str, bound: int = RUN_BOUND) -> list[str]:
    """``piece`` cut inside each run (of characters neither whitespace nor
    punctuation) longer than ``bound``, every ``bound`` code points from the
    run's start; a piece without such a run stays whole.  Linear: one
    ``finditer`` over the maximal runs."""
    if len(piece) <= bound:
        return [piece]
    cuts: list[int] = []
    for run in _run_pattern().finditer(piece):
        start, end = run.span()
        if end - start > bound:
            cuts.extend(range(start + bound, end, bound))
    if not cuts:
        return [piece]
    edges = [0, *cuts, len(piece)]
    return [piece[a:b] for a, b in zip(edges, edges[1:])]


def _pieces(text: str, size: int) -> list[str]:
    """``text`` cut into pieces of at most ``size`` code points, each after
    the last newline, space or ideographic full stop it holds (or at ``size``
    code points if none: a word that long is cut)."""
    pieces, start = [], 0
    while len(text) - start > size:
        stop = start + size
        cut = max(text.rfind(separator, start, stop) for separator in ("\n", " ", "。"))
        cut = cut + 1 if cut >= start else stop
        pieces.append(text[start:cut])
        start = cut
    pieces.append(text[start:])
    return pieces


def _natural_pieces(text: str, size: int) -> list[str]:
    """``text`` cut into pieces of at most ``size`` code points, each ending
    after the last line break it holds, else after its last whitespace or
    punctuation character (Unicode category P*), else at ``size`` code points.

    Linear in ``len(text)``: each piece's characters are looked at at most
    once, from its end back to its cut.
    """
    pieces, start = [], 0
    while len(text) - start > size:
        stop = start + size
        cut = text.rfind("\n", start + 1, stop) + 1  # a line's words stay together
        if cut == 0:
            cut = stop
            for index in range(stop - 1, start, -1):
                char = text[index]
                if char.isspace() or unicodedata.category(char)[0] == "P":
                    cut = index + 1
                    break
        pieces.append(text[start:cut])
        start = cut
    pieces.append(text[start:])
    return pieces

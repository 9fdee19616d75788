"""Pure-Python twin of ``kurenai._pairs``: ROUGE-N and ROUGE-L of many pairs of
texts already turned into IDs, each text counted once (the readable spec).

``fill`` has the compiled twin's name, arguments and results: for each pair
the n-gram overlap (a multiset intersection of the two texts' n-grams) and
the LCS length (``kurenai._lcs_py.lcs_length``), scored with
rouge-score's operations in its order, as ``kurenai._core.kinds`` defines
them for ROUGE-N and ROUGE-L.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from kurenai._data import codes as _codes
from kurenai._lcs_py import lcs_length

__all__ = ["EVERY", "KINDS", "MIRRORED", "PAIRED", "fill"]

KINDS = frozenset({_codes.NGRAM, _codes.LCS})
EVERY, MIRRORED, PAIRED = 0, 1, 2
MAX_ORDERS = 9


def _fmeasure(precision: float, recall: float) -> float:
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0


def _profile(grams: tuple[Any, Any, int], text: int) -> Counter[int]:
    gram_ids, gram_starts, _ = grams
    span = gram_ids[int(gram_starts[text]) : int(gram_starts[text + 1])]
    return Counter(int(gram) for gram in span)


def _values(
    texts: tuple[Any, Any, tuple[Any, ...]],
    prediction: int,
    target: int,
    orders: Any,
    kinds: Any,
    slots: Any,
) -> list[tuple[float, float, float] | None]:
    """Each type's P, R, F for one pair (None: a kind not computed here)."""
    ids, starts, grams = texts
    pred = [int(x) for x in ids[int(starts[prediction]) : int(starts[prediction + 1])]]
    targ = [int(x) for x in ids[int(starts[target]) : int(starts[target + 1])]]
    found: list[tuple[float, float, float] | None] = []
    for kind, slot in zip(kinds, slots):
        if kind == _codes.NGRAM:
            mine, theirs = _profile(grams[slot], prediction), _profile(grams[slot], target)
            hits = sum((mine & theirs).values())
            n = int(orders[slot])
            p = hits / max(max(len(pred) - n + 1, 0), 1)
            r = hits / max(max(len(targ) - n + 1, 0), 1)
            found.append((p, r, _fmeasure(p, r)))
        elif kind == _codes.LCS:
            if not pred or not targ:
                found.append((0.0, 0.0, 0.0))
                continue
            lcs = lcs_length(targ, pred)
            p, r = lcs / len(pred), lcs / len(targ)
            found.append((p, r, _fmeasure(p, r)))
        else:
            found.append(None)
    return found


def fill(
    ids: Any,
    starts: Any,
    vocab: int,
    grams: tuple[tuple[Any, Any, int], ...],
    orders: Any,
    kinds: Any,
    slots: Any,
    rows: Any,
    cols: Any,
    row_start: int,
    row_stop: int,
    layout: int,
    out: Any,
) -> None:
    """See ``kurenai._pairs.fill``."""
    if len(grams) != len(orders) or len(grams) > MAX_ORDERS:
        raise ValueError("one n-gram profile per order, at most 9")
    if any(len(gram_starts) != len(starts) for _, gram_starts, _ in grams):
        raise ValueError("one n-gram start per text start")
    if out.shape[0] != len(kinds) or out.shape[1] != 3:
        raise ValueError("out must be types x 3 x rows x columns")
    if not 0 <= row_start <= row_stop <= len(rows) or out.shape[2] < len(rows):
        raise ValueError("rows out of range")
    if layout == PAIRED and len(cols) < len(rows):
        raise ValueError("PAIRED needs a target per row")
    for kind, slot in zip(kinds, slots):
        if kind == _codes.NGRAM and not 0 <= slot < len(grams):
            raise ValueError("an n-gram type's slot is out of range")
    texts = (ids, starts, grams)
    for r in range(row_start, row_stop):
        if layout == PAIRED:
            columns = [(0, int(cols[r]))]
        else:
            first = r if layout == MIRRORED else 0
            columns = [(c, int(cols[c])) for c in range(first, out.shape[3])]
        for c, target in columns:
            values = _values(texts, int(rows[r]), target, orders, kinds, slots)
            for i, triple in enumerate(values):
                if triple is None:
                    continue
                out[i, :, r, c] = triple
                if layout == MIRRORED and c != r:
                    out[i, :, c, r] = (triple[1], triple[0], triple[2])

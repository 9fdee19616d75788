"""ROUGE-L/W hits clipped by the other reader's counts (the script under ``-b``).

The script marks, per model unit, the union of the LCS positions with every
peer unit, then credits a marked word only while it still has an unused
count in both summaries' *n-gram-reader* words (``readText``).  Without a
byte limit those are the units' own words and kurenai's kernels compute
this directly; under ``-b`` the two readers cut differently, and these
functions clip by ``Summary.whole`` instead.  The LCS paths come from the
kernels' ``lcs_indices`` (rouge-score's tie-break, which is the script's)
and ``wlcs_indices`` (the script's weighted walk).
"""

from __future__ import annotations

from collections import Counter

from kurenai import _backend
from kurenai._variants_py import wlcs_indices
from kurenai.rouge155._summary import Summary

__all__ = ["clipped_lcs_hits", "clipped_wlcs_hit"]


def clipped_lcs_hits(model: Summary, peer: Summary) -> int:
    """The script's ROUGE-L hit count (``lcs``) of ``model`` against ``peer``."""
    lcs_indices = _backend.kernels.lcs_indices
    remaining_m, remaining_p = Counter(model.whole), Counter(peer.whole)
    hits = 0
    for unit in model.units:
        marked = set()
        for other in peer.units:
            if unit and other:
                marked.update(lcs_indices(unit, other))
        for index in sorted(marked):
            word = unit[index]
            if remaining_m[word] > 0 and remaining_p[word] > 0:
                hits += 1
                remaining_m[word] -= 1
                remaining_p[word] -= 1
    return hits


def clipped_wlcs_hit(model: Summary, peer: Summary, weight: float) -> tuple[float, float]:
    """The script's ROUGE-W ``(hit, base)`` (``wlcs``) of ``model`` against ``peer``.

    A run of consecutive marked positions is credited ``len ** weight`` when
    the next position is unmarked or the unit ends; a marked word that fails
    the count check neither extends nor ends its run (the script's rule).
    """
    remaining_m, remaining_p = Counter(model.whole), Counter(peer.whole)
    hit = base = 0.0
    for unit in model.units:
        base += float(len(unit)) ** weight
        marked = [False] * len(unit)
        for other in peer.units:
            for index in wlcs_indices(unit, other, weight):
                marked[index] = True
        run = 0
        for j, word in enumerate(unit):
            if marked[j] and remaining_m[word] > 0 and remaining_p[word] > 0:
                run += 1
                if j + 1 == len(unit) or not marked[j + 1]:
                    hit += float(run) ** weight
                    run = 0
                remaining_m[word] -= 1
                remaining_p[word] -= 1
    return hit, base

"""ROUGE-L/W hits clipped by the other reader's counts (the script under ``-b``).

The script marks, per model unit, the union of the LCS positions with every
peer unit, then credits a marked word only while it still has an unused
count in both summaries' *n-gram-reader* words (``readText``).  Without a
byte limit those are the units' own words and kurenai's kernels compute
this directly; under ``-b`` the two readers cut differently, and these
functions clip by ``Summary.whole`` instead.  Both are the kernels' twins'
rules (``kurenai._lcs_py.union_hits``, ``kurenai._variants_py.wlcs_runs``)
given those words; the LCS paths come from the live kernels' ``lcs_indices``
(rouge-score's tie-break, which is the script's).
"""

from __future__ import annotations

from kurenai import _backend
from kurenai._lcs_py import union_hits
from kurenai._variants_py import wlcs_credit, wlcs_runs
from kurenai.rouge155._summary import Summary

__all__ = ["clipped_lcs_hits", "clipped_wlcs_hit"]


def clipped_lcs_hits(model: Summary, peer: Summary) -> int:
    """The script's ROUGE-L hit count (``lcs``) of ``model`` against ``peer``."""
    paths = _backend.kernels.lcs_indices
    return len(union_hits(model.units, peer.units, model.whole, peer.whole, paths))


def clipped_wlcs_hit(model: Summary, peer: Summary, weight: float) -> tuple[float, float]:
    """The script's ROUGE-W ``(hit, base)`` (``wlcs``) of ``model`` against ``peer``:
    ``len ** weight`` summed over the credited runs, and over the units."""
    runs = wlcs_runs(model.units, peer.units, weight, model.whole, peer.whole)
    return wlcs_credit(model.units, runs, weight)

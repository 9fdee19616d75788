"""What each ROUGE type matched, as token positions, with the counts of its score.

Each function takes the tokens of the reference (``t``) and the prediction
(``p``) and returns the matched positions and ``(hits, t_count, p_count)``,
the counts that ``kurenai._core.python_plan`` turns into P/R/F.  The LCS
paths, ROUGE-Lsum's union, ROUGE-W's runs and the skip units are those of
the kernels' pure twins (``kurenai._lcs_py``, ``kurenai._variants_py``), the
specification, called here; a test holds the counts to the kernels'.

- ROUGE-N: n-grams of the multiset intersection, clipped: an n-gram seen
  ``a`` times in the reference and ``b`` in the prediction matches its first
  ``min(a, b)`` occurrences on each side, the k-th with the k-th.
- ROUGE-L: the LCS that rouge-score's backtracking picks (its tie-break) for
  the reference, the rightmost embedding of that subsequence in the prediction.
- ROUGE-Lsum: per reference sentence, the union of its LCS positions with
  each prediction sentence, kept where the per-token counters allow (as
  rouge-score counts its hits); each hit is shown with the prediction
  token of the first LCS that paired it.
- ROUGE-W: ROUGE-1.5.5's weighted-LCS runs per reference sentence.
- ROUGE-S/SU: the skip-bigrams (and unigrams) of the clipped intersection.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from kurenai import _backend, _lcs_py, _variants_py

__all__ = ["Pairs", "lcs", "lcs_pairs", "lsum", "ngrams", "skip_grams", "wlcs"]

Tokens = Sequence[Hashable]
# One match: the reference positions and the prediction positions it pairs.
Pairs = list[tuple[tuple[int, ...], tuple[int, ...]]]
Counts = tuple[float, float, float]


def ngrams(t: Tokens, p: Tokens, n: int) -> tuple[Pairs, Counts]:
    """ROUGE-N's clipped n-gram matches and ``(overlap, t n-grams, p n-grams)``."""
    if n == 1:
        t_grams: Sequence[Hashable] = t
        p_grams: Sequence[Hashable] = p
    else:
        t_grams = [tuple(t[i : i + n]) for i in range(len(t) - n + 1)]
        p_grams = [tuple(p[i : i + n]) for i in range(len(p) - n + 1)]
    if n == 1:
        pairs: Pairs = [((i,), (j,)) for i, j in _clipped(t_grams, p_grams)]
    else:
        pairs = [
            (tuple(range(i, i + n)), tuple(range(j, j + n))) for i, j in _clipped(t_grams, p_grams)
        ]
    return pairs, (len(pairs), max(len(t) - n + 1, 0), max(len(p) - n + 1, 0))


def _clipped(t_units: Sequence[Hashable], p_units: Sequence[Hashable]) -> list[tuple[int, int]]:
    """The k-th occurrence of a unit in ``t_units`` with its k-th in ``p_units``."""
    waiting: dict[Hashable, list[int]] = {}
    for j in range(len(p_units) - 1, -1, -1):  # last first: pop() takes the earliest
        unit = p_units[j]
        found = waiting.get(unit)
        if found is None:
            waiting[unit] = [j]
        else:
            found.append(j)
    pairs: list[tuple[int, int]] = []
    for i, unit in enumerate(t_units):
        found = waiting.get(unit)
        if found:
            pairs.append((i, found.pop()))
    return pairs


def lcs_pairs(t: Tokens, p: Tokens) -> list[tuple[int, int]]:
    """The LCS as ``(reference, prediction)`` positions: ``kurenai._lcs_py.lcs_pairs``
    of the live kernels' ``lcs_indices`` (rouge-score's backtracking tie-break)."""
    return _lcs_py.lcs_pairs(t, p, _backend.kernels.lcs_indices(t, p))


def lcs(t: Tokens, p: Tokens) -> tuple[Pairs, Counts]:
    """ROUGE-L's LCS and ``(length, len(t), len(p))``; no hits when a side is empty."""
    pairs: Pairs = [((i,), (j,)) for i, j in lcs_pairs(t, p)] if t and p else []
    return pairs, (len(pairs), len(t), len(p))


def lsum(t_sents: Sequence[Tokens], p_sents: Sequence[Tokens]) -> tuple[Pairs, Counts]:
    """ROUGE-Lsum's hits (``kurenai._lcs_py.union_lcs``) as positions into the
    concatenated sentences, and ``(hits, reference tokens, prediction tokens)``."""
    t_sum, p_sum = sum(map(len, t_sents)), sum(map(len, p_sents))
    if not t_sum or not p_sum:
        return [], (0, t_sum, p_sum)
    hits = _lcs_py.union_lcs(t_sents, p_sents, indices=_backend.kernels.lcs_indices)
    pairs: Pairs = [((i,), (j,)) for i, j in hits]
    return pairs, (len(pairs), t_sum, p_sum)


def wlcs(
    t_sents: Sequence[Tokens], p_sents: Sequence[Tokens], weight: float
) -> tuple[Pairs, Counts]:
    """ROUGE-W's credited runs (``kurenai._variants_py.wlcs_runs``, one match per
    run) and ``(hit, base, prediction tokens)``, credited as
    ``kurenai._variants_py.weighted_lcs`` credits them."""
    pairs: Pairs = _variants_py.wlcs_runs(t_sents, p_sents, weight)
    hit, base = _variants_py.wlcs_credit(t_sents, pairs, weight)
    return pairs, (hit, base, float(sum(map(len, p_sents))))


def skip_grams(t: Tokens, p: Tokens, gap: int, unigrams: bool) -> tuple[Pairs, Counts]:
    """ROUGE-S/SU's clipped skip-bigram (and unigram) matches
    (``kurenai._variants_py.skip_units``) and ``(hits, reference units, prediction units)``."""
    t_units = _variants_py.skip_units(t, gap, unigrams)
    p_units = _variants_py.skip_units(p, gap, unigrams)
    found = _clipped([unit for unit, _ in t_units], [unit for unit, _ in p_units])
    pairs: Pairs = [(t_units[i][1], p_units[j][1]) for i, j in found]
    return pairs, (len(pairs), len(t_units), len(p_units))

"""What each ROUGE type matched, as token positions, with the counts of its score.

Each function takes the tokens of the reference (``t``) and the prediction
(``p``) and returns the matched positions and ``(hits, t_count, p_count)``,
the counts that ``kurenai._core.python_plan`` turns into P/R/F.  The counts
equal the kernels' (``kurenai._lcs_py``, ``kurenai._variants_py``), which
remain the specification; a test holds the two together.

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

from collections import Counter
from collections.abc import Hashable, Sequence

from kurenai import _backend, _variants_py

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
    """The LCS as ``(reference, prediction)`` positions.

    The reference positions are rouge-score's (``lcs_indices``, its
    backtracking tie-break), from the live kernels; each is paired with the
    prediction token of the rightmost embedding of that subsequence in ``p``,
    which always exists, as ``p`` holds the subsequence.
    """
    refs = _backend.kernels.lcs_indices(t, p)
    path: list[tuple[int, int]] = []
    j = len(p)
    for i in reversed(refs):
        j -= 1
        while p[j] != t[i]:
            j -= 1
        path.append((i, j))
    path.reverse()
    return path


def lcs(t: Tokens, p: Tokens) -> tuple[Pairs, Counts]:
    """ROUGE-L's LCS and ``(length, len(t), len(p))``; no hits when a side is empty."""
    pairs: Pairs = [((i,), (j,)) for i, j in lcs_pairs(t, p)] if t and p else []
    return pairs, (len(pairs), len(t), len(p))


def lsum(t_sents: Sequence[Tokens], p_sents: Sequence[Tokens]) -> tuple[Pairs, Counts]:
    """ROUGE-Lsum's hits as positions into the concatenated sentences, and
    ``(hits, reference tokens, prediction tokens)``."""
    t_sum, p_sum = sum(map(len, t_sents)), sum(map(len, p_sents))
    if not t_sum or not p_sum:
        return [], (0, t_sum, p_sum)
    remaining_t = Counter(token for sent in t_sents for token in sent)
    remaining_p = Counter(token for sent in p_sents for token in sent)
    p_starts = _starts(p_sents)
    pairs: Pairs = []
    t_start = 0
    for ref in t_sents:
        partner: dict[int, int] = {}
        for can, p_start in zip(p_sents, p_starts):
            for i, j in lcs_pairs(ref, can):
                partner.setdefault(i, p_start + j)
        for i in sorted(partner):
            token = ref[i]
            if remaining_p[token] > 0 and remaining_t[token] > 0:
                pairs.append(((t_start + i,), (partner[i],)))
                remaining_p[token] -= 1
                remaining_t[token] -= 1
        t_start += len(ref)
    return pairs, (len(pairs), t_sum, p_sum)


def wlcs(
    t_sents: Sequence[Tokens], p_sents: Sequence[Tokens], weight: float
) -> tuple[Pairs, Counts]:
    """ROUGE-W's credited runs (one match per run) and ``(hit, base, prediction tokens)``,
    in ``kurenai._variants_py.weighted_lcs``'s order of operations."""
    remaining_t = Counter(token for sent in t_sents for token in sent)
    remaining_p = Counter(token for sent in p_sents for token in sent)
    p_starts = _starts(p_sents)
    hit = base = 0.0
    pairs: Pairs = []
    t_start = 0
    for ref in t_sents:
        base += float(len(ref)) ** weight
        partner: dict[int, int] = {}
        for can, p_start in zip(p_sents, p_starts):
            for i, j in _variants_py._wlcs_path(ref, can, weight):
                partner.setdefault(i, p_start + j)
        run: list[int] = []
        for i, token in enumerate(ref):
            if i in partner and remaining_t[token] > 0 and remaining_p[token] > 0:
                run.append(i)
                if i + 1 == len(ref) or i + 1 not in partner:
                    hit += float(len(run)) ** weight
                    refs = tuple(t_start + k for k in run)
                    pairs.append((refs, tuple(partner[k] for k in run)))
                    run = []
                remaining_t[token] -= 1
                remaining_p[token] -= 1
        t_start += len(ref)
    return pairs, (hit, base, float(sum(map(len, p_sents))))


def skip_grams(t: Tokens, p: Tokens, gap: int, unigrams: bool) -> tuple[Pairs, Counts]:
    """ROUGE-S/SU's clipped skip-bigram (and unigram) matches and
    ``(hits, reference units, prediction units)``."""
    t_units, t_at = _skip_units(t, gap, unigrams)
    p_units, p_at = _skip_units(p, gap, unigrams)
    pairs: Pairs = [(t_at[i], p_at[j]) for i, j in _clipped(t_units, p_units)]
    return pairs, (len(pairs), len(t_units), len(p_units))


def _skip_units(
    tokens: Tokens, gap: int, unigrams: bool
) -> tuple[list[Hashable], list[tuple[int, ...]]]:
    """``_variants_py._skip_grams``'s units in its order, with their positions."""
    units: list[Hashable] = []
    at: list[tuple[int, ...]] = []
    last = len(tokens) - 1
    for i in range(last):
        if unigrams:
            units.append((tokens[i],))
            at.append((i,))
        stop = last if gap < 0 else min(last, i + gap + 1)
        for j in range(i + 1, stop + 1):
            units.append((tokens[i], tokens[j]))
            at.append((i, j))
    return units, at


def _starts(sentences: Sequence[Tokens]) -> list[int]:
    starts, total = [], 0
    for sentence in sentences:
        starts.append(total)
        total += len(sentence)
    return starts

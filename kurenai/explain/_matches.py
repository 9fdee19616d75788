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

Explaining costs more than scoring (the kernels count without listing), so
each type's explanation of a pair has a budget, ``MAX_WORK`` units of about
one table cell of the spec's Python each, estimated before any work starts
(:func:`work`); past it, :class:`ExplainLimitError`.  ROUGE-N, and ROUGE-L and
ROUGE-W on the compiled kernels (the scoring kernels' own walks), cost what
scoring does and have no budget.  ROUGE-S/SU list their units: ``UNIT_WORK``
per unit of each side (without a gap, a text of n tokens has n(n-1)/2 of
them).  ROUGE-Lsum (and ROUGE-W in pure Python) walk the pairs of sentences
sharing a token: ``PAIR_WORK`` per pair plus its table's cells (ROUGE-Lsum's
compiled path: a cell per 64 pairs of tokens).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from kurenai import _backend, _lcs_py, _variants_py
from kurenai._core.kinds import kind_of
from kurenai._core.plan import LCS, LSUM, SKIP, WLCS

__all__ = [
    "MAX_WORK",
    "ExplainLimitError",
    "Pairs",
    "check_work",
    "lcs",
    "lcs_pairs",
    "lsum",
    "ngrams",
    "skip_grams",
    "wlcs",
    "work",
]

# Each type's budget for one pair, in units of about one table cell of the
# spec's Python (~0.3 us, 8 bytes): about a second and tens of megabytes.
MAX_WORK = 5_000_000
UNIT_WORK = 24  # a listed ROUGE-S/SU unit: three tuples, a dict entry, a match
PAIR_WORK = 24  # a pair of sentences walked: a path call and its union


class ExplainLimitError(ValueError):
    """The explanation of a pair would cost more than ``MAX_WORK`` (its score
    does not: ``score()`` counts without listing what matched)."""


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
    indices = _lcs_py.memoised_indices(_backend.kernels.lcs_indices)
    hits = _lcs_py.union_lcs(t_sents, p_sents, indices=indices)
    pairs: Pairs = [((i,), (j,)) for i, j in hits]
    return pairs, (len(pairs), t_sum, p_sum)


def wlcs(
    t_sents: Sequence[Tokens], p_sents: Sequence[Tokens], weight: float
) -> tuple[Pairs, Counts]:
    """ROUGE-W's credited runs (``kurenai._variants_py.wlcs_runs``, one match per
    run) and ``(hit, base, prediction tokens)``, credited as
    ``kurenai._variants_py.weighted_lcs`` credits them."""
    marks = _backend.variants.wlcs_marks(t_sents, p_sents, weight)  # the walks, as scored
    pairs: Pairs = _variants_py.wlcs_runs(t_sents, p_sents, weight, marks=marks)
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


def work(kind: int, t: Sequence[Tokens], p: Sequence[Tokens], gap: int, unigrams: bool) -> int:
    """What explaining one type of ``kind`` would cost, in ``MAX_WORK``'s
    units; ``t`` and ``p`` are the sentences' tokens (one sentence: the whole
    text).  Stops counting once past ``MAX_WORK``."""
    if kind == SKIP:
        return UNIT_WORK * sum(_skip_units(len(x), gap, unigrams) for x in (t[0], p[0]))
    compiled = _backend.kernels.__name__ == "kurenai._lcs"
    if kind == LCS:  # compiled: bit-parallel rows walked back, as scored
        return 0 if compiled else len(t[0]) * len(p[0])
    if kind == WLCS:  # compiled: the scoring kernel's walks (wlcs_marks)
        walks = _backend.variants.__name__ == "kurenai._variants"
        return 0 if walks else _sentence_pairs_work(t, p, 1)
    if kind == LSUM:  # a path per pair of sentences sharing a token
        return _sentence_pairs_work(t, p, 64 if compiled else 1)
    return 0


def check_work(
    name: str,
    kind: int,
    t: Sequence[Tokens],
    p: Sequence[Tokens],
    gap: int = -1,
    unigrams: bool = False,
) -> None:
    """Raise :class:`ExplainLimitError` if explaining ``name`` would cost too much."""
    cost = work(kind, t, p, gap, unigrams)
    if cost > MAX_WORK:
        raise ExplainLimitError(
            f"{name} ({kind_of(kind).title}) is too costly to explain for this pair: "
            f"more than {MAX_WORK:,} units of work (kurenai.explain._matches.MAX_WORK); "
            "score() still scores it"
        )


def _skip_units(n: int, gap: int, unigrams: bool) -> int:
    """How many units ``_variants_py.skip_units`` lists for ``n`` tokens."""
    if n < 2:
        return 0
    last = n - 1
    span = last if gap < 0 else min(gap + 1, last)
    # Start i pairs with min(span, last - i) later tokens.
    pairs = span * (last - span) + span * (span + 1) // 2
    return pairs + (last if unigrams else 0)


def _sentence_pairs_work(t: Sequence[Tokens], p: Sequence[Tokens], bits: int) -> int:
    postings = _lcs_py.line_postings(p)
    total, seen = 0, set()
    for ref in t:
        key = tuple(ref)
        if key in seen:
            continue
        seen.add(key)
        for c in _lcs_py.sharing_lines(ref, postings):
            # The pair's shared form (linear), then its path's table.
            total += PAIR_WORK + len(ref) + len(p[c]) + len(ref) * len(p[c]) // bits
        if total > MAX_WORK:
            break
    return total

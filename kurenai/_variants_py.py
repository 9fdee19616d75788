"""Pure-Python twin of ``kurenai._variants``: ROUGE-W and ROUGE-S/SU counts.

The readable specification of the kernels for the types of the original Perl
ROUGE-1.5.5 that rouge-score lacks.  The compiled module computes exactly the
same numbers (the same floating-point operations, in the same order); the
test-suite runs both side by side and this one against the Perl script.

Both kernels take sequences of tokens (any hashables: str, or int IDs);
``t`` is the reference (Perl's "model"), ``p`` the prediction (Perl's "peer").
The spec's own functions give what they count as positions, for
``kurenai.explain`` and for ``kurenai.rouge155`` under ``-b``:
:func:`skip_units`, :func:`wlcs_pairs`, :func:`wlcs_runs` and
:func:`wlcs_credit` (``weighted_lcs`` is the credit of the runs).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from itertools import accumulate, chain

from kurenai._lcs_py import line_postings, sharing_lines

# The spec's pure-only functions that other surfaces call (explain, and
# rouge155 under -b): what matched, as positions, and ROUGE-W's credit of it.
SPEC_HELPERS = ("c_pow", "skip_units", "wlcs_credit", "wlcs_pairs", "wlcs_runs")

IDs = Sequence[Hashable]


def c_pow(base: float, exponent: float) -> float:
    """``base ** exponent`` as C's ``pow``, which the compiled kernels call:
    infinity where the result overflows (Python's ``**`` raises), as under
    ROUGE-1.5.5.pl's ``-w 1000``."""
    try:
        return float(base**exponent)
    except OverflowError:
        return math.inf


def skip_bigram_counts(t: IDs, p: IDs, gap: int, unigrams: bool) -> tuple[int, int, int]:
    """ROUGE-S (``unigrams=False``) or ROUGE-SU counts: ``(hits, t_count, p_count)``.

    The units are :func:`skip_units`'s.  ``hits`` is the size of their
    multiset intersection; the counts are the multiset sizes.
    """
    grams_t, grams_p = _skip_grams(t, gap, unigrams), _skip_grams(p, gap, unigrams)
    hits = sum(min(count, grams_p[gram]) for gram, count in grams_t.items())
    return hits, sum(grams_t.values()), sum(grams_p.values())


def skip_units(
    tokens: IDs, gap: int, unigrams: bool
) -> list[tuple[tuple[Hashable, ...], tuple[int, ...]]]:
    """ROUGE-S/SU's units of ``tokens``, each with its positions, in order.

    A skip-bigram is an ordered pair of tokens with at most ``gap`` tokens
    between them (``gap < 0``: no limit), as ROUGE-1.5.5's ``-2 gap``.  With
    ``unigrams`` every token but the last also counts as a unit (``-U``; the
    Perl script skips the last token's unigram), before the skip-bigrams it starts.
    """
    units: list[tuple[tuple[Hashable, ...], tuple[int, ...]]] = []
    last = len(tokens) - 1
    for i in range(last):
        if unigrams:
            units.append(((tokens[i],), (i,)))
        stop = last if gap < 0 else min(last, i + gap + 1)
        for j in range(i + 1, stop + 1):
            units.append(((tokens[i], tokens[j]), (i, j)))
    return units


def _skip_grams(tokens: IDs, gap: int, unigrams: bool) -> Counter[tuple[Hashable, ...]]:
    return Counter(unit for unit, _ in skip_units(tokens, gap, unigrams))


# A ROUGE-W run: its reference positions and the prediction positions they pair.
Run = tuple[tuple[int, ...], tuple[int, ...]]


def weighted_lcs(
    t_sents: Sequence[IDs], p_sents: Sequence[IDs], weight: float
) -> tuple[float, float]:
    """ROUGE-W's ``(hit, base)`` as ROUGE-1.5.5's ``wlcs`` computes them:
    :func:`wlcs_credit` of :func:`wlcs_runs`."""
    return wlcs_credit(t_sents, wlcs_runs(t_sents, p_sents, weight), weight)


def wlcs_credit(t_sents: Sequence[IDs], runs: Sequence[Run], weight: float) -> tuple[float, float]:
    """ROUGE-W's ``(hit, base)``: ``f(len) = len ** weight`` summed over the
    credited ``runs`` (:func:`wlcs_runs`), in their order, and over the
    reference sentences."""
    hit = base = 0.0
    for t in t_sents:
        base += c_pow(float(len(t)), weight)
    for refs, _ in runs:
        hit += c_pow(float(len(refs)), weight)
    return hit, base


def wlcs_runs(
    t_sents: Sequence[IDs],
    p_sents: Sequence[IDs],
    weight: float,
    t_words: Iterable[Hashable] | None = None,
    p_words: Iterable[Hashable] | None = None,
    marks: Sequence[int] | None = None,
) -> list[Run]:
    """ROUGE-W's credited runs, as positions into each side's sentences concatenated.

    For each reference sentence, the positions on a weighted LCS
    (:func:`wlcs_pairs`) with each prediction sentence are unioned; walking
    the sentence, a marked position whose token still has an unused count on
    both sides extends the current run, and a run is credited when the next
    position is unmarked or the sentence ends (Perl's rule: a marked position
    that fails the count check neither extends nor ends the run).  Each
    position of a run is paired with the prediction position of the first
    weighted LCS that marked it.  The counts are those of ``t_words`` and
    ``p_words``, by default the sentences' tokens (ROUGE-1.5.5 under ``-b``
    counts the words its other reader cut).

    ``marks``: :func:`wlcs_marks` of the sentences, when already known (from
    the compiled twin, say).
    """
    remaining_t = Counter(chain.from_iterable(t_sents) if t_words is None else t_words)
    remaining_p = Counter(chain.from_iterable(p_sents) if p_words is None else p_words)
    if marks is None:
        marks = wlcs_marks(t_sents, p_sents, weight)
    runs: list[Run] = []
    t_start = 0
    for t in t_sents:
        partner = marks[t_start : t_start + len(t)]
        run: list[int] = []
        for i, token in enumerate(t):
            if partner[i] >= 0 and remaining_t[token] > 0 and remaining_p[token] > 0:
                run.append(i)
                if i + 1 == len(t) or partner[i + 1] < 0:
                    runs.append((tuple(t_start + k for k in run), tuple(partner[k] for k in run)))
                    run = []
                remaining_t[token] -= 1
                remaining_p[token] -= 1
        t_start += len(t)
    return runs


def wlcs_marks(t_sents: Sequence[IDs], p_sents: Sequence[IDs], weight: float) -> list[int]:
    """Per reference token (the sentences concatenated), the prediction
    position (concatenated) of the first weighted LCS (:func:`wlcs_pairs`,
    prediction sentences in order) that marks it; -1 where none does.

    Only the prediction sentences sharing a token with a reference sentence
    are walked (``kurenai._lcs_py.sharing_lines``: any other has an empty
    path), and a reference sentence equal to an earlier one reuses its marks.
    """
    p_starts = list(accumulate(map(len, p_sents), initial=0))
    postings = line_postings(p_sents)
    known: dict[tuple[Hashable, ...], list[int]] = {}
    marks: list[int] = []
    for t in t_sents:
        partner = known.get(tuple(t))
        if partner is None:
            partner = [-1] * len(t)
            for c in sharing_lines(t, postings):
                for i, j in wlcs_pairs(t, p_sents[c], weight):
                    if partner[i] < 0:
                        partner[i] = p_starts[c] + j
            known[tuple(t)] = partner
        marks.extend(partner)
    return marks


def wlcs_indices(t: IDs, p: IDs, weight: float) -> list[int]:
    """Indices into ``t`` of the weighted LCS that ROUGE-1.5.5 backtracks
    (the reference side of :func:`wlcs_pairs`)."""
    return [i for i, _ in wlcs_pairs(t, p, weight)]


def wlcs_pairs(t: IDs, p: IDs, weight: float) -> list[tuple[int, int]]:
    """The ``(t, p)`` positions of the weighted LCS that ROUGE-1.5.5 backtracks, in order.

    The table cell of a match is ``(c[i-1][j-1] + f(k+1)) - f(k)`` where ``k``
    is the run of consecutive matches ending on the diagonal; equal tokens
    always take the diagonal, otherwise the walk goes up (back in ``t``)
    when the cell above is at least the cell to the left.
    """
    f = [c_pow(float(k), weight) for k in range(min(len(t), len(p)) + 2)]
    score = [[0.0] * (len(p) + 1) for _ in range(len(t) + 1)]
    run = [[0] * (len(p) + 1) for _ in range(len(t) + 1)]
    for i in range(1, len(t) + 1):
        for j in range(1, len(p) + 1):
            if t[i - 1] == p[j - 1]:
                k = run[i - 1][j - 1]
                score[i][j] = score[i - 1][j - 1] + f[k + 1] - f[k]
                run[i][j] = k + 1
            else:
                score[i][j] = max(score[i - 1][j], score[i][j - 1])
    i, j = len(t), len(p)
    path: list[tuple[int, int]] = []
    while i > 0 and j > 0:
        if t[i - 1] == p[j - 1]:
            i, j = i - 1, j - 1
            path.append((i, j))
        elif score[i - 1][j] >= score[i][j - 1]:
            i -= 1
        else:
            j -= 1
    path.reverse()
    return path

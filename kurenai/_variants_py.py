"""Pure-Python twin of ``kurenai._variants``: ROUGE-W and ROUGE-S/SU counts.

The readable specification of the kernels for the types of the original Perl
ROUGE-1.5.5 that rouge-score lacks.  The compiled module computes exactly the
same numbers (the same floating-point operations, in the same order); the
test-suite runs both side by side and this one against the Perl script.

Both kernels take sequences of tokens (any hashables: str, or int IDs);
``t`` is the reference (Perl's "model"), ``p`` the prediction (Perl's "peer").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence

IDs = Sequence[Hashable]


def skip_bigram_counts(t: IDs, p: IDs, gap: int, unigrams: bool) -> tuple[int, int, int]:
    """ROUGE-S (``unigrams=False``) or ROUGE-SU counts: ``(hits, t_count, p_count)``.

    A skip-bigram is an ordered pair of tokens with at most ``gap`` tokens
    between them (``gap < 0``: no limit), as ROUGE-1.5.5's ``-2 gap``.  With
    ``unigrams`` every token but the last also counts as a unit (``-U``; the
    Perl script skips the last token's unigram).  ``hits`` is the size of the
    multiset intersection; the counts are the multiset sizes.
    """
    grams_t, grams_p = _skip_grams(t, gap, unigrams), _skip_grams(p, gap, unigrams)
    hits = sum(min(count, grams_p[gram]) for gram, count in grams_t.items())
    return hits, sum(grams_t.values()), sum(grams_p.values())


def _skip_grams(tokens: IDs, gap: int, unigrams: bool) -> Counter[tuple[Hashable, ...]]:
    grams: Counter[tuple[Hashable, ...]] = Counter()
    last = len(tokens) - 1
    for i in range(last):
        if unigrams:
            grams[(tokens[i],)] += 1
        stop = last if gap < 0 else min(last, i + gap + 1)
        for j in range(i + 1, stop + 1):
            grams[(tokens[i], tokens[j])] += 1
    return grams


def weighted_lcs(
    t_sents: Sequence[IDs], p_sents: Sequence[IDs], weight: float
) -> tuple[float, float]:
    """ROUGE-W's ``(hit, base)`` as ROUGE-1.5.5's ``wlcs`` computes them.

    For each reference sentence, the positions on a weighted LCS with each
    prediction sentence are unioned; walking the sentence, a marked position
    whose token still has an unused count on both sides extends the current
    run, and a run is credited ``f(len) = len ** weight`` when the next
    position is unmarked or the sentence ends (Perl's rule: a marked position
    that fails the count check neither extends nor ends the run).  ``base`` is
    the sum of ``f(len)`` over the reference sentences.
    """
    remaining_t: Counter[Hashable] = Counter(token for sent in t_sents for token in sent)
    remaining_p: Counter[Hashable] = Counter(token for sent in p_sents for token in sent)
    hit = base = 0.0
    for ref in t_sents:
        base += float(len(ref)) ** weight
        marked = [False] * len(ref)
        for can in p_sents:
            for index in wlcs_indices(ref, can, weight):
                marked[index] = True
        run = 0
        for j, token in enumerate(ref):
            if marked[j] and remaining_t[token] > 0 and remaining_p[token] > 0:
                run += 1
                if j + 1 == len(ref) or not marked[j + 1]:
                    hit += float(run) ** weight
                    run = 0
                remaining_t[token] -= 1
                remaining_p[token] -= 1
    return hit, base


def wlcs_indices(ref: IDs, can: IDs, weight: float) -> list[int]:
    """Indices into ``ref`` of the weighted LCS that ROUGE-1.5.5 backtracks.

    The table cell of a match is ``(c[i-1][j-1] + f(k+1)) - f(k)`` where ``k``
    is the run of consecutive matches ending on the diagonal; equal tokens
    always take the diagonal, otherwise the walk goes up (back in ``ref``)
    when the cell above is at least the cell to the left.
    """
    return [i for i, _ in _wlcs_path(ref, can, weight)]


def _wlcs_path(
    ref: Sequence[Hashable], can: Sequence[Hashable], weight: float
) -> list[tuple[int, int]]:
    """The (ref, can) positions of :func:`wlcs_indices`'s weighted LCS, in order
    (``kurenai.explain`` shows both sides)."""
    f = [float(k) ** weight for k in range(min(len(ref), len(can)) + 2)]
    score = [[0.0] * (len(can) + 1) for _ in range(len(ref) + 1)]
    run = [[0] * (len(can) + 1) for _ in range(len(ref) + 1)]
    for i in range(1, len(ref) + 1):
        for j in range(1, len(can) + 1):
            if ref[i - 1] == can[j - 1]:
                k = run[i - 1][j - 1]
                score[i][j] = score[i - 1][j - 1] + f[k + 1] - f[k]
                run[i][j] = k + 1
            else:
                score[i][j] = max(score[i - 1][j], score[i][j - 1])
    i, j = len(ref), len(can)
    path: list[tuple[int, int]] = []
    while i > 0 and j > 0:
        if ref[i - 1] == can[j - 1]:
            i, j = i - 1, j - 1
            path.append((i, j))
        elif score[i - 1][j] >= score[i][j - 1]:
            i -= 1
        else:
            j -= 1
    path.reverse()
    return path

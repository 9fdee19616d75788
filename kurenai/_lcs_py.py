"""Pure-Python twin of ``kurenai._lcs``: the readable specification of the kernels.

Every kernel here has the same name, arguments and results as its compiled
counterpart.  The compiled module is only ever a faster way of computing what
this one computes; the test-suite runs both side by side.  A few functions
are the spec's own: :func:`union_hits` is ROUGE-Lsum's rule hit by hit
(``kurenai.rouge155`` counts it under ``-b``), :func:`lcs_pairs` and
:func:`union_lcs` give the LCS and those hits as positions
(``kurenai.explain`` shows them), rather than writing them again.

All kernels work on sequences of integer token IDs (see ``intern_sentences``).
``t`` is the target's side (the reference), ``p`` the prediction's, as in
rouge-score, the ``.pyi`` stubs and :mod:`kurenai._variants_py`.
The tie-breaks follow rouge-score exactly, because they decide which LCS
ROUGE-Lsum takes the union of.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Container, Hashable, Iterable, Sequence
from itertools import accumulate, chain

# The spec's pure-only functions that other surfaces call (explain, and
# rouge155 under -b): what matched, as positions.
SPEC_HELPERS = (
    "lcs_pairs",
    "line_postings",
    "memoised_indices",
    "sharing_lines",
    "union_hits",
    "union_lcs",
)

IDs = Sequence[int]
Tokens = Sequence[Hashable]  # IDs, or IDs and BLOCKER


def lcs_table(t: Tokens, p: Tokens) -> list[list[int]]:
    """The full (len(t)+1) x (len(p)+1) LCS table, as rouge-score builds it."""
    table = [[0] * (len(p) + 1) for _ in range(len(t) + 1)]
    for i in range(1, len(t) + 1):
        row, above = table[i], table[i - 1]
        for j in range(1, len(p) + 1):
            if t[i - 1] == p[j - 1]:
                row[j] = above[j - 1] + 1
            else:
                row[j] = max(above[j], row[j - 1])
    return table


def lcs_length(a: IDs, b: IDs, threads: int = 1) -> int:
    """Length of a longest common subsequence, in O(min(len(a), len(b))) memory.

    ``threads`` is accepted for the compiled twin's sake and ignored.
    """
    if len(a) < len(b):
        a, b = b, a
    previous = [0] * (len(b) + 1)
    for token in a:
        current = [0] * (len(b) + 1)
        for j in range(1, len(b) + 1):
            if token == b[j - 1]:
                current[j] = previous[j - 1] + 1
            else:
                current[j] = max(previous[j], current[j - 1])
        previous = current
    return previous[-1]


def lcs_indices(t: Tokens, p: Tokens) -> list[int]:
    """Indices into ``t`` of one LCS, chosen with rouge-score's tie-break.

    Walking back from the end: equal tokens take the diagonal; otherwise step
    back in ``p`` only when the cell to the left is strictly greater than the
    cell above, else step back in ``t``.
    """
    table = lcs_table(t, p)
    i, j = len(t), len(p)
    path: list[int] = []
    while i > 0 and j > 0:
        if t[i - 1] == p[j - 1]:
            path.append(i - 1)
            i -= 1
            j -= 1
        elif table[i][j - 1] > table[i - 1][j]:
            j -= 1
        else:
            i -= 1
    path.reverse()
    return path


def lcs_pairs(t: Tokens, p: Tokens, indices: Sequence[int] | None = None) -> list[tuple[int, int]]:
    """The LCS of :func:`lcs_indices` as ``(t, p)`` position pairs, in order.

    Each reference position is paired with ``p``'s token in the rightmost
    embedding of that subsequence in ``p`` (it exists: ``p`` holds the
    subsequence).  ``indices``: ``lcs_indices(t, p)`` when already known
    (from the compiled twin, say); the pairs depend on them and the tokens only.
    """
    if indices is None:
        indices = lcs_indices(t, p)
    path: list[tuple[int, int]] = []
    j = len(p)
    for i in reversed(indices):
        j -= 1
        while p[j] != t[i]:
            j -= 1
        path.append((i, j))
    path.reverse()
    return path


def union_hits(
    t_sents: Sequence[Tokens],
    p_sents: Sequence[Tokens],
    t_words: Iterable[Hashable] | None = None,
    p_words: Iterable[Hashable] | None = None,
    indices: Callable[[Tokens, Tokens], Sequence[int]] | None = None,
) -> list[tuple[int, int, int]]:
    """ROUGE-Lsum's rule, hit by hit: per reference sentence, the union of its
    LCS positions with every candidate sentence, walked in order, a position
    credited while its token has an unused count on both sides (so no token
    counts twice).

    Each hit is ``(s, i, c)``: position ``i`` of reference sentence ``s``, held
    by the LCS with candidate sentence ``c`` first.  The counts are those of
    ``t_words`` and ``p_words``, by default the sentences' tokens
    (ROUGE-1.5.5 under ``-b`` counts the words its other reader cut).
    ``indices``: a function giving ``lcs_indices`` (the compiled twin's, say);
    by default the paths are memoised by :func:`shared_form`: lines sharing
    the same tokens in the same order cost one path.

    Only the candidate sentences sharing a token with a reference sentence
    are walked (:func:`sharing_lines`: any other has an empty path), and a
    reference sentence equal to an earlier one reuses its union: so lines
    that share nothing cost nothing.
    """
    remaining_t = Counter(chain.from_iterable(t_sents) if t_words is None else t_words)
    remaining_p = Counter(chain.from_iterable(p_sents) if p_words is None else p_words)
    path = memoised_indices() if indices is None else indices
    postings = line_postings(p_sents)
    unions: dict[tuple[Hashable, ...], dict[int, int]] = {}
    hits: list[tuple[int, int, int]] = []
    for s, t in enumerate(t_sents):
        first = unions.get(tuple(t))
        if first is None:
            first = {}
            for c in sharing_lines(t, postings):
                for i in path(t, p_sents[c]):
                    first.setdefault(i, c)
            unions[tuple(t)] = first
        for i in sorted(first):
            token = t[i]
            if remaining_p[token] > 0 and remaining_t[token] > 0:
                hits.append((s, i, first[i]))
                remaining_p[token] -= 1
                remaining_t[token] -= 1
    return hits


def summary_lcs_hits(t_sents: Sequence[IDs], p_sents: Sequence[IDs]) -> int:
    """ROUGE-Lsum's hit count: union-LCS of each reference sentence against all
    candidate sentences, with per-token counters so no token is counted twice
    (the hits of :func:`union_hits`)."""
    return len(union_hits(t_sents, p_sents))


def union_lcs(
    t_sents: Sequence[Tokens],
    p_sents: Sequence[Tokens],
    indices: Callable[[Tokens, Tokens], Sequence[int]] | None = None,
) -> list[tuple[int, int]]:
    """ROUGE-Lsum's hits (:func:`union_hits`) as ``(t, p)`` positions into
    each side's sentences concatenated, each paired as :func:`lcs_pairs` pairs
    it in the candidate sentence whose LCS holds it first (``indices`` as there)."""
    path = memoised_indices() if indices is None else indices
    t_starts = list(accumulate(map(len, t_sents), initial=0))
    p_starts = list(accumulate(map(len, p_sents), initial=0))
    partners: dict[tuple[tuple[Hashable, ...], int], dict[int, int]] = {}
    found = []
    for s, i, c in union_hits(t_sents, p_sents, indices=path):
        t, p = t_sents[s], p_sents[c]
        key = (tuple(t), c)  # equal reference sentences pair alike
        if key not in partners:
            partners[key] = dict(lcs_pairs(t, p, path(t, p)))
        found.append((t_starts[s] + i, p_starts[c] + partners[key][i]))
    return found


def line_postings(sents: Sequence[Tokens]) -> dict[Hashable, list[int]]:
    """Per token, the sentences of ``sents`` holding it: ascending, each once."""
    postings: dict[Hashable, list[int]] = {}
    for c, sent in enumerate(sents):
        for token in set(sent):
            postings.setdefault(token, []).append(c)
    return postings


def sharing_lines(t: Tokens, postings: dict[Hashable, list[int]]) -> list[int]:
    """The sentences (by :func:`line_postings`) sharing a token with ``t``,
    ascending: the only ones whose LCS path with ``t`` is not empty."""
    lines: set[int] = set()
    for token in set(t):
        lines.update(postings.get(token, ()))
    return sorted(lines)


def memoised_indices(
    base: Callable[[Tokens, Tokens], Sequence[int]] | None = None,
) -> Callable[[Tokens, Tokens], list[int]]:
    """``lcs_indices`` (or ``base``, the compiled twin's, say), each path
    computed on the pair's :func:`shared_form` once."""
    paths: dict[tuple[tuple[Hashable, ...], tuple[Hashable, ...]], Sequence[int]] = {}
    path = lcs_indices if base is None else base

    def indices(t: Tokens, p: Tokens) -> list[int]:
        kept, t_kept, p_kept = shared_form(t, p)
        key = (tuple(t_kept), tuple(p_kept))
        if key not in paths:
            paths[key] = path(t_kept, p_kept)
        return [kept[i] for i in paths[key]]

    return indices


#: The token standing for a run of candidate tokens absent from the reference.
BLOCKER = object()


def shared_form(t: Tokens, p: Tokens) -> tuple[list[int], list[Hashable], list[Hashable]]:
    """A smaller pair with the same LCS path as (t, p), and where it maps back.

    Returns ``(kept, t_kept, p_kept)``: ``lcs_indices(t, p)`` is
    ``[kept[i] for i in lcs_indices(t_kept, p_kept)]``.  ``t_kept`` is
    ``t`` without its tokens absent from ``p`` (at ``kept``): their rows of
    the table equal the row above, so the walk back always leaves them
    upwards.  ``p_kept`` is ``p`` with each run of tokens absent from
    ``t`` as one ``BLOCKER``, a leading run dropped: such a column equals the
    one on its left, the walk goes up it until its value drops, then left
    through the rest of the run at once; a leading run holds zeros and ends
    the walk as the table's edge does.  Dropping the run instead would change
    the path: ``([0, 0], [0, 9])`` takes index 0, ``([0, 0], [0])`` index 1.
    """
    in_p = set(p)
    kept = [i for i, token in enumerate(t) if token in in_p]
    return kept, [t[i] for i in kept], project(p, set(t))


def project(p: Tokens, tokens: Container[Hashable]) -> list[Hashable]:
    """``p`` seen through ``tokens``: its tokens in ``tokens`` kept, each run
    of other tokens as one ``BLOCKER``, a leading run dropped.

    For any ``tokens`` holding every token that a reference line shares with
    ``p``, the reference line's path against ``p`` is its path against
    ``project(p, tokens)`` (``shared_form`` projects on the whole line).  So
    the compiled Lsum, for a reference line, groups the candidate lines by
    their projection onto the line's frequent tokens: a candidate line
    sharing none of its other tokens has the path of that projection.
    """
    projected: list[Hashable] = []
    for token in p:
        if token in tokens:
            projected.append(token)
        elif projected and projected[-1] is not BLOCKER:
            projected.append(BLOCKER)
    return projected


def ngram_overlap(a: IDs, b: IDs, n: int) -> int:
    """Size of the multiset intersection of the n-grams of ``a`` and ``b``."""
    if n < 1:
        raise ValueError(f"n must be positive, got {n}")
    grams_a = Counter(tuple(a[i : i + n]) for i in range(len(a) - n + 1))
    grams_b = Counter(tuple(b[i : i + n]) for i in range(len(b) - n + 1))
    return sum(min(count, grams_b[gram]) for gram, count in grams_a.items())


def intern_sentences(sentences: Sequence[Sequence[str]], vocab: dict[str, int]) -> list[list[int]]:
    """Map each token to a dense integer ID, adding unseen tokens to ``vocab``."""
    return [[vocab.setdefault(token, len(vocab)) for token in sent] for sent in sentences]


def pair_counts(
    target_sents: Sequence[Sequence[str]],
    prediction_sents: Sequence[Sequence[str]],
    orders: Sequence[int],
    want_lcs: bool,
    want_lsum: bool,
    target_whole: Sequence[str] | None = None,
    prediction_whole: Sequence[str] | None = None,
    threads: int = 1,
) -> tuple[tuple[int, ...], int, int, int, int, int, int]:
    """All the integer counts that the ROUGE scores of one pair need.

    ``*_sents`` are the tokenized sentences (ROUGE-Lsum's units);
    ``*_whole`` the tokens of the whole text, or None when they are exactly the
    sentences' tokens concatenated.  Returns ``(ngram_overlaps, lcs_length,
    lsum_hits, target_len, prediction_len, target_sum_len, prediction_sum_len)``
    where ``ngram_overlaps`` follows ``orders`` and the ``_sum_len`` are the
    token totals over the sentences.  ``threads``: how many threads the
    compiled twin's LCS of a long pair may use; the same numbers, ignored here.
    """
    vocab: dict[str, int] = {}
    t_sents = intern_sentences(target_sents, vocab)
    p_sents = intern_sentences(prediction_sents, vocab)
    t_all = _whole(t_sents, target_whole, vocab)
    p_all = _whole(p_sents, prediction_whole, vocab)
    overlaps = tuple(ngram_overlap(t_all, p_all, n) for n in orders)
    lcs = lcs_length(t_all, p_all) if want_lcs and t_all and p_all else 0
    t_sum = sum(map(len, t_sents))
    p_sum = sum(map(len, p_sents))
    hits = summary_lcs_hits(t_sents, p_sents) if want_lsum and t_sum and p_sum else 0
    return overlaps, lcs, hits, len(t_all), len(p_all), t_sum, p_sum


def _whole(sents: list[list[int]], whole: Sequence[str] | None, vocab: dict[str, int]) -> list[int]:
    if whole is None:
        return [token for sent in sents for token in sent]
    return intern_sentences([whole], vocab)[0]

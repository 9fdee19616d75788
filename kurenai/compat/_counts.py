"""The integer counts behind pltrdy-style scores, on kurenai's kernels.

Every function takes one ``Pair`` (the sentences of words of
``kurenai.compat._text``, interned to dense int IDs once for every metric)
and returns ``(hyp, ref, overlap)``: the counts that ``raw_results=True``
shows and that precision and recall divide.  The LCS work runs in
``kurenai._backend.kernels`` (compiled, or its pure twin) instead of the
packages' Python tables.

What the packages count, and so what is counted here:

* ROUGE-N, ``exclusive=True``: distinct n-grams of all the words (n-grams run
  across sentence ends); the overlap is the size of the intersection.
* ROUGE-N, ``exclusive=False``: every n-gram; the overlap is the multiset
  intersection (``kernels.ngram_overlap``).
* ROUGE-L of ``rouge`` (summary level), ``exclusive=True``: the distinct words
  of each side; the overlap is the number of distinct *words* on the LCS of
  some (reference sentence, hypothesis sentence) pair, the LCS being the one
  their backtracking picks.  ``exclusive=False``: all the words of each side,
  and the overlap is the sum of the LCS lengths of all the sentence pairs.
* ROUGE-L of ``rouge-chinese``: all the words, and the LCS of the two word
  sequences with the sentences joined.
"""

from __future__ import annotations

from typing import Any

from kurenai import _backend
from kurenai.compat._text import Sentences

__all__ = ["Counts", "Pair", "flat_lcs", "ngrams", "summary_lcs"]

Counts = tuple[int, int, int]
_IDs = list[list[int]]


class Pair:
    """One pair's sentences as dense int IDs (interned once, for every metric)."""

    __slots__ = ("h", "hyp", "r", "ref")

    def __init__(self, hyp: Sentences, ref: Sentences) -> None:
        vocab: dict[str, int] = {}
        intern = _backend.kernels.intern_sentences
        self.hyp: _IDs = intern(hyp, vocab)
        self.ref: _IDs = intern(ref, vocab)
        self.h = [token for sentence in self.hyp for token in sentence]
        self.r = [token for sentence in self.ref for token in sentence]


def _grams(ids: list[int], n: int) -> set[Any]:
    return set(ids) if n == 1 else set(zip(*(ids[i:] for i in range(n))))


def ngrams(pair: Pair, n: int, exclusive: bool) -> Counts:
    """ROUGE-N counts of a pair."""
    h, r = pair.h, pair.r
    if not exclusive:
        fits = len(h) >= n and len(r) >= n
        overlap = _backend.kernels.ngram_overlap(h, r, n) if fits else 0
        return max(0, len(h) - n + 1), max(0, len(r) - n + 1), overlap
    h_grams, r_grams = _grams(h, n), _grams(r, n)
    return len(h_grams), len(r_grams), len(h_grams & r_grams)


def summary_lcs(pair: Pair, exclusive: bool) -> Counts:
    """``rouge``'s summary-level ROUGE-L counts of a pair."""
    if not exclusive:
        lcs_length = _backend.kernels.lcs_length
        overlap = sum(lcs_length(r_s, h_s) for r_s in pair.ref for h_s in pair.hyp)
        return len(pair.h), len(pair.r), overlap
    return len(set(pair.h)), len(set(pair.r)), len(_lcs_word_union(pair.hyp, pair.ref))


def _lcs_word_union(hyp_ids: _IDs, ref_ids: _IDs) -> set[int]:
    """The distinct words on the chosen LCS of every sentence pair.

    ``kernels.lcs_indices(h, r)`` walks back with rouge-score's tie-break
    (on a tie, step back in its first argument); with the hypothesis first
    that is exactly the package's walk with the reference first (on a tie,
    step back in the hypothesis), so the same LCS is found.  A pair whose
    shared words are all in the union already cannot add to it, and once the
    union holds every word the sides share, no pair can: both skips leave
    the result as it is and avoid most of the LCS work.
    """
    lcs_indices = _backend.kernels.lcs_indices
    hyp_sets = [set(sentence) for sentence in hyp_ids]
    shared = set().union(*hyp_sets) & {token for sentence in ref_ids for token in sentence}
    union: set[int] = set()
    for r_s in ref_ids:
        r_set = set(r_s)
        for h_s, h_set in zip(hyp_ids, hyp_sets):
            if len(union) == len(shared):
                return union
            if (h_set & r_set) <= union:
                continue
            union.update(h_s[i] for i in lcs_indices(h_s, r_s))
    return union


def flat_lcs(pair: Pair) -> Counts:
    """``rouge-chinese``'s ROUGE-L counts of a pair."""
    return len(pair.h), len(pair.r), _backend.kernels.lcs_length(pair.r, pair.h)

"""The twins' position functions against the scores they explain.

``kurenai.explain`` and ``kurenai.rouge155`` (under ``-b``) read the LCS
paths, ROUGE-Lsum's union, ROUGE-W's runs and the skip units from the pure
twins (``_lcs_py``, ``_variants_py``) instead of counting them again: these
hold each of those functions to the counts of the live kernels (compiled,
then pure), bit for bit, on tie-heavy inputs over tiny alphabets.
"""

from __future__ import annotations

from collections import Counter
from types import ModuleType

from hypothesis import given, settings
from hypothesis import strategies as st

from kurenai import _backend, _lcs_py, _variants_py

tiny = st.lists(st.integers(0, 3), max_size=30)
sentences = st.lists(st.lists(st.integers(0, 4), max_size=10), max_size=5)
weights = st.sampled_from([1.0, 1.2, 1.5, 2.0])


def _flat(sents: list[list[int]]) -> list[int]:
    return [token for sent in sents for token in sent]


def _is_path(pairs: list[tuple[int, int]], ref: list[int], can: list[int]) -> bool:
    """Whether ``pairs`` is a common subsequence: equal tokens, both sides increasing."""
    ordered = all(a < c and b < d for (a, b), (c, d) in zip(pairs, pairs[1:]))
    return ordered and all(ref[i] == can[j] for i, j in pairs)


@given(tiny, tiny)
def test_lcs_pairs_is_the_kernels_lcs(kernels: ModuleType, ref: list[int], can: list[int]) -> None:
    pairs = _lcs_py.lcs_pairs(ref, can)
    assert [i for i, _ in pairs] == kernels.lcs_indices(ref, can)
    assert len(pairs) == (kernels.lcs_length(ref, can) if ref and can else 0)
    assert _is_path(pairs, ref, can)
    assert _lcs_py.lcs_pairs(ref, can, kernels.lcs_indices(ref, can)) == pairs


@settings(max_examples=300)
@given(sentences, sentences)
def test_union_lcs_counts_the_kernels_lsum_hits(
    kernels: ModuleType, ref: list[list[int]], can: list[list[int]]
) -> None:
    hits = _lcs_py.union_lcs(ref, can)
    assert len(hits) == kernels.summary_lcs_hits(ref, can)
    t, p = _flat(ref), _flat(can)
    assert all(t[i] == p[j] for i, j in hits)
    assert [i for i, _ in hits] == sorted({i for i, _ in hits})  # each target token once
    starts = [sum(map(len, ref[:s])) for s in range(len(ref))]
    assert [i for i, _ in hits] == [starts[s] + i for s, i, _ in _lcs_py.union_hits(ref, can)]
    # The memoised paths (shapes) and the kernels' own paths pair the same positions.
    assert _lcs_py.union_lcs(ref, can, indices=kernels.lcs_indices) == hits


@settings(max_examples=300)
@given(sentences, sentences, tiny, tiny)
def test_union_hits_clips_by_the_words_given(
    ref: list[list[int]], can: list[list[int]], ref_words: list[int], can_words: list[int]
) -> None:
    """ROUGE-1.5.5 under ``-b`` clips by other words than the units': no hit
    beyond either count, and the sentences' own words are the default."""
    hits = _lcs_py.union_hits(ref, can, ref_words, can_words)
    used = Counter(ref[s][i] for s, i, _ in hits)
    limit = Counter(ref_words) & Counter(can_words)
    assert all(used[token] <= limit[token] for token in used)
    assert _lcs_py.union_hits(ref, can, _flat(ref), _flat(can)) == _lcs_py.union_hits(ref, can)


@given(tiny, tiny, weights)
def test_wlcs_pairs_is_the_weighted_backtrack(ref: list[int], can: list[int], w: float) -> None:
    pairs = _variants_py.wlcs_pairs(ref, can, w)
    assert [i for i, _ in pairs] == _variants_py.wlcs_indices(ref, can, w)
    assert _is_path(pairs, ref, can)


@settings(max_examples=300)
@given(sentences, sentences, weights)
def test_wlcs_runs_credit_the_kernels_weighted_lcs(
    kernels: ModuleType, ref: list[list[int]], can: list[list[int]], w: float
) -> None:
    runs = _variants_py.wlcs_runs(ref, can, w)
    # Bit for bit: the credit sums the runs in the kernels' order.
    assert _variants_py.wlcs_credit(ref, runs, w) == _backend.variants.weighted_lcs(ref, can, w)
    t, p = _flat(ref), _flat(can)
    for refs, preds in runs:
        assert refs and len(refs) == len(preds)
        # Increasing, not always consecutive: a marked position whose token has
        # no count left neither extends nor ends its run (the script's rule).
        assert list(refs) == sorted(set(refs))
        assert all(t[i] == p[j] for i, j in zip(refs, preds))


@given(tiny, tiny, st.integers(-1, 5), st.booleans())
def test_skip_units_are_the_kernels_skip_bigrams(
    kernels: ModuleType, t: list[int], p: list[int], gap: int, unigrams: bool
) -> None:
    t_units = _variants_py.skip_units(t, gap, unigrams)
    p_units = _variants_py.skip_units(p, gap, unigrams)
    t_count, p_count = Counter(u for u, _ in t_units), Counter(u for u, _ in p_units)
    hits = sum((t_count & p_count).values())
    expected = _backend.variants.skip_bigram_counts(t, p, gap, unigrams)
    assert (hits, len(t_units), len(p_units)) == tuple(expected)
    for unit, at in t_units:
        assert unit == tuple(t[i] for i in at)
        assert len(at) == 1 or 0 < at[1] - at[0] <= (gap + 1 if gap >= 0 else len(t))

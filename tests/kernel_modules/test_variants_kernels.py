"""The ROUGE-W/S/SU kernels: compiled against pure twin, twin against naive
transcriptions of ROUGE-1.5.5's ``createSkipBigram`` and of ROUGE-L."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kurenai import _backend, _lcs_py, _variants_py

try:
    from kurenai import _variants
except ImportError:
    _variants = None  # type: ignore[assignment]

ids = st.lists(st.integers(0, 4), max_size=30)
sentences = st.lists(st.lists(st.integers(0, 4), max_size=12), max_size=4)
gaps = st.sampled_from([-1, 0, 1, 2, 4, 9, 40])
weights = st.sampled_from([1.0, 1.2, 1.5, 2.0, 0.7])


@pytest.fixture(
    scope="module",
    params=[pytest.param("compiled", marks=pytest.mark.compiled_only), "python"],
    ids=lambda n: f"variants={n}",
)
def kernels(request: pytest.FixtureRequest) -> ModuleType:
    if request.param == "python":
        return _variants_py
    if _variants is None:
        if os.environ.get("CI"):
            pytest.fail("kurenai._variants must be built in CI")
        pytest.skip("kurenai._variants is not built")
    return _variants


def test_compiled_kernels_are_live_when_built() -> None:
    if _variants is not None and _backend.IMPLEMENTATION == "compiled":
        assert _backend.variants is _variants


def perl_skip_bigrams(tokens: list[int], gap: int, unigrams: bool) -> Counter[str]:
    """A line-by-line transcription of ROUGE-1.5.5's createSkipBigram."""
    grams: Counter[str] = Counter()
    last = len(tokens) - 1  # Perl's $#m_tokens
    for i in range(last):
        if unigrams:
            grams[str(tokens[i])] += 1
        j = i + 1
        while j <= last and (gap < 0 or j <= i + gap + 1):
            grams[f"{tokens[i]} {tokens[j]}"] += 1
            j += 1
    return grams


@settings(max_examples=300, deadline=None)
@given(ids, ids, gaps, st.booleans())
def test_skip_bigrams_match_perl_transcription(
    kernels: ModuleType, t: list[int], p: list[int], gap: int, unigrams: bool
) -> None:
    model, peer = perl_skip_bigrams(t, gap, unigrams), perl_skip_bigrams(p, gap, unigrams)
    hits = sum(min(count, peer[gram]) for gram, count in model.items())
    expected = hits, sum(model.values()), sum(peer.values())
    assert kernels.skip_bigram_counts(t, p, gap, unigrams) == expected


@settings(max_examples=300, deadline=None)
@given(sentences, sentences, weights)
def test_compiled_weighted_lcs_equals_twin_bit_for_bit(
    kernels: ModuleType, t: list[list[int]], p: list[list[int]], weight: float
) -> None:
    assert kernels.weighted_lcs(t, p, weight) == _variants_py.weighted_lcs(t, p, weight)


@pytest.mark.parametrize("budget", [1, 2, 3])
@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.lists(st.integers(0, 3), max_size=150), min_size=1, max_size=2),
    st.lists(st.lists(st.integers(0, 3), max_size=150), min_size=1, max_size=2),
)
def test_checkpointed_walk_back_is_the_same(
    budget: int, t: list[list[int]], p: list[list[int]]
) -> None:
    # A bit budget of a few 64-cell words forces blocks of 1-3 rows, recomputed
    # from checkpoints (words per row: 1 to 3 here).
    if _variants is None:
        pytest.skip("kurenai._variants is not built")
    previous = _variants._set_bit_budget(budget)
    try:
        found = _variants.weighted_lcs(t, p, 1.2)
    finally:
        _variants._set_bit_budget(previous)
    assert found == _variants_py.weighted_lcs(t, p, 1.2)


@settings(max_examples=200, deadline=None)
@given(ids, ids)
def test_weight_one_is_lcs(kernels: ModuleType, t: list[int], p: list[int]) -> None:
    # f(k) = k: the weighted table is the LCS table with rouge-score's
    # tie-break, so for one sentence a side W's hit is the LCS length.
    assert kernels.weighted_lcs([t], [p], 1.0) == (_lcs_py.lcs_length(t, p), len(t))


@settings(max_examples=200, deadline=None)
@given(sentences, sentences)
def test_weight_one_never_exceeds_summary_level_lcs(
    kernels: ModuleType, t: list[list[int]], p: list[list[int]]
) -> None:
    # Over sentences Perl can drop a run whose last position is clipped.
    hit, base = kernels.weighted_lcs(t, p, 1.0)
    assert hit <= _lcs_py.summary_lcs_hits(t, p)
    assert base == sum(map(len, t))


def test_walk_back_takes_the_last_match_not_the_heaviest_path(kernels: ModuleType) -> None:
    # ROUGE-1.5.5 on "a b c x a d b e c" vs "a b c" with -w 2 prints P = 0.57735
    # = sqrt(3 / 9): the walk back takes any equal pair, so it credits three
    # runs of one, not the consecutive "a b c" the table's maximum counts.
    t, p = [[0, 1, 2, 9, 0, 3, 1, 4, 2]], [[0, 1, 2]]
    assert kernels.weighted_lcs(t, p, 2.0) == (3.0, 81.0)
    assert _variants_py.wlcs_indices(t[0], p[0], 2.0) == [4, 6, 8]


def test_run_continues_over_a_clipped_position(kernels: ModuleType) -> None:
    # Perl's quirk: the second sentence's "0" is marked but its count is used
    # up, so the run 1 -> (0) -> 2 is credited f(2), not f(1) + f(1).  (ROUGE-1.5.5
    # on "a\nb a c" vs "b a c" with -w 2 prints R 0.22361 = sqrt(5 / 10^2).)
    t, p = [[0], [1, 0, 2]], [[1, 0, 2]]
    assert kernels.weighted_lcs(t, p, 2.0) == (1.0 + 4.0, 1.0 + 9.0)


# The compiled kernels only: the pure twin is the spec, not the long-text path.
@pytest.mark.parametrize(
    "kernels", [pytest.param("compiled", marks=pytest.mark.compiled_only)], indirect=True
)
def test_long_texts(kernels: ModuleType) -> None:
    t = [[(i * 7) % 500 for i in range(10_000)]]
    p = [[(i * 11) % 500 for i in range(10_000)]]
    hit, base = kernels.weighted_lcs(t, p, 1.2)
    assert 0 < hit <= base == 10_000**1.2
    hits, t_count, p_count = kernels.skip_bigram_counts(t[0], p[0], -1, True)
    assert t_count == p_count == 10_000 * 9_999 // 2 + 9_999
    assert 0 < hits <= t_count


def test_kernels_take_any_hashable_tokens(kernels: ModuleType) -> None:
    words, numbers = ["the", "cat", "the", "mat"], [0, 1, 0, 2]
    assert kernels.skip_bigram_counts(words, words[::-1], 2, True) == kernels.skip_bigram_counts(
        numbers, numbers[::-1], 2, True
    )
    assert kernels.weighted_lcs([words], [words[1:]], 1.2) == kernels.weighted_lcs(
        [numbers], [numbers[1:]], 1.2
    )


def test_python_choice_selects_the_twin() -> None:
    code = "from kurenai import _backend; print(_backend.variants.__name__)"
    env = {**os.environ, "KURENAI_IMPLEMENTATION": "python"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "kurenai._variants_py", out.stderr


def _naive_marks(t_sents: list[list[int]], p_sents: list[list[int]], weight: float) -> list[int]:
    """Every pair of sentences walked, as ROUGE-1.5.5 walks them (no postings)."""
    marks: list[int] = []
    for ref in t_sents:
        partner = [-1] * len(ref)
        start = 0
        for can in p_sents:
            for i, j in _variants_py.wlcs_pairs(ref, can, weight):
                if partner[i] < 0:
                    partner[i] = start + j
            start += len(can)
        marks += partner
    return marks


@settings(max_examples=300, deadline=None)
@given(t=sentences, p=sentences, weight=weights)
def test_wlcs_marks_are_the_first_walk_to_mark_each_position(
    kernels: ModuleType, t: list[list[int]], p: list[list[int]], weight: float
) -> None:
    marks = kernels.wlcs_marks(t, p, weight)
    assert marks == _naive_marks(t, p, weight)
    runs = _variants_py.wlcs_runs(t, p, weight, marks=marks)
    assert _variants_py.wlcs_credit(t, runs, weight) == kernels.weighted_lcs(t, p, weight)


@pytest.mark.compiled_only
def test_wlcs_marks_on_the_checkpointed_walk() -> None:
    assert _variants is not None
    t = [[k % 3 for k in range(90)], [1, 2, 0] * 20]
    p = [[(k * 7) % 3 for k in range(80)], [2, 0, 1] * 25]
    previous = _variants._set_bit_budget(2)  # blocks of rows recomputed from checkpoints
    try:
        assert _variants.wlcs_marks(t, p, 1.2) == _variants_py.wlcs_marks(t, p, 1.2)
    finally:
        _variants._set_bit_budget(previous)
    # Negative control: the marks are the first walk's, not any walk's.
    later_first = _naive_marks(t, p[::-1], 1.2)
    assert later_first != _variants_py.wlcs_marks(t, p, 1.2)

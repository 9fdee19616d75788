"""The kernels against rouge-score's own private helpers and a naive DP.

Tie-heavy inputs over tiny alphabets check the LCS *path*, which decides what
ROUGE-Lsum unions, not only its length.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer as rs

from kurenai import _lcs_py

tiny = st.lists(st.integers(0, 3), max_size=40)
sentences = st.lists(st.lists(st.integers(0, 4), max_size=12), max_size=5)
AROUND_WORDS = [0, 1, 2, 63, 64, 65, 127, 128, 129, 200]


def naive_lcs(a: list[int], b: list[int]) -> int:
    return rs._lcs_table(a, b)[-1][-1] if a and b else 0


def rouge_score_hits(ref: list[list[int]], can: list[list[int]]) -> int:
    score = rs._summary_level_lcs(ref, can)
    if score.precision == 0:
        return 0
    return round(score.precision * sum(map(len, can)))


@given(tiny, tiny)
def test_lcs_length_matches_naive_dp(kernels: ModuleType, a: list[int], b: list[int]) -> None:
    assert kernels.lcs_length(a, b) == naive_lcs(a, b)


@given(tiny, tiny)
def test_lcs_indices_match_rouge_score_backtrack(
    kernels: ModuleType, a: list[int], b: list[int]
) -> None:
    assert kernels.lcs_indices(a, b) == rs.lcs_ind(a, b)


@given(sentences, sentences)
def test_summary_hits_match_rouge_score(
    kernels: ModuleType, ref: list[list[int]], can: list[list[int]]
) -> None:
    assert kernels.summary_lcs_hits(ref, can) == rouge_score_hits(ref, can)


@given(tiny, tiny, st.integers(1, 9))
def test_ngram_overlap_matches_rouge_score(
    kernels: ModuleType, a: list[int], b: list[int], n: int
) -> None:
    expected = rs._score_ngrams(rs._create_ngrams(a, n), rs._create_ngrams(b, n))
    overlap = kernels.ngram_overlap(a, b, n)
    assert overlap / max(len(b) - n + 1, 1) == expected.precision


@pytest.mark.parametrize("la", AROUND_WORDS)
@pytest.mark.parametrize("lb", [0, 1, 64, 65, 130])
@pytest.mark.parametrize("alphabet", [1, 2, 7])
def test_bit_parallel_word_boundaries(kernels: ModuleType, la: int, lb: int, alphabet: int) -> None:
    a = [(i * 7 + i // 3) % alphabet for i in range(la)]
    b = [(i * 5 + 1) % alphabet for i in range(lb)]
    assert kernels.lcs_length(a, b) == naive_lcs(a, b)
    assert kernels.lcs_indices(a, b) == rs.lcs_ind(a, b)
    assert kernels.lcs_indices(b, a) == rs.lcs_ind(b, a)


@settings(max_examples=60)
@given(
    st.lists(st.integers(0, 2), min_size=60, max_size=140),
    st.lists(st.integers(0, 2), min_size=60, max_size=140),
)
def test_multiword_paths_on_repeated_tokens(
    kernels: ModuleType, a: list[int], b: list[int]
) -> None:
    assert kernels.lcs_length(a, b) == naive_lcs(a, b)
    assert kernels.lcs_indices(a, b) == rs.lcs_ind(a, b)
    assert kernels.summary_lcs_hits([a[:70], a[70:]], [b]) == rouge_score_hits(
        [a[:70], a[70:]], [b]
    )


@pytest.mark.parametrize("n", [2, 3, 5, 9])
def test_ngrams_of_distinct_tokens(kernels: ModuleType, n: int) -> None:
    # Every gram distinct: the gram tables of the lower levels are the fullest.
    a = list(range(300))
    b = list(range(150, 450))
    assert kernels.ngram_overlap(a, b, n) == 150 - n + 1
    assert kernels.ngram_overlap(list(range(10)), list(range(10, 20)), n) == 0
    assert kernels.ngram_overlap(list(range(12)), list(range(12)), n) == 12 - n + 1


@contextmanager
def tiny_row_memory() -> Iterator[None]:
    """Force the tiled LCS path (bounded memory) on every pair."""
    from kurenai import _lcs

    previous = _lcs._set_rows_limit(3)
    try:
        yield
    finally:
        _lcs._set_rows_limit(previous)


@pytest.mark.compiled_only
@settings(max_examples=150)
@given(
    st.lists(st.integers(0, 3), max_size=200),
    st.lists(st.integers(0, 3), max_size=200),
)
def test_checkpointed_path_is_the_same_path(a: list[int], b: list[int]) -> None:
    from kurenai import _lcs

    ref, can = [a[:70], a[70:]], [b[:90], b[90:]]
    with tiny_row_memory():
        assert _lcs.lcs_indices(a, b) == rs.lcs_ind(a, b)
        assert _lcs.summary_lcs_hits(ref, can) == rouge_score_hits(ref, can)


many_sentences = st.lists(st.lists(st.integers(0, 6), max_size=6), min_size=16, max_size=30)


@settings(max_examples=60)
@given(many_sentences, many_sentences)
def test_summary_hits_over_many_sentences(
    kernels: ModuleType, ref: list[list[int]], can: list[list[int]]
) -> None:
    # 16 candidate sentences or more: the compiled kernel visits them by token postings.
    assert kernels.summary_lcs_hits(ref, can) == rouge_score_hits(ref, can)


@contextmanager
def postings_always() -> Iterator[None]:
    """Make ROUGE-Lsum visit candidate sentences by token postings on every input."""
    from kurenai import _lcs

    previous = _lcs._set_index_min_sents(0)
    try:
        yield
    finally:
        _lcs._set_index_min_sents(previous)


@pytest.mark.compiled_only
@settings(max_examples=200)
@given(sentences, sentences, st.booleans())
def test_postings_give_the_same_union(
    ref: list[list[int]], can: list[list[int]], checkpointed: bool
) -> None:
    from kurenai import _lcs

    with postings_always(), tiny_row_memory() if checkpointed else nullcontext():
        assert _lcs.summary_lcs_hits(ref, can) == rouge_score_hits(ref, can)


@pytest.mark.compiled_only
@pytest.mark.parametrize(
    ("ref_line", "can_line"),
    [([0, 1], [1, 0]), ([0, 1, 0], [1, 0, 1]), ([2, 0, 1], [1, 0, 3]), ([0], [0])],
)
@pytest.mark.parametrize("distinct", [True, False])
def test_postings_on_lines_that_all_share_tokens(
    ref_line: list[int], can_line: list[int], distinct: bool
) -> None:
    # Every candidate sentence is visited for a position that no path marks.
    from kurenai import _lcs

    ref = [ref_line + [10 + k] * distinct for k in range(20)]
    can = [can_line + [100 + k] * distinct for k in range(25)]
    with postings_always():
        assert _lcs.summary_lcs_hits(ref, can) == rouge_score_hits(ref, can)


@pytest.mark.compiled_only
@settings(max_examples=100)
@given(sentences, st.lists(st.integers(0, 4), min_size=1, max_size=30), sentences)
def test_repeated_candidate_sentences_are_visited_once(
    pool: list[list[int]], picks: list[int], ref: list[list[int]]
) -> None:
    from kurenai import _lcs

    can = [pool[k % len(pool)] for k in picks] if pool else []
    with postings_always():
        assert _lcs.summary_lcs_hits(ref, can) == rouge_score_hits(ref, can)


@pytest.mark.compiled_only
@settings(max_examples=60, deadline=None)  # rouge-score's own DP of 400 x 400
@given(
    st.lists(st.integers(0, 9), min_size=100, max_size=400),
    st.lists(st.integers(0, 9), min_size=100, max_size=400),
    st.integers(3, 40),
)
def test_checkpointed_path_over_many_words(a: list[int], b: list[int], limit: int) -> None:
    # Tiles recomputed only up to the walk's word: refs of 2 to 7 words, many ties.
    from kurenai import _lcs

    previous = _lcs._set_rows_limit(limit)
    try:
        assert _lcs.lcs_indices(a, b) == rs.lcs_ind(a, b)
        assert _lcs.lcs_indices(b, a) == rs.lcs_ind(b, a)
    finally:
        _lcs._set_rows_limit(previous)


@contextmanager
def tiles(group: int, span: int) -> Iterator[None]:
    """Walk every pair's LCS path tile by tile, in tiles of ``group`` words by
    ``span`` tokens (0, 0: the shape chosen by size)."""
    from kurenai import _lcs

    previous_limit = _lcs._set_rows_limit(0)
    previous_shape = _lcs._set_tile_shape(group, span)
    try:
        yield
    finally:
        _lcs._set_rows_limit(previous_limit)
        _lcs._set_tile_shape(*previous_shape)


# Refs from 1 to 5 words, cut around word edges; tiles from one word by one
# token to wider and longer than the pair.
around_words = st.sampled_from([*AROUND_WORDS, 191, 192, 193, 256, 257, 320])
tile_shapes = st.tuples(
    st.sampled_from([0, 1, 2, 3, 8]), st.sampled_from([0, 1, 2, 7, 63, 64, 65, 500])
)


@pytest.mark.compiled_only
@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(0, 3), max_size=330),
    st.lists(st.integers(0, 3), max_size=330),
    around_words,
    around_words,
    tile_shapes,
)
def test_tiled_path_is_the_same_path(
    a: list[int], b: list[int], m: int, n: int, shape: tuple[int, int]
) -> None:
    # Repeating the lists keeps many ties at every length.
    from kurenai import _lcs

    ref, can = (a * (1 + m // max(len(a), 1)))[:m], (b * (1 + n // max(len(b), 1)))[:n]
    with tiles(*shape):
        assert _lcs.lcs_indices(ref, can) == rs.lcs_ind(ref, can)
        assert _lcs.lcs_indices(ref, can) == _lcs_py.lcs_indices(ref, can)
        assert _lcs.lcs_indices(can, ref) == rs.lcs_ind(can, ref)


@pytest.mark.compiled_only
@settings(max_examples=100, deadline=None)
@given(sentences, sentences, tile_shapes)
def test_tiled_union_is_the_same_union(
    ref: list[list[int]], can: list[list[int]], shape: tuple[int, int]
) -> None:
    from kurenai import _lcs

    with tiles(*shape):
        assert _lcs.summary_lcs_hits(ref, can) == rouge_score_hits(ref, can)
        assert _lcs.summary_lcs_hits(ref, can) == _lcs_py.summary_lcs_hits(ref, can)


@pytest.mark.compiled_only
@pytest.mark.parametrize("shape", [(0, 0), (1, 1), (2, 64)])
def test_tiled_walk_along_the_top(shape: tuple[int, int]) -> None:
    # The path crosses the whole candidate's tail at the ref's last word, then
    # climbs every word of the ref: every tile edge, both ways.
    from kurenai import _lcs

    ref = [k % 7 for k in range(300)]
    can = ref + [9] * 250
    with tiles(*shape):
        assert _lcs.lcs_indices(ref, can) == rs.lcs_ind(ref, can)
        assert _lcs.lcs_indices(can, ref) == rs.lcs_ind(can, ref)


words_text = st.lists(
    st.lists(st.sampled_from(["a", "b", "c", "dog", "Cat"]), max_size=150), min_size=1, max_size=3
).map(lambda lines: "\n".join(" ".join(line) for line in lines))


@pytest.mark.compiled_only
@settings(max_examples=60, deadline=None)
@given(words_text, words_text, tile_shapes)
def test_tiled_rouge_lsum_equals_rouge_score(
    target: str, prediction: str, shape: tuple[int, int]
) -> None:
    # The whole scorer (the fused plan's counts) on the tiled walk.
    from kurenai.rouge_scorer import RougeScorer

    expected = rs.RougeScorer(["rougeLsum"]).score(target, prediction)
    with tiles(*shape):
        assert RougeScorer(["rougeLsum"]).score(target, prediction) == expected


def test_kernels_accept_any_hashable_tokens(kernels: ModuleType) -> None:
    assert kernels.lcs_length("abcbdab", "bdcaba") == 4
    assert kernels.lcs_indices(["x", "y", "z"], ["y", "z"]) == [1, 2]


def test_intern_sentences_is_dense_and_shared(kernels: ModuleType) -> None:
    vocab: dict[str, int] = {}
    assert kernels.intern_sentences([["a", "b"], [], ["b", "c"]], vocab) == [[0, 1], [], [1, 2]]
    assert kernels.intern_sentences([["c", "d"]], vocab) == [[2, 3]]


@pytest.mark.compiled_only
@given(sentences, sentences, st.lists(st.integers(1, 9), max_size=20), st.booleans())
def test_pair_counts_twins_agree(
    ref: list[list[int]], can: list[list[int]], orders: list[int], whole: bool
) -> None:
    from kurenai import _lcs

    ref_s = [[str(t) for t in s] for s in ref]
    can_s = [[str(t) for t in s] for s in can]
    extra = (ref_s[0] if ref_s else ["x"], ["x", "1"]) if whole else (None, None)
    args = (ref_s, can_s, tuple(orders), True, True, *extra)
    assert _lcs.pair_counts(*args) == _lcs_py.pair_counts(*args)


def test_ngram_order_must_be_positive(kernels: ModuleType) -> None:
    with pytest.raises(ValueError):
        kernels.ngram_overlap([1], [1], 0)


# ROUGE-Lsum by shapes: a token in more than FREQUENT_LINES candidate lines is
# tried against its first lines, then against the lines' shapes (frequent tokens
# kept, each run of other tokens one blocker), and the lines sharing a rare
# token with the reference line one by one.


@given(
    st.lists(st.integers(0, 3), max_size=10),
    st.lists(st.integers(0, 5), max_size=10),
)
def test_a_pair_has_the_path_of_its_shared_form(ref: list[int], can: list[int]) -> None:
    # rouge-score's own table and backtrack, on the pair and on its shared form.
    kept, ref_kept, can_kept = _lcs_py.shared_form(ref, can)
    assert rs.lcs_ind(ref, can) == [kept[i] for i in rs.lcs_ind(ref_kept, can_kept)]


@settings(max_examples=1000)
@given(
    st.lists(st.integers(0, 3), max_size=10),
    st.lists(st.integers(0, 5), max_size=10),
    st.sets(st.integers(0, 5)),
)
def test_a_pair_has_the_path_of_its_projection_through_any_tokens_holding_the_shared_ones(
    ref: list[int], can: list[int], extra: set[int]
) -> None:
    # The compiled Lsum projects a candidate line through the reference line's
    # frequent tokens (when it shares none of the others): the path stays.
    tokens = (set(ref) & set(can)) | extra
    assert rs.lcs_ind(ref, can) == rs.lcs_ind(ref, _lcs_py.project(can, tokens))


def test_a_run_absent_from_the_reference_is_kept_as_one_blocker() -> None:
    # Dropping the run instead would move the path: the blocker is needed.
    assert rs.lcs_ind([0, 0], [0, 9]) == [0] != rs.lcs_ind([0, 0], [0])
    assert _lcs_py.shared_form([0, 0], [7, 8, 0, 9, 9]) == ([0, 1], [0, 0], [0, _lcs_py.BLOCKER])


@contextmanager
def shapes_from(lines: int, shapes_after: int) -> Iterator[None]:
    """Make ROUGE-Lsum visit the shapes of tokens in more than ``lines`` lines,
    after ``shapes_after`` of them, on inputs of any size."""
    from kurenai import _lcs

    previous = _lcs._set_frequent_lines(lines, shapes_after)
    try:
        with postings_always():
            yield
    finally:
        _lcs._set_frequent_lines(*previous)


# Few tokens, many lines: frequent tokens, shared shapes and ties everywhere;
# the candidate side has tokens the reference lacks (blockers), and the
# reference tokens the candidate lacks.
ref_lines = st.lists(st.lists(st.integers(0, 3), max_size=6), max_size=30)
can_lines = st.lists(st.lists(st.integers(1, 5), max_size=6), max_size=30)


@pytest.mark.compiled_only
@settings(max_examples=300, deadline=None)
@given(ref_lines, can_lines, st.integers(0, 4), st.integers(0, 3), st.booleans())
def test_shapes_give_the_same_union(
    ref: list[list[int]], can: list[list[int]], lines: int, shapes_after: int, checkpointed: bool
) -> None:
    from kurenai import _lcs

    expected = rouge_score_hits(ref, can)
    with shapes_from(lines, shapes_after), tiny_row_memory() if checkpointed else nullcontext():
        assert _lcs.summary_lcs_hits(ref, can) == expected
    assert _lcs_py.summary_lcs_hits(ref, can) == expected


def hostile_lines(pattern: list[int], k: int, unique: int | None) -> list[list[int]]:
    """k lines ``pattern + [unique + i]`` (or ``pattern`` alone)."""
    return [pattern + ([] if unique is None else [unique + i]) for i in range(k)]


@pytest.mark.parametrize(
    ("ref_line", "can_line"),
    [([0, 1], [1, 0]), ([0, 1, 0], [1, 0, 1]), ([2, 0, 1], [1, 0, 3]), ([0, 1, 2], [2, 1, 0])],
)
@pytest.mark.parametrize(("ref_unique", "can_unique"), [(100, 1000), (100, 100), (None, 1000)])
def test_hostile_lines_at_the_default_thresholds(
    kernels: ModuleType,
    ref_line: list[int],
    can_line: list[int],
    ref_unique: int | None,
    can_unique: int,
) -> None:
    # Every line shares a token (in more than 32 lines) that no path takes; the
    # unique words absent from the other side, or the same on both sides.
    ref = hostile_lines(ref_line, 45, ref_unique)
    can = hostile_lines(can_line, 50, can_unique)
    assert kernels.summary_lcs_hits(ref, can) == rouge_score_hits(ref, can)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.lists(st.integers(0, 3), min_size=1, max_size=5), min_size=1, max_size=4),
    st.lists(st.lists(st.integers(0, 3), min_size=1, max_size=5), min_size=1, max_size=4),
    st.lists(st.booleans(), min_size=40, max_size=60),
)
def test_frequent_tokens_at_the_default_thresholds(
    kernels: ModuleType, ref_pool: list[list[int]], can_pool: list[list[int]], unique: list[bool]
) -> None:
    # 40-60 lines from a few patterns over 4 tokens, some with a word of their own.
    ref = [ref_pool[i % len(ref_pool)] + [100 + i] * u for i, u in enumerate(unique)]
    can = [can_pool[i % len(can_pool)] + [100 + i + (i % 3)] * u for i, u in enumerate(unique)]
    assert kernels.summary_lcs_hits(ref, can) == rouge_score_hits(ref, can)


@pytest.mark.parametrize("nines", [1, 32])
def test_a_line_sharing_a_rare_token_is_visited_for_a_frequent_one(
    kernels: ModuleType, nines: int
) -> None:
    # Only the last line's path takes the reference's 1; the line before it
    # marks the rare 9 first, so the last line is reached through the 1's
    # rare lines, not through the 9's postings nor the shapes (its shape is
    # not its path: it shares the 9).
    ref = [[0, 1, 9]]
    can = [[1, 0, 100 + i] for i in range(40)] + [[9] * nines, [9, 1]]
    assert kernels.summary_lcs_hits(ref, can) == rouge_score_hits(ref, can) == 3


@pytest.mark.compiled_only
def test_a_shape_whose_lines_all_share_a_rare_token_is_not_visited() -> None:
    # [2, 1, 5]'s shape is [1, BLOCKER] (2 rare, 5 absent from the reference),
    # whose path would take the reference's first 1; the line's own path
    # takes the 2 and the last 1.
    from kurenai import _lcs

    ref, can = [[1, 2, 1]], [[1], [2, 1, 5], [5, 1]]
    with shapes_from(2, 0):
        assert _lcs.summary_lcs_hits(ref, can) == rouge_score_hits(ref, can) == 2


# ROUGE-Lsum by projections: a reference line with at most RELATIVE_DEPTH
# frequent tokens visits its candidate lines' projections onto them (built
# level by level, one token at a time, shared by the lines whose keys share
# their first tokens) instead of the global shapes.


@contextmanager
def thresholds(
    kernels: ModuleType, lines: int, shapes_after: int, depth: int, defer_after: int = 0
) -> Iterator[None]:
    """On the compiled kernels, visit shapes for tokens in more than ``lines``
    lines after ``shapes_after`` of them, by projection onto ``depth`` of a
    reference line's frequent tokens once the line has visited
    ``defer_after`` global shapes; the pure twin has no thresholds."""
    if kernels is _lcs_py:
        yield
        return
    previous = kernels._set_relative_depth(depth, defer_after)
    try:
        with shapes_from(lines, shapes_after):
            yield
    finally:
        kernels._set_relative_depth(*previous)


@pytest.mark.compiled_only
@settings(max_examples=300, deadline=None)
@given(
    ref_lines,
    can_lines,
    st.integers(0, 4),
    st.integers(0, 3),
    st.integers(0, 8),
    st.integers(0, 3),
)
def test_projections_give_the_same_union(
    ref: list[list[int]],
    can: list[list[int]],
    lines: int,
    shapes_after: int,
    depth: int,
    defer_after: int,
) -> None:
    from kurenai import _lcs

    with thresholds(_lcs, lines, shapes_after, depth, defer_after):
        assert _lcs.summary_lcs_hits(ref, can) == rouge_score_hits(ref, can)


@pytest.mark.compiled_only
@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(st.integers(0, 7), max_size=9), max_size=25),
    st.lists(st.lists(st.integers(2, 10), max_size=9), max_size=40),
    st.integers(0, 3),
    st.integers(1, 8),
    st.integers(0, 2),
    st.booleans(),
)
def test_projections_over_many_keys_give_the_same_union(
    ref: list[list[int]],
    can: list[list[int]],
    lines: int,
    depth: int,
    defer_after: int,
    checkpointed: bool,
) -> None:
    # More tokens and longer lines: keys of many lengths and orders, levels
    # pushed and popped between them, frequent tokens outside the keys.
    from kurenai import _lcs

    expected = rouge_score_hits(ref, can)
    with (
        thresholds(_lcs, lines, 0, depth, defer_after),
        tiny_row_memory() if checkpointed else nullcontext(),
    ):
        assert _lcs.summary_lcs_hits(ref, can) == expected


def hostile_structure(name: str, k: int) -> tuple[list[list[int]], list[list[int]]]:
    """k reference lines against k candidate lines, tokens 0 (a) and 1 (b) in
    every line; f_j from 100, g_j from 200, x_i from 1000, y_j from 5000;
    with ``side`` f's and g's, so that each is in about ``k / side`` lines."""
    side = 4
    f = [100 + j % side for j in range(k)]
    g = [200 + j // side % side for j in range(k)]
    fs = [t for j in range(side) for t in (100 + j, 200 + j)]  # every f and g in the reference
    if name == "distinct shapes":  # 'a b x_i' vs 'b a f_j g_j'
        return [[0, 1, 1000 + i] for i in range(k)] + [fs], [[1, 0, f[j], g[j]] for j in range(k)]
    if name == "distinct keys":  # 'a b f_i' vs 'b a f_j g_j'
        return [[0, 1, f[i]] for i in range(k)] + [fs], [[1, 0, f[j], g[j]] for j in range(k)]
    if name == "deep keys":  # 'a b f_i g_i x_i' vs 'b a g_j f_j y_j'
        ref = [[0, 1, f[i], g[(i * 7) % k], 1000 + i] for i in range(k)]
        return ref, [[1, 0, g[j], f[j], 5000 + j] for j in range(k)]
    # "interleaved": 'a x_i b a' vs 'b f_j a b g_j a'
    return [[0, 1000 + i, 1, 0] for i in range(k)] + [fs], [
        [1, f[j], 0, 1, g[j], 0] for j in range(k)
    ]


@pytest.mark.parametrize("name", ["distinct shapes", "distinct keys", "deep keys", "interleaved"])
@pytest.mark.parametrize("depth", [0, 1, 2, 4, 8])
@pytest.mark.parametrize("defer_after", [0, 3])
def test_hostile_structures_with_thresholds_forced_low(
    kernels: ModuleType, name: str, depth: int, defer_after: int
) -> None:
    ref, can = hostile_structure(name, 48)
    expected = rouge_score_hits(ref, can)
    with thresholds(kernels, 2, 1, depth, defer_after):
        assert kernels.summary_lcs_hits(ref, can) == expected


@pytest.mark.parametrize("name", ["distinct shapes", "distinct keys", "deep keys", "interleaved"])
def test_hostile_structures_at_the_default_thresholds(kernels: ModuleType, name: str) -> None:
    ref, can = hostile_structure(name, 200)  # each f and g in 50 lines, frequent
    assert kernels.summary_lcs_hits(ref, can) == rouge_score_hits(ref, can)

# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled twin of ``kurenai._lcs_py``: the integer counts of ROUGE-N, -L and -Lsum.

Same names and results as ``kurenai._lcs_py`` (the readable spec): LCS
length, LCS path and ROUGE-Lsum's union-LCS hits, n-gram overlaps, and
``pair_counts``, all of one pair's counts at once (``doc_counts`` is the
same for ``kurenai._fused``, on its IDs).  Tokens are interned to dense
int32 IDs once per call; every loop after that runs on C arrays without
the GIL.  The LCS kernels are here and in ``_kernels/_lcs_path.pxd`` (the walk back),
the threaded length in ``_lcs_threads.h``; ROUGE-Lsum's union is
``_lcs_union.pxd`` (its two passes) over ``_lcs_postings.pxd`` (the index)
and ``_lcs_projections.pxd`` (the second pass's projections); n-gram
counting is ``_ngrams.pxd``, interning ``_token_intern.pxd``; all are
inline code in ``kurenai/_kernels/``, compiled into this module, which keeps
their settings.

Bit-parallel LCS (Allison-Dix / Hyyro): for a fixed sequence ``a`` and a bit
per position of ``a``, the state ``V`` after reading ``b[:j]`` has, in its low
``i`` bits, exactly ``LCS(a[:i], b[:j])`` zeros.  One update is
``V = (V + (V & M[c])) | (V & ~M[c])`` where ``M[c]`` marks where ``a`` holds
``c``.  The addition carries from low words to high words only, so ``a`` can be
processed one 64-bit strip at a time, keeping the carries of the strip below.
"""

from libc.stdint cimport int32_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset

from kurenai._lcs cimport release_buffer, scratch_buffer
from kurenai._kernels._token_intern cimport free_doc, intern_doc
from kurenai._kernels._ngrams cimport overlap
from kurenai._kernels._lcs_path cimport (
    PathScratch, advance, clear_strip, mark_path, popcount64, set_strip,
)
from kurenai._kernels._lcs_postings cimport Postings, build_postings, free_postings
from kurenai._kernels._lcs_projections cimport MAX_DEPTH, Relative, free_relative
from kurenai._kernels._lcs_union cimport (
    DEFERRED, Knobs, count_union, defer, union_all, union_deferred, union_indexed,
)

cdef extern from "_kernels/_popcount.h":
    const char *_popcount_kind "kurenai_popcount_kind"()

#: How this build counts bits on this CPU (benchmark headers report it).
POPCOUNT = _popcount_kind().decode("ascii")

cdef extern from "_kernels/_lcs_threads.h":
    # One long pair's LCS length split across threads (see the header).
    Py_ssize_t _lcs_length_threads "kurenai_lcs_length_threads"(
        const int32_t *a, Py_ssize_t la, const int32_t *b, Py_ssize_t lb,
        Py_ssize_t vocab_size, int threads) nogil
    const int _THREADS_BUILT "KURENAI_THREADS"

#: Whether this build can split one pair's LCS across threads (POSIX
#: threads); without them a ``threads`` setting runs the same kernel serially.
THREADS = bool(_THREADS_BUILT)

# ---------------------------------------------------------------- interning

cdef class Interned:
    """Two sentence lists as Docs of dense IDs over one vocabulary (``size``
    IDs), freed with the object: the Python surfaces need no cleanup code."""

    def __cinit__(self, a_sents, b_sents):
        cdef dict vocab = {}
        intern_doc(a_sents, vocab, &self.a)
        intern_doc(b_sents, vocab, &self.b)
        self.size = len(vocab)

    def __dealloc__(self):
        free_doc(&self.a)
        free_doc(&self.b)


# ------------------------------------------------------------ LCS length

cdef Py_ssize_t _lcs_length(const int32_t *a, Py_ssize_t la, const int32_t *b,
                            Py_ssize_t lb, Py_ssize_t vocab_size) noexcept nogil:
    """Bit-parallel LCS length in O(vocab + n) memory; -1 if out of memory."""
    if la < lb:
        # The bit-vector runs over the longer text: fewer partial words, and
        # the carries are kept for the shorter one.
        return _lcs_length(b, lb, a, la, vocab_size)
    cdef uint64_t *mask
    cdef uint8_t *carry
    cdef uint64_t state
    cdef Py_ssize_t j, start, end, total = 0
    cdef char small_mask[SMALL]
    cdef char small_carry[SMALL]
    if la == 0 or lb == 0:
        return 0
    mask = <uint64_t *> scratch_buffer(small_mask, vocab_size * sizeof(uint64_t), True)
    carry = <uint8_t *> scratch_buffer(small_carry, lb, True)
    if mask == NULL or carry == NULL:
        release_buffer(mask, small_mask)
        release_buffer(carry, small_carry)
        return -1
    for start in range(0, la, 64):
        end = min(start + 64, la)
        set_strip(mask, a, start, end)
        state = ~(<uint64_t> 0)
        for j in range(lb):
            state = advance(state, mask[b[j]], &carry[j])
        total += popcount64(~state)
        clear_strip(mask, a, start, end)
    release_buffer(mask, small_mask)
    release_buffer(carry, small_carry)
    return total


# Both texts need this many tokens before their LCS goes to the wavefront
# kernel (kurenai/_kernels/_lcs_threads.h), on ``threads`` threads or one: below it,
# starting threads costs more than they save, and its chunks gain nothing
# over _lcs_length (benchmarks/bench_parallel.py).
cdef Py_ssize_t PARALLEL_MIN_TOKENS = 20000


def _set_parallel_min_tokens(Py_ssize_t tokens):
    """Testing hook: the length from which a pair's LCS takes the wavefront kernel."""
    global PARALLEL_MIN_TOKENS
    previous, PARALLEL_MIN_TOKENS = PARALLEL_MIN_TOKENS, tokens
    return previous


cdef Py_ssize_t _lcs_length_on(const int32_t *a, Py_ssize_t la, const int32_t *b,
                               Py_ssize_t lb, Py_ssize_t vocab_size,
                               int threads) noexcept nogil:
    """_lcs_length, on up to ``threads`` threads when both texts are long.

    A long pair takes the wavefront kernel even on one thread: it runs each
    strip over a chunk of tokens at a time, whose IDs and carries stay in
    cache (20-30% less CPU time than _lcs_length from 50k tokens).
    """
    if min(la, lb) < PARALLEL_MIN_TOKENS:
        return _lcs_length(a, la, b, lb, vocab_size)
    if la < lb:
        # Lanes split the longer text's words, as _lcs_length's strips.
        return _lcs_length_threads(b, lb, a, la, vocab_size, max(threads, 1))
    return _lcs_length_threads(a, la, b, lb, vocab_size, max(threads, 1))


cdef Py_ssize_t ROWS_LIMIT = 1 << 21  # words (16 MiB) of LCS rows kept at once
cdef Py_ssize_t TILE_GROUP = 0, TILE_SPAN = 0  # past it, the tiles' shape (0: by size)


def _set_rows_limit(Py_ssize_t words):
    """Testing hook: the row memory above which paths are walked tile by tile."""
    global ROWS_LIMIT
    previous, ROWS_LIMIT = ROWS_LIMIT, words
    return previous


def _set_tile_shape(Py_ssize_t group, Py_ssize_t span):
    """Testing hook: the tiles' words and tokens (0, 0: chosen by size)."""
    global TILE_GROUP, TILE_SPAN
    previous = (TILE_GROUP, TILE_SPAN)
    TILE_GROUP, TILE_SPAN = group, span
    return previous


cdef inline void _path_settings(PathScratch *scratch) noexcept nogil:
    """The row memory and tile shape of mark_path, from the settings above."""
    scratch.rows_limit = ROWS_LIMIT
    scratch.tile_group, scratch.tile_span = TILE_GROUP, TILE_SPAN


# ------------------------------------------------------------ ROUGE-Lsum
#
# A candidate sentence sharing no token with a reference sentence adds nothing
# to its union.  Above INDEX_MIN_SENTS candidate sentences, each reference
# position with its token's postings (the candidate sentences holding that
# token) visits only those sentences, and stops as soon as the position is on
# the union: a position still unmarked at the end was tried against every
# sentence that could mark it, so the union is exactly rouge-score's.  A
# candidate sentence repeating an earlier one has the same paths: not indexed.
#
# A token in more than FREQUENT_LINES sentences would make its positions visit
# them all, one path each, when no path takes it (lines ``a b x_i`` against
# ``b a y_j``: the paths take ``a``, never ``b``).  Such a position visits the
# sentences' shapes instead (kurenai/_kernels/_lcs_postings.pxd), each once: a sentence
# sharing no rare token with the reference sentence has its shape's path.  The
# sentences that do share one (at most FREQUENT_LINES per rare position) are
# visited one by one.  The visits and both passes are kurenai/_kernels/_lcs_union.pxd,
# the settings below passed in as its Knobs.

cdef Py_ssize_t INDEX_MIN_SENTS = 16
cdef Py_ssize_t FREQUENT_LINES = 32
cdef Py_ssize_t SHAPES_AFTER = 8
cdef Py_ssize_t RELATIVE_DEPTH = 4
cdef Py_ssize_t DEFER_AFTER = 2


def _set_index_min_sents(Py_ssize_t sents):
    """Testing hook: the candidate sentence count from which Lsum uses postings."""
    global INDEX_MIN_SENTS
    previous, INDEX_MIN_SENTS = INDEX_MIN_SENTS, sents
    return previous


def _set_relative_depth(Py_ssize_t depth, Py_ssize_t defer_after=2):
    """Testing hook: how many of a reference line's frequent tokens Lsum
    projects its candidate lines onto (0: the global shapes always), and how
    many global shapes a line visits in the first pass before it is deferred
    to the second; the previous pair."""
    global RELATIVE_DEPTH, DEFER_AFTER
    if not 0 <= depth <= MAX_DEPTH:
        raise ValueError(f"depth must be in [0, {MAX_DEPTH}], got {depth}")
    previous = RELATIVE_DEPTH, DEFER_AFTER
    RELATIVE_DEPTH, DEFER_AFTER = depth, defer_after
    return previous


def _set_frequent_lines(Py_ssize_t lines, Py_ssize_t shapes_after=8):
    """Testing hook: the sentence count above which Lsum visits a token's
    shapes, after trying ``shapes_after`` of its sentences; the previous pair."""
    global FREQUENT_LINES, SHAPES_AFTER
    previous = FREQUENT_LINES, SHAPES_AFTER
    FREQUENT_LINES, SHAPES_AFTER = lines, shapes_after
    return previous


cdef Py_ssize_t _summary_hits(const Doc *t, const Doc *p,
                              Py_ssize_t vocab_size) noexcept nogil:
    """Summary-level union-LCS hits; -1 if out of memory."""
    cdef Py_ssize_t r, c, k, m, max_m = 0, max_n = 0, hits = 0
    cdef const int32_t *rs
    cdef bint indexed = p.n_sents >= INDEX_MIN_SENTS
    cdef PathScratch scratch
    cdef Knobs knobs
    cdef Postings index
    cdef Relative rel
    cdef int32_t *deferred = NULL  # the ref sentences left for the second pass
    cdef uint8_t *saved = NULL     # their marks, at their tokens' positions
    cdef Py_ssize_t n_deferred = 0
    cdef char small_mask[SMALL]
    cdef char small_union[SMALL]
    cdef char small_p[SMALL]
    cdef char small_rows[SMALL]
    cdef char small_carry[SMALL]
    cdef char small_path[SMALL]
    cdef int32_t *union_count = <int32_t *> scratch_buffer(
        small_union, vocab_size * sizeof(int32_t), True
    )
    cdef int32_t *p_count = <int32_t *> scratch_buffer(
        small_p, vocab_size * sizeof(int32_t), True
    )
    memset(&index, 0, sizeof(index))
    memset(&rel, 0, sizeof(rel))
    knobs.shapes_after, knobs.relative_depth = SHAPES_AFTER, RELATIVE_DEPTH
    knobs.defer_after = DEFER_AFTER
    _path_settings(&scratch)
    # vocab_size + 1 masks: the shapes' BLOCKER is the ID vocab_size.
    scratch.mask = <uint64_t *> scratch_buffer(
        small_mask, (vocab_size + 1) * sizeof(uint64_t), True
    )
    for r in range(t.n_sents):
        max_m = max(max_m, t.bounds[r + 1] - t.bounds[r])
    for c in range(p.n_sents):
        max_n = max(max_n, p.bounds[c + 1] - p.bounds[c])
    scratch.rows = <uint64_t *> scratch_buffer(
        small_rows,
        min((max_n + 1) * ((max_m + 63) >> 6), ROWS_LIMIT) * sizeof(uint64_t) + 8,
        False,
    )
    scratch.carry = <uint8_t *> scratch_buffer(small_carry, max_n + 1, False)
    scratch.on_path = <uint8_t *> scratch_buffer(small_path, max_m + 1, True)
    if not (scratch.mask and union_count and p_count and scratch.rows and scratch.carry
            and scratch.on_path):
        hits = -1
    elif indexed and build_postings(p, t, vocab_size, FREQUENT_LINES, &index) < 0:
        hits = -1
    else:
        for k in range(p.n_tokens):
            p_count[p.ids[k]] += 1
        for r in range(t.n_sents):
            rs = t.ids + t.bounds[r]
            m = t.bounds[r + 1] - t.bounds[r]
            if indexed:
                hits = union_indexed(rs, m, r, -1, p, &index, &rel, &knobs, &scratch)
            else:
                hits = union_all(rs, m, p, &scratch)
            if hits == DEFERRED:  # its marks kept for the second pass
                hits = defer(&deferred, &n_deferred, &saved, t, r, scratch.on_path)
            if hits < 0:
                break
            count_union(rs, m, scratch.on_path, union_count)
        if n_deferred and hits >= 0:
            hits = union_deferred(t, p, vocab_size, deferred, n_deferred, saved, &index,
                                  &rel, &knobs, &scratch, union_count)
        # A token's hits are capped by its count on each side; the reference
        # side never binds, since each of its positions is unioned at most once.
        for k in range(vocab_size):
            if hits < 0:
                break
            hits += min(union_count[k], p_count[k])
    free_postings(&index)
    free_relative(&rel)
    free(deferred)
    free(saved)
    release_buffer(scratch.mask, small_mask)
    release_buffer(union_count, small_union)
    release_buffer(p_count, small_p)
    release_buffer(scratch.rows, small_rows)
    release_buffer(scratch.carry, small_carry)
    release_buffer(scratch.on_path, small_path)
    return hits


cdef int doc_counts(const Doc *t_all, const Doc *p_all, const Doc *t_sents,
                    const Doc *p_sents, const Py_ssize_t *orders, Py_ssize_t n_orders,
                    bint want_lcs, bint want_lsum, Py_ssize_t vocab_size,
                    int threads, Counts *out) noexcept nogil:
    """Every count one pair's scores need; -1 if out of memory.  The LCS of a
    long pair may use up to ``threads`` threads."""
    cdef Py_ssize_t o
    out.lcs = 0
    out.hits = 0
    for o in range(n_orders):
        out.overlaps[o] = overlap(t_all, p_all, orders[o], vocab_size)
        if out.overlaps[o] < 0:
            return -1
    if want_lcs:
        out.lcs = _lcs_length_on(t_all.ids, t_all.n_tokens, p_all.ids, p_all.n_tokens,
                                 vocab_size, threads)
    if want_lsum and t_sents.n_tokens and p_sents.n_tokens:
        out.hits = _summary_hits(t_sents, p_sents, vocab_size)
    return -1 if out.lcs < 0 or out.hits < 0 else 0


cdef inline Py_ssize_t _checked(Py_ssize_t value) except -1:
    if value < 0:
        raise MemoryError()
    return value


# ------------------------------------------------------------ Python surface

def lcs_length(a, b, int threads=1):
    """Length of a longest common subsequence of two token sequences, on up
    to ``threads`` threads when both are long."""
    cdef Interned docs = Interned([a], [b])
    cdef Py_ssize_t result
    with nogil:
        result = _lcs_length_on(docs.a.ids, docs.a.n_tokens, docs.b.ids, docs.b.n_tokens,
                                docs.size, threads)
    return _checked(result)


def lcs_indices(t, p):
    """Indices into ``t`` of one LCS, chosen with rouge-score's tie-break."""
    cdef Interned docs = Interned([t], [p])
    cdef Py_ssize_t m = docs.a.n_tokens, n = docs.b.n_tokens, i
    cdef PathScratch scratch
    cdef int status
    memset(&scratch, 0, sizeof(scratch))
    _path_settings(&scratch)
    try:
        scratch.mask = <uint64_t *> calloc(docs.size + 1, sizeof(uint64_t))
        scratch.rows = <uint64_t *> malloc(
            min((n + 1) * ((m + 63) // 64), ROWS_LIMIT) * sizeof(uint64_t) + 8
        )
        scratch.carry = <uint8_t *> malloc(n + 1)
        scratch.on_path = <uint8_t *> calloc(m + 1, 1)
        if not (scratch.mask and scratch.rows and scratch.carry and scratch.on_path):
            raise MemoryError()
        with nogil:
            status = mark_path(docs.a.ids, m, docs.b.ids, n, &scratch)
        if status < 0:
            raise MemoryError()
        return [i for i in range(m) if scratch.on_path[i]]
    finally:
        free(scratch.mask)
        free(scratch.rows)
        free(scratch.carry)
        free(scratch.on_path)


def summary_lcs_hits(t_sents, p_sents):
    """ROUGE-Lsum's union-LCS hit count over sentence lists."""
    cdef Interned docs = Interned(t_sents, p_sents)
    cdef Py_ssize_t result
    with nogil:
        result = _summary_hits(&docs.a, &docs.b, docs.size)
    return _checked(result)


def ngram_overlap(a, b, Py_ssize_t n):
    """Size of the multiset intersection of the n-grams of ``a`` and ``b``."""
    cdef Interned docs
    cdef Py_ssize_t result
    if n < 1:
        raise ValueError(f"n must be positive, got {n}")
    docs = Interned([a], [b])
    with nogil:
        result = overlap(&docs.a, &docs.b, n, docs.size)
    return _checked(result)


def intern_sentences(sentences, dict vocab):
    """Map each token to a dense integer ID, adding unseen tokens to ``vocab``."""
    cdef Doc doc
    cdef Py_ssize_t s, k
    doc.ids = NULL
    doc.bounds = NULL
    try:
        intern_doc(sentences, vocab, &doc)
        return [[doc.ids[k] for k in range(doc.bounds[s], doc.bounds[s + 1])]
                for s in range(doc.n_sents)]
    finally:
        free_doc(&doc)


def pair_counts(target_sents, prediction_sents, tuple orders, bint want_lcs,
                bint want_lsum, target_whole=None, prediction_whole=None, int threads=1):
    """All the integer counts that the ROUGE scores of one pair need.

    See ``kurenai._lcs_py.pair_counts`` for the contract.
    """
    cdef dict vocab = {}
    cdef Doc t_sents, p_sents, t_whole, p_whole
    cdef Doc *t_all = &t_sents
    cdef Doc *p_all = &p_sents
    cdef Py_ssize_t n_orders = len(orders), o, vocab_size
    cdef Py_ssize_t *order_values = <Py_ssize_t *> malloc((2 * n_orders + 1) * sizeof(Py_ssize_t))
    cdef Counts counts
    cdef int status
    if order_values == NULL:
        raise MemoryError()
    counts.overlaps = order_values + n_orders
    for o in range(n_orders):
        if orders[o] < 1:
            free(order_values)
            raise ValueError(f"n must be positive, got {orders[o]}")
        order_values[o] = orders[o]
    t_sents.ids = p_sents.ids = t_whole.ids = p_whole.ids = NULL
    t_sents.bounds = p_sents.bounds = t_whole.bounds = p_whole.bounds = NULL
    try:
        intern_doc(target_sents, vocab, &t_sents)
        intern_doc(prediction_sents, vocab, &p_sents)
        if target_whole is not None:
            intern_doc([target_whole], vocab, &t_whole)
            t_all = &t_whole
        if prediction_whole is not None:
            intern_doc([prediction_whole], vocab, &p_whole)
            p_all = &p_whole
        vocab_size = len(vocab)
        with nogil:
            status = doc_counts(t_all, p_all, &t_sents, &p_sents, order_values, n_orders,
                                want_lcs, want_lsum, vocab_size, threads, &counts)
        if status < 0:
            raise MemoryError()
        return (tuple([counts.overlaps[o] for o in range(n_orders)]), counts.lcs,
                counts.hits, t_all.n_tokens, p_all.n_tokens, t_sents.n_tokens,
                p_sents.n_tokens)
    finally:
        free(order_values)
        free_doc(&t_sents)
        free_doc(&p_sents)
        free_doc(&t_whole)
        free_doc(&p_whole)

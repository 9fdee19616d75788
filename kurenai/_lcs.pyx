# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled kernels: LCS length, LCS path and ROUGE-Lsum's union-LCS on int IDs.

Same names and results as ``kurenai._lcs_py`` (the readable spec).  Tokens are
interned to dense int32 IDs once per call; every loop after that runs on C
arrays without the GIL.

Bit-parallel LCS (Allison-Dix / Hyyro): for a fixed sequence ``a`` and a bit
per position of ``a``, the state ``V`` after reading ``b[:j]`` has, in its low
``i`` bits, exactly ``LCS(a[:i], b[:j])`` zeros.  One update is
``V = (V + (V & M[c])) | (V & ~M[c])`` where ``M[c]`` marks where ``a`` holds
``c``.  The addition carries from low words to high words only, so ``a`` can be
processed one 64-bit strip at a time, keeping the carries of the strip below.
"""

from cpython.dict cimport PyDict_GetItem, PyDict_SetItem
from cpython.ref cimport PyObject
from libc.stdint cimport int32_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcmp, memset

cdef extern from "_popcount.h":
    # POPCNT where the CPU has it, chosen at load time (see the header).
    int popcount64 "kurenai_popcount64"(uint64_t) nogil
    const char *_popcount_kind "kurenai_popcount_kind"()

#: How this build counts bits on this CPU (benchmark headers report it).
POPCOUNT = _popcount_kind().decode("ascii")

cdef extern from "_lcs_threads.h":
    # One long pair's LCS length split across threads (see the header).
    Py_ssize_t _lcs_length_threads "kurenai_lcs_length_threads"(
        const int32_t *a, Py_ssize_t la, const int32_t *b, Py_ssize_t lb,
        Py_ssize_t vocab_size, int threads) nogil
    const int _THREADS_BUILT "KURENAI_THREADS"
    # The update step and a strip's match masks, written once, in C, for
    # these kernels and the threaded one alike.
    uint64_t _advance "kurenai_advance"(uint64_t state, uint64_t match,
                                        uint8_t *carry) noexcept nogil
    void _set_strip "kurenai_set_strip"(uint64_t *mask, const int32_t *ref,
                                        Py_ssize_t start, Py_ssize_t end) noexcept nogil
    void _clear_strip "kurenai_clear_strip"(uint64_t *mask, const int32_t *ref,
                                            Py_ssize_t start, Py_ssize_t end) noexcept nogil

#: Whether this build can split one pair's LCS across threads (POSIX
#: threads); without them a ``threads`` setting runs the same kernel serially.
THREADS = bool(_THREADS_BUILT)


# Kernels take their scratch arrays from the stack when they are this small
# (in bytes): real pairs rarely need more, and malloc was ~10% of the time.
cdef enum:
    SMALL = 4096


cdef inline void *_scratch(void *small, size_t size, bint zeroed) noexcept nogil:
    """``small`` (SMALL bytes on the caller's stack) if ``size`` fits, else
    the heap; NULL if out of memory.  Release with _release."""
    if size <= SMALL:
        if zeroed:
            memset(small, 0, size)
        return small
    return calloc(size, 1) if zeroed else malloc(size)


cdef inline void _release(void *buffer, void *small) noexcept nogil:
    if buffer != small:
        free(buffer)


# ---------------------------------------------------------------- interning

cdef int _intern(object sentences, dict vocab, Doc *doc) except -1:
    """Fill ``doc`` with the IDs of ``sentences`` (a list of token sequences)."""
    cdef list sents = [s if type(s) is list else list(s) for s in sentences]
    cdef Py_ssize_t total = 0, k = 0, s_i = 0, idx
    cdef list sent
    cdef PyObject *found
    for sent in sents:
        total += len(sent)
    doc.n_sents = len(sents)
    doc.n_tokens = total
    doc.ids = <int32_t *> malloc((total + 1) * sizeof(int32_t))
    doc.bounds = <Py_ssize_t *> malloc((doc.n_sents + 1) * sizeof(Py_ssize_t))
    if doc.ids == NULL or doc.bounds == NULL:
        raise MemoryError()
    for sent in sents:
        doc.bounds[s_i] = k
        s_i += 1
        for token in sent:
            found = PyDict_GetItem(vocab, token)
            if found == NULL:
                idx = len(vocab)
                PyDict_SetItem(vocab, token, idx)
            else:
                idx = <object> found
            doc.ids[k] = <int32_t> idx
            k += 1
    doc.bounds[s_i] = k
    return 0


cdef void _free_doc(Doc *doc) noexcept:
    free(doc.ids)
    free(doc.bounds)
    doc.ids = NULL
    doc.bounds = NULL


cdef class Interned:
    """Two sentence lists as Docs of dense IDs over one vocabulary (``size``
    IDs), freed with the object: the Python surfaces need no cleanup code."""

    def __cinit__(self, a_sents, b_sents):
        cdef dict vocab = {}
        _intern(a_sents, vocab, &self.a)
        _intern(b_sents, vocab, &self.b)
        self.size = len(vocab)

    def __dealloc__(self):
        _free_doc(&self.a)
        _free_doc(&self.b)


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
    mask = <uint64_t *> _scratch(small_mask, vocab_size * sizeof(uint64_t), True)
    carry = <uint8_t *> _scratch(small_carry, lb, True)
    if mask == NULL or carry == NULL:
        _release(mask, small_mask)
        _release(carry, small_carry)
        return -1
    for start in range(0, la, 64):
        end = min(start + 64, la)
        _set_strip(mask, a, start, end)
        state = ~(<uint64_t> 0)
        for j in range(lb):
            state = _advance(state, mask[b[j]], &carry[j])
        total += popcount64(~state)
        _clear_strip(mask, a, start, end)
    _release(mask, small_mask)
    _release(carry, small_carry)
    return total


# Both texts need this many tokens before their LCS goes to the wavefront
# kernel (kurenai/_lcs_threads.h), on ``threads`` threads or one: below it,
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


# ---------------------------------------------------------------- LCS path
#
# The rows of the bit-parallel LCS are stored word-major: word ``w`` of row
# ``j`` (the state after reading ``can[:j]``) is ``rows[w * stride + j]``, so
# computing a strip writes one contiguous run and the walk reads along it.

cdef struct PathScratch:
    uint64_t *mask      # vocab-sized, all zero between calls
    uint8_t *carry      # one byte per candidate token
    uint64_t *rows      # ROWS_LIMIT words (or the pair's rows, if fewer)
    uint8_t *on_path    # one byte per ref token: the marked positions


cdef int _lcs_rows_1(const int32_t *ref, Py_ssize_t m, const int32_t *can,
                     Py_ssize_t n, uint64_t *mask, uint64_t *rows) noexcept nogil:
    """_lcs_rows for a ref of at most 64 tokens: one word, no carries."""
    cdef Py_ssize_t j
    cdef uint64_t state = ~(<uint64_t> 0)
    cdef uint8_t no_carry
    _set_strip(mask, ref, 0, m)
    rows[0] = state
    for j in range(n):
        no_carry = 0  # a single strip: nothing carries in, the carry out is dropped
        state = _advance(state, mask[can[j]], &no_carry)
        rows[j + 1] = state
    _clear_strip(mask, ref, 0, m)
    return popcount64(~state)


cdef int _rows_from(const int32_t *ref, Py_ssize_t m, const int32_t *can,
                    Py_ssize_t n, uint64_t *mask, uint8_t *carry, uint64_t *rows,
                    Py_ssize_t stride, Py_ssize_t words) noexcept nogil:
    """Fill rows[w * stride + j] (j = 1 .. n) for the low ``words`` strips,
    from the row 0 the caller put in rows[w * stride].

    The low strips never depend on the high ones (carries only go up), so a
    caller that reads only low bits computes only low words.  ``mask``
    (vocab-sized) must be all zero and is left so; ``carry`` holds ``n``
    bytes.  Returns the zeros of row n over those words (the LCS length when
    row 0 is the all-ones start and ``words`` covers ``ref``).
    """
    cdef Py_ssize_t w, j, start, end
    cdef uint64_t state
    cdef uint64_t *strip
    cdef int zeros = 0
    memset(carry, 0, n)
    for w in range(words):
        start = w << 6
        end = min(start + 64, m)
        _set_strip(mask, ref, start, end)
        strip = rows + w * stride
        state = strip[0]
        for j in range(n):
            state = _advance(state, mask[can[j]], &carry[j])
            strip[j + 1] = state
        zeros += popcount64(~state)
        _clear_strip(mask, ref, start, end)
    return zeros


cdef int _lcs_rows(const int32_t *ref, Py_ssize_t m, const int32_t *can,
                   Py_ssize_t n, uint64_t *mask, uint8_t *carry,
                   uint64_t *rows) noexcept nogil:
    """All n + 1 rows from the start (stride n + 1); returns the LCS length."""
    cdef Py_ssize_t w, words = (m + 63) >> 6
    if m <= 64:
        return _lcs_rows_1(ref, m, can, n, mask, rows)
    for w in range(words):
        rows[w * (n + 1)] = ~(<uint64_t> 0)
    return _rows_from(ref, m, can, n, mask, carry, rows, n + 1, words)


cdef void _walk(const int32_t *ref, const int32_t *can, const uint64_t *rows,
                Py_ssize_t stride, Py_ssize_t first, Py_ssize_t *at_i,
                Py_ssize_t *at_j, Py_ssize_t *at_cell, uint8_t *on_path) noexcept nogil:
    """Walk rouge-score's LCS path back from cell (i, j), marking the ref indices
    it takes: diagonal on equal tokens, else step back in ``can`` only if the
    cell to the left is strictly greater than the cell above.

    On unequal tokens the cell is max(above, left), and the cell above is the
    cell less bit i - 1 of row j's zero.  A zero there means above = cell - 1,
    so left = cell > above: go left.  A one means above = cell >= left: go up.
    So one bit decides, and no cell value is ever counted.

    ``rows[w * stride + k]`` is word w of row ``first + k``; the walk stops when
    row j - 1 is not among them, or when the cell is 0 (no match left on the path).
    """
    cdef Py_ssize_t i = at_i[0], j = at_j[0], here = at_cell[0]
    cdef const uint64_t *row = rows + (j - first)  # word 0 of row j, moved with j
    while here > 0 and j > first:
        if ref[i - 1] == can[j - 1]:
            on_path[i - 1] = 1
            i -= 1
            j -= 1
            row -= 1
            here -= 1
        elif (row[((i - 1) >> 6) * stride] >> ((i - 1) & 63)) & 1:
            i -= 1
        else:
            j -= 1
            row -= 1
    at_i[0], at_j[0], at_cell[0] = i, j, here


cdef Py_ssize_t ROWS_LIMIT = 1 << 21  # words (16 MiB) of LCS rows kept at once


def _set_rows_limit(Py_ssize_t words):
    """Testing hook: the row memory above which paths are checkpointed."""
    global ROWS_LIMIT
    previous, ROWS_LIMIT = ROWS_LIMIT, words
    return previous


cdef int _mark_path(const int32_t *ref, Py_ssize_t m, const int32_t *can,
                    Py_ssize_t n, PathScratch *scratch) noexcept nogil:
    """Mark rouge-score's LCS path of (ref, can) in scratch.on_path; ``rows``
    holds ROWS_LIMIT words.  Returns -1 if out of memory."""
    cdef Py_ssize_t lcs, i = m, j = n
    if m == 0 or n == 0:
        return 0
    if (n + 1) * ((m + 63) >> 6) > ROWS_LIMIT:
        return _mark_path_checkpointed(ref, m, can, n, scratch)
    lcs = _lcs_rows(ref, m, can, n, scratch.mask, scratch.carry, scratch.rows)
    _walk(ref, can, scratch.rows, n + 1, 0, &i, &j, &lcs, scratch.on_path)
    return 0


cdef int _checkpoints(const int32_t *ref, Py_ssize_t m, const int32_t *can,
                      Py_ssize_t n, Py_ssize_t span, uint64_t *mask, uint8_t *carry,
                      uint64_t *saved) noexcept nogil:
    """saved[b * words + w]: word w of row b * span, for every b * span < n.
    Keeps nothing else, so it costs what the LCS length costs.  Returns the
    LCS length."""
    cdef Py_ssize_t words = (m + 63) >> 6
    cdef Py_ssize_t w, j, start, end, b
    cdef uint64_t state
    cdef int zeros = 0
    memset(carry, 0, n)
    for w in range(words):
        start = w << 6
        end = min(start + 64, m)
        _set_strip(mask, ref, start, end)
        state = ~(<uint64_t> 0)
        for b in range((n + span - 1) // span):
            saved[b * words + w] = state
            for j in range(b * span, min(b * span + span, n)):
                state = _advance(state, mask[can[j]], &carry[j])
        zeros += popcount64(~state)
        _clear_strip(mask, ref, start, end)
    return zeros


cdef int _mark_path_checkpointed(const int32_t *ref, Py_ssize_t m,
                                 const int32_t *can, Py_ssize_t n,
                                 PathScratch *scratch) noexcept nogil:
    """_mark_path in O(sqrt(n) * m / 64) words: keep every K-th row, and
    recompute one block of K rows at a time as the walk goes back through it.

    The walk only moves down in ``ref``, so a block is recomputed only up to
    the word of the walk's current ref position."""
    cdef Py_ssize_t words = (m + 63) >> 6, span = 1, blocks, b, start, length, w, needed
    cdef Py_ssize_t i = m, j = n, here
    cdef uint64_t *saved
    cdef uint64_t *block
    while span * span < n:
        span += 1
    blocks = (n + span - 1) // span
    saved = <uint64_t *> malloc(blocks * words * sizeof(uint64_t))
    block = <uint64_t *> malloc((span + 1) * words * sizeof(uint64_t))
    if saved == NULL or block == NULL:
        free(saved)
        free(block)
        return -1
    here = _checkpoints(ref, m, can, n, span, scratch.mask, scratch.carry, saved)
    b = blocks - 1
    while here > 0:
        start = b * span
        length = min(start + span, n) - start
        needed = ((i - 1) >> 6) + 1  # here > 0, so i > 0
        for w in range(needed):
            block[w * (span + 1)] = saved[b * words + w]
        _rows_from(ref, m, can + start, length, scratch.mask, scratch.carry, block,
                   span + 1, needed)
        _walk(ref, can, block, span + 1, start, &i, &j, &here, scratch.on_path)
        b -= 1
    free(saved)
    free(block)
    return 0


# ------------------------------------------------------------ ROUGE-Lsum
#
# A candidate sentence sharing no token with a reference sentence adds nothing
# to its union.  Above INDEX_MIN_SENTS candidate sentences, each reference
# position with its token's postings (the candidate sentences holding that
# token) visits only those sentences, and stops as soon as the position is on
# the union: a position still unmarked at the end was tried against every
# sentence that could mark it, so the union is exactly rouge-score's.  A
# candidate sentence repeating an earlier one has the same paths: not indexed.

cdef Py_ssize_t INDEX_MIN_SENTS = 16


def _set_index_min_sents(Py_ssize_t sents):
    """Testing hook: the candidate sentence count from which Lsum uses postings."""
    global INDEX_MIN_SENTS
    previous, INDEX_MIN_SENTS = INDEX_MIN_SENTS, sents
    return previous


cdef struct Postings:
    Py_ssize_t *heads    # token t's sentences are items[heads[t]:heads[t + 1]]
    int32_t *items       # candidate sentence indices, each once per token
    Py_ssize_t *cursor   # per token: its next posting not yet visited
    Py_ssize_t *seen     # per candidate sentence: the last ref sentence visiting it


cdef enum:
    REPEATED = -2  # Postings.seen of a sentence equal to an earlier one: never visited


cdef int _mark_repeats(const Doc *can, Py_ssize_t *seen) noexcept nogil:
    """seen[c] = REPEATED if sentence c repeats an earlier one (the same path,
    so nothing new for the union), else -1; -1 if out of memory."""
    cdef Py_ssize_t size = 16, c, k, slot, other, length
    cdef uint64_t key
    cdef int32_t *table
    while size < 2 * can.n_sents:
        size *= 2
    table = <int32_t *> malloc(size * sizeof(int32_t))
    if table == NULL:
        return -1
    memset(table, 0xFF, size * sizeof(int32_t))
    for c in range(can.n_sents):
        seen[c] = -1
        length = can.bounds[c + 1] - can.bounds[c]
        key = <uint64_t> length
        for k in range(can.bounds[c], can.bounds[c + 1]):
            key = (key ^ <uint64_t> can.ids[k]) * 0x100000001B3ULL
        slot = (key * 0x9E3779B97F4A7C15ULL) >> 20 & (size - 1)
        while table[slot] >= 0:
            other = table[slot]
            if (can.bounds[other + 1] - can.bounds[other] == length
                    and memcmp(can.ids + can.bounds[other], can.ids + can.bounds[c],
                               length * sizeof(int32_t)) == 0):
                seen[c] = REPEATED
                break
            slot = (slot + 1) & (size - 1)
        if seen[c] != REPEATED:
            table[slot] = <int32_t> c
    free(table)
    return 0


cdef int _build_postings(const Doc *can, Py_ssize_t vocab_size,
                         Postings *index) noexcept nogil:
    """Fill ``index`` (its arrays NULL on entry); -1 if out of memory."""
    cdef Py_ssize_t c, k, t, total = 0
    index.heads = <Py_ssize_t *> calloc(vocab_size + 1, sizeof(Py_ssize_t))
    index.items = <int32_t *> malloc((can.n_tokens + 1) * sizeof(int32_t))
    index.cursor = <Py_ssize_t *> malloc((vocab_size + 1) * sizeof(Py_ssize_t))
    index.seen = <Py_ssize_t *> malloc((can.n_sents + 1) * sizeof(Py_ssize_t))
    if not (index.heads and index.items and index.cursor and index.seen):
        return -1
    if _mark_repeats(can, index.seen) < 0:
        return -1
    # cursor[t] is the last sentence counted for t while counting, then the
    # fill position, then (reset per ref sentence) the next posting to visit.
    for t in range(vocab_size):
        index.cursor[t] = -1
    for c in range(can.n_sents):
        if index.seen[c] == REPEATED:
            continue
        for k in range(can.bounds[c], can.bounds[c + 1]):
            t = can.ids[k]
            if index.cursor[t] != c:
                index.cursor[t] = c
                index.heads[t + 1] += 1
    for t in range(vocab_size):
        total += index.heads[t + 1]
        index.heads[t + 1] = total
        index.cursor[t] = index.heads[t]
    for c in range(can.n_sents):
        if index.seen[c] == REPEATED:
            continue
        for k in range(can.bounds[c], can.bounds[c + 1]):
            t = can.ids[k]
            if index.cursor[t] == index.heads[t] or index.items[index.cursor[t] - 1] != c:
                index.items[index.cursor[t]] = <int32_t> c
                index.cursor[t] += 1
    for t in range(vocab_size):
        index.cursor[t] = index.heads[t]
    return 0


cdef void _free_postings(Postings *index) noexcept nogil:
    free(index.heads)
    free(index.items)
    free(index.cursor)
    free(index.seen)


cdef int _union_all(const int32_t *rs, Py_ssize_t m, const Doc *can,
                    PathScratch *scratch) noexcept nogil:
    """Mark the union of the paths of ``rs`` against every candidate sentence."""
    cdef Py_ssize_t c
    for c in range(can.n_sents):
        if _mark_path(rs, m, can.ids + can.bounds[c], can.bounds[c + 1] - can.bounds[c],
                      scratch) < 0:
            return -1
    return 0


cdef int _union_indexed(const int32_t *rs, Py_ssize_t m, Py_ssize_t r, const Doc *can,
                        Postings *index, PathScratch *scratch) noexcept nogil:
    """_union_all, visiting only the sentences that can still mark a position."""
    cdef Py_ssize_t p, c, t, status = 0
    for p in range(m):
        t = rs[p]
        while not scratch.on_path[p] and index.cursor[t] < index.heads[t + 1]:
            c = index.items[index.cursor[t]]
            index.cursor[t] += 1
            if index.seen[c] == r:
                continue
            index.seen[c] = r
            status = _mark_path(rs, m, can.ids + can.bounds[c],
                                can.bounds[c + 1] - can.bounds[c], scratch)
            if status < 0:
                break
        if status < 0:
            break
    for p in range(m):
        index.cursor[rs[p]] = index.heads[rs[p]]
    return status


cdef Py_ssize_t _summary_hits(const Doc *ref, const Doc *can,
                              Py_ssize_t vocab_size) noexcept nogil:
    """Summary-level union-LCS hits; -1 if out of memory."""
    cdef Py_ssize_t r, c, k, m, max_m = 0, max_n = 0, hits = 0
    cdef const int32_t *rs
    cdef bint indexed = can.n_sents >= INDEX_MIN_SENTS
    cdef PathScratch scratch
    cdef Postings index
    cdef char small_mask[SMALL]
    cdef char small_union[SMALL]
    cdef char small_can[SMALL]
    cdef char small_rows[SMALL]
    cdef char small_carry[SMALL]
    cdef char small_path[SMALL]
    cdef int32_t *union_count = <int32_t *> _scratch(
        small_union, vocab_size * sizeof(int32_t), True
    )
    cdef int32_t *can_count = <int32_t *> _scratch(small_can, vocab_size * sizeof(int32_t), True)
    memset(&index, 0, sizeof(index))
    scratch.mask = <uint64_t *> _scratch(small_mask, vocab_size * sizeof(uint64_t), True)
    for r in range(ref.n_sents):
        max_m = max(max_m, ref.bounds[r + 1] - ref.bounds[r])
    for c in range(can.n_sents):
        max_n = max(max_n, can.bounds[c + 1] - can.bounds[c])
    scratch.rows = <uint64_t *> _scratch(
        small_rows,
        min((max_n + 1) * ((max_m + 63) >> 6), ROWS_LIMIT) * sizeof(uint64_t) + 8,
        False,
    )
    scratch.carry = <uint8_t *> _scratch(small_carry, max_n + 1, False)
    scratch.on_path = <uint8_t *> _scratch(small_path, max_m + 1, True)
    if not (scratch.mask and union_count and can_count and scratch.rows and scratch.carry
            and scratch.on_path):
        hits = -1
    elif indexed and _build_postings(can, vocab_size, &index) < 0:
        hits = -1
    else:
        for k in range(can.n_tokens):
            can_count[can.ids[k]] += 1
        for r in range(ref.n_sents):
            rs = ref.ids + ref.bounds[r]
            m = ref.bounds[r + 1] - ref.bounds[r]
            if indexed:
                hits = _union_indexed(rs, m, r, can, &index, &scratch)
            else:
                hits = _union_all(rs, m, can, &scratch)
            if hits < 0:
                break
            for k in range(m):
                if scratch.on_path[k]:
                    union_count[rs[k]] += 1
                    scratch.on_path[k] = 0
        # A token's hits are capped by its count on each side; the reference
        # side never binds, since each of its positions is unioned at most once.
        for k in range(vocab_size):
            if hits < 0:
                break
            hits += min(union_count[k], can_count[k])
    _free_postings(&index)
    _release(scratch.mask, small_mask)
    _release(union_count, small_union)
    _release(can_count, small_can)
    _release(scratch.rows, small_rows)
    _release(scratch.carry, small_carry)
    _release(scratch.on_path, small_path)
    return hits


# ------------------------------------------------------------ n-grams

cdef Py_ssize_t _ngram_overlap(const int32_t *a, Py_ssize_t la, const int32_t *b,
                               Py_ssize_t lb, Py_ssize_t n,
                               Py_ssize_t vocab_size) noexcept nogil:
    """Multiset intersection size of the n-grams of a and b; -1 if out of memory.

    Each level k gives every k-gram a dense ID: the ID of the pair (its
    (k-1)-gram's ID, its last token), interned in a hash table.  The last
    level's IDs are then counted like tokens.
    """
    cdef Py_ssize_t na = la - n + 1, nb = lb - n + 1
    cdef Py_ssize_t k, i, size = 16, level_size = vocab_size, hits
    cdef int32_t *grams
    cdef uint64_t *keys
    cdef int32_t *ids
    cdef char small_grams[SMALL]
    cdef char small_keys[SMALL]
    cdef char small_ids[SMALL]
    if na <= 0 or nb <= 0:
        return 0
    while size < 2 * (la + lb + 1):  # level 2 has the most grams
        size *= 2
    grams = <int32_t *> _scratch(small_grams, (la + lb) * sizeof(int32_t), False)
    keys = <uint64_t *> _scratch(small_keys, size * sizeof(uint64_t), False)
    ids = <int32_t *> _scratch(small_ids, size * sizeof(int32_t), False)
    if grams == NULL or keys == NULL or ids == NULL:
        _release(grams, small_grams)
        _release(keys, small_keys)
        _release(ids, small_ids)
        return -1
    for i in range(la):
        grams[i] = a[i]
    for i in range(lb):
        grams[la + i] = b[i]
    for k in range(2, n + 1):
        memset(ids, 0xFF, size * sizeof(int32_t))
        level_size = _next_level(grams, a, la - k + 1, k, vocab_size, keys, ids,
                                 size, 0)
        level_size = _next_level(grams + la, b, lb - k + 1, k, vocab_size, keys, ids,
                                 size, level_size)
    hits = _unigram_overlap(grams, na, grams + la, nb, level_size)
    _release(grams, small_grams)
    _release(keys, small_keys)
    _release(ids, small_ids)
    return hits


cdef Py_ssize_t _next_level(int32_t *grams, const int32_t *tokens, Py_ssize_t count,
                            Py_ssize_t k, Py_ssize_t vocab_size, uint64_t *keys,
                            int32_t *ids, Py_ssize_t size,
                            Py_ssize_t next_id) noexcept nogil:
    """grams[i] <- dense ID of (grams[i], tokens[i + k - 1]); returns the ID count."""
    cdef Py_ssize_t i, slot
    cdef uint64_t key
    for i in range(count):
        key = <uint64_t> grams[i] * <uint64_t> vocab_size + <uint64_t> tokens[i + k - 1]
        slot = (key * 0x9E3779B97F4A7C15ULL) >> 20 & (size - 1)
        while ids[slot] >= 0 and keys[slot] != key:
            slot = (slot + 1) & (size - 1)
        if ids[slot] < 0:
            keys[slot] = key
            ids[slot] = <int32_t> next_id
            next_id += 1
        grams[i] = ids[slot]
    return next_id


cdef Py_ssize_t _unigram_overlap(const int32_t *a, Py_ssize_t la, const int32_t *b,
                                 Py_ssize_t lb, Py_ssize_t vocab_size) noexcept nogil:
    cdef char small_count[SMALL]
    cdef int32_t *count = <int32_t *> _scratch(
        small_count, (vocab_size + 1) * sizeof(int32_t), True
    )
    cdef Py_ssize_t i, hits = 0
    cdef int32_t left
    cdef bint found
    if count == NULL:
        return -1
    for i in range(la):
        count[a[i]] += 1
    for i in range(lb):
        # Without a branch: whether a token is still unmatched follows no
        # pattern the CPU could predict.
        left = count[b[i]]
        found = left > 0
        count[b[i]] = left - found
        hits += found
    _release(count, small_count)
    return hits


cdef inline Py_ssize_t _overlap(const Doc *a, const Doc *b, Py_ssize_t n,
                                Py_ssize_t vocab_size) noexcept nogil:
    if n == 1:
        return _unigram_overlap(a.ids, a.n_tokens, b.ids, b.n_tokens, vocab_size)
    return _ngram_overlap(a.ids, a.n_tokens, b.ids, b.n_tokens, n, vocab_size)


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
        out.overlaps[o] = _overlap(t_all, p_all, orders[o], vocab_size)
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


def lcs_indices(ref, can):
    """Indices into ``ref`` of one LCS, chosen with rouge-score's tie-break."""
    cdef Interned docs = Interned([ref], [can])
    cdef Py_ssize_t m = docs.a.n_tokens, n = docs.b.n_tokens, i
    cdef PathScratch scratch
    cdef int status
    memset(&scratch, 0, sizeof(scratch))
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
            status = _mark_path(docs.a.ids, m, docs.b.ids, n, &scratch)
        if status < 0:
            raise MemoryError()
        return [i for i in range(m) if scratch.on_path[i]]
    finally:
        free(scratch.mask)
        free(scratch.rows)
        free(scratch.carry)
        free(scratch.on_path)


def summary_lcs_hits(ref_sents, can_sents):
    """ROUGE-Lsum's union-LCS hit count over sentence lists."""
    cdef Interned docs = Interned(ref_sents, can_sents)
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
        result = _overlap(&docs.a, &docs.b, n, docs.size)
    return _checked(result)


def intern_sentences(sentences, dict vocab):
    """Map each token to a dense integer ID, adding unseen tokens to ``vocab``."""
    cdef Doc doc
    cdef Py_ssize_t s, k
    doc.ids = NULL
    doc.bounds = NULL
    try:
        _intern(sentences, vocab, &doc)
        return [[doc.ids[k] for k in range(doc.bounds[s], doc.bounds[s + 1])]
                for s in range(doc.n_sents)]
    finally:
        _free_doc(&doc)


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
        _intern(target_sents, vocab, &t_sents)
        _intern(prediction_sents, vocab, &p_sents)
        if target_whole is not None:
            _intern([target_whole], vocab, &t_whole)
            t_all = &t_whole
        if prediction_whole is not None:
            _intern([prediction_whole], vocab, &p_whole)
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
        _free_doc(&t_sents)
        _free_doc(&p_sents)
        _free_doc(&t_whole)
        _free_doc(&p_whole)

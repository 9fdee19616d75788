# The LCS path for kurenai._lcs: rouge-score's LCS of two ID sequences,
# marked on the reference, from the bit-parallel rows (see kurenai/_lcs.pyx)
# and a walk back through them; in O(sqrt(n) * m / 64) words past a budget,
# and in O(n^(1/3) * m / 64) words past a second one (one more recomputation).
#
# The rows are stored word-major: word ``w`` of row ``j`` (the state after
# reading ``can[:j]``) is ``rows[w * stride + j]``, so computing a strip
# writes one contiguous run and the walk reads along it.
#
# Inline code only, compiled into the module that cimports it.

from libc.stdint cimport int32_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset


cdef extern from "_popcount.h":
    # POPCNT where the CPU has it, chosen at load time (see the header).
    int popcount64 "kurenai_popcount64"(uint64_t) nogil

cdef extern from "_lcs_threads.h":
    # The update step and a strip's match masks, written once, in C, for
    # these kernels and the threaded one alike.
    uint64_t advance "kurenai_advance"(uint64_t state, uint64_t match,
                                       uint8_t *carry) noexcept nogil
    void set_strip "kurenai_set_strip"(uint64_t *mask, const int32_t *ref,
                                       Py_ssize_t start, Py_ssize_t end) noexcept nogil
    void clear_strip "kurenai_clear_strip"(uint64_t *mask, const int32_t *ref,
                                           Py_ssize_t start, Py_ssize_t end) noexcept nogil


cdef struct PathScratch:
    uint64_t *mask      # vocab-sized, all zero between calls
    uint8_t *carry      # one byte per candidate token
    uint64_t *rows      # ROWS_LIMIT words (or the pair's rows, if fewer)
    uint8_t *on_path    # one byte per ref token: the marked positions


cdef inline int _lcs_rows_1(const int32_t *ref, Py_ssize_t m, const int32_t *can,
                            Py_ssize_t n, uint64_t *mask, uint64_t *rows) noexcept nogil:
    """_lcs_rows for a ref of at most 64 tokens: one word, no carries."""
    cdef Py_ssize_t j
    cdef uint64_t state = ~(<uint64_t> 0)
    cdef uint8_t no_carry
    set_strip(mask, ref, 0, m)
    rows[0] = state
    for j in range(n):
        no_carry = 0  # a single strip: nothing carries in, the carry out is dropped
        state = advance(state, mask[can[j]], &no_carry)
        rows[j + 1] = state
    clear_strip(mask, ref, 0, m)
    return popcount64(~state)


cdef inline int _rows_from(const int32_t *ref, Py_ssize_t m, const int32_t *can,
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
        set_strip(mask, ref, start, end)
        strip = rows + w * stride
        state = strip[0]
        for j in range(n):
            state = advance(state, mask[can[j]], &carry[j])
            strip[j + 1] = state
        zeros += popcount64(~state)
        clear_strip(mask, ref, start, end)
    return zeros


cdef inline int lcs_rows(const int32_t *ref, Py_ssize_t m, const int32_t *can,
                         Py_ssize_t n, uint64_t *mask, uint8_t *carry,
                         uint64_t *rows) noexcept nogil:
    """All n + 1 rows from the start (stride n + 1); returns the LCS length."""
    cdef Py_ssize_t w, words = (m + 63) >> 6
    if m <= 64:
        return _lcs_rows_1(ref, m, can, n, mask, rows)
    for w in range(words):
        rows[w * (n + 1)] = ~(<uint64_t> 0)
    return _rows_from(ref, m, can, n, mask, carry, rows, n + 1, words)


cdef inline void walk(const int32_t *ref, const int32_t *can, const uint64_t *rows,
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


cdef inline int _checkpoints(const int32_t *ref, Py_ssize_t m, const int32_t *can,
                             Py_ssize_t n, Py_ssize_t span, Py_ssize_t words,
                             Py_ssize_t stride, const uint64_t *first, uint64_t *mask,
                             uint8_t *carry, uint64_t *saved) noexcept nogil:
    """saved[b * stride + w]: word w of row b * span, for every b * span < n
    and the low ``words`` strips, from row 0 = ``first`` (NULL: the all-ones
    start).  Keeps nothing else, so it costs what the LCS length costs.
    Returns the zeros of row n over those words (the LCS length from the
    start, when ``words`` covers ``ref``)."""
    cdef Py_ssize_t w, j, start, end, b
    cdef uint64_t state
    cdef int zeros = 0
    memset(carry, 0, n)
    for w in range(words):
        start = w << 6
        end = min(start + 64, m)
        set_strip(mask, ref, start, end)
        state = ~(<uint64_t> 0) if first == NULL else first[w]
        for b in range((n + span - 1) // span):
            saved[b * stride + w] = state
            for j in range(b * span, min(b * span + span, n)):
                state = advance(state, mask[can[j]], &carry[j])
        zeros += popcount64(~state)
        clear_strip(mask, ref, start, end)
    return zeros


cdef inline void _walk_block(const int32_t *ref, Py_ssize_t m, const int32_t *can,
                             Py_ssize_t start, Py_ssize_t length, const uint64_t *first,
                             uint64_t *block, Py_ssize_t span, Py_ssize_t *i,
                             Py_ssize_t *j, Py_ssize_t *here,
                             PathScratch *scratch) noexcept nogil:
    """Recompute rows start .. start + length from row ``start`` (``first``,
    one word per strip) into ``block`` (stride span + 1), and walk back
    through them from (i, j), j = start + length.

    The walk only moves down in ``ref``, so the rows are recomputed only up
    to the word of the walk's current ref position (here > 0, so i > 0)."""
    cdef Py_ssize_t w, needed = ((i[0] - 1) >> 6) + 1
    for w in range(needed):
        block[w * (span + 1)] = first[w]
    _rows_from(ref, m, can + start, length, scratch.mask, scratch.carry, block, span + 1,
               needed)
    walk(ref, can, block, span + 1, start, i, j, here, scratch.on_path)


cdef inline Py_ssize_t _root(Py_ssize_t n, int degree) noexcept nogil:
    """The least r >= 1 with r ** degree >= n."""
    cdef Py_ssize_t r = 1, power, k
    while True:
        power = 1
        for k in range(degree):
            power *= r
        if power >= n:
            return r
        r += 1


cdef inline Py_ssize_t checkpointed_words(Py_ssize_t m, Py_ssize_t n) noexcept nogil:
    """The words of rows mark_path_checkpointed keeps for an (m, n) pair."""
    cdef Py_ssize_t span = _root(n, 2)
    return ((n + span - 1) // span + span + 1) * ((m + 63) >> 6)


cdef inline int mark_path_checkpointed(const int32_t *ref, Py_ssize_t m,
                                       const int32_t *can, Py_ssize_t n,
                                       PathScratch *scratch) noexcept nogil:
    """_mark_path in O(sqrt(n) * m / 64) words: keep every K-th row, and
    recompute one block of K rows at a time as the walk goes back through it."""
    cdef Py_ssize_t words = (m + 63) >> 6, span = _root(n, 2), blocks, b
    cdef Py_ssize_t i = m, j = n, here
    cdef uint64_t *saved
    cdef uint64_t *block
    blocks = (n + span - 1) // span
    saved = <uint64_t *> malloc(blocks * words * sizeof(uint64_t))
    block = <uint64_t *> malloc((span + 1) * words * sizeof(uint64_t))
    if saved == NULL or block == NULL:
        free(saved)
        free(block)
        return -1
    here = _checkpoints(ref, m, can, n, span, words, words, NULL, scratch.mask,
                        scratch.carry, saved)
    b = blocks - 1
    while here > 0:
        _walk_block(ref, m, can, b * span, min(b * span + span, n) - b * span,
                    saved + b * words, block, span, &i, &j, &here, scratch)
        b -= 1
    free(saved)
    free(block)
    return 0


cdef inline int mark_path_deep(const int32_t *ref, Py_ssize_t m, const int32_t *can,
                               Py_ssize_t n, PathScratch *scratch) noexcept nogil:
    """mark_path_checkpointed in O(n^(1/3) * m / 64) words, for one more
    recomputation: keep every K*K-th row; as the walk reaches a segment of
    K*K rows, recompute it from its row keeping every K-th row; and recompute
    one block of K rows from those as the walk goes back through it.

    Every row the walk reads is the row the full table holds (the low words
    of a row depend only on row 0's low words), so the path is the same."""
    cdef Py_ssize_t words = (m + 63) >> 6, span = _root(n, 3), segment, segments, s
    cdef Py_ssize_t i = m, j = n, here, start, length, b
    cdef uint64_t *top
    cdef uint64_t *middle
    cdef uint64_t *block
    segment = span * span
    segments = (n + segment - 1) // segment
    top = <uint64_t *> malloc(segments * words * sizeof(uint64_t))
    middle = <uint64_t *> malloc(span * words * sizeof(uint64_t))
    block = <uint64_t *> malloc((span + 1) * words * sizeof(uint64_t))
    if top == NULL or middle == NULL or block == NULL:
        free(top)
        free(middle)
        free(block)
        return -1
    here = _checkpoints(ref, m, can, n, segment, words, words, NULL, scratch.mask,
                        scratch.carry, top)
    s = segments - 1
    while here > 0:
        start = s * segment
        length = min(start + segment, n) - start
        _checkpoints(ref, m, can + start, length, span, ((i - 1) >> 6) + 1, words,
                     top + s * words, scratch.mask, scratch.carry, middle)
        b = (length + span - 1) // span - 1
        while here > 0 and j > start:
            _walk_block(ref, m, can, start + b * span, min(b * span + span, length) - b * span,
                        middle + b * words, block, span, &i, &j, &here, scratch)
            b -= 1
        s -= 1
    free(top)
    free(middle)
    free(block)
    return 0

# The LCS path for kurenai._lcs: rouge-score's LCS of two ID sequences,
# marked on the reference, from the bit-parallel rows (see kurenai/_lcs.pyx)
# and a walk back through them; past a budget, tile by tile in
# O((n * m / 64) ** (2/3)) words.
#
# The rows are stored word-major: word ``w`` of row ``j`` (the state after
# reading ``p[:j]``) is ``rows[w * stride + j]``, so computing a strip
# writes one contiguous run and the walk reads along it.
#
# Inline code only, compiled into the module that cimports it.

from libc.stdint cimport int32_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset


cdef extern from "_kernels/_popcount.h":
    # POPCNT where the CPU has it, chosen at load time (see the header).
    int popcount64 "kurenai_popcount64"(uint64_t) nogil

cdef extern from "_kernels/_lcs_threads.h":
    # The update step and a strip's match masks, written once, in C, for
    # these kernels and the threaded one alike.
    uint64_t advance "kurenai_advance"(uint64_t state, uint64_t match,
                                       uint8_t *carry) noexcept nogil
    void set_strip "kurenai_set_strip"(uint64_t *mask, const int32_t *t,
                                       Py_ssize_t start, Py_ssize_t end) noexcept nogil
    void clear_strip "kurenai_clear_strip"(uint64_t *mask, const int32_t *t,
                                           Py_ssize_t start, Py_ssize_t end) noexcept nogil


cdef struct PathScratch:
    uint64_t *mask      # vocab-sized, all zero between calls
    uint8_t *carry      # one byte per candidate token
    uint64_t *rows      # rows_limit words (or the pair's rows, if fewer)
    uint8_t *on_path    # one byte per ref token: the marked positions
    Py_ssize_t rows_limit  # words of rows kept at once (the module's ROWS_LIMIT)
    Py_ssize_t tile_group  # past it, the tiles' shape (0: tile_shape's)
    Py_ssize_t tile_span


cdef inline int _lcs_rows_1(const int32_t *t, Py_ssize_t m, const int32_t *p,
                            Py_ssize_t n, uint64_t *mask, uint64_t *rows) noexcept nogil:
    """_lcs_rows for a ref of at most 64 tokens: one word, no carries."""
    cdef Py_ssize_t j
    cdef uint64_t state = ~(<uint64_t> 0)
    cdef uint8_t no_carry
    set_strip(mask, t, 0, m)
    rows[0] = state
    for j in range(n):
        no_carry = 0  # a single strip: nothing carries in, the carry out is dropped
        state = advance(state, mask[p[j]], &no_carry)
        rows[j + 1] = state
    clear_strip(mask, t, 0, m)
    return popcount64(~state)


cdef inline int _rows_from(const int32_t *t, Py_ssize_t m, const int32_t *p,
                           Py_ssize_t n, uint64_t *mask, uint8_t *carry, uint64_t *rows,
                           Py_ssize_t stride, Py_ssize_t words) noexcept nogil:
    """Fill rows[w * stride + j] (j = 1 .. n) for the low ``words`` strips,
    from the row 0 the caller put in rows[w * stride].

    The low strips never depend on the high ones (carries only go up), so a
    caller that reads only low bits computes only low words.  ``mask``
    (vocab-sized) must be all zero and is left so; ``carry`` holds ``n``
    bytes.  Returns the zeros of row n over those words (the LCS length when
    row 0 is the all-ones start and ``words`` covers ``t``).
    """
    cdef Py_ssize_t w, j, start, end
    cdef uint64_t state
    cdef uint64_t *strip
    cdef int zeros = 0
    memset(carry, 0, n)
    for w in range(words):
        start = w << 6
        end = min(start + 64, m)
        set_strip(mask, t, start, end)
        strip = rows + w * stride
        state = strip[0]
        for j in range(n):
            state = advance(state, mask[p[j]], &carry[j])
            strip[j + 1] = state
        zeros += popcount64(~state)
        clear_strip(mask, t, start, end)
    return zeros


cdef inline int lcs_rows(const int32_t *t, Py_ssize_t m, const int32_t *p,
                         Py_ssize_t n, uint64_t *mask, uint8_t *carry,
                         uint64_t *rows) noexcept nogil:
    """All n + 1 rows from the start (stride n + 1); returns the LCS length."""
    cdef Py_ssize_t w, words = (m + 63) >> 6
    if m <= 64:
        return _lcs_rows_1(t, m, p, n, mask, rows)
    for w in range(words):
        rows[w * (n + 1)] = ~(<uint64_t> 0)
    return _rows_from(t, m, p, n, mask, carry, rows, n + 1, words)


cdef inline void walk(const int32_t *t, const int32_t *p, const uint64_t *rows,
                      Py_ssize_t stride, Py_ssize_t first, Py_ssize_t *at_i,
                      Py_ssize_t *at_j, Py_ssize_t *at_cell, uint8_t *on_path) noexcept nogil:
    """Walk rouge-score's LCS path back from cell (i, j), marking the ref indices
    it takes: diagonal on equal tokens, else step back in ``p`` only if the
    cell to the left is strictly greater than the cell above.

    On unequal tokens the cell is max(above, left), and the cell above is the
    cell less bit i - 1 of row j's zero.  A zero there means above = cell - 1,
    so left = cell > above: go left.  A one means above = cell >= left: go up.
    So one bit decides, and no cell value is ever counted.

    ``rows[w * stride + k]`` is word w of row ``first + k``; the walk stops when
    row j - 1 is not among them, or when the cell is 0 (no match left on the path).
    """
    walk_within(t, p, rows, stride, first, 0, at_i, at_j, at_cell, on_path)


cdef inline void walk_within(const int32_t *t, const int32_t *p, const uint64_t *rows,
                             Py_ssize_t stride, Py_ssize_t first, Py_ssize_t low,
                             Py_ssize_t *at_i, Py_ssize_t *at_j, Py_ssize_t *at_cell,
                             uint8_t *on_path) noexcept nogil:
    """walk, through rows that hold only the words from word ``low / 64`` up
    (``low`` a multiple of 64): word w of row ``first + k`` is
    ``rows[(w - low / 64) * stride + k]``.  Also stops when i <= low, where
    the next bit it would read is below them."""
    cdef Py_ssize_t i = at_i[0], j = at_j[0], here = at_cell[0], base = low >> 6
    cdef const uint64_t *row = rows + (j - first)  # word `base` of row j, moved with j
    while here > 0 and j > first and i > low:
        if t[i - 1] == p[j - 1]:
            on_path[i - 1] = 1
            i -= 1
            j -= 1
            row -= 1
            here -= 1
        elif (row[(((i - 1) >> 6) - base) * stride] >> ((i - 1) & 63)) & 1:
            i -= 1
        else:
            j -= 1
            row -= 1
    at_i[0], at_j[0], at_cell[0] = i, j, here


cdef inline int _checkpoints(const int32_t *t, Py_ssize_t m, const int32_t *p,
                             Py_ssize_t n, Py_ssize_t span, uint64_t *mask, uint8_t *carry,
                             uint64_t *saved, Py_ssize_t group, uint64_t *carries) noexcept nogil:
    """saved[b * words + w]: word w of row b * span, for every b * span < n.
    With ``carries``, also the carries into every ``group``-th word, one bit
    per token: bit j of carries[(g - 1) * ((n + 63) / 64) + j / 64] is the
    carry into word g * group from the word below on reading p[j].  The
    steps are those of the LCS length alone.  Returns the LCS length."""
    cdef Py_ssize_t words = (m + 63) >> 6
    cdef Py_ssize_t w, j, start, end, b
    cdef uint64_t state
    cdef int zeros = 0
    memset(carry, 0, n)
    for w in range(words):
        start = w << 6
        end = min(start + 64, m)
        set_strip(mask, t, start, end)
        state = ~(<uint64_t> 0)
        for b in range((n + span - 1) // span):
            saved[b * words + w] = state
            for j in range(b * span, min(b * span + span, n)):
                state = advance(state, mask[p[j]], &carry[j])
        zeros += popcount64(~state)
        clear_strip(mask, t, start, end)
        if carries != NULL and (w + 1) % group == 0 and w + 1 < words:
            _pack(carry, n, carries + ((w + 1) // group - 1) * ((n + 63) >> 6))
    return zeros


cdef inline void _pack(const uint8_t *carry, Py_ssize_t n, uint64_t *bits) noexcept nogil:
    """bits: the n carry bytes (each 0 or 1) as bits, 64 to a word."""
    cdef Py_ssize_t k, t
    cdef uint64_t word
    for k in range(0, n, 64):
        word = 0
        for t in range(min(64, n - k)):
            word |= (<uint64_t> carry[k + t]) << t
        bits[k >> 6] = word


cdef inline Py_ssize_t _root(Py_ssize_t n, int degree) noexcept nogil:
    """The least r >= 1 with r ** degree >= n."""
    cdef Py_ssize_t r = 1, power, _k
    while True:
        power = 1
        for _k in range(degree):
            power *= r
        if power >= n:
            return r
        r += 1


cdef inline void tile_shape(Py_ssize_t m, Py_ssize_t n, Py_ssize_t *group,
                            Py_ssize_t *span) noexcept nogil:
    """The tile of mark_path_tiled that keeps the fewest words: G words of
    t by K tokens of p.  For W = m / 64 words it keeps n / K checkpoint
    rows (n W / K words), W / G carry rows (n W / 64 G) and a tile (G K):
    equal at G = (n W / 4096) ** (1/3), K = 64 G, 3/4 (n W) ** (2/3) in all
    (4.7M words, 36 MiB, for m = n = 1M).

    The walk recomputes at most n / K + W / G tiles of G K tokens' steps:
    G <= W / 8 and K <= n / 8 keep that under a quarter of the forward pass
    when one side is much the longer (a diagonal path costs ~2 n G)."""
    cdef Py_ssize_t words = (m + 63) >> 6
    group[0] = min(_root((n * words + 4095) // 4096, 3), max(words // 8, 1))
    span[0] = min(_root((n * words + group[0] - 1) // group[0], 2), max(n // 8, 1))


cdef inline void _tile_rows(const int32_t *t, Py_ssize_t m, const int32_t *p,
                            Py_ssize_t start, Py_ssize_t length, Py_ssize_t low_word,
                            Py_ssize_t high_word, const uint64_t *first,
                            const uint64_t *carries, uint64_t *tile, Py_ssize_t stride,
                            uint64_t *mask, uint8_t *carry) noexcept nogil:
    """Rows start .. start + length of words low_word .. high_word - 1 into
    ``tile`` (word w of row start + k at tile[(w - low_word) * stride + k]),
    from row ``start`` (``first``, all words) and the carries into word
    ``low_word`` (``carries``, bits of the whole row; NULL: none, word 0)."""
    cdef Py_ssize_t w, k, lo, hi
    cdef uint64_t state
    cdef uint64_t *strip
    if carries == NULL:
        memset(carry, 0, length)
    else:
        for k in range(length):
            carry[k] = (carries[(start + k) >> 6] >> ((start + k) & 63)) & 1
    for w in range(low_word, high_word):
        lo = w << 6
        hi = min(lo + 64, m)
        set_strip(mask, t, lo, hi)
        strip = tile + (w - low_word) * stride
        state = first[w]
        strip[0] = state
        for k in range(length):
            state = advance(state, mask[p[start + k]], &carry[k])
            strip[k + 1] = state
        clear_strip(mask, t, lo, hi)


cdef inline int mark_path_tiled(const int32_t *t, Py_ssize_t m, const int32_t *p,
                                Py_ssize_t n, PathScratch *scratch, Py_ssize_t group,
                                Py_ssize_t span) noexcept nogil:
    """mark_path in O((n * m / 64) ** (2/3)) words, for one forward pass and
    a few percent more: tiles of ``group`` words by ``span`` tokens (<= 0:
    tile_shape's).

    The forward pass keeps every span-th row and, every group-th word, the
    carries into it (a bit per token).  A tile's rows follow from the row at
    its left edge and the carries into its lowest word, so the walk back
    recomputes only the tile it is in: from its current cell, the words of
    its group up to the current one and the tokens of its span up to the
    current one.  It leaves a tile downwards or to the left and never comes
    back, so it computes at most n / span + m / (64 group) + 1 tiles."""
    cdef Py_ssize_t words = (m + 63) >> 6, rows_kept, groups, line
    cdef Py_ssize_t i = m, j = n, here, start, g
    cdef uint64_t *saved
    cdef uint64_t *carries
    cdef uint64_t *tile
    if group <= 0 or span <= 0:
        tile_shape(m, n, &group, &span)
    rows_kept = (n + span - 1) // span
    groups = (words + group - 1) // group
    line = (n + 63) >> 6
    saved = <uint64_t *> malloc(rows_kept * words * sizeof(uint64_t))
    carries = <uint64_t *> malloc((groups - 1) * line * sizeof(uint64_t)) if groups > 1 else NULL
    tile = <uint64_t *> malloc(group * (span + 1) * sizeof(uint64_t))
    if saved == NULL or (carries == NULL and groups > 1) or tile == NULL:
        free(saved)
        free(carries)
        free(tile)
        return -1
    here = _checkpoints(t, m, p, n, span, scratch.mask, scratch.carry, saved, group,
                        carries)
    while here > 0:  # so i > 0 and j > 0
        start = (j - 1) // span * span
        g = ((i - 1) >> 6) // group
        _tile_rows(t, m, p, start, j - start, g * group, ((i - 1) >> 6) + 1,
                   saved + start // span * words,
                   carries + (g - 1) * line if g > 0 else NULL,
                   tile, span + 1, scratch.mask, scratch.carry)
        walk_within(t, p, tile, span + 1, start, g * group * 64, &i, &j, &here,
                    scratch.on_path)
    free(saved)
    free(carries)
    free(tile)
    return 0


cdef inline int mark_path(const int32_t *t, Py_ssize_t m, const int32_t *p,
                          Py_ssize_t n, PathScratch *scratch) noexcept nogil:
    """Mark rouge-score's LCS path of (t, p) in scratch.on_path; ``rows``
    holds scratch.rows_limit words.  Returns -1 if out of memory."""
    cdef Py_ssize_t lcs, i = m, j = n
    if m == 0 or n == 0:
        return 0
    if (n + 1) * ((m + 63) >> 6) > scratch.rows_limit:
        return mark_path_tiled(t, m, p, n, scratch, scratch.tile_group, scratch.tile_span)
    lcs = lcs_rows(t, m, p, n, scratch.mask, scratch.carry, scratch.rows)
    walk(t, p, scratch.rows, n + 1, 0, &i, &j, &lcs, scratch.on_path)
    return 0

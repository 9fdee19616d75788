# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled twin of ``kurenai._pairs_py``: ROUGE-N and ROUGE-L of many pairs
of texts already turned into IDs, each text counted once.

``fill`` scores the rows ``row_start:row_stop`` of a table of pairs whose
texts are given once, as IDs (``ids``/``starts``) and per n-gram order as
the ID of the n-gram at each position.  One
side of a pair is *held*: its n-gram counts spread into a dense array and its
LCS match masks built (one bit per position, Allison-Dix / Hyyro), once for
as many pairs as share it; the other side is read token by token against
them.  Everything after the arguments are read runs without the GIL, so
threads score blocks of rows side by side.  The floats are rouge-score's
operations, in its order (``kurenai._core.kinds``).
"""

from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memset

from kurenai._kernels._codes cimport LCS, LSUM, NGRAM, SKIP, WLCS

from kurenai._data import codes as _codes

cdef extern from "_kernels/_popcount.h":
    int popcount64 "kurenai_popcount64"(uint64_t) nogil
    const char *_popcount_kind "kurenai_popcount_kind"()

# How this build counts bits (as kurenai._lcs.POPCOUNT; read here so that the
# header's function is used and the C compiles without a warning).
_POPCOUNT = _popcount_kind().decode("ascii")

# The kinds fill computes; the caller scores the others pair by pair.
KINDS = frozenset({NGRAM, LCS})
_codes.check_c_kinds(
    "kurenai._pairs", {"NGRAM": NGRAM, "LCS": LCS, "LSUM": LSUM, "WLCS": WLCS, "SKIP": SKIP}
)

cdef enum Layout:
    # How the columns of a row are laid out in ``out`` (see ``fill``).
    LAYOUT_EVERY = 0
    LAYOUT_MIRRORED = 1
    LAYOUT_PAIRED = 2

EVERY, MIRRORED, PAIRED = LAYOUT_EVERY, LAYOUT_MIRRORED, LAYOUT_PAIRED

cdef enum:
    MAX_ORDERS = 9  # rouge1 ... rouge9: the most distinct orders a spec has


cdef struct Held:
    Py_ssize_t text             # the text held, -1: none
    Py_ssize_t length
    Py_ssize_t words            # 64-bit words per mask
    int32_t *slot               # token ID -> its row in masks, -1: not in the text
    uint64_t *masks             # per distinct token, ``words`` words of positions
    Py_ssize_t masks_capacity   # in words
    uint64_t *state             # the LCS state, ``words`` words
    int32_t *dense[MAX_ORDERS]  # per order: n-gram ID -> count in the held text
    int32_t *used[MAX_ORDERS]   # per order: n-gram ID -> matched in the current pair
    int32_t *touched            # the n-gram IDs whose ``used`` the pair set
    Py_ssize_t touched_capacity


cdef struct Texts:
    const int32_t *ids
    const int64_t *starts
    Py_ssize_t n_orders
    const int32_t *gram_ids[MAX_ORDERS]     # the n-gram ID at each position
    const int64_t *gram_starts[MAX_ORDERS]  # text k's: from gram_starts[k] to gram_starts[k + 1]
    bint want_lcs


cdef int held_init(Held *h, const Texts *t, Py_ssize_t vocab,
                   const Py_ssize_t *sizes) noexcept nogil:
    cdef Py_ssize_t o
    memset(h, 0, sizeof(Held))
    h.text = -1
    h.slot = <int32_t *> malloc((vocab + 1) * sizeof(int32_t))
    if h.slot == NULL:
        return -1
    memset(h.slot, 0xFF, (vocab + 1) * sizeof(int32_t))
    for o in range(t.n_orders):
        h.dense[o] = <int32_t *> calloc(sizes[o] + 1, sizeof(int32_t))
        h.used[o] = <int32_t *> calloc(sizes[o] + 1, sizeof(int32_t))
        if h.dense[o] == NULL or h.used[o] == NULL:
            return -1
    return 0


cdef void held_free(Held *h) noexcept nogil:
    cdef Py_ssize_t o
    free(h.slot)
    free(h.masks)
    free(h.state)
    free(h.touched)
    for o in range(MAX_ORDERS):
        free(h.dense[o])
        free(h.used[o])


cdef void held_clear(Held *h, const Texts *t) noexcept nogil:
    cdef Py_ssize_t k, o
    if h.text < 0:
        return
    for k in range(t.starts[h.text], t.starts[h.text + 1]):
        h.slot[t.ids[k]] = -1
    for o in range(t.n_orders):
        for k in range(t.gram_starts[o][h.text], t.gram_starts[o][h.text + 1]):
            h.dense[o][t.gram_ids[o][k]] = 0
    h.text = -1


cdef int held_set(Held *h, const Texts *t, Py_ssize_t text) noexcept nogil:
    """Hold ``text`` (a no-op if held already); -1 if out of memory."""
    cdef Py_ssize_t k, o, start, distinct = 0, needed
    cdef int32_t token
    cdef void *grown
    if h.text == text:
        return 0
    held_clear(h, t)
    start = t.starts[text]
    h.length = t.starts[text + 1] - start
    for o in range(t.n_orders):
        for k in range(t.gram_starts[o][text], t.gram_starts[o][text + 1]):
            h.dense[o][t.gram_ids[o][k]] += 1
    if h.length + 1 > h.touched_capacity:
        grown = realloc(h.touched, (h.length + 1) * sizeof(int32_t))
        if grown == NULL:
            return -1
        h.touched = <int32_t *> grown
        h.touched_capacity = h.length + 1
    if t.want_lcs:
        h.words = (h.length + 63) // 64
        needed = h.length * h.words + 1
        if needed > h.masks_capacity:
            grown = realloc(h.masks, needed * sizeof(uint64_t))
            if grown == NULL:
                return -1
            h.masks = <uint64_t *> grown
            grown = realloc(h.state, (h.words + 1) * sizeof(uint64_t))
            if grown == NULL:
                return -1
            h.state = <uint64_t *> grown
            h.masks_capacity = needed
        for k in range(h.length):
            token = t.ids[start + k]
            if h.slot[token] < 0:
                h.slot[token] = <int32_t> distinct
                memset(h.masks + distinct * h.words, 0, h.words * sizeof(uint64_t))
                distinct += 1
            h.masks[h.slot[token] * h.words + k // 64] |= (<uint64_t> 1) << (k % 64)
    h.text = text
    return 0


cdef Py_ssize_t lcs_with(Held *h, const Texts *t, Py_ssize_t other) noexcept nogil:
    """The LCS length of the held text and ``other`` (bit-parallel)."""
    cdef Py_ssize_t k, w, words = h.words, total = 0
    cdef uint64_t x, u, s, s2, carry
    cdef const uint64_t *mask
    cdef int32_t row
    if h.length == 0:
        return 0
    for w in range(words):
        h.state[w] = ~(<uint64_t> 0)
    for k in range(t.starts[other], t.starts[other + 1]):
        row = h.slot[t.ids[k]]
        if row < 0:
            continue  # no match: the state stays
        mask = h.masks + row * words
        carry = 0
        for w in range(words):
            x = h.state[w]
            u = x & mask[w]
            s = x + u
            s2 = s + carry
            carry = (s < x) | (s2 < s)
            h.state[w] = s2 | (x & ~u)
    for w in range(words):
        total += popcount64(~h.state[w])
    return total


cdef Py_ssize_t hits_with(Held *h, const Texts *t, Py_ssize_t o,
                          Py_ssize_t other) noexcept nogil:
    """The n-gram overlap (order slot ``o``) of the held text and ``other``:
    each n-gram of ``other`` matches while the held text has one left."""
    cdef Py_ssize_t k, hits = 0, n_touched = 0
    cdef int32_t gram
    cdef int32_t *dense = h.dense[o]
    cdef int32_t *used = h.used[o]
    for k in range(t.gram_starts[o][other], t.gram_starts[o][other + 1]):
        gram = t.gram_ids[o][k]
        if used[gram] < dense[gram]:
            if used[gram] == 0:
                h.touched[n_touched] = gram
                n_touched += 1
            used[gram] += 1
            hits += 1
    for k in range(n_touched):
        used[h.touched[k]] = 0
    return hits


cdef inline double fmeasure(double precision, double recall) noexcept nogil:
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0


cdef void score_pair(Held *h, const Texts *t, Py_ssize_t prediction, Py_ssize_t target,
                     Py_ssize_t other, const int32_t *kinds, const int32_t *slots,
                     const int64_t *orders, Py_ssize_t n_types, double *values) noexcept nogil:
    """P, R, F of each type (3 per type; untouched for a kind not computed here)."""
    cdef Py_ssize_t i, n, lcs = -1, lp, lt, pc, tc, hits
    cdef Py_ssize_t found[MAX_ORDERS]
    cdef double p, r
    lp = t.starts[prediction + 1] - t.starts[prediction]
    lt = t.starts[target + 1] - t.starts[target]
    for i in range(t.n_orders):
        found[i] = -1
    for i in range(n_types):
        if kinds[i] == NGRAM:
            if found[slots[i]] < 0:
                found[slots[i]] = hits_with(h, t, slots[i], other)
            hits = found[slots[i]]
            n = orders[slots[i]]
            pc = lp - n + 1 if lp - n + 1 > 0 else 0
            tc = lt - n + 1 if lt - n + 1 > 0 else 0
            p = <double> hits / <double> (pc if pc > 1 else 1)
            r = <double> hits / <double> (tc if tc > 1 else 1)
            values[3 * i], values[3 * i + 1], values[3 * i + 2] = p, r, fmeasure(p, r)
        elif kinds[i] == LCS:
            if lp == 0 or lt == 0:
                values[3 * i] = values[3 * i + 1] = values[3 * i + 2] = 0.0
                continue
            if lcs < 0:
                lcs = lcs_with(h, t, other)
            p = <double> lcs / <double> lp
            r = <double> lcs / <double> lt
            values[3 * i], values[3 * i + 1], values[3 * i + 2] = p, r, fmeasure(p, r)


def fill(const int32_t[::1] ids, const int64_t[::1] starts, Py_ssize_t vocab, tuple grams,
         const int64_t[::1] orders, const int32_t[::1] kinds, const int32_t[::1] slots,
         const int64_t[::1] rows, const int64_t[::1] cols, Py_ssize_t row_start,
         Py_ssize_t row_stop, int layout, double[:, :, :, ::1] out):
    """Write P, R and F of each ROUGE-N and ROUGE-L type into ``out``
    (types x 3 x rows x columns) for the rows ``row_start:row_stop``.

    The texts: ``ids[starts[k]:starts[k + 1]]`` is text k's IDs (below
    ``vocab``); ``grams[o]`` is ``(gram_ids, gram_starts, size)`` for the
    n-gram order ``orders[o]``, text k's n-grams, position by position,
    being ``gram_ids[gram_starts[k]:gram_starts[k + 1]]`` (below ``size``).
    ``kinds[i]``/``slots[i]``: type i's kind code (another than NGRAM or LCS
    is left untouched) and its index into ``grams``.  Row r's prediction is
    text ``rows[r]``; with ``layout`` EVERY, column c's target is text
    ``cols[c]``; MIRRORED (``rows`` and ``cols`` the same texts): only the
    columns from r on are counted, and [c, r] written from [r, c] (P and R
    swapped, F the same: the count is symmetric); PAIRED: the one target of
    row r is ``cols[r]``, written to column 0 (rows sharing a target one
    after the other hold it once).
    """
    cdef Texts t
    cdef Held h
    cdef Py_ssize_t o, r, c, i, c_start, c_stop, n_types = kinds.shape[0]
    cdef Py_ssize_t sizes[MAX_ORDERS]
    cdef double *values
    cdef int failed = 0
    cdef const int32_t[::1] view_ids
    cdef const int64_t[::1] view_starts
    if len(grams) != orders.shape[0] or len(grams) > MAX_ORDERS:
        raise ValueError("one n-gram profile per order, at most 9")
    if out.shape[0] != n_types or out.shape[1] != 3:
        raise ValueError("out must be types x 3 x rows x columns")
    if not 0 <= row_start <= row_stop <= rows.shape[0] or out.shape[2] < rows.shape[0]:
        raise ValueError("rows out of range")
    if layout == LAYOUT_PAIRED and cols.shape[0] < rows.shape[0]:
        raise ValueError("PAIRED needs a target per row")
    t.ids = &ids[0] if ids.shape[0] else NULL
    t.starts = &starts[0]
    t.n_orders = len(grams)
    t.want_lcs = False
    for i in range(n_types):
        if kinds[i] == LCS:
            t.want_lcs = True
        if kinds[i] == NGRAM and not 0 <= slots[i] < t.n_orders:
            raise ValueError("an n-gram type's slot is out of range")
    for o in range(t.n_orders):
        view_ids, view_starts, sizes[o] = grams[o]
        if view_starts.shape[0] != starts.shape[0]:
            raise ValueError("one n-gram start per text start")
        t.gram_ids[o] = &view_ids[0] if view_ids.shape[0] else NULL
        t.gram_starts[o] = &view_starts[0]
    values = <double *> malloc((3 * n_types + 1) * sizeof(double))
    if values == NULL or held_init(&h, &t, vocab, sizes) < 0:
        free(values)
        held_free(&h)
        raise MemoryError()
    with nogil:
        for r in range(row_start, row_stop):
            if layout == LAYOUT_PAIRED:
                failed = held_set(&h, &t, cols[r])
                if failed:
                    break
                score_pair(&h, &t, rows[r], cols[r], rows[r], &kinds[0], &slots[0], &orders[0],
                           n_types, values)
                _write(out, values, kinds, n_types, r, 0)
                continue
            failed = held_set(&h, &t, rows[r])
            if failed:
                break
            c_start = r if layout == LAYOUT_MIRRORED else 0
            c_stop = out.shape[3]
            for c in range(c_start, c_stop):
                score_pair(&h, &t, rows[r], cols[c], cols[c], &kinds[0], &slots[0],
                           &orders[0], n_types, values)
                _write(out, values, kinds, n_types, r, c)
                if layout == LAYOUT_MIRRORED and c != r:
                    _write_mirrored(out, values, kinds, n_types, c, r)
    free(values)
    held_free(&h)
    if failed:
        raise MemoryError()


cdef inline void _write(double[:, :, :, ::1] out, const double *values,
                        const int32_t[::1] kinds, Py_ssize_t n_types, Py_ssize_t r,
                        Py_ssize_t c) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n_types):
        if kinds[i] == NGRAM or kinds[i] == LCS:
            out[i, 0, r, c] = values[3 * i]
            out[i, 1, r, c] = values[3 * i + 1]
            out[i, 2, r, c] = values[3 * i + 2]


cdef inline void _write_mirrored(double[:, :, :, ::1] out, const double *values,
                                 const int32_t[::1] kinds, Py_ssize_t n_types, Py_ssize_t r,
                                 Py_ssize_t c) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n_types):
        if kinds[i] == NGRAM or kinds[i] == LCS:
            out[i, 0, r, c] = values[3 * i + 1]
            out[i, 1, r, c] = values[3 * i]
            out[i, 2, r, c] = values[3 * i + 2]

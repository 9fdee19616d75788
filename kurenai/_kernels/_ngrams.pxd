# N-gram counting for kurenai._lcs and kurenai._perl: the multiset intersection size of two
# token sequences' n-grams (ROUGE-N's overlap), on dense int32 IDs.
#
# Inline code only, compiled into the module that cimports it.

from libc.stdint cimport int32_t, uint64_t
from libc.string cimport memset

from kurenai._lcs cimport SMALL, Doc, release_buffer, scratch_buffer


cdef inline Py_ssize_t ngram_overlap(const int32_t *a, Py_ssize_t la, const int32_t *b,
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
    grams = <int32_t *> scratch_buffer(small_grams, (la + lb) * sizeof(int32_t), False)
    keys = <uint64_t *> scratch_buffer(small_keys, size * sizeof(uint64_t), False)
    ids = <int32_t *> scratch_buffer(small_ids, size * sizeof(int32_t), False)
    if grams == NULL or keys == NULL or ids == NULL:
        release_buffer(grams, small_grams)
        release_buffer(keys, small_keys)
        release_buffer(ids, small_ids)
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
    hits = unigram_overlap(grams, na, grams + la, nb, level_size)
    release_buffer(grams, small_grams)
    release_buffer(keys, small_keys)
    release_buffer(ids, small_ids)
    return hits


cdef inline Py_ssize_t _next_level(int32_t *grams, const int32_t *tokens, Py_ssize_t count,
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


cdef inline Py_ssize_t unigram_overlap(const int32_t *a, Py_ssize_t la, const int32_t *b,
                                       Py_ssize_t lb, Py_ssize_t vocab_size) noexcept nogil:
    cdef char small_count[SMALL]
    cdef int32_t *count = <int32_t *> scratch_buffer(
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
    release_buffer(count, small_count)
    return hits


cdef inline Py_ssize_t overlap(const Doc *a, const Doc *b, Py_ssize_t n,
                               Py_ssize_t vocab_size) noexcept nogil:
    if n == 1:
        return unigram_overlap(a.ids, a.n_tokens, b.ids, b.n_tokens, vocab_size)
    return ngram_overlap(a.ids, a.n_tokens, b.ids, b.n_tokens, n, vocab_size)

# The counting of ROUGE-S/SU's skip-bigrams for kurenai._variants: per
# first token along the chain of its occurrences, never listed, in
# O(n + vocabulary) memory (see skip_bigram_doc_counts there).
#
# Inline code only, compiled into the module that cimports it.

from libc.stdint cimport int32_t, int64_t
from libc.string cimport memset


cdef inline int64_t _unit_count(Py_ssize_t n, int gap, bint unigrams) noexcept nogil:
    # Σ over the starts i < n - 1 of the pairs (i, j) allowed, min(n - 1 - i,
    # gap + 1) (the reach r = n - 1 - i runs over 1..n-1), plus a unigram each.
    cdef int64_t starts = n - 1 if n > 1 else 0
    cdef int64_t most = gap + 1
    if gap < 0 or starts <= most:
        return starts * (starts + 1) // 2 + unigrams * starts
    return most * (most + 1) // 2 + (starts - most) * most + unigrams * starts


cdef inline void _chain(const int32_t *tokens, Py_ssize_t n, int32_t *first, int32_t *next,
                        int32_t *starts) noexcept nogil:
    # Links the positions of each token that can start a pair (all but the
    # last; SU's unigrams skip the last token too), and counts them.
    cdef Py_ssize_t i
    for i in range(n - 2, -1, -1):
        next[i] = first[tokens[i]]
        first[tokens[i]] = <int32_t> i
        starts[tokens[i]] += 1


cdef inline int64_t _skip_hits(
    const int32_t *t, Py_ssize_t nt, const int32_t *p, Py_ssize_t np, int gap,
    bint unigrams, Py_ssize_t size, int64_t *pending, int32_t *ints
) noexcept nogil:
    # Per first token a: the pairs (a, b) of t are counted into pending[b];
    # each pair (a, b) of p then takes one from pending[b] while any is left,
    # which sums min(count in t, count in p) over b; the rest is cleared.
    cdef int32_t *first_t = ints
    cdef int32_t *first_p = ints + size
    cdef int32_t *starts_t = ints + 2 * size
    cdef int32_t *starts_p = ints + 3 * size
    cdef int32_t *next_t = ints + 4 * size
    cdef int32_t *next_p = next_t + nt
    cdef int64_t hits = 0
    cdef Py_ssize_t a
    memset(first_t, 0xFF, 2 * size * sizeof(int32_t))
    memset(starts_t, 0, 2 * size * sizeof(int32_t))
    memset(pending, 0, size * sizeof(int64_t))
    _chain(t, nt, first_t, next_t, starts_t)
    _chain(p, np, first_p, next_p, starts_p)
    for a in range(size):
        if first_t[a] < 0 or first_p[a] < 0:
            continue
        if unigrams:
            hits += starts_t[a] if starts_t[a] < starts_p[a] else starts_p[a]
        if gap < 0:
            _count_after(<int32_t> a, t, nt, first_t[a], pending)
            hits += _take_after(<int32_t> a, p, np, first_p[a], pending)
            _clear_after(t, nt, first_t[a], pending)
        else:
            _count_windows(t, nt, first_t[a], next_t, gap, pending)
            hits += _take_windows(p, np, first_p[a], next_p, gap, pending)
            _clear_windows(t, nt, first_t[a], next_t, gap, pending)
    return hits


cdef inline Py_ssize_t _window_end(Py_ssize_t i, Py_ssize_t n, int gap) noexcept nogil:
    # One past the last second token of a pair starting at i.
    return n if i + gap + 2 > n else i + gap + 2


cdef inline void _count_windows(const int32_t *tokens, Py_ssize_t n, Py_ssize_t i,
                                const int32_t *next, int gap, int64_t *pending) noexcept nogil:
    cdef Py_ssize_t j
    while i >= 0:
        for j in range(i + 1, _window_end(i, n, gap)):
            pending[tokens[j]] += 1
        i = next[i]


cdef inline int64_t _take_windows(const int32_t *tokens, Py_ssize_t n, Py_ssize_t i,
                                  const int32_t *next, int gap, int64_t *pending) noexcept nogil:
    cdef int64_t hits = 0, found
    cdef Py_ssize_t j
    cdef int32_t b
    while i >= 0:
        for j in range(i + 1, _window_end(i, n, gap)):
            b = tokens[j]
            found = pending[b] != 0  # no branch: whether it is found is unpredictable
            pending[b] -= found
            hits += found
        i = next[i]
    return hits


cdef inline void _clear_windows(const int32_t *tokens, Py_ssize_t n, Py_ssize_t i,
                                const int32_t *next, int gap, int64_t *pending) noexcept nogil:
    cdef Py_ssize_t j
    while i >= 0:
        for j in range(i + 1, _window_end(i, n, gap)):
            pending[tokens[j]] = 0
        i = next[i]


cdef inline void _count_after(int32_t a, const int32_t *tokens, Py_ssize_t n, Py_ssize_t first,
                              int64_t *pending) noexcept nogil:
    # Without a gap limit the token at j ends one pair per a before it.
    cdef int64_t seen = 0
    cdef Py_ssize_t j
    for j in range(first + 1, n):
        seen += tokens[j - 1] == a
        pending[tokens[j]] += seen


cdef inline int64_t _take_after(int32_t a, const int32_t *tokens, Py_ssize_t n, Py_ssize_t first,
                                int64_t *pending) noexcept nogil:
    cdef int64_t seen = 0, hits = 0, taken
    cdef Py_ssize_t j
    cdef int32_t b
    for j in range(first + 1, n):
        seen += tokens[j - 1] == a
        b = tokens[j]
        if pending[b]:
            taken = pending[b] if pending[b] < seen else seen
            pending[b] -= taken
            hits += taken
    return hits


cdef inline void _clear_after(const int32_t *tokens, Py_ssize_t n, Py_ssize_t first,
                              int64_t *pending) noexcept nogil:
    cdef Py_ssize_t j
    for j in range(first + 1, n):
        pending[tokens[j]] = 0

# ROUGE-Lsum's postings for kurenai._lcs: per token, the candidate
# sentences holding it, so that a reference position visits only the
# sentences that can put it on the union (see _summary_hits in
# kurenai/_lcs.pyx); a sentence repeating an earlier one is left out.
#
# Inline code only, compiled into the module that cimports it.

from libc.stdint cimport int32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcmp, memset

from kurenai._lcs cimport Doc


cdef struct Postings:
    Py_ssize_t *heads    # token t's sentences are items[heads[t]:heads[t + 1]]
    int32_t *items       # candidate sentence indices, each once per token
    Py_ssize_t *cursor   # per token: its next posting not yet visited
    Py_ssize_t *seen     # per candidate sentence: the last ref sentence visiting it


cdef enum:
    REPEATED = -2  # Postings.seen of a sentence equal to an earlier one: never visited


cdef inline int _mark_repeats(const Doc *can, Py_ssize_t *seen) noexcept nogil:
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


cdef inline int build_postings(const Doc *can, Py_ssize_t vocab_size,
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


cdef inline void free_postings(Postings *index) noexcept nogil:
    free(index.heads)
    free(index.items)
    free(index.cursor)
    free(index.seen)

# ROUGE-Lsum's index for kurenai._lcs: per token, the candidate sentences
# holding it, so that a reference position visits only the sentences that
# can put it on the union (see union_indexed in kurenai/_kernels/_lcs_union.pxd); a
# sentence repeating an earlier one is left out.  And the sentences' shapes,
# so that the sentences sharing a frequent token are visited once per shape.
#
# A shape is a sentence with every token that is not *frequent* (in the
# reference and in more than FREQUENT_LINES indexed sentences) replaced by
# BLOCKER, each run of BLOCKERs cut to one, and a leading run dropped.  A
# sentence sharing no rare token with a reference sentence has the path of
# its shape: a token of the candidate absent from the reference is a column
# of the LCS table equal to the one on its left, where the walk back goes up
# until the column's value drops and then left, so a run of such columns
# moves the walk as one does, and a leading run (all zeros) ends it as the
# table's edge does.  Tokens of the reference absent from the candidate are
# rows equal to the one above, which the walk always leaves upwards.
#
# The shapes relative to one reference line (its second pass) are
# kurenai/_kernels/_lcs_projections.pxd.
#
# Inline code only, compiled into the module that cimports it.

from libc.stdint cimport int32_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcmp, memcpy, memset

from kurenai._lcs cimport Doc


cdef struct Postings:
    Py_ssize_t *heads    # token t's sentences are items[heads[t]:heads[t + 1]]
    int32_t *items       # candidate sentence indices, each once per token
    Py_ssize_t *cursor   # per token: its next posting not yet visited
    Py_ssize_t *seen     # per candidate sentence: the last ref sentence visiting it
    uint8_t *frequent    # per token: frequent (see above)
    int32_t *shape_of    # per indexed candidate sentence: its shape
    int32_t *shape_ids   # shape s is shape_ids[shape_bounds[s]:shape_bounds[s + 1]]:
    Py_ssize_t *shape_bounds  # frequent tokens and BLOCKER
    int32_t *lines       # per shape: its indexed sentences
    Py_ssize_t *shape_heads  # the shapes holding each frequent token, as heads
    int32_t *shape_items     # ... and items above
    Py_ssize_t *shape_cursor
    Py_ssize_t *shape_seen   # per shape: the last ref sentence visiting it
    int32_t *sharing     # per shape: its sentences sharing a rare token with the ref sentence
    Py_ssize_t *rare_seen    # per candidate sentence: the last ref sentence listing it in rare
    int32_t *rare        # the sentences sharing a rare token with the ref sentence
    Py_ssize_t n_rare


cdef enum:
    REPEATED = -2  # Postings.seen of a sentence equal to an earlier one: never visited


cdef inline uint64_t _slot(const int32_t *ids, Py_ssize_t length, Py_ssize_t size) noexcept nogil:
    cdef uint64_t key = <uint64_t> length
    cdef Py_ssize_t k
    for k in range(length):
        key = (key ^ <uint64_t> ids[k]) * 0x100000001B3ULL
    return (key * 0x9E3779B97F4A7C15ULL) >> 20 & (size - 1)


cdef inline Py_ssize_t _table_size(Py_ssize_t items) noexcept nogil:
    cdef Py_ssize_t size = 16
    while size < 2 * items:
        size *= 2
    return size


cdef inline int32_t _find_or_add(int32_t *table, Py_ssize_t size, const Doc *doc,
                                 Py_ssize_t s) noexcept nogil:
    """The first sentence of ``doc`` equal to sentence ``s`` (``s`` itself, then
    added to ``table``, if none is)."""
    cdef Py_ssize_t length = doc.bounds[s + 1] - doc.bounds[s], other
    cdef uint64_t slot = _slot(doc.ids + doc.bounds[s], length, size)
    while table[slot] >= 0:
        other = table[slot]
        if (doc.bounds[other + 1] - doc.bounds[other] == length
                and memcmp(doc.ids + doc.bounds[other], doc.ids + doc.bounds[s],
                           length * sizeof(int32_t)) == 0):
            return <int32_t> other
        slot = (slot + 1) & (size - 1)
    table[slot] = <int32_t> s
    return <int32_t> s


cdef inline int _mark_repeats(const Doc *p, Py_ssize_t *seen) noexcept nogil:
    """seen[c] = REPEATED if sentence c repeats an earlier one (the same path,
    so nothing new for the union), else -1; -1 if out of memory."""
    cdef Py_ssize_t size = _table_size(p.n_sents), c
    cdef int32_t *table = <int32_t *> malloc(size * sizeof(int32_t))
    if table == NULL:
        return -1
    memset(table, 0xFF, size * sizeof(int32_t))
    for c in range(p.n_sents):
        seen[c] = REPEATED if _find_or_add(table, size, p, c) != c else -1
    free(table)
    return 0


cdef inline void _fill(const Doc *doc, const Py_ssize_t *skip, Py_ssize_t vocab_size,
                       Py_ssize_t *heads, int32_t *items, Py_ssize_t *cursor) noexcept nogil:
    """Postings of ``doc`` (its sentences s with skip[s] != REPEATED) into
    heads (vocab_size + 1, zeroed) and items; tokens >= vocab_size are left out."""
    cdef Py_ssize_t s, k, t, total = 0
    # cursor[t] is the last sentence counted for t while counting, then the
    # fill position, then (reset per ref sentence) the next posting to visit.
    for t in range(vocab_size):
        cursor[t] = -1
    for s in range(doc.n_sents):
        if skip != NULL and skip[s] == REPEATED:
            continue
        for k in range(doc.bounds[s], doc.bounds[s + 1]):
            t = doc.ids[k]
            if t < vocab_size and cursor[t] != s:
                cursor[t] = s
                heads[t + 1] += 1
    for t in range(vocab_size):
        total += heads[t + 1]
        heads[t + 1] = total
        cursor[t] = heads[t]
    for s in range(doc.n_sents):
        if skip != NULL and skip[s] == REPEATED:
            continue
        for k in range(doc.bounds[s], doc.bounds[s + 1]):
            t = doc.ids[k]
            if t < vocab_size and (cursor[t] == heads[t] or items[cursor[t] - 1] != s):
                items[cursor[t]] = <int32_t> s
                cursor[t] += 1
    for t in range(vocab_size):
        cursor[t] = heads[t]


cdef inline int _build_shapes(const Doc *p, Py_ssize_t vocab_size,
                              Postings *index) noexcept nogil:
    """index.shapes, shape_of, lines and the shapes' postings, from
    index.frequent; -1 if out of memory."""
    cdef Doc doc  # the shapes, as a Doc while they are made
    cdef Doc *shapes = &doc
    cdef Py_ssize_t c, k, t, s, size = _table_size(p.n_sents), length
    cdef int32_t *table = <int32_t *> malloc(size * sizeof(int32_t))
    shapes.ids = <int32_t *> malloc((p.n_tokens + 1) * sizeof(int32_t))
    shapes.bounds = <Py_ssize_t *> malloc((p.n_sents + 1) * sizeof(Py_ssize_t))
    index.shape_ids, index.shape_bounds = shapes.ids, shapes.bounds
    index.lines = <int32_t *> calloc(p.n_sents + 1, sizeof(int32_t))
    index.shape_heads = <Py_ssize_t *> calloc(vocab_size + 1, sizeof(Py_ssize_t))
    index.shape_cursor = <Py_ssize_t *> malloc((vocab_size + 1) * sizeof(Py_ssize_t))
    index.shape_seen = <Py_ssize_t *> malloc((p.n_sents + 1) * sizeof(Py_ssize_t))
    index.sharing = <int32_t *> calloc(p.n_sents + 1, sizeof(int32_t))
    if not (table and shapes.ids and shapes.bounds and index.lines and index.shape_heads
            and index.shape_cursor and index.shape_seen and index.sharing):
        free(table)
        return -1
    memset(table, 0xFF, size * sizeof(int32_t))
    shapes.n_sents = 0
    shapes.bounds[0] = 0
    for c in range(p.n_sents):
        if index.seen[c] == REPEATED:
            continue
        s = shapes.n_sents
        length = shapes.bounds[s]
        for k in range(p.bounds[c], p.bounds[c + 1]):
            t = p.ids[k]
            if index.frequent[t]:
                shapes.ids[length] = <int32_t> t
                length += 1
            elif length > shapes.bounds[s] and shapes.ids[length - 1] != vocab_size:
                shapes.ids[length] = <int32_t> vocab_size  # BLOCKER
                length += 1
        shapes.bounds[s + 1] = length
        index.shape_of[c] = _find_or_add(table, size, shapes, s)
        if index.shape_of[c] == s:
            shapes.n_sents += 1
        index.lines[index.shape_of[c]] += 1
    free(table)
    shapes.n_tokens = shapes.bounds[shapes.n_sents]
    index.shape_items = <int32_t *> malloc((shapes.n_tokens + 1) * sizeof(int32_t))
    if index.shape_items == NULL:
        return -1
    _fill(shapes, NULL, vocab_size, index.shape_heads, index.shape_items, index.shape_cursor)
    for s in range(shapes.n_sents):
        index.shape_seen[s] = -1
    return 0


cdef inline int build_postings(const Doc *p, const Doc *t, Py_ssize_t vocab_size,
                               Py_ssize_t frequent_lines, Postings *index) noexcept nogil:
    """Fill ``index`` (all zero on entry); -1 if out of memory.  A token is
    frequent if ``t`` holds it and more than ``frequent_lines`` indexed
    sentences of ``p`` do."""
    cdef Py_ssize_t c, k, token
    index.heads = <Py_ssize_t *> calloc(vocab_size + 1, sizeof(Py_ssize_t))
    index.items = <int32_t *> malloc((p.n_tokens + 1) * sizeof(int32_t))
    index.cursor = <Py_ssize_t *> malloc((vocab_size + 1) * sizeof(Py_ssize_t))
    index.seen = <Py_ssize_t *> malloc((p.n_sents + 1) * sizeof(Py_ssize_t))
    index.frequent = <uint8_t *> calloc(vocab_size + 1, 1)
    index.shape_of = <int32_t *> malloc((p.n_sents + 1) * sizeof(int32_t))
    index.rare_seen = <Py_ssize_t *> malloc((p.n_sents + 1) * sizeof(Py_ssize_t))
    index.rare = <int32_t *> malloc((p.n_sents + 1) * sizeof(int32_t))
    if not (index.heads and index.items and index.cursor and index.seen and index.frequent
            and index.shape_of and index.rare_seen and index.rare):
        return -1
    if _mark_repeats(p, index.seen) < 0:
        return -1
    _fill(p, index.seen, vocab_size, index.heads, index.items, index.cursor)
    for k in range(t.n_tokens):
        token = t.ids[k]
        index.frequent[token] = index.heads[token + 1] - index.heads[token] > frequent_lines
    for c in range(p.n_sents):
        index.rare_seen[c] = -1
    return _build_shapes(p, vocab_size, index)


cdef inline void free_postings(Postings *index) noexcept nogil:
    free(index.heads)
    free(index.items)
    free(index.cursor)
    free(index.seen)
    free(index.frequent)
    free(index.shape_of)
    free(index.shape_ids)
    free(index.shape_bounds)
    free(index.lines)
    free(index.shape_heads)
    free(index.shape_items)
    free(index.shape_cursor)
    free(index.shape_seen)
    free(index.sharing)
    free(index.rare_seen)
    free(index.rare)

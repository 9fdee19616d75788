# ROUGE-Lsum's second pass for kurenai._lcs: the candidate lines seen from
# one reference line, through their projections onto its frequent tokens
# (the Level stack, built per key prefix), and the reference lines' keys and
# their order.  The global index it refines is kurenai/_kernels/_lcs_postings.pxd;
# the passes that use it are kurenai/_kernels/_lcs_union.pxd.
#
# Inline code only, compiled into the module that cimports it: no state
# (the depth is the module's, passed to build_relative).

from libc.stdint cimport int32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcmp, memcpy, memset

from kurenai._lcs cimport Doc
from kurenai._kernels._lcs_postings cimport Postings, _slot, _table_size


# ------------------------------------------------ shapes relative to a line
#
# The global shapes keep every frequent token, so lines ``b a f_j g_j`` with
# many pairs of frequent f and g have many shapes, each holding ``b``, and a
# reference line ``a b x_i`` whose ``b`` no path takes visits them all.  Seen
# from that reference line, they are all ``b a BLOCKER``: a candidate line
# sharing no other token with a reference line has the path of its
# *projection* onto the line's frequent tokens (those kept, each run of other
# tokens one BLOCKER, a leading run dropped; _lcs_py.project).
#
# A reference line's *key* is its distinct frequent tokens, the ones in more
# candidate lines first.  The projections of the candidate lines onto a key's
# first d tokens are level d of a stack: level d + 1 copies level d's live
# projections, then moves each candidate line holding the new token from its
# old projection to its new one.  The reference lines are visited in the
# order of their keys, so lines sharing a key's first tokens share those
# levels: each level is built once per distinct prefix, in the time of its
# token's postings and its parent's live projections.  A key holds at most
# RELATIVE_DEPTH tokens: the candidate lines holding a line's other frequent
# tokens are visited one by one (as those sharing a rare token are).  A line
# turns to its projections only after visiting as many global shapes as they
# would cost it (see union_indexed in kurenai/_kernels/_lcs_union.pxd).

cdef enum:
    MAX_DEPTH = 8  # the most levels a key may have (RELATIVE_DEPTH <= MAX_DEPTH)


cdef struct Level:
    int32_t token        # the key token this level adds to those below
    Py_ssize_t n_shapes  # projection s is ids[bounds[s]:bounds[s + 1]]
    int32_t *ids
    Py_ssize_t *bounds
    int32_t *lines       # per projection: its candidate lines (0: none left)
    int32_t *sharing     # per projection: its lines sharing a rare token with the ref line
    Py_ssize_t *seen     # per projection: the last ref line visiting it
    int32_t *table       # projections by hash, `size` slots
    Py_ssize_t size
    Py_ssize_t *heads    # the live projections holding the token of level k are
    int32_t *items       # items[heads[k]:heads[k + 1]]


cdef struct Relative:
    Level levels[MAX_DEPTH]
    Py_ssize_t depth
    int32_t blocker      # the BLOCKER ID (vocab_size)
    int32_t *rank        # per token: 1 + its level in the stack, 0 if none
    int32_t *buffer      # one projection being made
    int32_t *rare_shape  # per listed rare sentence: its projection, or -1
    Py_ssize_t cursor[MAX_DEPTH]  # per level k: the next of items[heads[k]:] to visit
    # Per slot i (a ref sentence given to build_relative):
    int32_t *keys        # its key, keys[i * MAX_DEPTH:][:key_len[i]]
    int32_t *key_len     # (0: no key, the global shapes only)
    Py_ssize_t *extra    # the postings of its frequent tokens outside its key
    int32_t *order       # the slots, by key
    int32_t *runs        # runs[i * MAX_DEPTH + d]: the slots from i on, in key
    #                      order, whose keys start with i's first d + 1 tokens


cdef inline Py_ssize_t _project(const Doc *p, Py_ssize_t c, const Relative *rel,
                                int32_t levels) noexcept nogil:
    """rel.buffer = candidate sentence c projected onto the tokens of the
    stack's first ``levels`` levels; returns its length."""
    cdef Py_ssize_t k, n = 0
    cdef int32_t t, rank
    for k in range(p.bounds[c], p.bounds[c + 1]):
        t = p.ids[k]
        rank = rel.rank[t]
        if rank > 0 and rank <= levels:
            rel.buffer[n] = t
            n += 1
        elif n > 0 and rel.buffer[n - 1] != rel.blocker:
            rel.buffer[n] = rel.blocker
            n += 1
    return n


cdef inline Py_ssize_t _level_find(Level *level, const int32_t *seq, Py_ssize_t length,
                                   bint add) noexcept nogil:
    """The projection ``seq`` in ``level`` (added, with no lines, if ``add``
    and absent; -1 if absent).  The level has room for it."""
    cdef uint64_t slot = _slot(seq, length, level.size)
    cdef Py_ssize_t s
    while level.table[slot] >= 0:
        s = level.table[slot]
        if (level.bounds[s + 1] - level.bounds[s] == length
                and memcmp(level.ids + level.bounds[s], seq, length * sizeof(int32_t)) == 0):
            return s
        slot = (slot + 1) & (level.size - 1)
    if not add:
        return -1
    s = level.n_shapes
    memcpy(level.ids + level.bounds[s], seq, length * sizeof(int32_t))
    level.bounds[s + 1] = level.bounds[s] + length
    level.lines[s] = 0
    level.table[slot] = <int32_t> s
    level.n_shapes += 1
    return s


cdef inline void _free_level(Level *level) noexcept nogil:
    free(level.ids)
    free(level.bounds)
    free(level.lines)
    free(level.sharing)
    free(level.seen)
    free(level.table)
    free(level.heads)
    free(level.items)
    memset(level, 0, sizeof(Level))


cdef inline int _index_level(Level *level, Py_ssize_t depth, const int32_t *rank) noexcept nogil:
    """level.heads and items: the live projections holding each level's token."""
    cdef Py_ssize_t s, k, d, total = 0
    cdef Py_ssize_t last[MAX_DEPTH]
    level.heads = <Py_ssize_t *> calloc(depth + 1, sizeof(Py_ssize_t))
    level.items = <int32_t *> malloc((level.bounds[level.n_shapes] + 1) * sizeof(int32_t))
    if level.heads == NULL or level.items == NULL:
        return -1
    for d in range(depth):
        last[d] = -1
    for s in range(level.n_shapes):
        if level.lines[s] > 0:
            for k in range(level.bounds[s], level.bounds[s + 1]):
                d = rank[level.ids[k]] - 1
                if d >= 0 and last[d] != s:
                    last[d] = s
                    level.heads[d + 1] += 1
    for d in range(depth):
        total += level.heads[d + 1]
        level.heads[d + 1] = total
        last[d] = -1
    for s in range(level.n_shapes):
        if level.lines[s] > 0:
            for k in range(level.bounds[s], level.bounds[s + 1]):
                d = rank[level.ids[k]] - 1
                if d >= 0 and last[d] != s:
                    last[d] = s
                    level.items[level.heads[d]] = <int32_t> s
                    level.heads[d] += 1
    for d in range(depth - 1, 0, -1):  # back from the fill positions to the heads
        level.heads[d] = level.heads[d - 1]
    level.heads[0] = 0
    return 0


cdef inline int _push(Relative *rel, const Doc *p, const Postings *index,
                      int32_t token) noexcept nogil:
    """A level for ``token`` on top of the stack; -1 if out of memory."""
    cdef Py_ssize_t d = rel.depth, k, c, s, length, shapes, ids = 0
    cdef Level *level = &rel.levels[d]
    cdef Level *parent = NULL
    shapes = index.heads[token + 1] - index.heads[token]
    for k in range(index.heads[token], index.heads[token + 1]):
        c = index.items[k]
        ids += p.bounds[c + 1] - p.bounds[c]
    if d > 0:
        parent = &rel.levels[d - 1]
        shapes += parent.n_shapes
        ids += parent.bounds[parent.n_shapes]
    level.token = token
    level.size = _table_size(shapes)
    level.ids = <int32_t *> malloc((ids + 1) * sizeof(int32_t))
    level.bounds = <Py_ssize_t *> malloc((shapes + 1) * sizeof(Py_ssize_t))
    level.lines = <int32_t *> malloc((shapes + 1) * sizeof(int32_t))
    level.sharing = <int32_t *> calloc(shapes + 1, sizeof(int32_t))
    level.seen = <Py_ssize_t *> malloc((shapes + 1) * sizeof(Py_ssize_t))
    level.table = <int32_t *> malloc(level.size * sizeof(int32_t))
    rel.depth = d + 1  # popped (and freed) even if half made
    if not (level.ids and level.bounds and level.lines and level.sharing and level.seen
            and level.table):
        return -1
    memset(level.table, 0xFF, level.size * sizeof(int32_t))
    level.n_shapes = 0
    level.bounds[0] = 0
    if parent != NULL:
        for k in range(parent.n_shapes):
            if parent.lines[k] > 0:
                s = _level_find(level, parent.ids + parent.bounds[k],
                                parent.bounds[k + 1] - parent.bounds[k], True)
                level.lines[s] = parent.lines[k]
    rel.rank[token] = <int32_t> (d + 1)
    for k in range(index.heads[token], index.heads[token + 1]):
        c = index.items[k]
        length = _project(p, c, rel, <int32_t> d) if d > 0 else 0
        if length > 0:  # its projection without the token, live in the parent
            s = _level_find(level, rel.buffer, length, False)
            if s >= 0:
                level.lines[s] -= 1
        length = _project(p, c, rel, <int32_t> (d + 1))
        s = _level_find(level, rel.buffer, length, True)
        level.lines[s] += 1
    for s in range(level.n_shapes):
        level.seen[s] = -1
    return _index_level(level, d + 1, rel.rank)


cdef inline void _pop(Relative *rel) noexcept nogil:
    rel.depth -= 1
    rel.rank[rel.levels[rel.depth].token] = 0
    _free_level(&rel.levels[rel.depth])


cdef inline Py_ssize_t sync_cost(const Relative *rel, const Postings *index,
                                 Py_ssize_t slot) noexcept nogil:
    """What sync_levels would cost the ref sentence in ``slot``, each level
    shared with the sentences after it in key order holding the same first
    tokens: the postings of each new level's token, and the projections the
    first one copies, each divided by the sentences sharing that level."""
    cdef const int32_t *key = rel.keys + slot * MAX_DEPTH
    cdef const int32_t *runs = rel.runs + slot * MAX_DEPTH
    cdef Py_ssize_t same = 0, cost = 0, d, key_len = rel.key_len[slot]
    while same < rel.depth and same < key_len and rel.levels[same].token == key[same]:
        same += 1
    if same == key_len:
        return 0
    if same > 0:
        cost += rel.levels[same - 1].n_shapes // runs[same]
    for d in range(same, key_len):
        cost += (index.heads[key[d] + 1] - index.heads[key[d]]) // runs[d]
    return cost


cdef inline int sync_levels(Relative *rel, const Doc *p, const Postings *index,
                            const int32_t *key, Py_ssize_t key_len) noexcept nogil:
    """Make the stack hold the levels of ``key`` (its prefix already there
    kept), and its cursors start; -1 if out of memory."""
    cdef Py_ssize_t same = 0, d
    cdef Level *top
    while same < rel.depth and same < key_len and rel.levels[same].token == key[same]:
        same += 1
    while rel.depth > same:
        _pop(rel)
    while rel.depth < key_len:
        if _push(rel, p, index, key[rel.depth]) < 0:
            return -1
    top = &rel.levels[rel.depth - 1]
    for d in range(rel.depth):
        rel.cursor[d] = top.heads[d]
    return 0


cdef inline int _sort_by_key(int32_t *order, Py_ssize_t n, const int32_t *keys,
                             Py_ssize_t depth, Py_ssize_t vocab_size) noexcept nogil:
    """Sort ``order`` (the ref sentences) by their keys' first ``depth``
    tokens: least significant first, a stable counting sort per token (the
    padding -2 and -1 first); -1 if out of memory."""
    cdef Py_ssize_t d, i, total, bucket
    cdef Py_ssize_t *count = <Py_ssize_t *> malloc((vocab_size + 3) * sizeof(Py_ssize_t))
    cdef int32_t *spare = <int32_t *> malloc((n + 1) * sizeof(int32_t))
    if count == NULL or spare == NULL:
        free(count)
        free(spare)
        return -1
    for d in range(depth - 1, -1, -1):
        memset(count, 0, (vocab_size + 3) * sizeof(Py_ssize_t))
        for i in range(n):
            count[keys[order[i] * MAX_DEPTH + d] + 3] += 1
        total = 0
        for bucket in range(vocab_size + 3):
            total += count[bucket]
            count[bucket] = total - count[bucket]  # where the bucket starts
        for i in range(n):
            bucket = keys[order[i] * MAX_DEPTH + d] + 2
            spare[count[bucket + 1]] = order[i]
            count[bucket + 1] += 1
        memcpy(order, spare, n * sizeof(int32_t))
    free(count)
    free(spare)
    return 0


cdef inline bint _heavier(const Postings *index, int32_t t, int32_t u) noexcept nogil:
    """Whether token t is in more candidate sentences than u (ties: the lower ID)."""
    cdef Py_ssize_t lines_t = index.heads[t + 1] - index.heads[t]
    cdef Py_ssize_t lines_u = index.heads[u + 1] - index.heads[u]
    return lines_t > lines_u or (lines_t == lines_u and t < u)


cdef inline int build_relative(const Doc *t, const int32_t *lines, Py_ssize_t n_lines,
                               const Doc *p, Py_ssize_t vocab_size, const Postings *index,
                               Py_ssize_t depth, Relative *rel) noexcept nogil:
    """The keys and order of the ref sentences ``lines`` (slot i: lines[i]),
    and an empty stack, into ``rel`` (all zero on entry); -1 if out of memory.

    A ref sentence's key is its ``depth`` frequent tokens in the most
    candidate sentences (key_len 0: it has none, or ``depth`` is 0); with
    the projections, the sentences holding its other frequent tokens (their
    number in ``extra``) are visited one by one, as those sharing a rare
    token are."""
    cdef Py_ssize_t i, r, k, d, n, max_n = 0, extra
    cdef int32_t token, dropped
    cdef int32_t *key
    cdef int32_t *stamp  # per token: the last slot counting it
    rel.blocker = <int32_t> vocab_size
    for r in range(p.n_sents):
        max_n = max(max_n, p.bounds[r + 1] - p.bounds[r])
    rel.rank = <int32_t *> calloc(vocab_size + 1, sizeof(int32_t))
    rel.buffer = <int32_t *> malloc((max_n + 1) * sizeof(int32_t))
    rel.rare_shape = <int32_t *> malloc((p.n_sents + 1) * sizeof(int32_t))
    rel.keys = <int32_t *> malloc((n_lines * MAX_DEPTH + 1) * sizeof(int32_t))
    rel.key_len = <int32_t *> malloc((n_lines + 1) * sizeof(int32_t))
    rel.order = <int32_t *> malloc((n_lines + 1) * sizeof(int32_t))
    rel.extra = <Py_ssize_t *> malloc((n_lines + 1) * sizeof(Py_ssize_t))
    rel.runs = <int32_t *> malloc((n_lines * MAX_DEPTH + 1) * sizeof(int32_t))
    stamp = <int32_t *> malloc((vocab_size + 1) * sizeof(int32_t))
    if not (rel.rank and rel.buffer and rel.rare_shape and rel.keys and rel.key_len
            and rel.order and rel.extra and rel.runs and stamp):
        free(stamp)
        return -1
    memset(stamp, 0xFF, (vocab_size + 1) * sizeof(int32_t))
    for i in range(n_lines):
        r = lines[i]
        key = rel.keys + i * MAX_DEPTH
        n = extra = 0
        for k in range(t.bounds[r], t.bounds[r + 1]):
            token = t.ids[k]
            if not index.frequent[token] or stamp[token] == i:
                continue
            stamp[token] = <int32_t> i
            # Insert token among the `depth` heaviest so far, the tokens in more
            # candidate sentences first; the one left out adds its sentences.
            if n == depth and (depth == 0 or not _heavier(index, token, key[n - 1])):
                extra += index.heads[token + 1] - index.heads[token]
                continue
            if n == depth:
                dropped = key[n - 1]
                extra += index.heads[dropped + 1] - index.heads[dropped]
                n -= 1
            d = n
            while d > 0 and _heavier(index, token, key[d - 1]):
                key[d] = key[d - 1]
                d -= 1
            key[d] = token
            n += 1
        rel.key_len[i] = <int32_t> n
        rel.extra[i] = extra
        for d in range(n, MAX_DEPTH):
            key[d] = -1
        rel.order[i] = <int32_t> i
    free(stamp)
    if _sort_by_key(rel.order, n_lines, rel.keys, depth, vocab_size) < 0:
        return -1
    for k in range(n_lines - 1, -1, -1):
        i = rel.order[k]
        for d in range(rel.key_len[i]):
            rel.runs[i * MAX_DEPTH + d] = 1
            if k + 1 < n_lines:
                n = rel.order[k + 1]
                if d < rel.key_len[n] and memcmp(rel.keys + i * MAX_DEPTH,
                                                 rel.keys + n * MAX_DEPTH,
                                                 (d + 1) * sizeof(int32_t)) == 0:
                    rel.runs[i * MAX_DEPTH + d] += rel.runs[n * MAX_DEPTH + d]
    return 0


cdef inline void free_relative(Relative *rel) noexcept nogil:
    while rel.depth > 0:
        _pop(rel)
    free(rel.rank)
    free(rel.buffer)
    free(rel.rare_shape)
    free(rel.keys)
    free(rel.key_len)
    free(rel.extra)
    free(rel.runs)
    free(rel.order)

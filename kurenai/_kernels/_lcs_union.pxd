# ROUGE-Lsum's union over the index for kurenai._lcs: how a reference line
# visits the candidate lines (all of them, union_all; or through the index,
# union_indexed) and the two passes of an indexed document.  The first pass
# visits the sentences holding each position's token, then the global shapes
# (kurenai/_kernels/_lcs_postings.pxd); a line visiting more than knobs.defer_after
# of them is deferred, its marks saved.  The second pass (union_deferred)
# takes the deferred lines in the order of their keys, each turning to its
# projections (kurenai/_kernels/_lcs_projections.pxd) when they cost less than the
# global shapes left.
#
# Inline code only, compiled into the module that cimports it: no state (the
# module's settings come in as Knobs).

from libc.stdint cimport int32_t, uint8_t
from libc.stdlib cimport malloc
from libc.string cimport memcpy, memset

from cpython.pyport cimport PY_SSIZE_T_MAX

from kurenai._lcs cimport Doc
from kurenai._kernels._lcs_path cimport PathScratch, mark_path
from kurenai._kernels._lcs_postings cimport Postings
from kurenai._kernels._lcs_projections cimport (
    MAX_DEPTH, Level, Relative, _level_find, _project, build_relative, sync_cost, sync_levels,
)


cdef struct Knobs:
    Py_ssize_t shapes_after    # a frequent token's sentences tried before its shapes
    Py_ssize_t relative_depth  # build_relative's depth (0: the global shapes only)
    Py_ssize_t defer_after     # global shapes a line visits in the first pass


cdef inline int union_all(const int32_t *rs, Py_ssize_t m, const Doc *p,
                          PathScratch *scratch) noexcept nogil:
    """Mark the union of the paths of ``rs`` against every candidate sentence."""
    cdef Py_ssize_t c
    for c in range(p.n_sents):
        if mark_path(rs, m, p.ids + p.bounds[c], p.bounds[c + 1] - p.bounds[c],
                     scratch) < 0:
            return -1
    return 0


cdef inline int _visit(const int32_t *rs, Py_ssize_t m, Py_ssize_t r, const Doc *p,
                       Py_ssize_t c, Postings *index, PathScratch *scratch) noexcept nogil:
    """Mark the path of ``rs`` against candidate sentence c, once per ref sentence r."""
    if index.seen[c] == r:
        return 0
    index.seen[c] = r
    return mark_path(rs, m, p.ids + p.bounds[c], p.bounds[c + 1] - p.bounds[c],
                     scratch)


cdef inline void _list_rare(const int32_t *rs, Py_ssize_t m, Py_ssize_t stamp,
                            Postings *index, const Relative *rel,
                            bint relative) noexcept nogil:
    """index.rare: the sentences sharing with ``rs`` a token that is rare (or,
    if ``relative``, not in its key); ``stamp`` marks them listed."""
    cdef Py_ssize_t p, k, c
    index.n_rare = 0
    for p in range(m):
        if (rel.rank[rs[p]] > 0) if relative else index.frequent[rs[p]] != 0:
            continue
        for k in range(index.heads[rs[p]], index.heads[rs[p] + 1]):
            c = index.items[k]
            if index.rare_seen[c] != stamp:
                index.rare_seen[c] = stamp
                index.rare[index.n_rare] = <int32_t> c
                index.n_rare += 1


cdef inline void _count_sharing(const Doc *p, Postings *index, Relative *rel,
                                bint relative, int32_t step) noexcept nogil:
    """Add ``step`` to the sharing of each listed rare sentence's shape: its
    global shape's, or (``relative``) its projection's on the stack's top."""
    cdef Py_ssize_t c, length, s
    cdef Level *top
    if not relative:
        for c in range(index.n_rare):
            index.sharing[index.shape_of[index.rare[c]]] += step
        return
    top = &rel.levels[rel.depth - 1]
    for c in range(index.n_rare):
        if step > 0:
            length = _project(p, index.rare[c], rel, <int32_t> rel.depth)
            s = _level_find(top, rel.buffer, length, False) if length > 0 else -1
            rel.rare_shape[c] = <int32_t> s
        else:
            s = rel.rare_shape[c]
        if s >= 0:
            top.sharing[s] += step


cdef inline int _visit_shapes(const int32_t *rs, Py_ssize_t m, Py_ssize_t r,
                              Py_ssize_t p, Postings *index, Py_ssize_t *budget,
                              PathScratch *scratch) noexcept nogil:
    """Visit the global shapes holding rs[p] until p is marked, or ``budget``
    of them are visited; each shape with a line sharing no rare token with
    ``rs`` has that line's path."""
    cdef Py_ssize_t t = rs[p], s
    cdef int status = 0
    while (status == 0 and not scratch.on_path[p] and budget[0] > 0
           and index.shape_cursor[t] < index.shape_heads[t + 1]):
        s = index.shape_items[index.shape_cursor[t]]
        index.shape_cursor[t] += 1
        if index.shape_seen[s] == r or index.sharing[s] == index.lines[s]:
            continue  # seen, or none of its sentences has its path
        index.shape_seen[s] = r
        budget[0] -= 1
        status = mark_path(rs, m, index.shape_ids + index.shape_bounds[s],
                           index.shape_bounds[s + 1] - index.shape_bounds[s], scratch)
    return status


cdef inline int _visit_projections(const int32_t *rs, Py_ssize_t m, Py_ssize_t r,
                                   Py_ssize_t p, Relative *rel,
                                   PathScratch *scratch) noexcept nogil:
    """Visit the projections on the stack's top holding rs[p] until p is
    marked; each with a line sharing no other token with ``rs`` than those of
    its key has that line's path."""
    cdef Py_ssize_t s, d = rel.rank[rs[p]] - 1
    cdef int status = 0
    cdef Level *top = &rel.levels[rel.depth - 1]
    while status == 0 and not scratch.on_path[p] and rel.cursor[d] < top.heads[d + 1]:
        s = top.items[rel.cursor[d]]
        rel.cursor[d] += 1
        if top.seen[s] == r or top.sharing[s] >= top.lines[s]:
            continue  # seen, or none of its lines has its path
        top.seen[s] = r
        status = mark_path(rs, m, top.ids + top.bounds[s], top.bounds[s + 1] - top.bounds[s],
                           scratch)
    return status


cdef enum:
    UNLISTED, GLOBAL, RELATIVE  # how a ref sentence visits the shapes
    DEFERRED = 1  # union_indexed's status of a sentence left for the second pass


cdef inline int union_indexed(const int32_t *rs, Py_ssize_t m, Py_ssize_t r,
                              Py_ssize_t slot, const Doc *p, Postings *index,
                              Relative *rel, const Knobs *knobs,
                              PathScratch *scratch) noexcept nogil:
    """union_all, visiting only the sentences (or shapes) that can still mark
    a position.

    First pass (``slot`` -1): a sentence visiting more than knobs.defer_after
    global shapes for a position it leaves unmarked is DEFERRED, its marks
    kept.  Second pass (``slot``: its keys in ``rel``): a position that
    needs shapes turns to the projections at once if more global shapes
    hold its token than building its line's projections would cost (the
    levels' postings and copies, each divided by the lines sharing the
    level; the sentences of its frequent tokens outside its key), else
    after visiting that many global shapes.  So a line spends at most about
    twice what the better of the two would have cost it, a level's cost
    shared by its lines."""
    cdef Py_ssize_t i, c, token, tries, next_rare = 0, status = 0, budget = 0
    cdef Py_ssize_t key_len = rel.key_len[slot] if slot >= 0 else 0
    cdef const int32_t *key = rel.keys + slot * MAX_DEPTH if slot >= 0 else NULL
    cdef Py_ssize_t stamp = r if slot < 0 else -2 - r  # the rare lists' marks
    cdef int mode = UNLISTED
    for i in range(m):
        token = rs[i]
        # Its sentences one by one: all of them for a rare token, the first
        # knobs.shapes_after for a frequent one (usually one of them marks it).
        tries = 0
        while (status == 0 and not scratch.on_path[i]
               and index.cursor[token] < index.heads[token + 1]
               and (tries < knobs.shapes_after or not index.frequent[token])):
            c = index.items[index.cursor[token]]
            index.cursor[token] += 1
            tries += 1
            status = _visit(rs, m, r, p, c, index, scratch)
        if status == 0 and not scratch.on_path[i] and index.cursor[token] < index.heads[token + 1]:
            if mode == UNLISTED:
                _list_rare(rs, m, stamp, index, rel, False)
                _count_sharing(p, index, rel, False, 1)
                mode = GLOBAL
                budget = PY_SSIZE_T_MAX
                if slot < 0 and knobs.relative_depth > 0:
                    budget = knobs.defer_after
                elif key_len > 0:
                    budget = sync_cost(rel, index, slot) + rel.extra[slot]
            if (mode == GLOBAL and slot >= 0
                    and index.shape_heads[token + 1] - index.shape_cursor[token] > budget):
                budget = 0  # the projections cost less than the shapes left
            if mode == GLOBAL:
                status = _visit_shapes(rs, m, r, i, index, &budget, scratch)
                if (status == 0 and not scratch.on_path[i] and budget <= 0
                        and index.shape_cursor[token] < index.shape_heads[token + 1]):
                    if slot < 0:
                        status = DEFERRED
                        break
                    # Over budget: the projections, and the rare list for them.
                    _count_sharing(p, index, rel, False, -1)
                    if sync_levels(rel, p, index, key, key_len) < 0:
                        status = -1
                        break
                    _list_rare(rs, m, stamp - (<Py_ssize_t> 1 << 32), index, rel, True)
                    _count_sharing(p, index, rel, True, 1)
                    mode = RELATIVE
                    next_rare = 0
            if mode == RELATIVE and rel.rank[token] > 0:  # else all its sentences are listed
                status = _visit_projections(rs, m, r, i, rel, scratch)
            while status == 0 and not scratch.on_path[i] and next_rare < index.n_rare:
                status = _visit(rs, m, r, p, index.rare[next_rare], index, scratch)
                next_rare += 1
        if status != 0:
            break
    for i in range(m):
        index.cursor[rs[i]] = index.heads[rs[i]]
        index.shape_cursor[rs[i]] = index.shape_heads[rs[i]]
    if mode != UNLISTED:
        _count_sharing(p, index, rel, mode == RELATIVE, -1)
    return status


cdef inline int defer(int32_t **deferred, Py_ssize_t *n_deferred, uint8_t **saved,
                      const Doc *t, Py_ssize_t r, uint8_t *on_path) noexcept nogil:
    """Add ref sentence r to the deferred ones, its marks saved (and cleared
    from ``on_path``); -1 if out of memory."""
    cdef Py_ssize_t m = t.bounds[r + 1] - t.bounds[r]
    if deferred[0] == NULL:
        deferred[0] = <int32_t *> malloc((t.n_sents + 1) * sizeof(int32_t))
        saved[0] = <uint8_t *> malloc(t.n_tokens + 1)
        if deferred[0] == NULL or saved[0] == NULL:
            return -1
    deferred[0][n_deferred[0]] = <int32_t> r
    n_deferred[0] += 1
    memcpy(saved[0] + t.bounds[r], on_path, m)
    memset(on_path, 0, m)
    return 0


cdef inline void count_union(const int32_t *rs, Py_ssize_t m, uint8_t *on_path,
                             int32_t *union_count) noexcept nogil:
    """Count a ref sentence's marked positions in union_count, and clear them."""
    cdef Py_ssize_t k
    for k in range(m):
        if on_path[k]:
            union_count[rs[k]] += 1
            on_path[k] = 0


cdef inline int union_deferred(const Doc *t, const Doc *p, Py_ssize_t vocab_size,
                               const int32_t *deferred, Py_ssize_t n_deferred,
                               const uint8_t *saved, Postings *index, Relative *rel,
                               const Knobs *knobs, PathScratch *scratch,
                               int32_t *union_count) noexcept nogil:
    """The second pass: the ``deferred`` ref sentences, each from its marks
    in ``saved``, counted into union_count; -1 if out of memory.  They go by
    key: those sharing a key's first tokens share its levels."""
    cdef Py_ssize_t q, r, m
    cdef const int32_t *rs
    if build_relative(t, deferred, n_deferred, p, vocab_size, index,
                      knobs.relative_depth, rel) < 0:
        return -1
    for q in range(n_deferred):
        r = deferred[rel.order[q]]
        rs = t.ids + t.bounds[r]
        m = t.bounds[r + 1] - t.bounds[r]
        memcpy(scratch.on_path, saved + t.bounds[r], m)
        if union_indexed(rs, m, r, rel.order[q], p, index, rel, knobs, scratch) < 0:
            return -1
        count_union(rs, m, scratch.on_path, union_count)
    return 0

# The GIL driver of kurenai._fused: one pair, or a batch of pairs, taken
# through scan, stemming and count (kurenai/_kernels/_fused_pair.pxd's work_scan and
# work_count, kurenai/_kernels/_fused_stems.pxd's stem_all), releasing the GIL for the
# scan and the count and holding it for the stemming, which reads and fills
# the plan's stem cache and may call Python.
#
# Inline code only, compiled into the module that cimports it.  It holds no
# state: the plan's Layout, stem cache, stemmer and memo are passed in.

from cpython.unicode cimport PyUnicode_DATA, PyUnicode_GET_LENGTH, PyUnicode_KIND
from libc.stdlib cimport free, malloc

from kurenai._kernels._fused_pair cimport Layout, PairWork
from kurenai._kernels._fused_pair cimport work_count, work_free, work_release, work_scan
from kurenai._kernels._fused_stems cimport StemCache
from kurenai._kernels._pair_stems cimport remap, stem_all


cdef enum:
    STEM_BLOCK = 16    # pairs run_all scans, stems, then counts at a time


cdef inline void pair_free(PairWork *work, Py_ssize_t *small) noexcept:
    """Release one pair's ``work`` (``small``: its overlaps on the stack)."""
    if work.counts.overlaps != small:
        free(work.counts.overlaps)
    work_free(work)


cdef inline int work_stem(const Layout *c, StemCache *cache, object stem, dict memo,
                          PairWork *w) except -1:
    # With the GIL: the plan's stem cache is read and filled only so.
    if w.status != 0 or stem is None:
        return 0
    stem_all(&w.table, c.rules, cache, stem, memo, &w.stems, &w.final_ids)
    remap(&w.t, w.final_ids)
    remap(&w.p, w.final_ids)
    return 0


cdef inline int work_run(const Layout *c, StemCache *cache, object stem, dict memo,
                         PairWork *w, str target, str prediction,
                         Py_ssize_t max_tokens) except -1:
    """Scan, intern, stem and count one pair of prepared texts."""
    cdef const char *t_data = <const char *> PyUnicode_DATA(target)
    cdef const char *p_data = <const char *> PyUnicode_DATA(prediction)
    cdef int t_kind = PyUnicode_KIND(target), p_kind = PyUnicode_KIND(prediction)
    cdef Py_ssize_t t_length = PyUnicode_GET_LENGTH(target)
    cdef Py_ssize_t p_length = PyUnicode_GET_LENGTH(prediction)
    with nogil:
        work_scan(c, w, t_data, t_kind, t_length, p_data, p_kind, p_length, max_tokens)
    work_stem(c, cache, stem, memo, w)
    with nogil:
        work_count(c, w)
    if w.status < 0:
        raise MemoryError()
    return 0


cdef inline int run_all(const Layout *c, StemCache *cache, object stem, dict memo,
                        PairWork *works, list ready, Py_ssize_t n,
                        Py_ssize_t max_tokens) except -1:
    """work_run over many pairs, in three phases so the GIL is released twice
    per batch rather than per pair (``ready``: n targets, then n predictions,
    as ``prepared`` made them: ASCII texts not yet lowercased)."""
    cdef Py_ssize_t k, start, end
    cdef const char **data = <const char **> malloc(2 * n * sizeof(char *) + 1)
    cdef int *kinds = <int *> malloc(2 * n * sizeof(int) + 1)
    cdef Py_ssize_t *lengths = <Py_ssize_t *> malloc(2 * n * sizeof(Py_ssize_t) + 1)
    try:
        if data == NULL or kinds == NULL or lengths == NULL:
            raise MemoryError()
        for k in range(2 * n):
            data[k] = <const char *> PyUnicode_DATA(ready[k])
            kinds[k] = PyUnicode_KIND(ready[k])
            lengths[k] = PyUnicode_GET_LENGTH(ready[k])
        if stem is None:
            # One pass, each pair's buffers still in cache when counted.
            with nogil:
                for k in range(n):
                    work_scan(c, &works[k], data[k], kinds[k], lengths[k],
                              data[n + k], kinds[n + k], lengths[n + k], max_tokens)
                    work_count(c, &works[k])
                    work_release(&works[k])
        else:
            # By blocks of pairs, still in the CPU's caches when stemmed
            # (with the GIL) and counted.
            for start in range(0, n, STEM_BLOCK):
                end = min(start + STEM_BLOCK, n)
                with nogil:
                    for k in range(start, end):
                        work_scan(c, &works[k], data[k], kinds[k], lengths[k],
                                  data[n + k], kinds[n + k], lengths[n + k], max_tokens)
                for k in range(start, end):
                    work_stem(c, cache, stem, memo, &works[k])
                with nogil:
                    for k in range(start, end):
                        work_count(c, &works[k])
                        work_release(&works[k])
        for k in range(n):
            if works[k].status < 0:
                raise MemoryError()
        return 0
    finally:
        free(data)
        free(kinds)
        free(lengths)

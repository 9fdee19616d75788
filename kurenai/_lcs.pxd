# The C-level surface of kurenai._lcs (for kurenai._fused, kurenai._variants
# and the inline parts in kurenai/_kernels/ that work on its Doc: _token_intern.pxd,
# _ngrams.pxd, _lcs_path.pxd, _lcs_postings.pxd, _lcs_projections.pxd,
# _lcs_union.pxd).
from libc.stdint cimport int32_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset


cdef struct Doc:
    int32_t *ids          # every token of every sentence, flattened
    Py_ssize_t *bounds    # sentence k is ids[bounds[k]:bounds[k + 1]]
    Py_ssize_t n_tokens
    Py_ssize_t n_sents


cdef struct Counts:
    Py_ssize_t *overlaps      # n-gram overlaps, one per requested order (caller's memory)
    Py_ssize_t lcs            # LCS length of the whole texts
    Py_ssize_t hits           # ROUGE-Lsum union-LCS hits


cdef int doc_counts(const Doc *t_all, const Doc *p_all, const Doc *t_sents,
                    const Doc *p_sents, const Py_ssize_t *orders, Py_ssize_t n_orders,
                    bint want_lcs, bint want_lsum, Py_ssize_t vocab_size,
                    int threads, Counts *out) noexcept nogil


# Two Python sentence lists as Docs of dense IDs over one vocabulary of
# ``size`` IDs, freed with the object.
cdef class Interned:
    cdef Doc a, b
    cdef Py_ssize_t size


# The kernels take their scratch arrays from the stack when they are this
# small (in bytes): real pairs rarely need more, and malloc was ~10% of the time.
cdef enum:
    SMALL = 4096


cdef inline void *scratch_buffer(void *small, size_t size, bint zeroed) noexcept nogil:
    """``small`` (SMALL bytes on the caller's stack) if ``size`` fits, else
    the heap; NULL if out of memory.  Release with release_buffer."""
    if size <= SMALL:
        if zeroed:
            memset(small, 0, size)
        return small
    return calloc(size, 1) if zeroed else malloc(size)


cdef inline void release_buffer(void *buffer, void *small) noexcept nogil:
    if buffer != small:
        free(buffer)

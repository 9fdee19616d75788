# The C-level surface of kurenai._lcs, for kurenai._fastpath.
from libc.stdint cimport int32_t


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

# The C-level surface of kurenai._variants, for kurenai._fused.
from libc.stdint cimport int64_t

from kurenai._lcs cimport Doc


cdef int skip_bigram_doc_counts(const Doc *t, const Doc *p, int gap, bint unigrams,
                                Py_ssize_t vocab_size, int64_t *out) noexcept nogil

cdef int weighted_lcs_doc(const Doc *t, const Doc *p, double weight, Py_ssize_t vocab_size,
                          double *out) noexcept nogil

# The score formulas of kurenai._fused: a counted pair's precision, recall
# and F-measure per ROUGE type, with rouge-score's float operations in the
# same order (and ROUGE-1.5.5's for ROUGE-W/S/SU, as
# the kind registry, kurenai._core.kinds, computes them), and the Score
# objects they fill.
#
# Inline code only, compiled into the module that cimports it.

from libc.math cimport pow

from kurenai._kernels._codes cimport LCS, NGRAM, SKIP, WLCS
from kurenai._kernels._fused_pair cimport Layout, PairWork


cdef inline double fmeasure(double precision, double recall) noexcept nogil:
    # rouge_score.scoring.fmeasure, operation for operation.
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0


cdef inline double ratio(double hits, double count) noexcept nogil:
    # ROUGE-1.5.5's guard: 0 when nothing could match.
    return hits / count if count != 0 else 0.0


cdef inline void variant_values(const double *counts, int kind, double weight,
                                double *values) noexcept nogil:
    """kurenai._core.kinds._weighted_score (WLCS) and _perl_score (SKIP),
    operation for operation."""
    if kind == WLCS:
        values[0] = pow(ratio(counts[0], pow(counts[2], weight)), 1 / weight)
        values[1] = pow(ratio(counts[0], pow(counts[1], weight)), 1 / weight)
    else:
        values[0] = ratio(counts[0], counts[2])
        values[1] = ratio(counts[0], counts[1])
    values[2] = fmeasure(values[0], values[1])


cdef inline bint type_values(const Layout *c, const PairWork *work, Py_ssize_t i,
                             double *values) noexcept nogil:
    """Precision, recall, F of type i into values; False: rouge-score's int
    zeros (an LCS type with an empty side)."""
    cdef Py_ssize_t hits, t_count, p_count
    cdef Py_ssize_t t_len = work.t.n_tokens, p_len = work.p.n_tokens
    if c.kinds[i] == WLCS or c.kinds[i] == SKIP:
        variant_values(work.variant_counts + 3 * i, c.kinds[i], c.w_weight, values)
        return True
    if c.kinds[i] == NGRAM:
        hits = work.counts.overlaps[c.order_slot[i]]
        # rouge-score divides by max(count, 1): always floats.
        p_count = max(p_len - c.orders[i] + 1, 1)
        t_count = max(t_len - c.orders[i] + 1, 1)
    else:
        if p_len == 0 or t_len == 0:
            return False
        hits = work.counts.lcs if c.kinds[i] == LCS else work.counts.hits
        p_count, t_count = p_len, t_len
    values[0] = <double> hits / <double> p_count
    values[1] = <double> hits / <double> t_count
    values[2] = fmeasure(values[0], values[1])
    return True


cdef extern from *:
    """
    /* A Score (a tuple subclass) filled in place: tuple.__new__ would build a
       plain tuple first and copy it. */
    static PyObject *kurenai_new_triple(PyObject *cls, PyObject *a, PyObject *b,
                                        PyObject *c) {
        PyTypeObject *type = (PyTypeObject *) cls;
        PyObject *self = type->tp_alloc(type, 3);
        if (self == NULL) return NULL;
        Py_INCREF(a); PyTuple_SET_ITEM(self, 0, a);
        Py_INCREF(b); PyTuple_SET_ITEM(self, 1, b);
        Py_INCREF(c); PyTuple_SET_ITEM(self, 2, c);
        return self;
    }
    """
    object new_triple "kurenai_new_triple"(object cls, object a, object b, object c)

# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled kernel of the bootstrap: sums of resampled scores, in record order.

``kurenai._core.bootstrap`` computes the same sums with NumPy (the readable spec,
and the fallback without a compiler).  Each sum adds the chosen records one
after another, as rouge-score's ``np.mean(axis=0)`` does, so the floats are
bit for bit the same; doing it in one pass here saves NumPy's temporary
(records x samples) arrays.
"""

from libc.stdint cimport int64_t


def resampled_sums(
    const double[:, ::1] columns,
    const int64_t[:, ::1] indices,
    double[:, ::1] out,
    Py_ssize_t start,
):
    """``out[start + s, k] = columns[k, indices[s, 0]] + columns[k, indices[s, 1]] + ...``

    Added left to right, for every sample ``s`` (a row of ``indices``) and
    measure ``k`` (a row of ``columns``).  The indices must be valid.
    """
    cdef Py_ssize_t s, j, k
    cdef Py_ssize_t size = indices.shape[1]
    cdef double total
    if size == 0:
        raise ValueError("no records to resample")
    with nogil:
        for s in range(indices.shape[0]):
            for k in range(columns.shape[0]):
                total = columns[k, indices[s, 0]]
                for j in range(1, size):
                    total = total + columns[k, indices[s, j]]
                out[start + s, k] = total

# The corpus bootstrap of kurenai._perl: ROUGE-1.5.5.pl's ``srand(s)`` /
# ``int(rand(n))`` resamples of the evaluations (Perl's drand48), each summed
# as it is drawn, turned into samples, and each column's (mean, low, high)
# confidence interval (``kurenai.rouge155._corpus``, the spec, in C).
#
# Inline code only, compiled into the module that cimports it.  It holds no
# state: the generator's state lives on the caller's stack.

from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport qsort

# Perl's drand48: state <- (A * state + C) mod 2^48, srand(s) -> (s << 16) + 0x330E.
# Compile-time constants, the exact values the script uses.
cdef enum:
    RAND_C = 0xB
    SEED_LOW = 0x330E


cdef inline void ordered_sums(const double *values, Py_ssize_t size, Py_ssize_t width,
                              double *out) noexcept nogil:
    """Per column, the evaluations' values added one after another
    (``_corpus._ordered_sums``)."""
    cdef Py_ssize_t e, c
    for c in range(width):
        out[c] = values[c] if size else 0.0
    for e in range(1, size):
        for c in range(width):
            out[c] += values[e * width + c]


cdef inline Py_ssize_t draw(uint64_t *state, Py_ssize_t size) noexcept nogil:
    """The next ``int(rand(size))``."""
    state[0] = (<uint64_t> 0x5DEECE66D * state[0] + RAND_C) & ((<uint64_t> 1 << 48) - 1)
    # floor of a non-negative double: the truncating cast (no libm call); the
    # state is below 2^48, so its signed conversion is exact, and so is the
    # scaling by 2^-48.
    return <Py_ssize_t> (<double> <int64_t> state[0] * (1.0 / 281474976710656.0)
                         * <double> size)


cdef inline void draw_sums(const double *values, Py_ssize_t size, Py_ssize_t width,
                           Py_ssize_t resamples, double *sums) noexcept nogil:
    """Row s of ``sums``: the values of the ``size`` evaluations that
    ``srand(s)`` then ``int(rand(size))`` draws, added in draw order."""
    cdef Py_ssize_t s, _j, c
    cdef uint64_t state
    cdef double *row
    cdef const double *drawn
    for s in range(resamples):
        state = (((<uint64_t> s) & <uint64_t> 0xFFFFFFFF) << 16) + SEED_LOW
        row = sums + s * width
        drawn = values + draw(&state, size) * width
        for c in range(width):
            row[c] = drawn[c]
        for _j in range(1, size):
            drawn = values + draw(&state, size) * width
            for c in range(width):
                row[c] += drawn[c]


cdef inline void to_samples(double *sums, Py_ssize_t resamples, Py_ssize_t width,
                            Py_ssize_t size, int counting, double alpha) noexcept nogil:
    """Sums -> samples: the mean of the drawn (R, P, F), or under ``-t 1`` the
    ratios of the summed counts (``_corpus._ratios``)."""
    cdef Py_ssize_t s, c
    cdef double *x
    cdef double m_count, p_count, hit, recall, precision, denominator
    for s in range(resamples * width // 3):
        x = sums + 3 * s
        if counting == 0:
            for c in range(3):
                x[c] = x[c] / <double> size
            continue
        m_count, p_count, hit = x[0], x[1], x[2]
        recall = hit / m_count if m_count > 0 else 0.0
        precision = hit / p_count if p_count > 0 else 0.0
        denominator = (1 - alpha) * precision + alpha * recall
        x[0], x[1] = recall, precision
        x[2] = (recall * precision) / denominator if denominator > 0 else 0.0


cdef inline int compare(const void *a, const void *b) noexcept nogil:
    cdef double x = (<const double *> a)[0], y = (<const double *> b)[0]
    return (x > y) - (x < y)


cdef inline double at(const double *ranked, Py_ssize_t count, Py_ssize_t index) noexcept nogil:
    # A Perl array element (negative indices from the end); past either end undef, 0.
    if -count <= index < count:
        return ranked[index + count if index < 0 else index]
    return 0.0


cdef inline void interval(double *ranked, Py_ssize_t resamples, double confidence,
                          double *out) noexcept nogil:
    """``_corpus._interval``: (mean of the sorted samples, low, high)."""
    cdef Py_ssize_t i, upper, lower
    cdef double mean, delta, ratio
    qsort(ranked, resamples, sizeof(double), compare)
    mean = ranked[0]
    for i in range(1, resamples):
        mean += ranked[i]
    out[0] = mean / resamples
    delta = resamples * ((100 - confidence) / 2.0) / 100.0
    upper = <Py_ssize_t> (resamples - delta - 1)
    lower = <Py_ssize_t> delta
    ratio = resamples - delta - 1 - upper
    out[1] = at(ranked, resamples, lower) + (
        at(ranked, resamples, lower + 1) - at(ranked, resamples, lower)) * ratio
    out[2] = at(ranked, resamples, upper) + (
        at(ranked, resamples, upper + 1) - at(ranked, resamples, upper)) * ratio

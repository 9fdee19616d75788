# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled kernel of the bootstrap: NumPy's legacy draws fused with the sums.

``kurenai.stats._bootstrap`` draws the resamples with NumPy's
``RandomState.randint`` and sums them with NumPy (the readable spec, and the
path without a compiler, or for a generator other than MT19937).  Here a
:class:`LegacyStream` holds a copy of the generator's MT19937 state and draws
the same integers in C (``_kernels/_resample_mt.h`` says how, from NumPy's sources), and
sums a few samples side by side as soon as their indices are drawn: no
(samples x records) index array, and none of NumPy's per-call cost.
:meth:`LegacyStream.flip_sums` does the same for approximate randomization's
trials (``_kernels/_resample_flip.h``: one bit of a word per record).
:class:`Rows` lays the rows out for the sums once (each distinct row kept
once, when rows repeat).  The caller writes the final state back into the
generator, so its next draw is the one rouge-score's calls would have left.
"""

from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

cdef extern from "_kernels/_resample_mt.h":
    ctypedef struct kurenai_mt:
        uint32_t key[624]
        int pos
    ctypedef struct kurenai_words:
        pass
    void _start "kurenai_words_start"(kurenai_words *words, kurenai_mt *mt,
                                      const void *rows, Py_ssize_t row_bytes) noexcept nogil
    void _draw "kurenai_draw"(kurenai_words *words, uint64_t rng, uint64_t *out,
                              size_t count) noexcept nogil
    int _avx2_allowed "kurenai_avx2_allowed"
    int _avx2 "kurenai_avx2"() noexcept nogil

cdef extern from "_kernels/_resample.h":
    ctypedef struct kurenai_rows:
        Py_ssize_t records
        Py_ssize_t distinct
        Py_ssize_t width
    int _rows_init "kurenai_rows_init"(kurenai_rows *rows, const double *values,
                                       Py_ssize_t records, Py_ssize_t stride,
                                       Py_ssize_t width) noexcept nogil
    void _rows_free "kurenai_rows_free"(kurenai_rows *rows) noexcept nogil
    int _resample_rows "kurenai_resample_rows"(kurenai_mt *mt, const kurenai_rows *rows,
                                               Py_ssize_t samples, double *out) noexcept nogil

cdef extern from "_kernels/_resample_flip.h":
    int _flip_sums "kurenai_flip_sums"(kurenai_mt *mt, const double *values,
                                       Py_ssize_t records, Py_ssize_t width,
                                       Py_ssize_t trials, double *out) noexcept nogil

#: Words in an MT19937 key.
KEY_WORDS = 624


def _set_avx2(bint allowed):
    """Whether the sums may refill the generator's words on AVX2 lanes (where
    the processor has them; the tests hold both refills to the same words).
    Returns whether they now do."""
    global _avx2_allowed
    _avx2_allowed = allowed
    return bool(_avx2())


cdef class Rows:
    """The rows a bootstrap resamples, laid out once for :meth:`LegacyStream.sums`.

    The first ``width`` values of each row of ``values`` (records x stride,
    ``width <= stride``), as the sums read them: each distinct row (equal
    bits) kept once with each record's row number when the rows repeat (at
    most a quarter as many as records), rows of 3 padded to 4.  ``distinct``
    is how many rows the sums gather from.
    """

    cdef kurenai_rows rows

    def __cinit__(self):
        memset(&self.rows, 0, sizeof(self.rows))

    def __init__(self, const double[:, ::1] values, Py_ssize_t width):
        cdef Py_ssize_t records = values.shape[0], stride = values.shape[1]
        cdef int status
        if records == 0:
            raise ValueError("no records to resample")
        if not 1 <= width <= stride:
            raise ValueError(
                f"out has {width} columns, values {stride}: expected 1 to {stride}"
            )
        _rows_free(&self.rows)
        with nogil:
            status = _rows_init(&self.rows, &values[0, 0], records, stride, width)
        if status != 0:
            raise MemoryError("no memory for the rows to resample")

    def __dealloc__(self):
        _rows_free(&self.rows)

    @property
    def records(self):
        """How many records a sample draws."""
        return self.rows.records

    @property
    def width(self):
        """How many values of each row are summed."""
        return self.rows.width

    @property
    def distinct(self):
        """How many rows the sums gather from (``records`` when none are shared)."""
        return self.rows.distinct


cdef class LegacyStream:
    """A copy of a ``RandomState``'s MT19937 state that draws as it does.

    ``key`` (624 words) and ``pos`` are the ``"key"`` and ``"pos"`` of
    ``RandomState.get_state(legacy=False)["state"]``; :meth:`state` gives them
    back after the draws, for ``set_state``.
    """

    cdef kurenai_mt mt

    def __init__(self, const uint32_t[::1] key, int pos):
        if key.shape[0] != KEY_WORDS:
            raise ValueError(f"an MT19937 key has {KEY_WORDS} words, got {key.shape[0]}")
        if not 0 <= pos <= KEY_WORDS:
            raise ValueError(f"an MT19937 position is in [0, {KEY_WORDS}], got {pos}")
        memcpy(self.mt.key, &key[0], sizeof(self.mt.key))
        self.mt.pos = pos

    def state(self):
        """``(key, pos)``: the key as 624 native-endian 32-bit words (bytes)."""
        return (<char *>self.mt.key)[:sizeof(self.mt.key)], self.mt.pos

    def randint(self, uint64_t high, int64_t[::1] out):
        """Fill ``out`` as ``RandomState.randint(0, high, size=len(out))`` would."""
        if not 1 <= high <= 1 << 63:
            raise ValueError(f"high must be in [1, 2**63], got {high}")
        cdef kurenai_words words
        if out.shape[0] == 0:
            return
        with nogil:
            _start(&words, &self.mt, NULL, 0)
            _draw(&words, high - 1, <uint64_t *>&out[0], out.shape[0])

    def sums(self, values, double[:, ::1] out):
        """Per row of ``out``, one resample's sums of the rows of ``values``.

        Each resample draws ``len(values)`` row indices as
        ``RandomState.choice(len(values), size=len(values))`` would, and adds
        the chosen rows' first ``out.shape[1]`` values (the others are
        padding) in the order drawn, to +0.0 (as ``np.mean(axis=0)``).
        ``values`` is a (records x stride) array, or :class:`Rows` made from
        one (to lay it out once for many calls).
        """
        cdef Rows rows = values if isinstance(values, Rows) else Rows(values, out.shape[1])
        cdef int status
        if out.shape[1] != rows.rows.width:
            raise ValueError(f"out has {out.shape[1]} columns, the rows {rows.rows.width}")
        if out.shape[0] == 0:
            return
        with nogil:
            status = _resample_rows(&self.mt, &rows.rows, out.shape[0], &out[0, 0])
        if status != 0:
            raise MemoryError("no memory for the resamples' indices")

    def flip_sums(self, const double[:, ::1] values, double[:, ::1] out):
        """Per row of ``out``, one approximate-randomization trial's sums.

        A trial draws ``ceil(len(values) / 32)`` words as
        ``RandomState.randint(0, 2**32, size=...)`` would; record ``i`` is
        swapped when bit ``i % 32`` of word ``i // 32`` is set.  Its sums add
        each row of ``values`` (records x width, ``width == out.shape[1]``),
        negated when swapped, in record order from +0.0.
        """
        cdef int status
        if values.shape[0] == 0:
            raise ValueError("no records to randomize")
        if out.shape[1] != values.shape[1]:
            raise ValueError(f"out has {out.shape[1]} columns, the values {values.shape[1]}")
        if out.shape[0] == 0:
            return
        with nogil:
            status = _flip_sums(&self.mt, &values[0, 0], values.shape[0], values.shape[1],
                                out.shape[0], &out[0, 0])
        if status != 0:
            raise MemoryError("no memory for the trials' words")

# cython: boundscheck=False, wraparound=False, cdivision=True
"""Compiled ROUGE-W and ROUGE-S/SU kernels; ``_variants_py`` is their spec.

Tokens are any hashables; each call interns them to dense int IDs and
indexes per-token arrays by those.  ROUGE-W keeps two DP rows and one bit per
cell for the walk back (m*n/8 bytes for an m x n sentence pair); skip-bigrams
are counted per first token, never listed, in O(vocabulary) memory.
"""

from libc.math cimport pow
from libc.stdint cimport int64_t, uint8_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset


cdef class _Ids:
    """Sequences of tokens as dense int IDs from ``vocab``, concatenated,
    with each sequence's start (tokens: any hashables, e.g. str or int)."""

    cdef int *ids
    cdef int *starts
    cdef int count

    def __cinit__(self, sentences, dict vocab):
        cdef Py_ssize_t total = 0, position = 0, index = 0
        cdef object known
        sentences = [s if isinstance(s, (list, tuple)) else list(s) for s in sentences]
        for sentence in sentences:
            total += len(sentence)
        self.count = len(sentences)
        self.ids = <int *> malloc((total + 1) * sizeof(int))
        self.starts = <int *> malloc((self.count + 1) * sizeof(int))
        if self.ids == NULL or self.starts == NULL:
            raise MemoryError()
        for sentence in sentences:
            self.starts[index] = position
            index += 1
            for token in sentence:
                known = vocab.get(token)
                if known is None:
                    known = len(vocab)
                    vocab[token] = known
                self.ids[position] = known
                position += 1
        self.starts[self.count] = position

    def __dealloc__(self):
        free(self.ids)
        free(self.starts)


def skip_bigram_counts(t, p, int gap, bint unigrams):
    """ROUGE-S/SU ``(hits, t_count, p_count)``; ``gap < 0``: no limit."""
    cdef dict vocab = {}
    cdef _Ids ref = _Ids([t], vocab), can = _Ids([p], vocab)
    cdef int size = len(vocab)
    cdef int nt = ref.starts[1], np = can.starts[1]
    cdef int64_t hits
    cdef int64_t *counts = <int64_t *> calloc(4 * <size_t> size + 1, sizeof(int64_t))
    if counts == NULL:
        raise MemoryError()
    with nogil:
        hits = _skip_hits(ref.ids, nt, can.ids, np, gap, unigrams, counts, size)
    free(counts)
    return hits, _unit_count(nt, gap, unigrams), _unit_count(np, gap, unigrams)


cdef int64_t _unit_count(int n, int gap, bint unigrams) noexcept nogil:
    cdef int64_t total = 0
    cdef int i, reach
    for i in range(n - 1):
        reach = n - 1 - i
        total += reach if gap < 0 or reach < gap + 1 else gap + 1
        total += unigrams
    return total


cdef int64_t _skip_hits(
    const int *t, int nt, const int *p, int np, int gap, bint unigrams,
    int64_t *counts, int size
) noexcept nogil:
    # counts: [unigrams of t | unigrams of p | pairs of t | pairs of p], each `size`.
    cdef int64_t *uni_t = counts
    cdef int64_t *uni_p = counts + size
    cdef int64_t hits = 0
    cdef int i, a
    # A pair's first token is never the last one: count those first tokens.
    for i in range(nt - 1):
        uni_t[t[i]] += 1
    for i in range(np - 1):
        uni_p[p[i]] += 1
    for i in range(nt - 1):
        a = t[i]
        if uni_t[a] > 0 and uni_p[a] > 0:
            if unigrams:
                hits += uni_t[a] if uni_t[a] < uni_p[a] else uni_p[a]
            hits += _pairs_from(a, t, nt, p, np, gap, counts + 2 * size, counts + 3 * size)
            uni_t[a] = 0  # each first token once
    return hits


cdef int64_t _pairs_from(
    int a, const int *t, int nt, const int *p, int np, int gap, int64_t *pair_t, int64_t *pair_p
) noexcept nogil:
    """Σ over second tokens b of min(#(a, b) in t, #(a, b) in p)."""
    cdef int64_t hits = 0
    cdef int j, b
    _second_tokens(a, t, nt, gap, pair_t)
    _second_tokens(a, p, np, gap, pair_p)
    for j in range(1, nt):
        b = t[j]
        if pair_t[b]:
            hits += pair_t[b] if pair_t[b] < pair_p[b] else pair_p[b]
            pair_t[b] = 0
    for j in range(1, np):
        pair_p[p[j]] = 0
    return hits


cdef void _second_tokens(int a, const int *tokens, int n, int gap, int64_t *pairs) noexcept nogil:
    # pairs[b] += the number of a's at most gap tokens before each b: a window count.
    cdef int64_t window = 0
    cdef int j
    for j in range(1, n):
        window += tokens[j - 1] == a
        if gap >= 0 and j - gap - 2 >= 0:
            window -= tokens[j - gap - 2] == a
        pairs[tokens[j]] += window


def weighted_lcs(t_sents, p_sents, double weight):
    """ROUGE-W ``(hit, base)`` as ROUGE-1.5.5 computes them (see the twin)."""
    cdef dict vocab = {}
    cdef _Ids ref = _Ids(t_sents, vocab), can = _Ids(p_sents, vocab)
    cdef _Wlcs work = _Wlcs(ref, can, weight, len(vocab))
    cdef double hit = 0.0, base = 0.0
    with nogil:
        work.run(ref, can, &hit, &base)
    return hit, base


cdef class _Wlcs:
    """Buffers for one ``weighted_lcs`` call, sized for its longest sentences."""

    cdef double weight
    cdef double *f
    cdef double *rows
    cdef int *runs
    cdef uint8_t *up
    cdef uint8_t *marked
    cdef int *remaining

    cdef int size

    def __cinit__(self, _Ids ref, _Ids can, double weight, int size):
        cdef int m = _longest(ref), n = _longest(can), k
        self.weight = weight
        self.size = size
        self.f = <double *> malloc((min(m, n) + 2) * sizeof(double))
        self.rows = <double *> malloc(2 * (n + 1) * sizeof(double))
        self.runs = <int *> malloc(2 * (n + 1) * sizeof(int))
        self.up = <uint8_t *> malloc(<size_t> m * n // 8 + 1)
        self.marked = <uint8_t *> malloc(m + 1)
        self.remaining = <int *> calloc(2 * <size_t> size + 1, sizeof(int))
        if not (self.f and self.rows and self.runs and self.up and self.marked and self.remaining):
            raise MemoryError()
        for k in range(min(m, n) + 2):
            self.f[k] = pow(<double> k, weight)

    def __dealloc__(self):
        free(self.f)
        free(self.rows)
        free(self.runs)
        free(self.up)
        free(self.marked)
        free(self.remaining)

    cdef int run(self, _Ids ref, _Ids can, double *hit, double *base) noexcept nogil:
        cdef int *left_t = self.remaining
        cdef int *left_p = self.remaining + self.size
        cdef int i, s, q, m, n, token, run
        cdef const int *sentence
        for i in range(ref.starts[ref.count]):
            left_t[ref.ids[i]] += 1
        for i in range(can.starts[can.count]):
            left_p[can.ids[i]] += 1
        for s in range(ref.count):
            sentence = ref.ids + ref.starts[s]
            m = ref.starts[s + 1] - ref.starts[s]
            base[0] += pow(<double> m, self.weight)
            memset(self.marked, 0, m + 1)
            for q in range(can.count):
                n = can.starts[q + 1] - can.starts[q]
                if m and n:
                    self.mark(sentence, m, can.ids + can.starts[q], n)
            run = 0
            for i in range(m):
                token = sentence[i]
                if self.marked[i] and left_t[token] > 0 and left_p[token] > 0:
                    run += 1
                    if i + 1 == m or not self.marked[i + 1]:
                        hit[0] += pow(<double> run, self.weight)
                        run = 0
                    left_t[token] -= 1
                    left_p[token] -= 1
        return 0

    cdef void mark(self, const int *ref, int m, const int *can, int n) noexcept nogil:
        # Two rows of the weighted table and of the run lengths; one bit per
        # mismatch cell remembers whether the walk back goes up.
        cdef double *previous = self.rows
        cdef double *current = self.rows + n + 1
        cdef int *previous_run = self.runs
        cdef int *current_run = self.runs + n + 1
        cdef int i, j, k
        cdef size_t cell
        for j in range(n + 1):
            previous[j] = 0.0
            previous_run[j] = 0
        current[0] = 0.0
        current_run[0] = 0
        for i in range(1, m + 1):
            for j in range(1, n + 1):
                cell = <size_t> (i - 1) * n + (j - 1)
                if ref[i - 1] == can[j - 1]:
                    k = previous_run[j - 1]
                    current[j] = previous[j - 1] + self.f[k + 1] - self.f[k]
                    current_run[j] = k + 1
                elif previous[j] >= current[j - 1]:
                    current[j] = previous[j]
                    current_run[j] = 0
                    self.up[cell >> 3] |= <uint8_t> (1 << (cell & 7))
                else:
                    current[j] = current[j - 1]
                    current_run[j] = 0
                    self.up[cell >> 3] &= <uint8_t> ~(1 << (cell & 7))
            previous, current = current, previous
            previous_run, current_run = current_run, previous_run
        i, j = m, n
        while i > 0 and j > 0:
            cell = <size_t> (i - 1) * n + (j - 1)
            if ref[i - 1] == can[j - 1]:
                i -= 1
                j -= 1
                self.marked[i] = 1
            elif self.up[cell >> 3] >> (cell & 7) & 1:
                i -= 1
            else:
                j -= 1


cdef int _longest(_Ids ids):
    cdef int s, longest = 0
    for s in range(ids.count):
        longest = max(longest, ids.starts[s + 1] - ids.starts[s])
    return longest

# cython: boundscheck=False, wraparound=False, cdivision=True
"""Compiled ROUGE-W and ROUGE-S/SU kernels; ``_variants_py`` is their spec.

Tokens are any hashables; each call interns them to dense int IDs and
indexes per-token arrays by those.  ROUGE-W keeps two DP rows and one bit
per cell for the walk back (m*n/8 bytes for an m x n sentence pair,
checkpointed past a budget); skip-bigrams are counted per first token along
the chain of its occurrences, never listed: O(n) memory, O(n * (gap + 1))
time with a gap, O(n * shared vocabulary) without.
"""

from cpython.dict cimport PyDict_GetItem, PyDict_SetItem
from cpython.object cimport PyObject
from libc.math cimport pow, sqrt
from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset


cdef class _Ids:
    """Sequences of tokens as dense int IDs from ``vocab``, concatenated,
    with each sequence's start (tokens: any hashables, e.g. str or int)."""

    cdef int *ids
    cdef int *starts
    cdef int count

    def __cinit__(self, sentences, dict vocab):
        cdef Py_ssize_t total = 0, position = 0, index = 0
        cdef PyObject *known
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
                known = PyDict_GetItem(vocab, token)
                if known == NULL:
                    self.ids[position] = len(vocab)
                    PyDict_SetItem(vocab, token, len(vocab))
                else:
                    self.ids[position] = <object> known
                position += 1
        self.starts[self.count] = position

    def __dealloc__(self):
        free(self.ids)
        free(self.starts)


def skip_bigram_counts(t, p, int gap, bint unigrams):
    """ROUGE-S/SU ``(hits, t_count, p_count)``; ``gap < 0``: no limit."""
    cdef dict vocab = {}
    cdef _Ids ref = _Ids([t], vocab), can = _Ids([p], vocab)
    cdef int size = len(vocab), nt = ref.starts[1], np = can.starts[1]
    cdef int64_t hits
    # Per token: first position in t, in p; pair counts in t, in p.  Per position: next one.
    cdef int *chains = <int *> malloc((2 * <size_t> size + nt + np + 1) * sizeof(int))
    cdef int64_t *pairs = <int64_t *> calloc(2 * <size_t> size + 1, sizeof(int64_t))
    if chains == NULL or pairs == NULL:
        free(chains)
        free(pairs)
        raise MemoryError()
    with nogil:
        hits = _skip_hits(ref.ids, nt, can.ids, np, gap, unigrams, chains, pairs, size)
    free(chains)
    free(pairs)
    return hits, _unit_count(nt, gap, unigrams), _unit_count(np, gap, unigrams)


cdef int64_t _unit_count(int n, int gap, bint unigrams) noexcept nogil:
    cdef int64_t total = 0
    cdef int i, reach
    for i in range(n - 1):
        reach = n - 1 - i
        total += reach if gap < 0 or reach < gap + 1 else gap + 1
        total += unigrams
    return total


cdef void _chain(const int *tokens, int n, int *first, int *next) noexcept nogil:
    # Links the positions of each token that can start a pair (all but the last).
    cdef int i
    for i in range(n - 2, -1, -1):
        next[i] = first[tokens[i]]
        first[tokens[i]] = i


cdef int64_t _skip_hits(
    const int *t, int nt, const int *p, int np, int gap, bint unigrams,
    int *chains, int64_t *pairs, int size
) noexcept nogil:
    cdef int *first_t = chains
    cdef int *first_p = chains + size
    cdef int *next_t = chains + 2 * size
    cdef int *next_p = chains + 2 * size + nt
    cdef int64_t *pair_t = pairs
    cdef int64_t *pair_p = pairs + size
    cdef int64_t hits = 0, in_t, in_p
    cdef int a
    for a in range(2 * size):
        chains[a] = -1
    _chain(t, nt, first_t, next_t)
    _chain(p, np, first_p, next_p)
    for a in range(size):
        if first_t[a] < 0 or first_p[a] < 0:
            continue
        if unigrams:
            in_t, in_p = _chain_length(first_t[a], next_t), _chain_length(first_p[a], next_p)
            hits += in_t if in_t < in_p else in_p
        _visit(_ADD, a, t, nt, first_t[a], next_t, gap, pair_t, pair_p)
        _visit(_ADD, a, p, np, first_p[a], next_p, gap, pair_p, pair_t)
        hits += _visit(_DRAIN, a, t, nt, first_t[a], next_t, gap, pair_t, pair_p)
        _visit(_CLEAR, a, p, np, first_p[a], next_p, gap, pair_p, pair_t)
    return hits


cdef int64_t _chain_length(int i, const int *next) noexcept nogil:
    cdef int64_t length = 0
    while i >= 0:
        length += 1
        i = next[i]
    return length


cdef enum:
    _ADD, _DRAIN, _CLEAR


cdef int64_t _visit(
    int op, int a, const int *tokens, int n, int first, const int *next, int gap,
    int64_t *mine, const int64_t *other
) noexcept nogil:
    """Walks the second tokens of the pairs that start with ``a``: with a gap,
    the window after each occurrence of ``a``; without, everything after the
    first one.  _ADD counts the pairs (a, b) into ``mine[b]``; _DRAIN returns
    Σ_b min(mine[b], other[b]) and clears ``mine``; _CLEAR clears it."""
    cdef int64_t hits = 0, seen = 0
    cdef int i = first, j, b, stop
    while i >= 0:
        stop = n - 1 if gap < 0 or i + gap + 1 > n - 1 else i + gap + 1
        for j in range(i + 1, stop + 1):
            b = tokens[j]
            if op == _ADD:
                seen += tokens[j - 1] == a  # the a's before j (no gap limit)
                mine[b] += seen if gap < 0 else 1
            elif op == _DRAIN:
                if mine[b]:
                    hits += mine[b] if mine[b] < other[b] else other[b]
                    mine[b] = 0
            else:
                mine[b] = 0
        i = -1 if gap < 0 else next[i]
    return hits


def weighted_lcs(t_sents, p_sents, double weight):
    """ROUGE-W ``(hit, base)`` as ROUGE-1.5.5 computes them (see the twin)."""
    cdef dict vocab = {}
    cdef _Ids ref = _Ids(t_sents, vocab), can = _Ids(p_sents, vocab)
    cdef _Wlcs work = _Wlcs(ref, can, weight, len(vocab))
    cdef double hit = 0.0, base = 0.0
    cdef int failed
    with nogil:
        failed = work.run(ref, can, &hit, &base)
    if failed:
        raise MemoryError("not enough memory for ROUGE-W's table")
    return hit, base


# Walk-back bits kept at once, in 64-cell words (16 MiB).  Past that, rows of
# the table are checkpointed and each block of rows is recomputed, its bits
# kept, when the walk back reaches it: memory O(n * sqrt(m)), twice the time.
cdef size_t _bit_budget = 1 << 21


def _set_bit_budget(size_t words):
    """Sets the walk-back bit budget (in words); returns the previous one.
    For tests, to take the checkpointed path on small inputs."""
    global _bit_budget
    previous, _bit_budget = _bit_budget, words
    return previous


cdef class _Wlcs:
    """Buffers for one ``weighted_lcs`` call, sized for its longest sentences."""

    cdef double weight
    cdef double *f
    cdef double *rows
    cdef int *runs
    cdef uint64_t *up
    cdef size_t up_words
    cdef double *saved
    cdef int *saved_runs
    cdef size_t saved_cells
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
        self.marked = <uint8_t *> malloc(m + 1)
        self.remaining = <int *> calloc(2 * <size_t> size + 1, sizeof(int))
        if not (self.f and self.rows and self.runs and self.marked and self.remaining):
            raise MemoryError()
        for k in range(min(m, n) + 2):
            self.f[k] = pow(<double> k, weight)

    def __dealloc__(self):
        free(self.f)
        free(self.rows)
        free(self.runs)
        free(self.up)
        free(self.saved)
        free(self.saved_runs)
        free(self.marked)
        free(self.remaining)

    cdef int run(self, _Ids ref, _Ids can, double *hit, double *base) noexcept nogil:
        """Fills ``hit`` and ``base``; -1 if memory ran out."""
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
                if m and n and self.mark(sentence, m, can.ids + can.starts[q], n) < 0:
                    return -1
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

    cdef int mark(self, const int *ref, int m, const int *can, int n) noexcept nogil:
        """Marks the walk back's matched positions of ``ref``; -1 if out of memory."""
        cdef size_t words = (n + 63) // 64, block = m, blocks, start, stop
        cdef Py_ssize_t b
        cdef int j = n
        if <size_t> m * words > _bit_budget:
            block = min(_bit_budget // words, <size_t> sqrt(96.0 * m))
            block = block if block else 1
        blocks = (m + block - 1) // block
        if self.reserve(block * words, blocks if blocks > 1 else 0, n) < 0:
            return -1
        self.rows_from(0, m, ref, can, n, words, block if blocks > 1 else 0)
        for b in range(blocks - 1, -1, -1):
            start = <size_t> b * block
            stop = min(start + block, <size_t> m)
            if blocks > 1:  # recompute this block's rows from its checkpoint, keeping bits
                memcpy(self.rows, self.saved + b * (n + 1), (n + 1) * sizeof(double))
                memcpy(self.runs, self.saved_runs + b * (n + 1), (n + 1) * sizeof(int))
                self.rows_from(start, stop, ref, can, n, words, 0)
            j = self.walk_back(ref, stop, start, can, j, words)
            if j == 0:
                break
        return 0

    cdef int reserve(self, size_t bit_words, size_t checkpoints, int n) noexcept nogil:
        cdef void *grown
        if bit_words > self.up_words:
            grown = realloc(self.up, (bit_words + 1) * sizeof(uint64_t))
            if grown == NULL:
                return -1
            self.up, self.up_words = <uint64_t *> grown, bit_words
        if checkpoints * (n + 1) > self.saved_cells:
            free(self.saved)
            free(self.saved_runs)
            self.saved = <double *> malloc(checkpoints * (n + 1) * sizeof(double))
            self.saved_runs = <int *> malloc(checkpoints * (n + 1) * sizeof(int))
            self.saved_cells = checkpoints * (n + 1) if self.saved and self.saved_runs else 0
            if self.saved_cells == 0:
                return -1
        return 0

    cdef void rows_from(
        self, size_t start, size_t stop, const int *ref, const int *can, int n,
        size_t words, size_t checkpoint
    ) noexcept nogil:
        # Rows start+1..stop of the table from row ``start`` (zeros when 0,
        # else already in self.rows).  Without ``checkpoint`` row i's bits go to
        # block row i-start-1; with it, the row before every ``checkpoint``-th
        # row is saved instead and the bits are scratch.
        cdef double *previous = self.rows
        cdef double *current = self.rows + n + 1
        cdef int *previous_run = self.runs
        cdef int *current_run = self.runs + n + 1
        cdef size_t i
        cdef int j
        if start == 0:
            for j in range(n + 1):
                previous[j] = 0.0
                previous_run[j] = 0
        for i in range(start + 1, stop + 1):
            if checkpoint and (i - 1) % checkpoint == 0:
                memcpy(self.saved + (i - 1) // checkpoint * (n + 1), previous,
                       (n + 1) * sizeof(double))
                memcpy(self.saved_runs + (i - 1) // checkpoint * (n + 1), previous_run,
                       (n + 1) * sizeof(int))
            self.row(
                ref[i - 1], can, n, previous, previous_run, current, current_run,
                self.up + (0 if checkpoint else (i - start - 1) * words),
            )
            previous, current = current, previous
            previous_run, current_run = current_run, previous_run
        if previous != self.rows:  # leave the last row first, for the next caller
            memcpy(self.rows, previous, (n + 1) * sizeof(double))
            memcpy(self.runs, previous_run, (n + 1) * sizeof(int))

    cdef void row(
        self, int token, const int *can, int n, const double *previous, const int *previous_run,
        double *current, int *current_run, uint64_t *bits
    ) noexcept nogil:
        # One row of the weighted table and of the run lengths; one bit per
        # cell, 64 to a word, remembers whether the walk back goes up (read
        # only at mismatches).
        cdef uint64_t word = 0
        cdef int j, k
        current[0] = 0.0
        current_run[0] = 0
        for j in range(1, n + 1):
            if token == can[j - 1]:
                k = previous_run[j - 1]
                current[j] = previous[j - 1] + self.f[k + 1] - self.f[k]
                current_run[j] = k + 1
            elif previous[j] >= current[j - 1]:
                current[j] = previous[j]
                current_run[j] = 0
                word |= (<uint64_t> 1) << ((j - 1) & 63)
            else:
                current[j] = current[j - 1]
                current_run[j] = 0
            if (j & 63) == 0 or j == n:
                bits[(j - 1) >> 6] = word
                word = 0

    cdef int walk_back(
        self, const int *ref, size_t i, size_t start, const int *can, int j, size_t words
    ) noexcept nogil:
        # Perl's markLCS from cell (i, j) down to row ``start``, on the bits of
        # rows start+1..i; any equal pair is taken diagonally.  Returns j.
        while i > start and j > 0:
            if ref[i - 1] == can[j - 1]:
                i -= 1
                j -= 1
                self.marked[i] = 1
            elif self.up[(i - start - 1) * words + ((j - 1) >> 6)] >> ((j - 1) & 63) & 1:
                i -= 1
            else:
                j -= 1
        return j


cdef int _longest(_Ids ids):
    cdef int s, longest = 0
    for s in range(ids.count):
        longest = max(longest, ids.starts[s + 1] - ids.starts[s])
    return longest

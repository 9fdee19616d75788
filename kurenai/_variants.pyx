# cython: boundscheck=False, wraparound=False, cdivision=True
"""Compiled ROUGE-W and ROUGE-S/SU kernels; ``_variants_py`` is their spec.

The kernels read a ``Doc`` of dense int IDs (``kurenai._lcs``'s layout):
``kurenai._fused`` passes the IDs of its scan, the Python surface below
interns token sequences first.  ROUGE-W keeps two DP rows and one bit per
cell for the walk back (m*n/8 bytes for an m x n sentence pair,
checkpointed past a budget); skip-bigrams are counted per first token along
the chain of its occurrences, never listed: O(n + vocabulary) memory,
O(n * (gap + 1)) time with a gap, O(n * shared vocabulary) without.
"""

from libc.math cimport pow, sqrt
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset

from kurenai._kernels._variants_skip cimport _skip_hits, _unit_count
from kurenai._lcs cimport Doc, Interned


# Kernels take their scratch from the stack up to this many bytes: a short
# pair's arrays fit, and a malloc per pair would cost more than the counting.
cdef enum:
    SMALL = 4096
    SMALL_WORDS = 512  # SMALL in 8-byte words


cdef inline void *_scratch(void *small, size_t size) noexcept nogil:
    return small if size <= SMALL else malloc(size)


cdef inline void _release(void *buffer, void *small) noexcept nogil:
    if buffer != small:
        free(buffer)


# ---------------------------------------------------------------- Python surface

def skip_bigram_counts(t, p, int gap, bint unigrams):
    """ROUGE-S/SU ``(hits, t_count, p_count)``; ``gap < 0``: no limit."""
    cdef Interned docs = Interned([t], [p])
    cdef int64_t out[3]
    cdef int status
    with nogil:
        status = skip_bigram_doc_counts(&docs.a, &docs.b, gap, unigrams, docs.size, out)
    if status < 0:
        raise MemoryError()
    return out[0], out[1], out[2]


def weighted_lcs(t_sents, p_sents, double weight):
    """ROUGE-W ``(hit, base)`` as ROUGE-1.5.5 computes them (see the twin)."""
    cdef Interned docs = Interned(t_sents, p_sents)
    cdef double out[2]
    cdef int status
    with nogil:
        status = weighted_lcs_doc(&docs.a, &docs.b, weight, docs.size, out)
    if status < 0:
        raise MemoryError("not enough memory for ROUGE-W's table")
    return out[0], out[1]


def wlcs_marks(t_sents, p_sents, double weight):
    """Per reference token (the sentences concatenated), the prediction
    position (concatenated) of the first weighted LCS marking it, -1 if none
    does (see the twin)."""
    cdef Interned docs = Interned(t_sents, p_sents)
    cdef Py_ssize_t count = docs.a.n_tokens, i
    cdef int64_t *partner = <int64_t *> malloc((count + 1) * sizeof(int64_t))
    cdef double out[2]
    cdef int status
    if partner == NULL:
        raise MemoryError()
    try:
        for i in range(count):
            partner[i] = -1
        with nogil:
            status = _weighted_doc(&docs.a, &docs.b, weight, docs.size, out, partner)
        if status < 0:
            raise MemoryError("not enough memory for ROUGE-W's table")
        return [partner[i] for i in range(count)]
    finally:
        free(partner)


# ---------------------------------------------------------------- ROUGE-S / SU

cdef int skip_bigram_doc_counts(const Doc *t, const Doc *p, int gap, bint unigrams,
                                Py_ssize_t vocab_size, int64_t *out) noexcept nogil:
    """``out`` = (hits, t_count, p_count) of the whole texts ``t`` and ``p``
    (IDs below ``vocab_size``; sentences ignored); -1 if out of memory."""
    cdef Py_ssize_t nt = t.n_tokens, np = p.n_tokens
    # Per token: pending pair counts (int64), first start in t and p, starts in t
    # and p; per position: the next start of the same token.
    cdef size_t size = (vocab_size * sizeof(int64_t)
                        + (4 * vocab_size + nt + np + 1) * sizeof(int32_t))
    cdef int64_t small[SMALL_WORDS]
    cdef void *work = _scratch(small, size)
    if work == NULL:
        return -1
    out[0] = _skip_hits(t.ids, nt, p.ids, np, gap, unigrams, vocab_size,
                        <int64_t *> work, <int32_t *> (<int64_t *> work + vocab_size))
    out[1] = _unit_count(nt, gap, unigrams)
    out[2] = _unit_count(np, gap, unigrams)
    _release(work, small)
    return 0


# ---------------------------------------------------------------- ROUGE-W

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


cdef struct Wlcs:
    # Buffers for one weighted_lcs_doc call, sized for its longest sentences.
    double weight
    double *f              # f[k] = k ** weight
    double *rows           # two DP rows
    int32_t *runs          # their run lengths
    int32_t *zero_runs     # the run lengths of a row without matches
    uint8_t *marked        # per position of the reference sentence
    int32_t *remaining     # per token: unused count in t, then in p
    int32_t *seen          # per token: the stamp of the last candidate sentence holding it
    int32_t stamp
    uint64_t *up           # walk-back bits
    size_t up_words
    double *saved          # checkpointed rows, past the bit budget
    int32_t *saved_runs
    size_t saved_cells
    Py_ssize_t size
    int64_t *partner       # wlcs_marks: the current reference sentence's partners
    int64_t p_start        # and where the current prediction sentence starts


cdef int weighted_lcs_doc(const Doc *t, const Doc *p, double weight, Py_ssize_t vocab_size,
                          double *out) noexcept nogil:
    """``out`` = (hit, base) of the sentences of ``t`` and ``p`` (IDs below
    ``vocab_size``); -1 if out of memory."""
    return _weighted_doc(t, p, weight, vocab_size, out, NULL)


cdef int _weighted_doc(const Doc *t, const Doc *p, double weight, Py_ssize_t vocab_size,
                       double *out, int64_t *partner) noexcept nogil:
    # weighted_lcs_doc, or (``partner`` not NULL) wlcs_marks: the walks only,
    # each marked position's first partner recorded, nothing credited.
    cdef Wlcs w
    cdef Py_ssize_t m = _longest(t), n = _longest(p), k
    cdef size_t f_count = (m if m < n else n) + 2
    # One block for f, rows, runs, remaining, seen and marked, in that order.
    cdef size_t size = ((f_count + 2 * (n + 1)) * sizeof(double)
                        + (3 * (n + 1) + 3 * vocab_size) * sizeof(int32_t) + m + 1)
    cdef double small[SMALL_WORDS]
    cdef void *block = _scratch(small, size)
    cdef int status
    if block == NULL:
        return -1
    memset(&w, 0, sizeof(Wlcs))
    w.weight = weight
    w.size = vocab_size
    w.f = <double *> block
    w.rows = w.f + f_count
    w.runs = <int32_t *> (w.rows + 2 * (n + 1))
    w.zero_runs = w.runs + 2 * (n + 1)
    w.remaining = w.zero_runs + n + 1
    memset(w.zero_runs, 0, (n + 1) * sizeof(int32_t))
    w.seen = w.remaining + 2 * vocab_size
    w.marked = <uint8_t *> (w.seen + vocab_size)
    memset(w.remaining, 0, 3 * vocab_size * sizeof(int32_t))
    for k in range(<Py_ssize_t> f_count):
        w.f[k] = pow(<double> k, weight)
    out[0] = out[1] = 0.0
    if partner == NULL:
        status = _wlcs_run(&w, t, p, &out[0], &out[1])
    else:
        status = _wlcs_marks(&w, t, p, partner)
    free(w.up)
    free(w.saved)
    free(w.saved_runs)
    _release(block, small)
    return status


cdef int _wlcs_run(Wlcs *w, const Doc *t, const Doc *p, double *hit,
                   double *base) noexcept nogil:
    """Fills ``hit`` and ``base``; -1 if memory ran out."""
    cdef int32_t *left_t = w.remaining
    cdef int32_t *left_p = w.remaining + w.size
    cdef Py_ssize_t i, s, q, m, n, run
    cdef int32_t token
    cdef const int32_t *sentence
    for i in range(t.n_tokens):
        left_t[t.ids[i]] += 1
    for i in range(p.n_tokens):
        left_p[p.ids[i]] += 1
    for s in range(t.n_sents):
        sentence = t.ids + t.bounds[s]
        m = t.bounds[s + 1] - t.bounds[s]
        base[0] += pow(<double> m, w.weight)
        memset(w.marked, 0, m + 1)
        for q in range(p.n_sents):
            n = p.bounds[q + 1] - p.bounds[q]
            if m and n and _mark(w, sentence, m, p.ids + p.bounds[q], n) < 0:
                return -1
        run = 0
        for i in range(m):
            token = sentence[i]
            if w.marked[i] and left_t[token] > 0 and left_p[token] > 0:
                run += 1
                if i + 1 == m or not w.marked[i + 1]:
                    hit[0] += pow(<double> run, w.weight)
                    run = 0
                left_t[token] -= 1
                left_p[token] -= 1
    return 0


cdef int _wlcs_marks(Wlcs *w, const Doc *t, const Doc *p, int64_t *partner) noexcept nogil:
    """Records, per position of ``t``, the first partner that a walk marks;
    -1 if memory ran out."""
    cdef Py_ssize_t s, q, m, n
    for s in range(t.n_sents):
        m = t.bounds[s + 1] - t.bounds[s]
        w.partner = partner + t.bounds[s]
        for q in range(p.n_sents):
            n = p.bounds[q + 1] - p.bounds[q]
            w.p_start = p.bounds[q]
            if m and n and _mark(w, t.ids + t.bounds[s], m, p.ids + p.bounds[q], n) < 0:
                return -1
    return 0


cdef int _mark(Wlcs *w, const int32_t *t, Py_ssize_t m, const int32_t *p,
               Py_ssize_t n) noexcept nogil:
    """Marks the walk back's matched positions of ``t``; -1 if out of memory."""
    cdef size_t words = (n + 63) // 64, block = m, blocks, start, stop
    cdef Py_ssize_t b
    cdef Py_ssize_t j = n
    w.stamp += 1
    for j in range(n):
        w.seen[p[j]] = w.stamp
    j = n
    if <size_t> m * words > _bit_budget:
        block = min(_bit_budget // words, <size_t> sqrt(96.0 * m))
        block = block if block else 1
    blocks = (m + block - 1) // block
    if _reserve(w, block * words, blocks if blocks > 1 else 0, n) < 0:
        return -1
    _rows_from(w, 0, m, t, p, n, words, block if blocks > 1 else 0)
    for b in range(<Py_ssize_t> blocks - 1, -1, -1):
        start = <size_t> b * block
        stop = min(start + block, <size_t> m)
        if blocks > 1:  # recompute this block's rows from its checkpoint, keeping bits
            memcpy(w.rows, w.saved + b * (n + 1), (n + 1) * sizeof(double))
            memcpy(w.runs, w.saved_runs + b * (n + 1), (n + 1) * sizeof(int32_t))
            _rows_from(w, start, stop, t, p, n, words, 0)
        j = _walk_back(w, t, stop, start, p, j, words)
        if j == 0:
            break
    return 0


cdef int _reserve(Wlcs *w, size_t bit_words, size_t checkpoints, Py_ssize_t n) noexcept nogil:
    cdef void *grown
    if bit_words > w.up_words:
        grown = realloc(w.up, (bit_words + 1) * sizeof(uint64_t))
        if grown == NULL:
            return -1
        w.up, w.up_words = <uint64_t *> grown, bit_words
    if checkpoints * (n + 1) > w.saved_cells:
        free(w.saved)
        free(w.saved_runs)
        w.saved = <double *> malloc(checkpoints * (n + 1) * sizeof(double))
        w.saved_runs = <int32_t *> malloc(checkpoints * (n + 1) * sizeof(int32_t))
        w.saved_cells = checkpoints * (n + 1) if w.saved and w.saved_runs else 0
        if w.saved_cells == 0:
            return -1
    return 0


cdef void _rows_from(
    Wlcs *w, size_t start, size_t stop, const int32_t *t, const int32_t *p,
    Py_ssize_t n, size_t words, size_t checkpoint
) noexcept nogil:
    # Rows start+1..stop of the table from row ``start`` (zeros when 0,
    # else already in w.rows).  Without ``checkpoint`` row i's bits go to
    # block row i-start-1; with it, the row before every ``checkpoint``-th
    # row is saved instead and the bits are scratch.
    #
    # A row whose token ``p`` lacks, below a nondecreasing row, equals that
    # row (every cell takes the one above; ties go up): it is not computed,
    # only its walk-back bits set and its runs pointed at zeros.
    cdef bint monotone = start == 0  # row 0 is zeros; a checkpoint's row is unknown
    cdef double *previous = w.rows
    cdef double *current = w.rows + n + 1
    cdef int32_t *previous_run = w.runs
    cdef int32_t *current_run = w.runs + n + 1
    cdef int32_t *spare
    cdef uint64_t *bits
    cdef size_t i
    cdef Py_ssize_t j
    if start == 0:
        for j in range(n + 1):
            previous[j] = 0.0
            previous_run[j] = 0
    for i in range(start + 1, stop + 1):
        if checkpoint and (i - 1) % checkpoint == 0:
            memcpy(w.saved + (i - 1) // checkpoint * (n + 1), previous,
                   (n + 1) * sizeof(double))
            memcpy(w.saved_runs + (i - 1) // checkpoint * (n + 1), previous_run,
                   (n + 1) * sizeof(int32_t))
        bits = w.up + (0 if checkpoint else (i - start - 1) * words)
        if monotone and w.seen[t[i - 1]] != w.stamp:
            memset(bits, 0xFF, words * sizeof(uint64_t))
            previous_run = w.zero_runs
            continue
        monotone = _row(w.f, t[i - 1], p, n, previous, previous_run, current, current_run,
                        bits)
        spare = previous_run
        if spare == w.zero_runs:
            spare = w.runs + n + 1 if current_run == w.runs else w.runs
        previous, current = current, previous
        previous_run, current_run = current_run, spare
    # Leave the last row first, for the next caller.
    if previous != w.rows:
        memcpy(w.rows, previous, (n + 1) * sizeof(double))
    if previous_run != w.runs:
        memcpy(w.runs, previous_run, (n + 1) * sizeof(int32_t))


cdef bint _row(
    const double *f, int32_t token, const int32_t *p, Py_ssize_t n, const double *previous,
    const int32_t *previous_run, double *current, int32_t *current_run, uint64_t *bits
) noexcept nogil:
    # One row of the weighted table and of the run lengths; one bit per
    # cell, 64 to a word, remembers whether the walk back goes up (read
    # only at mismatches).  Returns whether the row is nondecreasing.
    cdef uint64_t word = 0, up
    cdef Py_ssize_t j
    cdef int32_t k
    cdef double best
    cdef bint monotone = True
    current[0] = 0.0
    current_run[0] = 0
    for j in range(1, n + 1):
        # Without branches on the data: the comparison is unpredictable.  The
        # max in this form is one instruction (maxsd) on the dependency chain.
        up = previous[j] >= current[j - 1]
        best = current[j - 1] if current[j - 1] > previous[j] else previous[j]
        word |= up << ((j - 1) & 63)
        if token == p[j - 1]:
            k = previous_run[j - 1]
            current[j] = previous[j - 1] + f[k + 1] - f[k]
            current_run[j] = k + 1
            monotone = monotone and current[j] >= current[j - 1]
        else:
            current[j] = best
            current_run[j] = 0
        if (j & 63) == 0 or j == n:
            bits[(j - 1) >> 6] = word
            word = 0
    return monotone


cdef Py_ssize_t _walk_back(
    Wlcs *w, const int32_t *t, size_t i, size_t start, const int32_t *p, Py_ssize_t j,
    size_t words
) noexcept nogil:
    # Perl's markLCS from cell (i, j) down to row ``start``, on the bits of
    # rows start+1..i; any equal pair is taken diagonally.  Returns j.
    while i > start and j > 0:
        if t[i - 1] == p[j - 1]:
            i -= 1
            j -= 1
            w.marked[i] = 1
            if w.partner != NULL and w.partner[i] < 0:
                w.partner[i] = w.p_start + j
        elif w.up[(i - start - 1) * words + ((j - 1) >> 6)] >> ((j - 1) & 63) & 1:
            i -= 1
        else:
            j -= 1
    return j


cdef Py_ssize_t _longest(const Doc *doc) noexcept nogil:
    cdef Py_ssize_t s, longest = 0
    for s in range(doc.n_sents):
        longest = max(longest, doc.bounds[s + 1] - doc.bounds[s])
    return longest

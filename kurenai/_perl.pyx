# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled kernels of ROUGE-1.5.5.pl: one evaluation's values, and the corpus bootstrap.

The spec is ``kurenai.rouge155``'s pure Python, which runs wherever this
module is not built: ``_counts.pair_counts`` / ``combine`` / ``eval_values``
for :func:`peer_values` and ``_corpus`` (NumPy, Perl's ``drand48`` in
``_perl_random``) for :func:`corpus_values`.  The same numbers come out, bit
for bit: every float operation is the spec's, in its order (the build turns
off fused multiply-add), and the script's ``sprintf("%07.5f")`` rounding is
C's ``snprintf`` read back by ``strtod``, both correctly rounded as Python's
formatting and ``float`` are (the spec: ``kurenai._data.rounding``).

:func:`peer_values` interns one peer and all its models once and counts
every metric of every model with kurenai's integer kernels (n-gram overlaps
and the summary-level union LCS of ``_lcs``, ROUGE-W and skip-bigrams of
``_variants``).  :func:`corpus_values` draws the script's ``srand(i)`` /
``int(rand(n))`` samples in C and sums each as it is drawn: no
(samples x evaluations) index array.

The bootstrap's C (the draws, the sums, the intervals) is the inline code of
``_kernels/_perl_bootstrap.pxd``, compiled into this module; this module holds one
evaluation's kernels, the SPL files' scan and the interning key.
"""

from libc.math cimport copysign, fabs, floor, pow
from libc.stdint cimport int32_t, int64_t
from libc.stdio cimport snprintf
from libc.stdlib cimport calloc, free, malloc, strtod

from kurenai._kernels._codes cimport LCS, LSUM, NGRAM, SKIP, WLCS
from kurenai._kernels._text_intern cimport HashKey, Table, fast_hash, intern_token
from kurenai._kernels._text_intern cimport table_free, table_init
from kurenai._lcs cimport Counts, Doc, doc_counts
from kurenai._kernels._token_intern cimport free_doc, intern_doc
from kurenai._kernels._ngrams cimport overlap
from kurenai._kernels._perl_bootstrap cimport draw_sums, interval, ordered_sums, to_samples
from kurenai._variants cimport skip_bigram_doc_counts, weighted_lcs_doc

import os

from kurenai._data import codes as _codes

# The C switch reads the registry's kind codes (kurenai/_kernels/_codes.pxd); the
# script's ROUGE-L is the union LCS of the units, the registry's LSUM.
_codes.check_c_kinds(
    "kurenai._perl", {"NGRAM": NGRAM, "LCS": LCS, "LSUM": LSUM, "WLCS": WLCS, "SKIP": SKIP}
)

ZERO_BASE = "a model summary has no words, and ROUGE-W divides by its length"


cdef struct Spec:
    int kind              # a kind code of kurenai/_kernels/_codes.pxd: NGRAM, LSUM, WLCS or SKIP
    Py_ssize_t n          # ROUGE-N's order; its slot in the overlaps for NGRAM
    double weight         # ROUGE-W's -w
    int gap               # ROUGE-S's -2 (< 0: no limit)
    bint unigrams         # SU


cdef double perl_rounded(double value) noexcept nogil:
    """``sprintf("%07.5f", value)`` read back, as the script compares it.

    Both steps round correctly, so the result is the double nearest k / 10^5,
    k the exact ``value`` * 10^5 rounded half to even; and k / 100000.0 is that
    double too (a division of two exact integers, rounded once).  The product
    ``value * 100000.0`` is within an ulp of the exact one, which decides k
    unless its fraction is near one half: there (and for values the fast path
    does not cover) the text is made and read back.  The sign is the
    value's, as the text's is: -0.0 reads back as "-0.00000".
    """
    cdef char text[512]
    cdef double scaled, whole, fraction
    if 0 <= value < 1e4:  # then the product is within 2^-23 of the exact one
        scaled = value * 100000.0
        whole = floor(scaled)
        fraction = scaled - whole
        if fabs(fraction - 0.5) > 1e-3:
            return copysign((whole + (fraction > 0.5)) / 100000.0, value)
    snprintf(text, sizeof(text), b"%07.5f", value)
    return strtod(text, NULL)


def rounded(double value):
    """The script's rounding of ``value``, in C (for tests: it is
    ``kurenai._data.rounding.perl_rounded(value)``)."""
    return perl_rounded(value)


cdef double rounded_key(double hit, double count) noexcept nogil:
    return perl_rounded(hit / count) if count != 0 else 0.0


cdef double f_measure(double recall, double precision, double alpha) noexcept nogil:
    cdef double denominator = (1 - alpha) * precision + alpha * recall
    return perl_rounded((precision * recall) / denominator) if denominator > 0 else 0.0


# ---------------------------------------------------------------- one evaluation

cdef int read_specs(object metrics, Spec *specs, Py_ssize_t *orders,
                    Py_ssize_t *n_orders) except -1:
    """The metrics' kinds and parameters; ``orders``: the distinct N orders, sorted."""
    cdef Py_ssize_t i = 0, o, k
    cdef list found = sorted({m.n for m in metrics if m.kind == "N"})
    n_orders[0] = len(found)
    for o in range(n_orders[0]):
        orders[o] = found[o]
        if orders[o] < 1:
            raise ValueError(f"n must be positive, got {orders[o]}")
    for metric in metrics:
        kind = metric.kind
        specs[i].kind = (NGRAM if kind == "N" else LSUM if kind == "L"
                         else WLCS if kind == "W" else SKIP)
        specs[i].n = 0
        if specs[i].kind == NGRAM:
            for k in range(n_orders[0]):
                if orders[k] == metric.n:
                    specs[i].n = k
        specs[i].weight = metric.weight
        specs[i].gap = metric.gap
        specs[i].unigrams = metric.unigrams
        i += 1
    return 0


cdef int count_pair(const Spec *specs, Py_ssize_t n_metrics, const Doc *t, const Doc *p,
                    const Py_ssize_t *orders, Py_ssize_t n_orders, Py_ssize_t vocab,
                    double *out) noexcept nogil:
    """``_counts.pair_counts`` of one model ``t`` and the peer ``p`` (their units'
    words, read once): (hit, model count, peer count, key) per metric into
    ``out``.  -1 if out of memory, -2 for ROUGE-W of a model without words."""
    cdef Py_ssize_t overlaps[16]
    cdef Counts counts
    cdef Py_ssize_t i, m_len = t.n_tokens, p_len = p.n_tokens
    cdef bint want_lcs = False
    cdef double hit, m_count, p_count
    cdef double w[2]
    cdef int64_t skips[3]
    cdef int skipped_gap = 0
    cdef bint skipped = False
    cdef Doc t_head, p_head
    for i in range(n_metrics):
        want_lcs = want_lcs or specs[i].kind == LSUM
    counts.overlaps = overlaps
    if doc_counts(t, p, t, p, orders, n_orders, False, want_lcs, vocab, 1, &counts) < 0:
        return -1
    for i in range(n_metrics):
        if specs[i].kind == NGRAM:
            hit = counts.overlaps[specs[i].n]
            m_count = max(m_len - orders[specs[i].n] + 1, 0)
            p_count = max(p_len - orders[specs[i].n] + 1, 0)
            out[0], out[1], out[2] = hit, m_count, p_count
            out[3] = rounded_key(hit, m_count)
        elif specs[i].kind == LSUM:
            out[0], out[1], out[2] = counts.hits, m_len, p_len
            out[3] = counts.hits / <double> m_len if m_len > 0 else 0.0
        elif specs[i].kind == WLCS:
            if weighted_lcs_doc(t, p, specs[i].weight, vocab, w) < 0:
                return -1
            if w[1] == 0:
                return -2
            out[0] = w[0]
            out[1] = pow(w[1], specs[i].weight)
            out[2] = pow(<double> p_len, specs[i].weight)
            out[3] = pow(w[0] / w[1], 1 / specs[i].weight)
        else:
            if not skipped or skipped_gap != specs[i].gap:  # S and SU of a gap share them
                if skip_bigram_doc_counts(t, p, specs[i].gap, False, vocab, skips) < 0:
                    return -1
                skipped, skipped_gap = True, specs[i].gap
            hit, m_count, p_count = skips[0], skips[1], skips[2]
            if specs[i].unigrams:  # SU: every unigram but the last as well
                t_head = t[0]
                p_head = p[0]
                t_head.n_tokens = max(m_len - 1, 0)
                p_head.n_tokens = max(p_len - 1, 0)
                hit += overlap(&t_head, &p_head, 1, vocab)
                m_count += max(m_len - 1, 0)
                p_count += max(p_len - 1, 0)
            out[0], out[1], out[2] = hit, m_count, p_count
            out[3] = rounded_key(hit, m_count)
        out += 4
    return 0


cdef void combine(const double *per_model, Py_ssize_t n_models, Py_ssize_t n_metrics,
                  bint best, double *totals) noexcept nogil:
    """``_counts.combine``: per metric, the models' counts summed (``-f A``), or
    the first model's with the strictly highest key (``-f B``; all zero where
    no key beats -1: every key NaN)."""
    cdef Py_ssize_t i, k
    cdef const double *counts
    cdef const double *winner
    cdef double top
    cdef double[4] no_model = [0.0, 0.0, 0.0, 0.0]
    for i in range(n_metrics):
        totals[3 * i] = totals[3 * i + 1] = totals[3 * i + 2] = 0.0
        if n_models == 0:
            continue
        winner, top = no_model, -1.0
        for k in range(n_models):
            counts = per_model + 4 * (k * n_metrics + i)
            if best:
                if counts[3] > top:
                    winner, top = counts, counts[3]
            else:
                totals[3 * i] += counts[0]
                totals[3 * i + 1] += counts[1]
                totals[3 * i + 2] += counts[2]
        if best:
            totals[3 * i], totals[3 * i + 1], totals[3 * i + 2] = winner[0], winner[1], winner[2]


cdef void eval_values(const Spec *spec, const double *total, int counting, double alpha,
                      double *out) noexcept nogil:
    """``_counts.eval_values``: rounded (R, P, F), or (model count, peer count,
    hit) under ``-t 1/2``."""
    cdef double hit = total[0], m_count = total[1], p_count = total[2], inverse
    if counting:
        out[0], out[1], out[2] = m_count, p_count, hit
        return
    if spec.kind == WLCS:
        inverse = 1 / spec.weight
        out[0] = perl_rounded(pow(hit / m_count, inverse)) if m_count != 0 else 0.0
        out[1] = perl_rounded(pow(hit / p_count, inverse)) if p_count != 0 else 0.0
    else:
        out[0] = perl_rounded(hit / m_count) if m_count != 0 else 0.0
        out[1] = perl_rounded(hit / p_count) if p_count != 0 else 0.0
    out[2] = f_measure(out[0], out[1], alpha)


cdef list values_of(object metrics, Doc *t, Py_ssize_t n_models, Doc *p, Py_ssize_t vocab,
                    bint best, object counting, double alpha):
    """The values of ``metrics`` for the models ``t`` and the peer ``p``,
    interned over ``vocab`` IDs (the two functions below)."""
    cdef Py_ssize_t n_metrics = len(metrics), k, i, n_orders
    cdef Py_ssize_t orders[16]
    cdef int status = 0, count_mode = 0 if counting is None else counting
    cdef Spec specs[16]
    cdef double *per_model
    cdef double totals[96]
    if n_metrics > 16:
        raise ValueError("at most 16 metrics")
    read_specs(metrics, specs, orders, &n_orders)
    per_model = <double *> malloc((4 * n_models * n_metrics + 1) * sizeof(double))
    if per_model == NULL:
        raise MemoryError()
    with nogil:
        for k in range(n_models):
            status = count_pair(specs, n_metrics, &t[k], p, orders, n_orders, vocab,
                                per_model + 4 * k * n_metrics)
            if status < 0:
                break
        if status == 0:
            combine(per_model, n_models, n_metrics, best, totals)
            for i in range(n_metrics):
                eval_values(&specs[i], totals + 3 * i, count_mode, alpha,
                            totals + 3 * (n_metrics + i))
    free(per_model)
    if status == -2:
        raise ZeroDivisionError(ZERO_BASE)
    if status < 0:
        raise MemoryError()
    return [totals[3 * n_metrics + i] for i in range(3 * n_metrics)]


def peer_values(metrics, models, peer, bint best, counting, double alpha):
    """One evaluation's values, 3 per metric: ``_counts.eval_values`` of
    ``_counts.combine`` of ``_counts.pair_counts`` of each model with the peer.

    ``metrics``: ``_counts.Metric`` s; ``models``: each model's units, a unit
    a list of words; ``peer``: the peer's units (each summary's words are its
    units' words one after another: no ``-l``/``-b`` cut).  ``best``: ``-f
    B``; ``counting``: ``-t`` (None for 0).  A ZeroDivisionError where the
    script dies dividing by zero.
    """
    cdef Py_ssize_t n_models = len(models), k
    cdef dict words = {}
    cdef Doc p
    cdef Doc *t = <Doc *> calloc(n_models + 1, sizeof(Doc))
    p.ids = NULL
    p.bounds = NULL
    try:
        if t == NULL:
            raise MemoryError()
        intern_doc(peer, words, &p)
        for k in range(n_models):
            intern_doc(models[k], words, &t[k])
        return values_of(metrics, t, n_models, &p, len(words), best, counting, alpha)
    finally:
        free_doc(&p)
        for k in range(n_models if t != NULL else 0):
            free_doc(&t[k])
        free(t)


# ---------------------------------------------------------------- SPL files

cdef HashKey HASH_KEY
HASH_KEY.constant_fast = False
_key = os.urandom(16)  # the interning table's hash key, new in each process
HASH_KEY.words[0] = int.from_bytes(_key[:8], "little")
HASH_KEY.words[1] = int.from_bytes(_key[8:], "little")
del _key


cdef inline bint word_byte(unsigned char c) noexcept nogil:
    return (b"a"[0] <= c <= b"z"[0]) or (b"0"[0] <= c <= b"9"[0])


cdef int scan_spl(const char *data, Py_ssize_t size, char *lowered, Table *table,
                  Doc *doc) noexcept nogil:
    """``doc`` = the units of an SPL file's ``data`` as the script reads them
    (``_summary.summary_of``): every non-empty line a unit, ASCII lower-cased
    (into ``lowered``), its words the runs of ``[a-z0-9]``, interned in
    ``table``.  -1 if out of memory."""
    cdef Py_ssize_t i, line_start = 0, k = 0, units = 0
    cdef unsigned char c
    doc.ids = <int32_t *> malloc((size // 2 + 2) * sizeof(int32_t))
    doc.bounds = <Py_ssize_t *> malloc((size + 2) * sizeof(Py_ssize_t))
    if doc.ids == NULL or doc.bounds == NULL:
        return -1
    for i in range(size):
        c = data[i]
        lowered[i] = c + 32 if b"A"[0] <= c <= b"Z"[0] else c
    i = 0
    while i <= size:
        if i == size or lowered[i] == b"\n"[0]:
            if i > line_start:  # a non-empty line ends: one unit
                doc.bounds[units] = k
                units += 1
                k = words_in(lowered, line_start, i, table, doc.ids, k)
                if k < 0:
                    return -1
            line_start = i + 1
        i += 1
    doc.bounds[units] = k
    doc.n_sents = units
    doc.n_tokens = k
    return 0


cdef Py_ssize_t words_in(const char *text, Py_ssize_t begin, Py_ssize_t end, Table *table,
                         int32_t *ids, Py_ssize_t k) noexcept nogil:
    """Intern the words of ``text[begin:end]`` into ``ids`` from ``k``; the
    new count, -1 if out of memory."""
    cdef Py_ssize_t i = begin, start
    cdef int32_t found
    while i < end:
        if not word_byte(text[i]):
            i += 1
            continue
        start = i
        while i < end and word_byte(text[i]):
            i += 1
        found = intern_token(table, text + start, 1, i - start,
                             fast_hash(table, text + start, 1, i - start))
        if found < 0:
            return -1
        ids[k] = found
        k += 1
    return k


def spl_values(metrics, models, bytes peer, bint best, counting, double alpha):
    """:func:`peer_values` of SPL files read without ``-m``, ``-s``, ``-l`` or
    ``-b``: ``models`` and ``peer`` are the files' bytes, whose words are
    found and interned here, without a Python string per word."""
    cdef Py_ssize_t n_models = len(models), k, total = len(peer)
    cdef list files = [peer, *models]
    cdef Table table
    cdef Doc *docs = <Doc *> calloc(n_models + 1, sizeof(Doc))
    cdef char *lowered = NULL
    cdef Py_ssize_t offset = 0
    cdef bytes data
    cdef int status = 0
    table.entries = NULL
    table.slots = NULL
    try:
        for data in files:
            total += len(data)
        lowered = <char *> malloc(total + 1)
        if docs == NULL or lowered == NULL or table_init(&table, total // 4, &HASH_KEY) < 0:
            raise MemoryError()
        for k in range(n_models + 1):
            data = files[k]
            status = scan_spl(data, len(data), lowered + offset, &table, &docs[k])
            if status < 0:
                raise MemoryError()
            offset += len(data)
        return values_of(metrics, docs + 1, n_models, &docs[0], table.n, best, counting, alpha)
    finally:
        table_free(&table)
        for k in range(n_models + 1 if docs != NULL else 0):
            free_doc(&docs[k])
        free(docs)
        free(lowered)


# ---------------------------------------------------------------- the corpus

def corpus_values(const double[::1] values, Py_ssize_t metrics, counting, double alpha,
                  Py_ssize_t resamples, double confidence):
    """``_corpus.corpus_averages`` as numbers: 12 per metric, its three summed
    columns, then (mean, low, high) of R, P and F (zeros under ``-t 2``).

    ``values``: evaluations x metrics x 3, flat, the evaluations in the
    script's string order; ``counting``: ``-t`` (None for 0).
    """
    cdef Py_ssize_t width = 3 * metrics, size, s, c
    cdef int count_mode = 0 if counting is None else counting
    cdef double *sums
    cdef double *column
    cdef double *found
    if metrics < 1 or values.shape[0] % width:
        raise ValueError(f"{values.shape[0]} values are not evaluations x {metrics} x 3")
    if resamples < 1:
        raise ValueError("at least one resample")
    size = values.shape[0] // width
    found = <double *> malloc(12 * metrics * sizeof(double))
    sums = <double *> malloc(resamples * width * sizeof(double))
    column = <double *> malloc((resamples if resamples > width else width) * sizeof(double))
    try:
        if found == NULL or sums == NULL or column == NULL:
            raise MemoryError()
        with nogil:
            for c in range(12 * metrics):
                found[c] = 0.0
            ordered_sums(&values[0] if size else NULL, size, width, column)
            for c in range(width):
                found[12 * (c // 3) + c % 3] = column[c]
            if count_mode != 2:
                if size:
                    draw_sums(&values[0], size, width, resamples, sums)
                    to_samples(sums, resamples, width, size, count_mode, alpha)
                else:
                    for s in range(resamples * width):
                        sums[s] = 0.0
                for c in range(width):
                    for s in range(resamples):
                        column[s] = sums[s * width + c]
                    interval(column, resamples, confidence,
                             found + 12 * (c // 3) + 3 + 3 * (c % 3))
        return [found[c] for c in range(12 * metrics)]
    finally:
        free(found)
        free(sums)
        free(column)

# One pair's work in kurenai._fused, without the GIL: lowercase (ASCII),
# scan both texts into one table, then count with the kernels of
# kurenai._lcs (n-grams, LCS, ROUGE-Lsum) and kurenai._variants (ROUGE-W/S/SU).
# Stemming, which may call Python, runs between the scan and the count
# (kurenai/_kernels/_fused_driver.pxd, with kurenai/_kernels/_fused_stems.pxd's stem_all).
#
# Inline code only, compiled into the module that cimports it.  What to
# count is a Layout, the C form of a plan's ROUGE types.

from libc.stdint cimport int32_t, int64_t, uint8_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

from kurenai._kernels._codes cimport SKIP, WLCS
from kurenai._kernels._text_intern cimport HashKey, Table, table_free, table_init
from kurenai._kernels._fused_scan cimport ScanRules, scan, scan_alone, scan_alone_free
from kurenai._kernels._pair_stems cimport StemText
from kurenai._lcs cimport Counts, Doc, doc_counts
from kurenai._variants cimport skip_bigram_doc_counts, weighted_lcs_doc


cdef struct Layout:
    int mode                    # a ScanMode
    int threads                 # how many threads one long pair's LCS may use
    Py_ssize_t n_types
    int *kinds                  # per type: a kind code (kurenai/_kernels/_codes.pxd)
    Py_ssize_t *orders          # per type: n for n-grams
    Py_ssize_t *order_slot      # per type: index into Counts.overlaps
    Py_ssize_t *ngram_orders    # each distinct n-gram order once
    Py_ssize_t n_orders
    bint want_lcs, want_lsum
    bint has_variants           # any ROUGE-W/S/SU type
    int *gaps                   # per type: a SKIP type's gap limit
    int *unigrams               # per type: whether a SKIP type adds unigrams
    double w_weight
    const HashKey *key          # the interning key (the module's one copy)
    const ScanRules *rules      # the scan's tables (the module's one copy)


cdef extern from "Python.h":
    bint is_ascii "PyUnicode_IS_ASCII"(object text)


cdef struct PairWork:
    Table table
    Doc t
    Doc p
    Counts counts
    double *variant_counts  # ROUGE-W/S/SU: 3 per type (see count_variants)
    int32_t *final_ids
    StemText stems        # the copies of its stems its table points into
    uint8_t *lowered      # the lowercased copies of 1-byte texts
    int status            # 0: scored; 1: over the size limit; -1: out of memory


cdef inline void work_init(PairWork *w) noexcept nogil:
    memset(w, 0, sizeof(PairWork))


cdef inline void work_release_scan(PairWork *w) noexcept nogil:
    """Free what only the scan and the stemming read: the table (its size,
    the vocabulary the counts need, stays), the lowercased copies and the
    stems.  The counts read the IDs alone, so a long pair's peak is the
    larger of its scan's and its count's, not their sum."""
    free(w.final_ids)
    free(w.stems.data)
    free(w.lowered)
    table_free(&w.table)
    w.final_ids = NULL
    w.lowered = NULL
    w.stems.data = NULL
    w.stems.used = w.stems.capacity = 0


cdef inline void work_release(PairWork *w) noexcept nogil:
    """Free the buffers; keep the counts and token totals the scores need."""
    work_release_scan(w)
    free(w.t.ids)
    free(w.t.bounds)
    free(w.p.ids)
    free(w.p.bounds)
    w.t.ids = w.p.ids = NULL
    w.t.bounds = w.p.bounds = NULL


cdef inline void work_free(PairWork *w) noexcept nogil:
    """Free the buffers; the caller owns ``counts.overlaps``."""
    work_release(w)
    free(w.variant_counts)
    w.variant_counts = NULL


cdef inline void work_scan(const Layout *c, PairWork *w, const char *t_data, int t_kind,
                           Py_ssize_t t_length, const char *p_data, int p_kind,
                           Py_ssize_t p_length, Py_ssize_t max_tokens) noexcept nogil:
    """Scan a pair of texts (each ASCII, or lowercased already) into ``w``."""
    # A short text has roughly a distinct token per 8 code points; a size
    # limit bounds the tokens, and so the table, too.  A long text has far
    # fewer distinct tokens than that: its table starts at TABLE_START_MAX
    # entries and doubles as it fills (the slots are written when made, so
    # a table sized by length alone cost 16 MiB for two 6 MB texts).
    cdef Py_ssize_t expected = (t_length + p_length) // 8
    if 0 <= max_tokens < expected // 2:
        expected = 2 * max_tokens + 2
    expected = min(expected, TABLE_START_MAX)
    w.status = table_init(&w.table, expected, c.key)
    if w.status == 0:
        w.status = lower_ascii(w, &t_data, t_kind, t_length, &p_data, p_kind, p_length)
    if w.status == 0:
        w.status = scan(&w.table, c.rules, t_data, t_kind, t_length, c.mode, &w.t, max_tokens)
    if w.status == 0:
        w.status = scan(&w.table, c.rules, p_data, p_kind, p_length, c.mode, &w.p, max_tokens)


cdef enum:
    # The most entries a pair's interning table starts with (see work_scan).
    TABLE_START_MAX = 1 << 16
    # From this many code units, a 1-byte text with no A-Z is scanned as it
    # is, without a lowercased copy (a shorter text is copied without looking:
    # the copy is as fast as the look).
    LOWER_CHECK_MIN = 1 << 16


cdef inline bint has_upper(const uint8_t *text, Py_ssize_t length) noexcept nogil:
    """Whether ``text`` holds an A-Z; a loop the compiler vectorizes."""
    cdef Py_ssize_t i
    cdef uint8_t found = 0
    for i in range(length):
        found |= <uint8_t> (text[i] - 65) < 26
    return found


cdef inline bint needs_lowering(const char *data, int kind, Py_ssize_t length) noexcept nogil:
    """Whether lower_ascii copies this text: a 1-byte one, unless long and
    lowercase already."""
    if kind != 1:
        return False
    return length < LOWER_CHECK_MIN or has_upper(<const uint8_t *> data, length)


cdef inline void ascii_lower(const uint8_t *text, uint8_t *out,
                             Py_ssize_t length) noexcept nogil:
    """str.lower() of ASCII (A-Z only); a loop the compiler vectorizes."""
    cdef Py_ssize_t i
    for i in range(length):
        out[i] = text[i] + ((<uint8_t> (text[i] - 65) < 26) << 5)


cdef inline int lower_ascii(PairWork *w, const char **t_data, int t_kind, Py_ssize_t t_length,
                            const char **p_data, int p_kind,
                            Py_ssize_t p_length) noexcept nogil:
    """Point each 1-byte text at a copy with A-Z lowercased (owned by ``w``),
    unless needs_lowering finds it lowercase already.

    The texts are ASCII, so this is their str.lower(), or lowercased already,
    so this copies them unchanged.  Returns -1 if out of memory.
    """
    cdef bint t_lower = needs_lowering(t_data[0], t_kind, t_length)
    cdef bint p_lower = needs_lowering(p_data[0], p_kind, p_length)
    cdef Py_ssize_t size = (t_length if t_lower else 0) + (p_length if p_lower else 0)
    cdef uint8_t *out
    if size == 0:
        return 0
    out = w.lowered = <uint8_t *> malloc(size)
    if out == NULL:
        return -1
    if t_lower:
        ascii_lower(<const uint8_t *> t_data[0], out, t_length)
        t_data[0] = <const char *> out
        out += t_length
    if p_lower:
        ascii_lower(<const uint8_t *> p_data[0], out, p_length)
        p_data[0] = <const char *> out
    return 0


cdef inline void work_count(const Layout *c, PairWork *w) noexcept nogil:
    """Every count of a scanned (and stemmed) pair, unless it failed."""
    work_release_scan(w)
    if w.status == 0:
        w.status = doc_counts(&w.t, &w.p, &w.t, &w.p, c.ngram_orders, c.n_orders,
                              c.want_lcs, c.want_lsum, w.table.n, c.threads, &w.counts)
    if w.status == 0 and c.has_variants:
        w.status = count_variants(c, w)


cdef inline int count_variants(const Layout *c, PairWork *w) noexcept nogil:
    """ROUGE-1.5.5's counts of each ROUGE-W/S/SU type into w.variant_counts[3i:]:
    (hit, Σ f(sentence length), prediction length) for W on the sentences,
    (hits, t_count, p_count) for S/SU on the whole texts; -1 if out of memory."""
    cdef Py_ssize_t i
    cdef int64_t skip[3]
    cdef double *counts
    w.variant_counts = <double *> malloc(3 * c.n_types * sizeof(double))
    if w.variant_counts == NULL:
        return -1
    for i in range(c.n_types):
        counts = w.variant_counts + 3 * i
        if c.kinds[i] == WLCS:
            if weighted_lcs_doc(&w.t, &w.p, c.w_weight, w.table.n, counts) < 0:
                return -1
            counts[2] = <double> w.p.n_tokens
        elif c.kinds[i] == SKIP:
            if skip_bigram_doc_counts(&w.t, &w.p, c.gaps[i], c.unigrams[i],
                                      w.table.n, skip) < 0:
                return -1
            counts[0], counts[1], counts[2] = skip[0], skip[1], skip[2]
    return 0


# ---------------------------------------------------------------- the texts

cdef inline object prepared(object text):
    """``text`` ready for work_scan: an ASCII str as it is (the scan
    lowercases it in C, without a new str), any other text lowercased."""
    if type(text) is str and is_ascii(text):
        return text
    return text.lower()


cdef enum:
    # Texts longer than this are first checked for the size limit a piece at
    # a time: str.lower() of a whole text needs up to 4 bytes a code point
    # twice over, which would make an over-limit pair's memory grow with it.
    PIECE = 1 << 16


cdef inline tuple prepared_within(const Layout *c, list texts, Py_ssize_t n, Py_ssize_t limit):
    """The prepared texts (n targets, then n predictions), and the pairs
    found to be over ``limit`` tokens without lowering them whole (their
    texts are replaced by empty ones)."""
    cdef list ready = [], over = []
    cdef Py_ssize_t k
    for text in texts:
        if len(text) > PIECE and len(text) > 8 * limit and surely_over(c, text, limit):
            ready.append(None)
        else:
            ready.append(prepared(text))
    for k in range(n):
        if ready[k] is None or ready[n + k] is None:
            ready[k] = ready[n + k] = ""
            over.append(k)
    return ready, over


cdef inline bint surely_over(const Layout *c, str text, Py_ssize_t limit) except -1:
    """Whether ``text`` has more than ``limit`` tokens, counted on pieces
    lowercased one at a time; False when it may not.

    Lowercasing is the same per piece except for the final sigma, which does
    not change where tokens are.  A piece boundary may cut one token in two,
    so each boundary takes one token off the count: it never overcounts.
    """
    cdef Py_ssize_t start, pieces = 0, count = 0
    cdef str piece
    cdef Table table
    cdef Doc doc
    for start in range(0, len(text), PIECE):
        piece = text[start:start + PIECE].lower()
        scan_alone(c.key, c.rules, piece, c.mode, &table, &doc, 64)
        count += doc.n_tokens
        scan_alone_free(&table, &doc)
        pieces += 1
        if count - (pieces - 1) > limit:
            return True
    return False

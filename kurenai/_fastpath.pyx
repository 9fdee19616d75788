# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# distutils: language = c++
"""The fused hot path for kurenai's own tokenizers: text -> IDs -> Scores.

``AllCharacterSupportTokenizer`` (split on whitespace) and
``RougeScoreTokenizer`` (runs of ASCII ``[a-z0-9]``) are defined in Python, in
``kurenai.tokenizers``; this module produces exactly their tokens' IDs without
making a Python string per token.  It scans the lowercased text's code points
and interns each token's *content* in a C hash table; only tokens that need
Porter stemming become Python strings, once per distinct token.  The result
feeds ``kurenai._lcs``'s kernels, and the ``Score``s are computed with
rouge-score's float operations, in the same order.
"""

from cpython.unicode cimport (
    PyUnicode_DATA,
    PyUnicode_FromKindAndData,
    PyUnicode_GET_LENGTH,
    PyUnicode_KIND,
)
from libc.stdint cimport int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcmp, memset

from kurenai._lcs cimport Counts, Doc, doc_counts


cdef extern from "Python.h":
    # Pure macros over a str's buffer: safe without the GIL while it is alive.
    uint32_t read_code_point "PyUnicode_READ"(int kind, const void *data, Py_ssize_t index) nogil
    bint is_space "Py_UNICODE_ISSPACE"(uint32_t ch) nogil

cdef extern from *:
    """
    #define KURENAI_FNV_OFFSET 14695981039346656037ULL
    #define KURENAI_FNV_PRIME 1099511628211ULL
    """
    uint64_t FNV_OFFSET "KURENAI_FNV_OFFSET"
    uint64_t FNV_PRIME "KURENAI_FNV_PRIME"


cdef enum Mode:
    WHITESPACE = 0   # AllCharacterSupportTokenizer: maximal runs of non-space
    ROUGE_SCORE = 1  # RougeScoreTokenizer: maximal runs of ASCII [a-z0-9]

# The tokenizations this module reproduces, by the name the Python side uses.
MODES = {"whitespace": WHITESPACE, "rouge-score": ROUGE_SCORE}


cdef enum Kind:
    NGRAM, LCS, LSUM


# ---------------------------------------------------------------- interning

cdef struct Entry:
    const char *data      # the token's first code unit
    int kind              # 1, 2 or 4 bytes a code point
    Py_ssize_t length     # in code points
    uint64_t hash


cdef struct Table:
    Entry *entries
    Py_ssize_t n
    Py_ssize_t capacity
    int32_t *slots        # open addressing over entry indices; -1 is empty
    Py_ssize_t slot_mask


ctypedef fused code_unit:
    uint8_t
    uint16_t
    uint32_t


cdef inline uint64_t _hash(const char *data, int kind, Py_ssize_t length) noexcept nogil:
    # FNV-1a over code points, so equal tokens hash equally whatever their kind.
    cdef uint64_t h = FNV_OFFSET
    cdef Py_ssize_t i
    for i in range(length):
        h = (h ^ read_code_point(kind, data, i)) * FNV_PRIME
    return h


cdef inline bint _same(const Entry *e, const char *data, int kind,
                       Py_ssize_t length) noexcept nogil:
    cdef Py_ssize_t i
    if e.length != length:
        return False
    if e.kind == kind and kind == 1:
        for i in range(length):
            if e.data[i] != data[i]:
                return False
        return True
    if e.kind == kind:
        return memcmp(e.data, data, length * kind) == 0
    for i in range(length):
        if read_code_point(e.kind, e.data, i) != read_code_point(kind, data, i):
            return False
    return True


cdef int _table_init(Table *t, Py_ssize_t expected) noexcept nogil:
    t.n = 0
    t.capacity = 64
    while t.capacity < expected:
        t.capacity *= 2
    t.slot_mask = 2 * t.capacity - 1
    t.entries = <Entry *> malloc(t.capacity * sizeof(Entry))
    t.slots = <int32_t *> malloc((t.slot_mask + 1) * sizeof(int32_t))
    if t.entries == NULL or t.slots == NULL:
        return -1
    memset(t.slots, 0xFF, (t.slot_mask + 1) * sizeof(int32_t))
    return 0


cdef void _table_free(Table *t) noexcept nogil:
    free(t.entries)
    free(t.slots)
    t.entries = NULL
    t.slots = NULL


cdef int _table_grow(Table *t) noexcept nogil:
    cdef Py_ssize_t size = (t.slot_mask + 1) * 2, i, s
    cdef int32_t *slots = <int32_t *> malloc(size * sizeof(int32_t))
    cdef Entry *entries = <Entry *> realloc(t.entries, t.capacity * 2 * sizeof(Entry))
    if entries != NULL:
        t.entries = entries
        t.capacity *= 2
    if slots == NULL or entries == NULL:
        free(slots)
        return -1
    memset(slots, 0xFF, size * sizeof(int32_t))
    for i in range(t.n):
        s = t.entries[i].hash & (size - 1)
        while slots[s] >= 0:
            s = (s + 1) & (size - 1)
        slots[s] = <int32_t> i
    free(t.slots)
    t.slots = slots
    t.slot_mask = size - 1
    return 0


cdef int32_t _intern(Table *t, const char *data, int kind, Py_ssize_t length,
                     uint64_t h) noexcept nogil:
    """The ID of the token content with hash ``h``, added if new; -1: no memory."""
    cdef Py_ssize_t s = h & t.slot_mask
    cdef int32_t index
    while t.slots[s] >= 0:
        index = t.slots[s]
        if t.entries[index].hash == h and _same(&t.entries[index], data, kind, length):
            return index
        s = (s + 1) & t.slot_mask
    if t.n == t.capacity:
        if _table_grow(t) < 0:
            return -1
        return _intern(t, data, kind, length, h)
    t.entries[t.n] = Entry(data, kind, length, h)
    t.slots[s] = <int32_t> t.n
    t.n += 1
    return <int32_t> (t.n - 1)


# ---------------------------------------------------------------- scanning

# TOKEN_CHAR[mode][c]: is code point c (< 256) part of a token in this mode?
cdef uint8_t TOKEN_CHAR[2][256]
for _c in range(256):
    TOKEN_CHAR[<int> WHITESPACE][_c] = not is_space(_c)
    TOKEN_CHAR[<int> ROUGE_SCORE][_c] = (97 <= _c <= 122) or (48 <= _c <= 57)


cdef inline bint _in_token(uint32_t ch, int mode) noexcept nogil:
    if ch < 256:
        return TOKEN_CHAR[mode][ch]
    return mode == WHITESPACE and not is_space(ch)


cdef int _scan_units(Table *t, const code_unit *units, Py_ssize_t length, int mode,
                     Doc *doc) noexcept nogil:
    cdef Py_ssize_t i, start = -1, sentence_start = 0
    cdef uint32_t ch
    cdef uint64_t h = FNV_OFFSET
    cdef int32_t token_id
    cdef int kind = sizeof(code_unit)
    for i in range(length + 1):
        ch = units[i] if i < length else 10
        if _in_token(ch, mode):
            if start < 0:
                start = i
                h = FNV_OFFSET
            h = (h ^ ch) * FNV_PRIME
            continue
        if start >= 0:
            token_id = _intern(t, <const char *> (units + start), kind, i - start, h)
            if token_id < 0:
                return -1
            doc.ids[doc.n_tokens] = token_id
            doc.n_tokens += 1
            start = -1
        if ch == 10 and doc.n_tokens > sentence_start:
            doc.n_sents += 1
            doc.bounds[doc.n_sents] = doc.n_tokens
            sentence_start = doc.n_tokens
    return 0


cdef int _scan(Table *t, const char *data, int kind, Py_ssize_t length, int mode,
               Doc *doc) noexcept nogil:
    """Tokens of one lowercased text as IDs; a sentence per non-empty line."""
    # A token takes at least one code point and one separator.
    doc.ids = <int32_t *> malloc((length // 2 + 1) * sizeof(int32_t))
    doc.bounds = <Py_ssize_t *> malloc((length // 2 + 2) * sizeof(Py_ssize_t))
    doc.n_tokens = 0
    doc.n_sents = 0
    if doc.ids == NULL or doc.bounds == NULL:
        return -1
    doc.bounds[0] = 0
    if kind == 1:
        return _scan_units(t, <const uint8_t *> data, length, mode, doc)
    if kind == 2:
        return _scan_units(t, <const uint16_t *> data, length, mode, doc)
    return _scan_units(t, <const uint32_t *> data, length, mode, doc)


cdef inline bint _stemmable(const Entry *e) noexcept nogil:
    """rouge-score stems only tokens of ASCII [a-z0-9] longer than 3."""
    cdef Py_ssize_t i
    cdef uint32_t ch
    if e.length <= 3:
        return False
    for i in range(e.length):
        ch = read_code_point(e.kind, e.data, i)
        if not ((97 <= ch <= 122) or (48 <= ch <= 57)):
            return False
    return True


cdef int _stem_all(Table *t, object stem, list keep_alive, int mode,
                   int32_t **final_ids) except -1:
    """final_ids[raw ID] = ID of its stem (-1: rouge-score drops the token)."""
    cdef Py_ssize_t raw_count = t.n, e
    cdef int32_t *final = <int32_t *> malloc((raw_count + 1) * sizeof(int32_t))
    cdef Entry entry
    cdef str stemmed
    cdef const char *data
    cdef int kind
    cdef Py_ssize_t length
    final_ids[0] = final
    if final == NULL:
        raise MemoryError()
    for e in range(raw_count):
        entry = t.entries[e]
        if not _stemmable(&entry):
            final[e] = <int32_t> e
            continue
        stemmed = stem(PyUnicode_FromKindAndData(entry.kind, entry.data, entry.length))
        if mode == ROUGE_SCORE and not _is_rouge_word(stemmed):
            final[e] = -1
            continue
        keep_alive.append(stemmed)
        data = <const char *> PyUnicode_DATA(stemmed)
        kind = PyUnicode_KIND(stemmed)
        length = PyUnicode_GET_LENGTH(stemmed)
        final[e] = _intern(t, data, kind, length, _hash(data, kind, length))
        if final[e] < 0:
            raise MemoryError()
    return 0


cdef bint _is_rouge_word(str token):
    cdef Py_UCS4 ch
    if not token:
        return False
    for ch in token:
        if not (("a" <= ch <= "z") or ("0" <= ch <= "9")):
            return False
    return True


cdef void _remap(Doc *doc, const int32_t *final) noexcept nogil:
    """Replace raw IDs by stem IDs, dropping tokens mapped to -1."""
    cdef Py_ssize_t s, k, kept = 0, start
    for s in range(doc.n_sents):
        start = doc.bounds[s]
        doc.bounds[s] = kept
        for k in range(start, doc.bounds[s + 1]):
            if final[doc.ids[k]] >= 0:
                doc.ids[kept] = final[doc.ids[k]]
                kept += 1
    doc.bounds[doc.n_sents] = kept
    doc.n_tokens = kept


# ---------------------------------------------------------------- scoring

cdef inline double _fmeasure(double precision, double recall) noexcept nogil:
    # rouge_score.scoring.fmeasure, operation for operation.
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0


cdef class Plan:
    """What to compute for a scorer's ROUGE types, fixed at construction."""

    cdef readonly tuple rouge_types
    cdef readonly int mode
    cdef readonly object stem
    cdef readonly object score_class
    cdef Py_ssize_t n_types
    cdef int kinds[32]
    cdef Py_ssize_t orders[32]      # per type: n for n-grams
    cdef Py_ssize_t order_slot[32]  # per type: index into Counts.overlaps
    cdef Py_ssize_t ngram_orders[16]
    cdef Py_ssize_t n_orders
    cdef bint want_lcs, want_lsum

    def __init__(self, rouge_types, int mode, stem, score_class):
        self.rouge_types = tuple(rouge_types)
        if len(self.rouge_types) > 16:
            raise ValueError("the fused path takes at most 16 ROUGE types")
        self.mode = mode
        self.stem = stem
        self.score_class = score_class
        self.n_types = len(self.rouge_types)
        self.n_orders = 0
        self.want_lcs = self.want_lsum = False
        for i, rouge_type in enumerate(self.rouge_types):
            if rouge_type == "rougeL":
                self.kinds[i] = LCS
                self.want_lcs = True
            elif rouge_type == "rougeLsum":
                self.kinds[i] = LSUM
                self.want_lsum = True
            else:
                self.kinds[i] = NGRAM
                self.orders[i] = int(rouge_type[5:])
                self.order_slot[i] = self.n_orders
                self.ngram_orders[self.n_orders] = self.orders[i]
                self.n_orders += 1

    def score(self, str target, str prediction):
        """``RougeScorer.score`` for this plan: dict of rouge type -> Score."""
        cdef Counts counts
        cdef Py_ssize_t t_len, p_len
        _count(self, target.lower(), prediction.lower(), &counts, &t_len, &p_len)
        return self._scores(&counts, t_len, p_len)

    cdef dict _scores(self, const Counts *counts, Py_ssize_t t_len, Py_ssize_t p_len):
        cdef dict result = {}
        cdef Py_ssize_t i, hits, t_count, p_count
        cdef double precision, recall
        cdef object new = tuple.__new__
        for i in range(self.n_types):
            if self.kinds[i] == NGRAM:
                hits = counts.overlaps[self.order_slot[i]]
                # rouge-score divides by max(count, 1): always floats.
                p_count = max(p_len - self.orders[i] + 1, 1)
                t_count = max(t_len - self.orders[i] + 1, 1)
            else:
                hits = counts.lcs if self.kinds[i] == LCS else counts.hits
                p_count, t_count = p_len, t_len
                if p_len == 0 or t_len == 0:
                    # rouge-score's empty LCS scores are int zeros.
                    result[self.rouge_types[i]] = new(self.score_class, (0, 0, 0))
                    continue
            precision = <double> hits / <double> p_count
            recall = <double> hits / <double> t_count
            result[self.rouge_types[i]] = new(
                self.score_class, (precision, recall, _fmeasure(precision, recall))
            )
        return result


cdef int _count(Plan plan, str target, str prediction, Counts *counts,
                Py_ssize_t *t_len, Py_ssize_t *p_len) except -1:
    """Scan, intern, stem and count one pair of lowercased texts."""
    cdef Table table
    cdef Doc t, p
    cdef int32_t *final = NULL
    cdef int status = 0
    cdef list keep_alive = []
    cdef const char *t_data = <const char *> PyUnicode_DATA(target)
    cdef const char *p_data = <const char *> PyUnicode_DATA(prediction)
    cdef int t_kind = PyUnicode_KIND(target), p_kind = PyUnicode_KIND(prediction)
    cdef Py_ssize_t t_length = PyUnicode_GET_LENGTH(target)
    cdef Py_ssize_t p_length = PyUnicode_GET_LENGTH(prediction)
    t.ids = p.ids = NULL
    t.bounds = p.bounds = NULL
    table.entries = NULL
    table.slots = NULL
    try:
        with nogil:
            # Real text has roughly a distinct token per 8 code points.
            status = _table_init(&table, (t_length + p_length) // 8)
            if status == 0:
                status = _scan(&table, t_data, t_kind, t_length, plan.mode, &t)
            if status == 0:
                status = _scan(&table, p_data, p_kind, p_length, plan.mode, &p)
        if status < 0:
            raise MemoryError()
        if plan.stem is not None:
            _stem_all(&table, plan.stem, keep_alive, plan.mode, &final)
            _remap(&t, final)
            _remap(&p, final)
        with nogil:
            status = doc_counts(&t, &p, &t, &p, plan.ngram_orders, plan.n_orders,
                                plan.want_lcs, plan.want_lsum, table.n, counts)
        if status < 0:
            raise MemoryError()
        t_len[0] = t.n_tokens
        p_len[0] = p.n_tokens
        return 0
    finally:
        free(t.ids)
        free(t.bounds)
        free(p.ids)
        free(p.bounds)
        free(final)
        _table_free(&table)

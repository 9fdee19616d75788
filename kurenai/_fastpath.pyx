# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The fused hot path for kurenai's own tokenizers: text -> IDs -> Scores.

``AllCharacterSupportTokenizer`` (split on whitespace), ``RougeScoreTokenizer``
(runs of ASCII ``[a-z0-9]``), ``CharTokenizer`` and ``UnicodeTokenizer`` (by
Unicode class) are defined in Python, in ``kurenai.tokenizers``; this module
produces exactly their tokens' IDs without making a Python string per token.
It scans the lowercased text's code points and interns each token's *content*
in a C hash table; only tokens that need
Porter stemming become Python strings, once per distinct token.  The result
feeds ``kurenai._lcs``'s kernels (``kurenai._variants``' for ROUGE-W/S/SU),
and the ``Score``s are computed with rouge-score's float operations, in the
same order.
"""

from cpython.dict cimport PyDict_GetItem
from cpython.ref cimport PyObject
from cpython.unicode cimport (
    PyUnicode_DATA,
    PyUnicode_FromKindAndData,
    PyUnicode_GET_LENGTH,
    PyUnicode_KIND,
)
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.math cimport NAN, pow
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcmp, memset

from kurenai._lcs cimport Counts, Doc, doc_counts
from kurenai._variants cimport skip_bigram_doc_counts, weighted_lcs_doc

import os

from kurenai._core import plan as _plan

from kurenai._core import rules as _rules


cdef extern from "Python.h":
    bint is_ascii "PyUnicode_IS_ASCII"(object text)
    # Pure macros over a str's buffer: safe without the GIL while it is alive.
    uint32_t read_code_point "PyUnicode_READ"(int kind, const void *data, Py_ssize_t index) nogil
    bint is_space "Py_UNICODE_ISSPACE"(uint32_t ch) nogil
    const Py_ssize_t PY_SSIZE_T_MAX

cdef extern from *:
    """
    /* SipHash-1-3 (Aumasson & Bernstein; CPython's str hash) of a token's code
       points, keyed per process: crafted tokens cannot be made to collide, so
       the interning table's probe chains stay short whatever the input.  Code
       points (21 bits, three a 64-bit block), not bytes: equal tokens hash
       equally whatever their string's kind. */
    #define KURENAI_ROTL(x, b) (((x) << (b)) | ((x) >> (64 - (b))))
    #define KURENAI_SIPROUND(v0, v1, v2, v3) do { \
        v0 += v1; v1 = KURENAI_ROTL(v1, 13); v1 ^= v0; v0 = KURENAI_ROTL(v0, 32); \
        v2 += v3; v3 = KURENAI_ROTL(v3, 16); v3 ^= v2; \
        v0 += v3; v3 = KURENAI_ROTL(v3, 21); v3 ^= v0; \
        v2 += v1; v1 = KURENAI_ROTL(v1, 17); v1 ^= v2; v2 = KURENAI_ROTL(v2, 32); \
    } while (0)
    #define KURENAI_SIP_BLOCKS(T) do { \
        const T *u = (const T *) data; \
        for (; i + 3 <= length; i += 3) { \
            m = (uint64_t) u[i] | (uint64_t) u[i + 1] << 21 | (uint64_t) u[i + 2] << 42; \
            v3 ^= m; KURENAI_SIPROUND(v0, v1, v2, v3); v0 ^= m; \
        } \
        m = (uint64_t) (length & 0xFF) << 56; \
        if (length - i > 0) m |= (uint64_t) u[i]; \
        if (length - i > 1) m |= (uint64_t) u[i + 1] << 21; \
    } while (0)
    static uint64_t kurenai_key[2];
    static inline uint64_t kurenai_sip13(const void *data, int kind, Py_ssize_t length) {
        uint64_t v0 = kurenai_key[0] ^ 0x736f6d6570736575ULL;
        uint64_t v1 = kurenai_key[1] ^ 0x646f72616e646f6dULL;
        uint64_t v2 = kurenai_key[0] ^ 0x6c7967656e657261ULL;
        uint64_t v3 = kurenai_key[1] ^ 0x7465646279746573ULL;
        uint64_t m;
        Py_ssize_t i = 0;
        if (kind == 1) KURENAI_SIP_BLOCKS(uint8_t);
        else if (kind == 2) KURENAI_SIP_BLOCKS(uint16_t);
        else KURENAI_SIP_BLOCKS(uint32_t);
        v3 ^= m; KURENAI_SIPROUND(v0, v1, v2, v3); v0 ^= m;
        v2 ^= 0xFF;
        KURENAI_SIPROUND(v0, v1, v2, v3);
        KURENAI_SIPROUND(v0, v1, v2, v3);
        KURENAI_SIPROUND(v0, v1, v2, v3);
        return v0 ^ v1 ^ v2 ^ v3;
    }
    """
    uint64_t HASH_KEY "kurenai_key"[2]
    uint64_t _hash "kurenai_sip13"(const char *data, int kind, Py_ssize_t length) nogil


def _set_hash_key(bytes key):
    """Key the token hash (16 bytes; a random one is set at import)."""
    if len(key) != 16:
        raise ValueError("the hash key is 16 bytes")
    HASH_KEY[0] = int.from_bytes(key[:8], "little")
    HASH_KEY[1] = int.from_bytes(key[8:], "little")


_set_hash_key(os.urandom(16))  # a new key in each process


def _token_hash(str token):
    """The strong interning hash of ``token`` under this process's key (for tests)."""
    return _hash(<const char *> PyUnicode_DATA(token), PyUnicode_KIND(token),
                 PyUnicode_GET_LENGTH(token))


# Tables start with a fast keyed hash (a multiply per code point); one whose
# probe chain grows past PROBE_LIMIT, which ordinary text never does, is
# rehashed with SipHash for the rest of its life.  So crafted tokens cost
# one rehash, not quadratic time, and common text pays no SipHash rounds.
cdef Py_ssize_t PROBE_LIMIT = 48
cdef bint DEGENERATE_FAST_HASH = False


def _degrade_fast_hash(bint on):
    """Make the fast hash a constant (for tests of the switch to SipHash)."""
    global DEGENERATE_FAST_HASH
    DEGENERATE_FAST_HASH = on


cdef inline uint64_t _mix(uint64_t h, uint32_t ch) noexcept nogil:
    # A rotate-xor step per code point: a short dependency chain.  Its
    # collisions can be crafted; the switch to SipHash bounds their cost.
    # Code points, not code units: equal tokens hash equally in any kind.
    return ((h << 5) | (h >> 59)) ^ ch


cdef inline uint64_t _finish(uint64_t h) noexcept nogil:
    """The fast hash of a token whose code points were _mix-ed into ``h``
    (starting from HASH_KEY[0])."""
    if DEGENERATE_FAST_HASH:
        return 0
    h *= 0x100000001B3ULL
    return h ^ (h >> 29)


cdef inline uint64_t _fast_hash(const char *data, int kind, Py_ssize_t length) noexcept nogil:
    cdef uint64_t h = HASH_KEY[0]
    cdef Py_ssize_t i
    for i in range(length):
        h = _mix(h, read_code_point(kind, data, i))
    return _finish(h)


# The rules come from kurenai._core.rules, copied here into C values once.

# The tokenizations this module reproduces, by the ``scan_mode`` tokenizers
# declare (see kurenai.tokenizers).
cdef enum Mode:
    # Compile-time codes (the scan branches on them per code point); they are
    # the numbers of kurenai._core.rules.SCAN_MODES, checked below.
    WHITESPACE = 0     # maximal runs of non-space
    ROUGE_SCORE = 1    # maximal runs of ASCII [a-z0-9]
    CHAR = 2           # unspaced-script letters alone, words of others
    UNICODE_WORDS = 3  # runs of letters, numbers and marks

MODES = {"whitespace": WHITESPACE, "rouge-score": ROUGE_SCORE, "char": CHAR,
         "unicode": UNICODE_WORDS}
if MODES != _rules.SCAN_MODES:
    raise ImportError("kurenai._fastpath's scan modes differ from kurenai._core.rules.SCAN_MODES")

# The ROUGE type kinds this plan computes (kurenai._core.plan parses the types).
cdef int NGRAM = _plan.NGRAM
cdef int LCS = _plan.LCS
cdef int LSUM = _plan.LSUM
cdef int WLCS = _plan.WLCS
cdef int SKIP = _plan.SKIP
KINDS = frozenset({NGRAM, LCS, LSUM, WLCS, SKIP})

cdef Py_ssize_t STEM_MIN_LENGTH = _rules.STEM_MIN_LENGTH

# Code point flags for CHAR and UNICODE_WORDS, from
# kurenai.tokenizers._unicode.char_classes() (see set_char_classes), and the
# table's layout.  Compile-time constants, because the scan tests them per
# code point (read from memory they cost the scan a third more instructions);
# they are kurenai._core.rules's values, checked below when the module loads.
cdef enum:
    ALONE = 1
    WORD = 2
    MARK = 4
    DIRECT_PLANES_END = 0x40000
    PLANE_14 = 0xE0000
    PLANE_14_SIZE = 0x1000
    NEWLINE = 10

if (ALONE, WORD, MARK, DIRECT_PLANES_END, PLANE_14, PLANE_14_SIZE, NEWLINE) != (
    _rules.ALONE, _rules.WORD, _rules.MARK, _rules.DIRECT_PLANES_END, _rules.PLANE_14,
    _rules.PLANE_14_SIZE, ord(_rules.SENTENCE_SEPARATOR)
):
    raise ImportError("kurenai._fastpath's code point classes differ from kurenai._core.rules")

cdef const uint8_t *CLASSES = NULL
cdef bytes _classes_owner = None


def set_char_classes(bytes classes):
    """Install the code point flags the CHAR and UNICODE_WORDS scans read."""
    global CLASSES, _classes_owner
    if len(classes) != _rules.CLASS_TABLE_SIZE:
        raise ValueError("char classes must have kurenai._core.rules.CLASS_TABLE_SIZE bytes")
    _classes_owner = classes
    CLASSES = <const uint8_t *> classes


cdef int _need_char_classes() except -1:
    # A plan may be made in a process that never built a scorer: one
    # unpickled in a spawned worker, say.  Install the table then.
    if CLASSES == NULL:
        from kurenai.tokenizers._unicode import char_classes
        set_char_classes(char_classes())
    return 0


cdef inline uint8_t _flags(uint32_t ch) noexcept nogil:
    if ch < DIRECT_PLANES_END:
        return CLASSES[ch]
    if ch - PLANE_14 < PLANE_14_SIZE:
        return CLASSES[DIRECT_PLANES_END + ch - PLANE_14]
    return 0


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
    bint strong           # hashed with SipHash since a probe chain grew too long


ctypedef fused code_unit:
    uint8_t
    uint16_t
    uint32_t


cdef extern from *:
    """
    /* Unaligned loads of 2, 4 or 8 bytes (memcpy compiles to one mov). */
    static inline uint64_t kurenai_load8(const char *p) { uint64_t v; memcpy(&v, p, 8); return v; }
    static inline uint32_t kurenai_load4(const char *p) { uint32_t v; memcpy(&v, p, 4); return v; }
    static inline uint16_t kurenai_load2(const char *p) { uint16_t v; memcpy(&v, p, 2); return v; }
    """
    uint64_t load8 "kurenai_load8"(const char *p) noexcept nogil
    uint32_t load4 "kurenai_load4"(const char *p) noexcept nogil
    uint16_t load2 "kurenai_load2"(const char *p) noexcept nogil


cdef inline bint _same_bytes(const char *a, const char *b, Py_ssize_t length) noexcept nogil:
    """a[:length] == b[:length] for length >= 1, a few loads wide.

    A byte loop's exit branch depends on the token's length, which the CPU
    mispredicts about once a token; here a short token takes two loads from
    each side, its first and last bytes of a power-of-two width (overlapping).
    """
    cdef Py_ssize_t i
    if length >= 8:
        for i in range(0, length - 8, 8):
            if load8(a + i) != load8(b + i):
                return False
        return load8(a + length - 8) == load8(b + length - 8)
    if length >= 4:
        return (load4(a) == load4(b)) & (load4(a + length - 4) == load4(b + length - 4))
    if length >= 2:
        return (load2(a) == load2(b)) & (load2(a + length - 2) == load2(b + length - 2))
    return a[0] == b[0]


cdef inline bint _same(const Entry *e, const char *data, int kind,
                       Py_ssize_t length) noexcept nogil:
    cdef Py_ssize_t i
    if e.length != length:
        return False
    if e.kind == kind and kind == 1:
        return _same_bytes(e.data, data, length)
    if e.kind == kind:
        return memcmp(e.data, data, length * kind) == 0
    for i in range(length):
        if read_code_point(e.kind, e.data, i) != read_code_point(kind, data, i):
            return False
    return True


cdef int _table_init(Table *t, Py_ssize_t expected) noexcept nogil:
    t.n = 0
    t.strong = False
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
                     uint64_t fast) noexcept nogil:
    """The ID of the token content ``data[:length]``, added if new; -1: no memory.

    ``fast`` is its _fast_hash, which the scan computes as it reads the token.
    """
    cdef uint64_t h = _hash(data, kind, length) if t.strong else fast
    cdef Py_ssize_t s = h & t.slot_mask, probes = 0
    cdef int32_t index
    while t.slots[s] >= 0:
        index = t.slots[s]
        if t.entries[index].hash == h and _same(&t.entries[index], data, kind, length):
            return index
        s = (s + 1) & t.slot_mask
        probes += 1
        if probes > PROBE_LIMIT and not t.strong:
            _strengthen(t)
            return _intern(t, data, kind, length, fast)
    if t.n == t.capacity:
        if _table_grow(t) < 0:
            return -1
        return _intern(t, data, kind, length, fast)
    t.entries[t.n] = Entry(data, kind, length, h)
    t.slots[s] = <int32_t> t.n
    t.n += 1
    return <int32_t> (t.n - 1)


cdef void _strengthen(Table *t) noexcept nogil:
    """Rehash every entry with SipHash and place them again (same size)."""
    cdef Py_ssize_t i, s, size = t.slot_mask + 1
    t.strong = True
    memset(t.slots, 0xFF, size * sizeof(int32_t))
    for i in range(t.n):
        t.entries[i].hash = _hash(t.entries[i].data, t.entries[i].kind, t.entries[i].length)
        s = t.entries[i].hash & t.slot_mask
        while t.slots[s] >= 0:
            s = (s + 1) & t.slot_mask
        t.slots[s] = <int32_t> i


# ---------------------------------------------------------------- scanning

# TOKEN_CHAR[mode][c]: is code point c (< 256) part of a token in this mode?
# (Only the WHITESPACE and ROUGE_SCORE rows are read.)
cdef uint8_t TOKEN_CHAR[4][256]
for _c in range(256):
    TOKEN_CHAR[<int> WHITESPACE][_c] = not is_space(_c)
    TOKEN_CHAR[<int> ROUGE_SCORE][_c] = chr(_c) in _rules.ROUGE_WORD_CHARS


cdef inline bint _in_token(uint32_t ch, int mode) noexcept nogil:
    if ch < 256:
        return TOKEN_CHAR[mode][ch]
    return mode == WHITESPACE and not is_space(ch)


cdef inline int _emit(Table *t, Doc *doc, const char *data, int kind,
                      Py_ssize_t length, uint64_t mixed, Py_ssize_t limit) noexcept nogil:
    """Append the ID of the token ``data[:length]``, whose code points the
    scan _mix-ed into ``mixed``.

    Returns -1 if out of memory, 1 once the text has more than ``limit``
    tokens (the scan stops there), else 0.
    """
    cdef int32_t token_id = _intern(t, data, kind, length, _finish(mixed))
    if token_id < 0:
        return -1
    doc.ids[doc.n_tokens] = token_id
    doc.n_tokens += 1
    return doc.n_tokens > limit


cdef inline void _end_sentence(Doc *doc, Py_ssize_t *sentence_start) noexcept nogil:
    """Close the current sentence, if it has tokens (empty lines make none)."""
    if doc.n_tokens > sentence_start[0]:
        doc.n_sents += 1
        doc.bounds[doc.n_sents] = doc.n_tokens
        sentence_start[0] = doc.n_tokens


cdef int _scan_units(Table *t, const code_unit *units, Py_ssize_t length, int mode,
                     Doc *doc, Py_ssize_t limit) noexcept nogil:
    cdef Py_ssize_t i = 0, start, sentence_start = 0
    cdef int kind = sizeof(code_unit), status
    cdef uint64_t mixed
    while True:
        # Separators; a newline ends a sentence.
        while i < length and not _in_token(units[i], mode):
            if units[i] == NEWLINE:
                _end_sentence(doc, &sentence_start)
            i += 1
        if i >= length:
            break
        start = i
        mixed = HASH_KEY[0]  # the token is hashed as it is read
        while i < length and _in_token(units[i], mode):
            mixed = _mix(mixed, units[i])
            i += 1
        status = _emit(t, doc, <const char *> (units + start), kind, i - start, mixed, limit)
        if status != 0:
            return status
    _end_sentence(doc, &sentence_start)
    return 0


cdef int _scan_classes(Table *t, const code_unit *units, Py_ssize_t length, int mode,
                       Doc *doc, Py_ssize_t limit) noexcept nogil:
    """CHAR and UNICODE_WORDS: the regex findall of kurenai.tokenizers._unicode,
    ``letter mark*  |  word (word | mark)*``, read off the flags table."""
    cdef Py_ssize_t i = 0, start, sentence_start = 0
    cdef uint8_t flags, follow
    cdef uint8_t starts_word = WORD if mode == CHAR else WORD | ALONE
    cdef int kind = sizeof(code_unit), status
    cdef uint64_t mixed
    while i < length:
        flags = _flags(units[i])
        if mode == CHAR and flags & ALONE:
            follow = MARK
        elif flags & starts_word:
            follow = starts_word | MARK
        else:
            if units[i] == NEWLINE:
                _end_sentence(doc, &sentence_start)
            i += 1
            continue
        start = i
        mixed = _mix(HASH_KEY[0], units[i])
        i += 1
        while i < length and _flags(units[i]) & follow:
            mixed = _mix(mixed, units[i])
            i += 1
        status = _emit(t, doc, <const char *> (units + start), kind, i - start, mixed, limit)
        if status != 0:
            return status
    _end_sentence(doc, &sentence_start)
    return 0


cdef int _scan(Table *t, const char *data, int kind, Py_ssize_t length, int mode,
               Doc *doc, Py_ssize_t limit) noexcept nogil:
    """Tokens of one lowercased text as IDs; a sentence per non-empty line.

    Returns 0, -1 if out of memory, or 1 as soon as there are more than
    ``limit`` tokens (if ``limit`` >= 0), so memory stays bounded by it.
    """
    # Split on separators, a token takes at least one code point and one
    # separator; CHAR makes a token of every letter of an unspaced script.
    cdef Py_ssize_t most = length + 1 if mode == CHAR else length // 2 + 1
    if 0 <= limit < most:
        most = limit + 1
    elif limit < 0:
        limit = PY_SSIZE_T_MAX  # one comparison per token in _emit
    doc.ids = NULL
    doc.bounds = NULL
    if (mode == CHAR or mode == UNICODE_WORDS) and CLASSES == NULL:
        return -1  # never read through a missing table (plans install it first)
    doc.ids = <int32_t *> malloc(most * sizeof(int32_t))
    doc.bounds = <Py_ssize_t *> malloc((most + 1) * sizeof(Py_ssize_t))
    doc.n_tokens = 0
    doc.n_sents = 0
    if doc.ids == NULL or doc.bounds == NULL:
        return -1
    doc.bounds[0] = 0
    if mode == CHAR or mode == UNICODE_WORDS:
        if kind == 1:
            return _scan_classes(t, <const uint8_t *> data, length, mode, doc, limit)
        if kind == 2:
            return _scan_classes(t, <const uint16_t *> data, length, mode, doc, limit)
        return _scan_classes(t, <const uint32_t *> data, length, mode, doc, limit)
    if kind == 1:
        return _scan_units(t, <const uint8_t *> data, length, mode, doc, limit)
    if kind == 2:
        return _scan_units(t, <const uint16_t *> data, length, mode, doc, limit)
    return _scan_units(t, <const uint32_t *> data, length, mode, doc, limit)


cdef inline bint _stemmable(const Entry *e) noexcept nogil:
    """kurenai._core.rules.is_stemmable, without making a str: long enough, and
    only ROUGE word characters."""
    cdef Py_ssize_t i
    cdef uint32_t ch
    if e.length < STEM_MIN_LENGTH:
        return False
    for i in range(e.length):
        ch = read_code_point(e.kind, e.data, i)
        if ch >= 256 or not TOKEN_CHAR[<int> ROUGE_SCORE][ch]:
            return False
    return True


cdef dict _memo_of(object stem):
    """The memo of ``stem`` if it is ``CachedPorterStemmer.stem_or_drop``
    (token -> stem or None, which the method fills and only ever clears), else None.

    The scan reads its hits directly: a dict lookup instead of a Python call
    per distinct token of every pair.
    """
    from kurenai.tokenizers._stemming import CachedPorterStemmer

    if getattr(stem, "__func__", None) is CachedPorterStemmer.stem_or_drop:
        return stem.__self__.memo
    return None


cdef int _stem_all(Table *t, object stem, dict memo, list keep_alive,
                   int32_t **final_ids) except -1:
    """final_ids[raw ID] = ID of its stem (-1: the tokenizer drops the token).

    ``stem`` is the tokenizer's ``stemmer``: token -> stem, or None to drop
    it; ``memo`` (or None) holds results it gave before (see _memo_of).
    """
    cdef PyObject *known
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
        token = PyUnicode_FromKindAndData(entry.kind, entry.data, entry.length)
        known = NULL if memo is None else PyDict_GetItem(memo, token)
        stemmed = <object> known if known != NULL else stem(token)
        if stemmed is None:
            final[e] = -1
            continue
        keep_alive.append(stemmed)
        data = <const char *> PyUnicode_DATA(stemmed)
        kind = PyUnicode_KIND(stemmed)
        length = PyUnicode_GET_LENGTH(stemmed)
        final[e] = _intern(t, data, kind, length, _fast_hash(data, kind, length))
        if final[e] < 0:
            raise MemoryError()
    return 0


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


cdef enum:
    SMALL_ORDERS = 16  # n-gram orders whose overlaps a pair keeps on the stack


cdef class Plan:
    """What to compute for a scorer's ROUGE types, fixed at construction.

    ``spec`` is the types as ``kurenai._core.plan.parse_types`` parsed them,
    ``mode`` a code of ``MODES``, ``stem`` the tokenizer's ``stemmer`` (None:
    no stemming) and ``score_class`` the tuple subclass of the scores;
    ``threads`` (>= 1) how many threads one long pair's LCS may use.
    """

    cdef readonly object spec
    cdef readonly tuple rouge_types
    cdef readonly int mode
    cdef readonly object stem
    cdef dict stem_memo             # stem's own memo, read without calling it
    cdef readonly object score_class
    cdef readonly int threads
    cdef Py_ssize_t n_types
    cdef int *kinds                 # per type: NGRAM, LCS or LSUM
    cdef Py_ssize_t *orders         # per type: n for n-grams
    cdef Py_ssize_t *order_slot     # per type: index into Counts.overlaps
    cdef Py_ssize_t *ngram_orders   # each distinct n-gram order once
    cdef Py_ssize_t n_orders
    cdef bint want_lcs, want_lsum
    cdef bint has_variants          # any ROUGE-W/S/SU type
    cdef int *gaps                  # per type: a SKIP type's gap limit
    cdef int *unigrams              # per type: whether a SKIP type adds unigrams
    cdef double w_weight

    def __cinit__(self):
        self.kinds = self.gaps = self.unigrams = NULL
        self.orders = self.order_slot = self.ngram_orders = NULL

    def __dealloc__(self):
        free(self.kinds)
        free(self.orders)
        free(self.order_slot)
        free(self.ngram_orders)
        free(self.gaps)
        free(self.unigrams)

    def __init__(self, spec, int mode, stem, type score_class, int threads=1):
        cdef Py_ssize_t i
        if not issubclass(score_class, tuple):
            raise TypeError("score_class must be a tuple subclass")
        if mode not in MODES.values():
            raise ValueError(f"unknown scan mode {mode}")
        if mode == CHAR or mode == UNICODE_WORDS:
            _need_char_classes()
        if not set(spec.kinds) <= KINDS:
            raise ValueError(f"the compiled plan computes only the kinds {sorted(KINDS)}")
        self.spec = spec
        self.rouge_types = tuple(spec.rouge_types)
        self.mode = mode
        self.stem = stem
        self.stem_memo = _memo_of(stem)
        self.score_class = score_class
        self.threads = max(threads, 1)
        self.n_types = len(self.rouge_types)
        self.n_orders = len(spec.orders)
        self.kinds = <int *> malloc((self.n_types + 1) * sizeof(int))
        self.orders = <Py_ssize_t *> malloc((self.n_types + 1) * sizeof(Py_ssize_t))
        self.order_slot = <Py_ssize_t *> malloc((self.n_types + 1) * sizeof(Py_ssize_t))
        self.ngram_orders = <Py_ssize_t *> malloc((self.n_orders + 1) * sizeof(Py_ssize_t))
        if not (self.kinds and self.orders and self.order_slot and self.ngram_orders):
            raise MemoryError()
        for i in range(self.n_orders):
            self.ngram_orders[i] = spec.orders[i]
        for i in range(self.n_types):
            self.kinds[i] = spec.kinds[i]
            self.order_slot[i] = spec.slots[i]
            self.orders[i] = spec.orders[spec.slots[i]] if self.kinds[i] == NGRAM else 0
        self.want_lcs = LCS in spec.kinds
        self.want_lsum = LSUM in spec.kinds
        self._set_variants(spec)

    cdef int _set_variants(self, spec) except -1:
        cdef Py_ssize_t i
        self.has_variants = WLCS in spec.kinds or SKIP in spec.kinds
        self.w_weight = spec.w_weight
        self.gaps = <int *> malloc((self.n_types + 1) * sizeof(int))
        self.unigrams = <int *> malloc((self.n_types + 1) * sizeof(int))
        if self.gaps == NULL or self.unigrams == NULL:
            raise MemoryError()
        for i in range(self.n_types):
            self.gaps[i] = spec.gaps[i]
            self.unigrams[i] = spec.unigrams[i]
        return 0

    def tallies(self, str target, str prediction):
        """See ``kurenai._core.plan.Plan.tallies``."""
        cdef PairWork work
        cdef Py_ssize_t small[SMALL_ORDERS]
        cdef Py_ssize_t i
        self._count_pair(&work, small, target, prediction)
        try:
            return [self._tally(&work, i) for i in range(self.n_types)]
        finally:
            _pair_free(&work, small)

    cdef tuple _tally(self, const PairWork *work, Py_ssize_t i):
        cdef Py_ssize_t t_len = work.t.n_tokens, p_len = work.p.n_tokens, n
        cdef const double *counts = work.variant_counts + 3 * i
        cdef bint both = t_len > 0 and p_len > 0
        if self.kinds[i] == WLCS:
            return counts[0], counts[1], <Py_ssize_t> counts[2]
        if self.kinds[i] == SKIP:
            return <int64_t> counts[0], <int64_t> counts[1], <int64_t> counts[2]
        if self.kinds[i] == NGRAM:
            n = self.orders[i]
            return (work.counts.overlaps[self.order_slot[i]], max(t_len - n + 1, 0),
                    max(p_len - n + 1, 0))
        if self.kinds[i] == LCS:
            return work.counts.lcs if both else 0, t_len, p_len
        return work.counts.hits if both else 0, t_len, p_len

    def __reduce__(self):
        return Plan, (self.spec, self.mode, self.stem, self.score_class, self.threads)

    def score(self, str target, str prediction):
        """``RougeScorer.score`` for this plan: dict of rouge type -> Score."""
        cdef PairWork work
        cdef Py_ssize_t small[SMALL_ORDERS]
        self._count_pair(&work, small, target, prediction)
        try:
            return self._scores(&work)
        finally:
            _pair_free(&work, small)

    cdef int _count_pair(self, PairWork *work, Py_ssize_t *small, str target,
                         str prediction) except -1:
        """Every count of one pair into ``work`` (released by _pair_free;
        ``small`` holds the n-gram overlaps of up to SMALL_ORDERS orders)."""
        cdef list keep_alive = None if self.stem is None else []  # the stems
        _work_init(work)
        work.counts.overlaps = small
        if self.n_orders > SMALL_ORDERS:
            work.counts.overlaps = <Py_ssize_t *> malloc(self.n_orders * sizeof(Py_ssize_t))
            if work.counts.overlaps == NULL:
                raise MemoryError()
        try:
            _work_run(self, work, _prepared(target), _prepared(prediction), -1, keep_alive)
        except BaseException:
            _pair_free(work, small)
            raise
        return 0

    def tokens(self, str text):
        """The tokens this plan's scan finds in ``text``, before stemming.

        Not used for scoring: it lets tests hold the compiled scan to the
        Python tokenizer it reproduces, token for token.
        """
        cdef str prepared = text.lower()  # the table points into it
        cdef Table table
        cdef Doc doc
        cdef Entry *entry
        cdef Py_ssize_t k
        _scan_alone(prepared, self.mode, &table, &doc)
        try:
            result = []
            for k in range(doc.n_tokens):
                entry = &table.entries[doc.ids[k]]
                result.append(PyUnicode_FromKindAndData(entry.kind, entry.data, entry.length))
            return result
        finally:
            _scan_alone_free(&table, &doc)

    def _probes(self, str text):
        """(distinct tokens, table slots read to find each once) for ``text``.

        Equal counts mean no collision; with a keyed hash the ratio stays
        near 1.5 whatever the tokens.  For the hash-flooding tests only.
        """
        cdef str prepared = text.lower()
        cdef Table table
        cdef Doc doc
        _scan_alone(prepared, self.mode, &table, &doc)
        try:
            return table.n, _probe_total(&table)
        finally:
            _scan_alone_free(&table, &doc)

    def score_many(self, list targets, list predictions, Py_ssize_t max_tokens=-1,
                   double[:, :, :] out=None):
        """Scores of many pairs of str, in order, releasing the GIL while counting.

        Returns a list of score dicts, with None for a pair where a side has more
        than ``max_tokens`` tokens (if >= 0).  With ``out`` (shape: types x 3 x
        pairs), writes precision, recall and F-measure there instead (NaN for
        such pairs) and returns None.
        """
        cdef Py_ssize_t n = len(targets), k
        cdef PairWork *works
        cdef Py_ssize_t *overlaps
        cdef list lowered, over = []
        cdef list keep_alive = []
        if len(predictions) != n:
            raise ValueError(f"{n} targets but {len(predictions)} predictions")
        if max_tokens < 0:
            lowered = [_prepared(text) for text in targets]
            lowered += [_prepared(text) for text in predictions]
        else:
            lowered, over = _lowered_within(self.mode, targets + predictions, n, max_tokens)
        works = <PairWork *> calloc(n + 1, sizeof(PairWork))
        overlaps = <Py_ssize_t *> malloc((n * self.n_orders + 1) * sizeof(Py_ssize_t))
        if works == NULL or overlaps == NULL:
            free(works)
            free(overlaps)
            raise MemoryError()
        try:
            for k in range(n):
                _work_init(&works[k])
                works[k].counts.overlaps = overlaps + k * self.n_orders
            _run_all(self, works, lowered, n, max_tokens, keep_alive)
            for k in over:
                works[k].status = 1
            if out is not None:
                with nogil:
                    for k in range(n):
                        self._write_values(&works[k], out, k)
                return None
            return [self._scores(&works[k]) if works[k].status == 0 else None
                    for k in range(n)]
        finally:
            for k in range(n):
                _work_free(&works[k])
            free(works)
            free(overlaps)

    cdef dict _scores(self, const PairWork *work):
        cdef dict result = {}
        cdef Py_ssize_t i
        cdef double values[3]
        for i in range(self.n_types):
            if self._values(work, i, values):
                result[self.rouge_types[i]] = new_triple(
                    self.score_class, values[0], values[1], values[2]
                )
            else:
                # rouge-score's empty LCS scores are int zeros.
                result[self.rouge_types[i]] = new_triple(self.score_class, 0, 0, 0)
        return result

    cdef void _write_values(self, const PairWork *work, double[:, :, :] out,
                            Py_ssize_t k) noexcept nogil:
        cdef Py_ssize_t i, field
        cdef double values[3]
        for i in range(self.n_types):
            if work.status != 0:
                values[0] = values[1] = values[2] = NAN
            elif not self._values(work, i, values):
                values[0] = values[1] = values[2] = 0.0
            for field in range(3):
                out[i, field, k] = values[field]

    cdef bint _values(self, const PairWork *work, Py_ssize_t i,
                      double *values) noexcept nogil:
        """Precision, recall, F of type i into values; False: int zeros."""
        cdef Py_ssize_t hits, t_count, p_count
        cdef Py_ssize_t t_len = work.t.n_tokens, p_len = work.p.n_tokens
        if self.kinds[i] == WLCS or self.kinds[i] == SKIP:
            _variant_values(work.variant_counts + 3 * i, self.kinds[i], self.w_weight, values)
            return True
        if self.kinds[i] == NGRAM:
            hits = work.counts.overlaps[self.order_slot[i]]
            # rouge-score divides by max(count, 1): always floats.
            p_count = max(p_len - self.orders[i] + 1, 1)
            t_count = max(t_len - self.orders[i] + 1, 1)
        else:
            if p_len == 0 or t_len == 0:
                return False
            hits = work.counts.lcs if self.kinds[i] == LCS else work.counts.hits
            p_count, t_count = p_len, t_len
        values[0] = <double> hits / <double> p_count
        values[1] = <double> hits / <double> t_count
        values[2] = _fmeasure(values[0], values[1])
        return True


# ---------------------------------------------------------------- size limits

# Texts longer than this are first checked for the size limit a piece at a
# time: str.lower() of a whole text needs up to 4 bytes a code point twice
# over, which would make an over-limit pair's memory grow with its text.
cdef Py_ssize_t PIECE = 1 << 16


cdef tuple _lowered_within(int mode, list texts, Py_ssize_t n, Py_ssize_t limit):
    """The _prepared texts (n targets, then n predictions), and the pairs
    found to be over ``limit`` tokens without lowering them whole (their
    texts are replaced by empty ones)."""
    cdef list lowered = [], over = []
    cdef Py_ssize_t k
    for text in texts:
        if len(text) > PIECE and len(text) > 8 * limit and _surely_over(mode, text, limit):
            lowered.append(None)
        else:
            lowered.append(_prepared(text))
    for k in range(n):
        if lowered[k] is None or lowered[n + k] is None:
            lowered[k] = lowered[n + k] = ""
            over.append(k)
    return lowered, over


cdef bint _surely_over(int mode, str text, Py_ssize_t limit) except -1:
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
        table.entries = table.slots = NULL
        doc.ids = NULL
        doc.bounds = NULL
        try:
            if _table_init(&table, 64) < 0 or _scan(
                &table, <const char *> PyUnicode_DATA(piece), PyUnicode_KIND(piece),
                PyUnicode_GET_LENGTH(piece), mode, &doc, -1
            ) < 0:
                raise MemoryError()
            count += doc.n_tokens
        finally:
            free(doc.ids)
            free(doc.bounds)
            _table_free(&table)
        pieces += 1
        if count - (pieces - 1) > limit:
            return True
    return False


cdef int _scan_alone(str prepared, int mode, Table *table, Doc *doc) except -1:
    """Scan one lowercased text into a fresh table (freed on failure)."""
    table.entries = NULL
    table.slots = NULL
    doc.ids = NULL
    doc.bounds = NULL
    if _table_init(table, 16) < 0 or _scan(
        table, <const char *> PyUnicode_DATA(prepared), PyUnicode_KIND(prepared),
        PyUnicode_GET_LENGTH(prepared), mode, doc, -1
    ) < 0:
        _scan_alone_free(table, doc)
        raise MemoryError()
    return 0


cdef void _scan_alone_free(Table *table, Doc *doc) noexcept nogil:
    free(doc.ids)
    free(doc.bounds)
    doc.ids = NULL
    doc.bounds = NULL
    _table_free(table)


cdef Py_ssize_t _probe_total(const Table *t) noexcept nogil:
    """Slots that finding every entry reads: t.n if no two share a home slot."""
    cdef Py_ssize_t s, home, total = 0
    for s in range(t.slot_mask + 1):
        if t.slots[s] >= 0:
            home = t.entries[t.slots[s]].hash & t.slot_mask
            total += ((s - home) & t.slot_mask) + 1
    return total


# ---------------------------------------------------------------- one pair's work

cdef struct PairWork:
    Table table
    Doc t
    Doc p
    Counts counts
    double *variant_counts  # ROUGE-W/S/SU: 3 per type (see _count_variants)
    int32_t *final_ids
    uint8_t *lowered      # the lowercased copies of 1-byte texts
    int status            # 0: scored; 1: over the size limit; -1: out of memory


cdef void _work_init(PairWork *w) noexcept nogil:
    memset(w, 0, sizeof(PairWork))


cdef void _work_release(PairWork *w) noexcept nogil:
    """Free the buffers; keep the counts and token totals the scores need."""
    free(w.t.ids)
    free(w.t.bounds)
    free(w.p.ids)
    free(w.p.bounds)
    free(w.final_ids)
    free(w.lowered)
    _table_free(&w.table)
    w.t.ids = w.p.ids = w.final_ids = NULL
    w.lowered = NULL
    w.t.bounds = w.p.bounds = NULL


cdef void _work_free(PairWork *w) noexcept nogil:
    """Free the buffers; the caller owns ``counts.overlaps``."""
    _work_release(w)
    free(w.variant_counts)
    w.variant_counts = NULL


cdef void _work_scan(PairWork *w, str target, str prediction, int mode,
                     Py_ssize_t max_tokens) noexcept:
    cdef const char *t_data = <const char *> PyUnicode_DATA(target)
    cdef const char *p_data = <const char *> PyUnicode_DATA(prediction)
    cdef int t_kind = PyUnicode_KIND(target), p_kind = PyUnicode_KIND(prediction)
    cdef Py_ssize_t t_length = PyUnicode_GET_LENGTH(target)
    cdef Py_ssize_t p_length = PyUnicode_GET_LENGTH(prediction)
    with nogil:
        _work_scan_nogil(w, t_data, t_kind, t_length, p_data, p_kind, p_length, mode,
                         max_tokens)


cdef void _pair_free(PairWork *work, Py_ssize_t *small) noexcept:
    if work.counts.overlaps != small:
        free(work.counts.overlaps)
    _work_free(work)


cdef void _work_scan_nogil(PairWork *w, const char *t_data, int t_kind,
                           Py_ssize_t t_length, const char *p_data, int p_kind,
                           Py_ssize_t p_length, int mode,
                           Py_ssize_t max_tokens) noexcept nogil:
    # Real text has roughly a distinct token per 8 code points; a size limit
    # bounds the tokens, and so the table, too.
    cdef Py_ssize_t expected = (t_length + p_length) // 8
    if 0 <= max_tokens < expected // 2:
        expected = 2 * max_tokens + 2
    w.status = _table_init(&w.table, expected)
    if w.status == 0:
        w.status = _lower_ascii(w, &t_data, t_kind, t_length, &p_data, p_kind, p_length)
    if w.status == 0:
        w.status = _scan(&w.table, t_data, t_kind, t_length, mode, &w.t, max_tokens)
    if w.status == 0:
        w.status = _scan(&w.table, p_data, p_kind, p_length, mode, &w.p, max_tokens)


cdef inline object _prepared(object text):
    """``text`` ready for _work_scan: an ASCII str as it is (the scan
    lowercases it in C, without a new str), any other text lowercased."""
    if type(text) is str and is_ascii(text):
        return text
    return text.lower()


cdef inline void _ascii_lower(const uint8_t *text, uint8_t *out,
                              Py_ssize_t length) noexcept nogil:
    """str.lower() of ASCII (A-Z only); a loop the compiler vectorizes."""
    cdef Py_ssize_t i
    for i in range(length):
        out[i] = text[i] + ((<uint8_t> (text[i] - 65) < 26) << 5)


cdef int _lower_ascii(PairWork *w, const char **t_data, int t_kind, Py_ssize_t t_length,
                      const char **p_data, int p_kind, Py_ssize_t p_length) noexcept nogil:
    """Point each 1-byte text at a copy with A-Z lowercased (owned by ``w``).

    The texts are _prepared: a 1-byte one is either ASCII, so this is its
    str.lower(), or already lowercased, so this copies it unchanged.
    Returns -1 if out of memory.
    """
    cdef Py_ssize_t size = (t_length if t_kind == 1 else 0) + (p_length if p_kind == 1 else 0)
    cdef uint8_t *out
    if size == 0:
        return 0
    out = w.lowered = <uint8_t *> malloc(size)
    if out == NULL:
        return -1
    if t_kind == 1:
        _ascii_lower(<const uint8_t *> t_data[0], out, t_length)
        t_data[0] = <const char *> out
        out += t_length
    if p_kind == 1:
        _ascii_lower(<const uint8_t *> p_data[0], out, p_length)
        p_data[0] = <const char *> out
    return 0


cdef int _work_stem(Plan plan, PairWork *w, list keep_alive) except -1:
    if w.status != 0 or plan.stem is None:
        return 0
    _stem_all(&w.table, plan.stem, plan.stem_memo, keep_alive, &w.final_ids)
    _remap(&w.t, w.final_ids)
    _remap(&w.p, w.final_ids)
    return 0


cdef void _work_count(Plan plan, PairWork *w) noexcept nogil:
    if w.status == 0:
        w.status = doc_counts(&w.t, &w.p, &w.t, &w.p, plan.ngram_orders, plan.n_orders,
                              plan.want_lcs, plan.want_lsum, w.table.n, plan.threads,
                              &w.counts)
    if w.status == 0 and plan.has_variants:
        w.status = _count_variants(plan, w)


cdef int _count_variants(Plan plan, PairWork *w) noexcept nogil:
    """ROUGE-1.5.5's counts of each ROUGE-W/S/SU type into w.variant_counts[3i:]:
    (hit, Σ f(sentence length), prediction length) for W on the sentences,
    (hits, t_count, p_count) for S/SU on the whole texts; -1 if out of memory."""
    cdef Py_ssize_t i
    cdef int64_t skip[3]
    cdef double *counts
    w.variant_counts = <double *> malloc(3 * plan.n_types * sizeof(double))
    if w.variant_counts == NULL:
        return -1
    for i in range(plan.n_types):
        counts = w.variant_counts + 3 * i
        if plan.kinds[i] == WLCS:
            if weighted_lcs_doc(&w.t, &w.p, plan.w_weight, w.table.n, counts) < 0:
                return -1
            counts[2] = <double> w.p.n_tokens
        elif plan.kinds[i] == SKIP:
            if skip_bigram_doc_counts(&w.t, &w.p, plan.gaps[i], plan.unigrams[i],
                                      w.table.n, skip) < 0:
                return -1
            counts[0], counts[1], counts[2] = skip[0], skip[1], skip[2]
    return 0


cdef inline double _ratio(double hits, double count) noexcept nogil:
    # ROUGE-1.5.5's guard: 0 when nothing could match.
    return hits / count if count != 0 else 0.0


cdef void _variant_values(const double *counts, int kind, double weight,
                          double *values) noexcept nogil:
    """kurenai._core.python_plan.variant_score, operation for operation."""
    if kind == WLCS:
        values[0] = pow(_ratio(counts[0], pow(counts[2], weight)), 1 / weight)
        values[1] = pow(_ratio(counts[0], pow(counts[1], weight)), 1 / weight)
    else:
        values[0] = _ratio(counts[0], counts[2])
        values[1] = _ratio(counts[0], counts[1])
    values[2] = _fmeasure(values[0], values[1])


cdef int _work_run(Plan plan, PairWork *w, str target, str prediction,
                   Py_ssize_t max_tokens, list keep_alive) except -1:
    """Scan, intern, stem and count one pair of _prepared texts."""
    _work_scan(w, target, prediction, plan.mode, max_tokens)
    _work_stem(plan, w, keep_alive)
    with nogil:
        _work_count(plan, w)
    if w.status < 0:
        raise MemoryError()
    return 0


cdef int _run_all(Plan plan, PairWork *works, list lowered, Py_ssize_t n,
                  Py_ssize_t max_tokens, list keep_alive) except -1:
    """_work_run over many pairs, in three phases so the GIL is released twice
    per batch rather than per pair (``lowered``: n targets, then n predictions,
    _prepared)."""
    cdef Py_ssize_t k
    cdef const char **data = <const char **> malloc(2 * n * sizeof(char *) + 1)
    cdef int *kinds = <int *> malloc(2 * n * sizeof(int) + 1)
    cdef Py_ssize_t *lengths = <Py_ssize_t *> malloc(2 * n * sizeof(Py_ssize_t) + 1)
    cdef int mode = plan.mode
    try:
        if data == NULL or kinds == NULL or lengths == NULL:
            raise MemoryError()
        for k in range(2 * n):
            data[k] = <const char *> PyUnicode_DATA(lowered[k])
            kinds[k] = PyUnicode_KIND(lowered[k])
            lengths[k] = PyUnicode_GET_LENGTH(lowered[k])
        if plan.stem is None:
            # One pass, each pair's buffers still in cache when counted.
            with nogil:
                for k in range(n):
                    _work_scan_nogil(&works[k], data[k], kinds[k], lengths[k],
                                     data[n + k], kinds[n + k], lengths[n + k], mode,
                                     max_tokens)
                    _work_count(plan, &works[k])
                    _work_release(&works[k])
        else:
            with nogil:
                for k in range(n):
                    _work_scan_nogil(&works[k], data[k], kinds[k], lengths[k],
                                     data[n + k], kinds[n + k], lengths[n + k], mode,
                                     max_tokens)
            for k in range(n):
                _work_stem(plan, &works[k], keep_alive)
            with nogil:
                for k in range(n):
                    _work_count(plan, &works[k])
                    _work_release(&works[k])
        for k in range(n):
            if works[k].status < 0:
                raise MemoryError()
        return 0
    finally:
        free(data)
        free(kinds)
        free(lengths)

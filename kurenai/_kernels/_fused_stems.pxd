# The stemming of kurenai._fused: a pair's raw token IDs -> the IDs of their
# stems, through a stem cache the plan owns (a stemmable token's content ->
# its stem's content, or "dropped", in C memory), so a token seen before is
# stemmed with no Python object made; only a miss asks the tokenizer's
# stemmer, once.
#
# Inline code only, compiled into the module that cimports it.  The cache is
# read and filled with the GIL held only (stem_all runs between a pair's scan
# and its count), so the batch driver's threads share it safely; the only
# point where another thread can run in between is the stemmer's call, and no
# pointer into the cache is held across it.  A pair's table never points into
# the cache either: a stem new to the pair is copied into the pair's own
# buffer, so clearing a full cache cannot leave a pair reading freed memory.
# The cache is flood resistant as kurenai/_kernels/_text_intern.pxd's tables are: a
# fast keyed hash, switched to SipHash once a probe chain grows too long.

from cpython.dict cimport PyDict_GetItemWithError
from cpython.ref cimport PyObject
from cpython.pyport cimport PY_SSIZE_T_MAX
from cpython.unicode cimport PyUnicode_DATA, PyUnicode_FromKindAndData
from cpython.unicode cimport PyUnicode_GET_LENGTH, PyUnicode_KIND
from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy

from kurenai._kernels._text_intern cimport PROBE_LIMIT, Entry, HashKey, Table, fast_hash
from kurenai._kernels._text_intern cimport intern_token, mix, read_code_point, same_bytes, sip13
from kurenai._kernels._fused_scan cimport ROUGE_SCORE, ScanRules
from kurenai._kernels._porter cimport porter_ascii
from kurenai._lcs cimport Doc


cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define kurenai_prefetch(p) __builtin_prefetch(p)
    #else
    #define kurenai_prefetch(p) ((void) (p))
    #endif
    """
    void prefetch "kurenai_prefetch"(const void *p) noexcept nogil


cdef enum:
    CHUNK = 1 << 16       # bytes of a block of the cache's arena (at least)
    SLOT_COST = 64        # bytes of slots a cached token costs at most (16 a slot, a quarter full)


cdef struct Stem:
    const char *data      # NULL: the tokenizer drops the token
    int kind
    Py_ssize_t length
    uint64_t hash         # its fast hash under the cache's key


cdef struct Record:       # a cached token; its key (in the token's kind) and stem follow
    Py_ssize_t key_length
    int key_kind
    Py_ssize_t stem_length  # -1: dropped
    Py_ssize_t stem_offset  # from the key, aligned for the stem's kind
    int stem_kind
    uint64_t stem_hash    # the stem's fast hash under the cache's key


cdef struct Slot:         # the hash beside its record: one cache line read per probe
    uint64_t hash
    Record *record        # NULL: empty


cdef struct Chunk:        # a block of the arena; its bytes follow the header
    Chunk *next
    Py_ssize_t used
    Py_ssize_t size


cdef struct StemCache:
    Slot *slots           # open addressing, at most half full
    Py_ssize_t slot_mask
    Py_ssize_t n          # records
    bint strong           # hashed with SipHash since a probe chain grew too long
    HashKey key           # a copy of the plan's, made when the slots are
    const HashKey *plan_key
    Chunk *arena          # the records; never moves, freed whole
    Py_ssize_t bytes      # what the cache holds: records and their slots
    Py_ssize_t max_bytes  # past it the cache is emptied before the next token
    Py_ssize_t epoch      # changes when hashes computed before stop being valid
    Py_ssize_t min_length  # the stemmer's rule (kurenai._data.rules.StemRule):
    Py_ssize_t max_length  # tokens of min_length to max_length code points,
    bint words_only        # and only rouge-score's words if set
    bint porter            # a miss is stemmed by the compiled Porter here (set_stem_rule)


# ---------------------------------------------------------------- the cache

cdef inline void cache_init(StemCache *c, const HashKey *key, Py_ssize_t max_bytes) noexcept nogil:
    c.slots = NULL
    c.slot_mask = 0
    c.n = 0
    c.strong = False
    c.plan_key = key
    c.key = key[0]
    c.arena = NULL
    c.bytes = 0
    c.max_bytes = max_bytes
    c.epoch = 0
    c.min_length = 0
    c.max_length = PY_SSIZE_T_MAX
    c.words_only = True
    c.porter = False


cdef inline void cache_clear(StemCache *c) noexcept nogil:
    """Empty the cache: the arena and the slots freed."""
    cdef Chunk *chunk
    while c.arena != NULL:
        chunk = c.arena
        c.arena = chunk.next
        free(chunk)
    free(c.slots)
    c.slots = NULL
    c.n = 0
    c.bytes = 0
    c.strong = False
    c.epoch += 1


cdef inline void cache_free(StemCache *c) noexcept nogil:
    cache_clear(c)


cdef inline char *arena_alloc(StemCache *c, Py_ssize_t size) noexcept nogil:
    """``size`` bytes (8-aligned) in the arena, which never moves; NULL: no memory."""
    cdef Chunk *chunk = c.arena
    cdef char *out
    size = (size + 7) & ~7
    if chunk == NULL or chunk.size - chunk.used < size:
        chunk = <Chunk *> malloc(sizeof(Chunk) + max(<Py_ssize_t> CHUNK, size))
        if chunk == NULL:
            return NULL
        chunk.next = c.arena
        chunk.used = 0
        chunk.size = max(<Py_ssize_t> CHUNK, size)
        c.arena = chunk
    out = <char *> (chunk + 1) + chunk.used
    chunk.used += size
    return out


cdef inline const char *key_of(const Record *r) noexcept nogil:
    return <const char *> (r + 1)


cdef inline uint64_t cache_hash(const StemCache *c, const char *data, int kind,
                                Py_ssize_t length) noexcept nogil:
    if c.strong:
        return sip13(c.key.words, data, kind, length)
    return fast_hash_keyed(&c.key, data, kind, length)


cdef inline uint64_t fast_hash_keyed(const HashKey *key, const char *data, int kind,
                                     Py_ssize_t length) noexcept nogil:
    # _text_intern's fast_hash, under a key rather than a table's.
    cdef uint64_t h = key.words[0]
    cdef Py_ssize_t i
    if key.constant_fast:
        return 0
    for i in range(length):
        h = mix(h, read_code_point(kind, data, i))
    h *= 0x100000001B3ULL
    return h ^ (h >> 29)


cdef inline bint holds(const Record *r, const Entry *token) noexcept nogil:
    """Whether ``r`` is the record of ``token``'s content."""
    cdef const char *key = key_of(r)
    cdef Py_ssize_t i
    if r.key_length != token.length:
        return False
    if token.kind == r.key_kind:
        return same_bytes(key, token.data, token.length * token.kind)
    for i in range(token.length):
        if read_code_point(r.key_kind, key, i) != read_code_point(token.kind, token.data, i):
            return False
    return True


cdef inline bint same_fast_key(const HashKey *a, const HashKey *b) noexcept nogil:
    return a.words[0] == b.words[0] and a.constant_fast == b.constant_fast


cdef inline uint64_t token_hash(const StemCache *c, const Table *t,
                                const Entry *token) noexcept nogil:
    """cache_hash of a pair's token: the hash the pair's table computed, if
    that is the cache's (both fast, under the same key)."""
    if not (c.strong or t.strong) and same_fast_key(&c.key, &t.key):
        return token.hash
    return cache_hash(c, token.data, token.kind, token.length)


cdef inline const Record *cache_find(StemCache *c, const Entry *token, uint64_t h) noexcept nogil:
    """The record of ``token`` (whose cache_hash is ``h``), or NULL if the
    cache holds none."""
    cdef Py_ssize_t s, probes = 0
    if c.slots == NULL:
        return NULL
    s = h & c.slot_mask
    while c.slots[s].record != NULL:
        if c.slots[s].hash == h and holds(c.slots[s].record, token):
            return c.slots[s].record
        s = (s + 1) & c.slot_mask
        probes += 1
        if probes > PROBE_LIMIT and not c.strong:
            cache_place(c, c.slot_mask + 1, True)  # crafted collisions: SipHash from now on
            return cache_find(c, token, cache_hash(c, token.data, token.kind, token.length))
    return NULL


cdef inline int cache_place(StemCache *c, Py_ssize_t size, bint strong) noexcept nogil:
    """Place every record again in ``size`` slots (hashed with SipHash if
    ``strong``); -1 if out of memory (the cache unchanged)."""
    cdef Slot *slots = <Slot *> calloc(size, sizeof(Slot))
    cdef Py_ssize_t i, s
    cdef Record *r
    cdef uint64_t h
    if slots == NULL:
        return -1
    for i in range(c.slot_mask + 1 if c.slots != NULL else 0):
        r = c.slots[i].record
        if r == NULL:
            continue
        h = c.slots[i].hash
        if strong and not c.strong:
            h = sip13(c.key.words, key_of(r), r.key_kind, r.key_length)
        s = h & (size - 1)
        while slots[s].record != NULL:
            s = (s + 1) & (size - 1)
        slots[s].hash = h
        slots[s].record = r
    free(c.slots)
    c.slots = slots
    c.slot_mask = size - 1
    c.epoch += strong and not c.strong  # the hashes change
    c.strong = c.strong or strong
    return 0


cdef inline int cache_put(StemCache *c, const Entry *token, object stem, Stem *out) except -1:
    """Remember ``stem`` (a str, or None: dropped) for the stemmable ``token``;
    ``out`` gets it, in the cache, or in ``stem`` itself if too big to cache
    (then read it before the next Python call)."""
    cdef Py_ssize_t stem_size = 0, offset, size, s
    cdef Record *r
    cdef char *key
    cdef uint64_t h
    out.data = NULL
    out.kind = 1
    out.length = 0
    if stem is not None:
        out.data = <const char *> PyUnicode_DATA(stem)
        out.kind = PyUnicode_KIND(stem)
        out.length = PyUnicode_GET_LENGTH(stem)
        stem_size = out.length * out.kind
        out.hash = fast_hash_keyed(&c.key, out.data, out.kind, out.length)
    offset = (token.length * token.kind + 3) & ~3
    size = sizeof(Record) + offset + stem_size
    if size + SLOT_COST > c.max_bytes // 2:
        return 0  # one token would fill much of the cache: stemmed, never cached
    if c.slots != NULL and cache_find(c, token, cache_hash(c, token.data, token.kind,
                                                           token.length)) != NULL:
        return 0  # cached meanwhile, by a thread that ran during the stemmer's call
    if c.bytes + size + SLOT_COST > c.max_bytes:
        cache_clear(c)
    if c.slots == NULL:
        c.key = c.plan_key[0]
        c.epoch += 1  # hashes computed before may be under another key
        if stem is not None:
            out.hash = fast_hash_keyed(&c.key, out.data, out.kind, out.length)
        if cache_place(c, 64, False) < 0:
            raise MemoryError()
    elif 2 * (c.n + 1) > c.slot_mask + 1 and cache_place(c, 2 * (c.slot_mask + 1), False) < 0:
        raise MemoryError()
    r = <Record *> arena_alloc(c, size)
    if r == NULL:
        raise MemoryError()
    r.key_length = token.length
    r.key_kind = token.kind
    r.stem_length = -1 if stem is None else out.length
    r.stem_offset = offset
    r.stem_kind = out.kind
    r.stem_hash = out.hash
    key = <char *> (r + 1)
    memcpy(key, token.data, token.length * token.kind)
    if stem is not None:
        memcpy(key + offset, out.data, stem_size)
        out.data = key + offset
    h = cache_hash(c, key, token.kind, token.length)
    s = h & c.slot_mask
    while c.slots[s].record != NULL:
        s = (s + 1) & c.slot_mask
    c.slots[s].hash = h
    c.slots[s].record = r
    c.n += 1
    c.bytes += size + SLOT_COST
    return 0


cdef inline void stem_of(const Record *r, Stem *out) noexcept nogil:
    out.kind = r.stem_kind
    out.length = r.stem_length
    out.hash = r.stem_hash
    out.data = NULL
    if r.stem_length >= 0:
        out.data = key_of(r) + r.stem_offset


cdef inline object cached_stemmer(object stem):
    """The ``CachedStemmer`` whose ``stem_or_drop`` ``stem`` is, or None."""
    from kurenai.tokenizers._stemming import CachedStemmer

    if getattr(stem, "__func__", None) is CachedStemmer.stem_or_drop:
        return stem.__self__
    return None


cdef inline dict memo_of(object stem):
    """The memo of ``stem`` if it is ``CachedStemmer.stem_or_drop``
    (token -> stem or None, which the method fills and only ever clears), else None.

    A miss of the plan's cache reads it first: a dict lookup instead of a
    Python call for a token another plan of the same tokenizer has stemmed.
    """
    owner = cached_stemmer(stem)
    return None if owner is None else owner.memo


cdef inline int set_stem_rule(StemCache *c, object stem, object porter_rule) except -1:
    """The cache's copy of the rule of ``stem`` (a ``CachedStemmer``'s), or
    ``porter_rule`` (rouge-score's) for another stemmer; and whether a miss
    is stemmed here in C: ``stem`` is the registry's Porter on rouge-score's
    words, whose every stem (a non-empty run of [a-z0-9]) each scan mode's
    post-stem filter keeps."""
    from kurenai._data.rules import SCANS
    from kurenai.tokenizers._stemming import CachedPorterStemmer, compiled_porter_agrees

    owner = cached_stemmer(stem)
    rule = porter_rule if owner is None else owner.rule
    c.min_length = rule.min_length
    c.max_length = min(rule.max_length, PY_SSIZE_T_MAX)
    c.words_only = rule.words_only
    keeps = [None] + [scan.keeps for scan in SCANS.values()]
    c.porter = (
        type(owner) is CachedPorterStemmer
        and rule == porter_rule
        and owner._keep in keeps
        and compiled_porter_agrees()  # NLTK 3.10's rules: the installed NLTK's too
    )
    return 0


cdef inline object ask(object stem, dict memo, const Entry *token):
    """The stemmer's answer for ``token``: its memo's, or a call (a miss only)."""
    cdef object text = PyUnicode_FromKindAndData(token.kind, token.data, token.length)
    cdef PyObject *known = NULL if memo is None else PyDict_GetItemWithError(memo, text)
    cdef object result = <object> known if known != NULL else stem(text)
    if result is not None and not isinstance(result, str):
        raise TypeError(f"a stemmer returns a str or None, not {type(result).__name__}")
    return result

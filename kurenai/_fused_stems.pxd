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
# The cache's keys are interned in a kurenai/_fused_intern.pxd table: flood
# resistant like the pairs' own.

from cpython.dict cimport PyDict_GetItem
from cpython.ref cimport PyObject
from cpython.unicode cimport PyUnicode_DATA, PyUnicode_FromKindAndData
from cpython.unicode cimport PyUnicode_GET_LENGTH, PyUnicode_KIND
from libc.stdint cimport int32_t, uint32_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy

from kurenai._fused_intern cimport Entry, HashKey, Table, fast_hash, find_token, intern_token
from kurenai._fused_intern cimport read_code_point, table_free, table_init
from kurenai._fused_scan cimport ROUGE_SCORE, ScanRules
from kurenai._lcs cimport Doc


cdef enum:
    CHUNK = 1 << 16       # bytes of a block of the cache's arena (at least)
    ENTRY_COST = 64       # bytes a cached token costs besides its text (entry, slots, Stem)


cdef struct Stem:
    const char *data      # NULL: the tokenizer drops the token
    int kind
    Py_ssize_t length


cdef struct Chunk:        # a block of the arena; its bytes follow the header
    Chunk *next
    Py_ssize_t used
    Py_ssize_t size


cdef struct StemCache:
    Table keys            # the cached tokens' content (in the arena)
    Stem *stems           # stems[i]: the stem of keys.entries[i]
    Py_ssize_t stems_capacity
    Chunk *arena          # the keys' and stems' text; never moves, freed whole
    Py_ssize_t bytes      # what the cache holds, text and ENTRY_COST per token
    Py_ssize_t max_bytes  # past it the cache is emptied before the next token
    const HashKey *key
    bint ready            # keys initialised (on first use)


# ---------------------------------------------------------------- the cache

cdef inline void cache_init(StemCache *c, const HashKey *key, Py_ssize_t max_bytes) noexcept nogil:
    c.keys.entries = NULL
    c.keys.slots = NULL
    c.stems = NULL
    c.stems_capacity = 0
    c.arena = NULL
    c.bytes = 0
    c.max_bytes = max_bytes
    c.key = key
    c.ready = False


cdef inline void cache_clear(StemCache *c) noexcept nogil:
    """Empty the cache (the arena freed, the tables kept for the next use)."""
    cdef Chunk *chunk
    while c.arena != NULL:
        chunk = c.arena
        c.arena = chunk.next
        free(chunk)
    table_free(&c.keys)
    c.bytes = 0
    c.ready = False


cdef inline void cache_free(StemCache *c) noexcept nogil:
    cache_clear(c)
    free(c.stems)
    c.stems = NULL
    c.stems_capacity = 0


cdef inline char *arena_alloc(StemCache *c, Py_ssize_t size) noexcept nogil:
    """``size`` bytes in the arena, which never moves; NULL: no memory."""
    cdef Chunk *chunk = c.arena
    cdef char *out
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


cdef inline int32_t cache_find(StemCache *c, const Entry *token) noexcept nogil:
    """The cache's index of ``token``, or -1 if it holds none."""
    if not c.ready:
        return -1
    return find_token(&c.keys, token.data, token.kind, token.length)


cdef inline int cache_put(StemCache *c, const Entry *token, object stem, Stem *out) except -1:
    """Remember ``stem`` (a str, or None: dropped) for the stemmable ``token``;
    ``out`` gets it, in the cache, or in ``stem`` itself if too big to cache
    (then read it before the next Python call)."""
    cdef Py_ssize_t stem_size = 0, n_before, i
    cdef int32_t index
    cdef char *key
    cdef Stem *grown
    out.data = NULL
    out.kind = 1
    out.length = 0
    if stem is not None:
        out.data = <const char *> PyUnicode_DATA(stem)
        out.kind = PyUnicode_KIND(stem)
        out.length = PyUnicode_GET_LENGTH(stem)
        stem_size = out.length * out.kind
    if token.length + stem_size + ENTRY_COST > c.max_bytes // 2:
        return 0  # one token would fill much of the cache: stemmed, never cached
    if c.bytes + token.length + stem_size + ENTRY_COST > c.max_bytes:
        cache_clear(c)
    if not c.ready:
        if table_init(&c.keys, 64, c.key) < 0:
            table_free(&c.keys)
            raise MemoryError()
        c.ready = True
    # The key in the arena, one byte a code point (a stemmable token's are
    # below 256), before it is interned: the cache never points at a pair.
    key = arena_alloc(c, token.length + stem_size)
    if key == NULL:
        raise MemoryError()
    for i in range(token.length):
        key[i] = <char> read_code_point(token.kind, token.data, i)
    if c.stems_capacity < 2 * c.keys.capacity:  # interning at most doubles it
        grown = <Stem *> realloc(c.stems, 2 * c.keys.capacity * sizeof(Stem))
        if grown == NULL:
            raise MemoryError()
        c.stems = grown
        c.stems_capacity = 2 * c.keys.capacity
    n_before = c.keys.n
    index = intern_token(&c.keys, key, 1, token.length,
                         fast_hash(&c.keys, key, 1, token.length))
    if index < 0:
        raise MemoryError()
    if c.keys.n == n_before:
        return 0  # cached meanwhile, by a thread that ran during the stemmer's call
    c.stems[index] = out[0]
    if stem is not None:
        c.stems[index].data = key + token.length
        memcpy(key + token.length, out.data, stem_size)
    c.bytes += token.length + stem_size + ENTRY_COST
    return 0


cdef inline dict memo_of(object stem):
    """The memo of ``stem`` if it is ``CachedPorterStemmer.stem_or_drop``
    (token -> stem or None, which the method fills and only ever clears), else None.

    A miss of the plan's cache reads it first: a dict lookup instead of a
    Python call for a token another plan of the same tokenizer has stemmed.
    """
    from kurenai.tokenizers._stemming import CachedPorterStemmer

    if getattr(stem, "__func__", None) is CachedPorterStemmer.stem_or_drop:
        return stem.__self__.memo
    return None


cdef inline object ask(object stem, dict memo, const Entry *token):
    """The stemmer's answer for ``token``: its memo's, or a call (a miss only)."""
    cdef object text = PyUnicode_FromKindAndData(token.kind, token.data, token.length)
    cdef PyObject *known = NULL if memo is None else PyDict_GetItem(memo, text)
    cdef object result = <object> known if known != NULL else stem(text)
    if result is not None and not isinstance(result, str):
        raise TypeError(f"a stemmer returns a str or None, not {type(result).__name__}")
    return result


# ---------------------------------------------------------------- a pair's stems

cdef inline bint stemmable(const ScanRules *rules, const Entry *e) noexcept nogil:
    """kurenai._core.rules.is_stemmable, without making a str: long enough, and
    only ROUGE word characters."""
    cdef Py_ssize_t i
    cdef uint32_t ch
    if e.length < rules.stem_min_length:
        return False
    for i in range(e.length):
        ch = read_code_point(e.kind, e.data, i)
        if ch >= 256 or not rules.token_char[<int> ROUGE_SCORE][ch]:
            return False
    return True


cdef struct StemText:     # a pair's copies of its stems, which its table points into
    char *data
    Py_ssize_t used
    Py_ssize_t capacity
    Py_ssize_t first      # the table's first entry that may point here


cdef inline int own_stem(Table *t, StemText *text, int32_t index) noexcept nogil:
    """Point the table's new entry ``index`` (the last) at a copy of its
    content in ``text``; the entries there since ``text.first`` move with it
    when it grows.  -1 if out of memory."""
    cdef Entry *e = &t.entries[index]
    cdef Py_ssize_t size = e.length * e.kind, capacity, i
    cdef char *grown
    if text.used + size > text.capacity:
        capacity = max(2 * text.capacity, text.used + size, <Py_ssize_t> 256)
        grown = <char *> malloc(capacity)
        if grown == NULL:
            return -1
        if text.used:
            memcpy(grown, text.data, text.used)
        for i in range(text.first, index):
            t.entries[i].data = grown + (t.entries[i].data - text.data)
        free(text.data)
        text.data = grown
        text.capacity = capacity
    memcpy(text.data + text.used, e.data, size)
    e.data = text.data + text.used
    text.used += size
    return 0


cdef inline int stem_all(Table *t, const ScanRules *rules, StemCache *cache, object stem,
                         dict memo, StemText *text, int32_t **final_ids) except -1:
    """final_ids[raw ID] = ID of its stem (-1: the tokenizer drops the token).

    ``stem`` is the tokenizer's ``stemmer`` (token -> stem, or None to drop
    it: a function of the token, so the cache answers for it); ``memo`` (or
    None) holds results it gave before, read on a miss without calling it.
    The stems new to the pair are copied into ``text`` (the pair frees it).
    """
    cdef Py_ssize_t raw_count = t.n, n_before, e
    cdef int32_t *final = <int32_t *> malloc((raw_count + 1) * sizeof(int32_t))
    cdef int32_t index
    cdef Entry entry
    cdef Stem found
    cdef object answer
    final_ids[0] = final
    text.first = raw_count
    if final == NULL:
        raise MemoryError()
    for e in range(raw_count):
        entry = t.entries[e]  # a copy: interning may move the entries
        if not stemmable(rules, &entry):
            final[e] = <int32_t> e
            continue
        index = cache_find(cache, &entry)
        if index >= 0:
            found = cache.stems[index]
        else:
            answer = ask(stem, memo, &entry)  # other threads may run here
            cache_put(cache, &entry, answer, &found)
        if found.data == NULL:
            final[e] = -1
            continue
        n_before = t.n
        index = intern_token(t, found.data, found.kind, found.length,
                             fast_hash(t, found.data, found.kind, found.length))
        if index < 0 or (t.n > n_before and own_stem(t, text, index) < 0):
            raise MemoryError()
        final[e] = index
    return 0


cdef inline void remap(Doc *doc, const int32_t *final) noexcept nogil:
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

# Interning for kurenai._fused and kurenai._perl: a token's content (code points in a str
# buffer) -> a dense int32 ID, in a flood-resistant open-addressing table.
#
# Inline code only, compiled into the module that cimports it.  A table
# starts with a fast keyed hash (a rotate-xor per code point); one whose probe
# chain grows past PROBE_LIMIT, which ordinary text never does, is rehashed
# with SipHash (kurenai/_kernels/_siphash.h) for the rest of its life.  So crafted
# tokens cost one rehash, not quadratic time, and common text pays no SipHash
# rounds.  The key is the caller's (kurenai/_fused.pyx holds the process's
# one key): each table copies it when it is made.

from libc.stdint cimport int32_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcmp, memset


cdef extern from "Python.h":
    # A pure macro over a str's buffer: safe without the GIL while it is alive.
    uint32_t read_code_point "PyUnicode_READ"(int kind, const void *data,
                                              Py_ssize_t index) nogil

cdef extern from "_kernels/_siphash.h":
    uint64_t sip13 "kurenai_sip13"(const uint64_t *key, const char *data, int kind,
                                   Py_ssize_t length) nogil
    uint64_t load8 "kurenai_load8"(const char *p) noexcept nogil
    uint32_t load4 "kurenai_load4"(const char *p) noexcept nogil
    uint16_t load2 "kurenai_load2"(const char *p) noexcept nogil


cdef enum:
    PROBE_LIMIT = 48  # probes of one lookup past which a table switches to SipHash


cdef struct HashKey:
    uint64_t words[2]     # SipHash's key; words[0] also seeds the fast hash
    bint constant_fast    # for tests: the fast hash is 0 for every token


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
    HashKey key


cdef inline uint64_t mix(uint64_t h, uint32_t ch) noexcept nogil:
    # A rotate-xor step per code point: a short dependency chain.  Its
    # collisions can be crafted; the switch to SipHash bounds their cost.
    # Code points, not code units: equal tokens hash equally in any kind.
    return ((h << 5) | (h >> 59)) ^ ch


cdef inline uint64_t finish(const Table *t, uint64_t h) noexcept nogil:
    """The fast hash of a token whose code points were mix-ed into ``h``
    (starting from t.key.words[0])."""
    if t.key.constant_fast:
        return 0
    h *= 0x100000001B3ULL
    return h ^ (h >> 29)


cdef inline uint64_t fast_hash(const Table *t, const char *data, int kind,
                               Py_ssize_t length) noexcept nogil:
    cdef uint64_t h = t.key.words[0]
    cdef Py_ssize_t i
    for i in range(length):
        h = mix(h, read_code_point(kind, data, i))
    return finish(t, h)


cdef inline bint same_bytes(const char *a, const char *b, Py_ssize_t length) noexcept nogil:
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
    # Differences OR-ed, one test: no branch, and no bitwise & of two comparisons,
    # which clang's -Wall reports (-Wbitwise-instead-of-logical).
    if length >= 4:
        return ((load4(a) ^ load4(b)) | (load4(a + length - 4) ^ load4(b + length - 4))) == 0
    if length >= 2:
        return ((load2(a) ^ load2(b)) | (load2(a + length - 2) ^ load2(b + length - 2))) == 0
    return a[0] == b[0]


cdef inline bint same(const Entry *e, const char *data, int kind,
                      Py_ssize_t length) noexcept nogil:
    cdef Py_ssize_t i
    if e.length != length:
        return False
    if e.kind == kind and kind == 1:
        return same_bytes(e.data, data, length)
    if e.kind == kind:
        return memcmp(e.data, data, length * kind) == 0
    for i in range(length):
        if read_code_point(e.kind, e.data, i) != read_code_point(kind, data, i):
            return False
    return True


cdef inline int table_init(Table *t, Py_ssize_t expected, const HashKey *key) noexcept nogil:
    """An empty table for about ``expected`` tokens, hashed under ``key``;
    -1 if out of memory (release with table_free either way)."""
    t.n = 0
    t.strong = False
    t.key = key[0]
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


cdef inline void table_free(Table *t) noexcept nogil:
    free(t.entries)
    free(t.slots)
    t.entries = NULL
    t.slots = NULL


cdef inline int table_grow(Table *t) noexcept nogil:
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


cdef inline int32_t intern_token(Table *t, const char *data, int kind, Py_ssize_t length,
                                 uint64_t fast) noexcept nogil:
    """The ID of the token content ``data[:length]``, added if new; -1: no memory.

    ``fast`` is its fast_hash, which the scan computes as it reads the token.
    """
    cdef uint64_t h = sip13(t.key.words, data, kind, length) if t.strong else fast
    cdef Py_ssize_t s = h & t.slot_mask, probes = 0
    cdef int32_t index
    while t.slots[s] >= 0:
        index = t.slots[s]
        if t.entries[index].hash == h and same(&t.entries[index], data, kind, length):
            return index
        s = (s + 1) & t.slot_mask
        probes += 1
        if probes > PROBE_LIMIT and not t.strong:
            strengthen(t)
            return intern_token(t, data, kind, length, fast)
    if t.n == t.capacity:
        if table_grow(t) < 0:
            return -1
        return intern_token(t, data, kind, length, fast)
    t.entries[t.n] = Entry(data, kind, length, h)
    t.slots[s] = <int32_t> t.n
    t.n += 1
    return <int32_t> (t.n - 1)


cdef inline void strengthen(Table *t) noexcept nogil:
    """Rehash every entry with SipHash and place them again (same size)."""
    cdef Py_ssize_t i, s, size = t.slot_mask + 1
    t.strong = True
    memset(t.slots, 0xFF, size * sizeof(int32_t))
    for i in range(t.n):
        t.entries[i].hash = sip13(t.key.words, t.entries[i].data, t.entries[i].kind,
                                  t.entries[i].length)
        s = t.entries[i].hash & t.slot_mask
        while t.slots[s] >= 0:
            s = (s + 1) & t.slot_mask
        t.slots[s] = <int32_t> i


cdef inline Py_ssize_t probe_total(const Table *t) noexcept nogil:
    """Slots that finding every entry reads: t.n if no two share a home slot."""
    cdef Py_ssize_t s, home, total = 0
    for s in range(t.slot_mask + 1):
        if t.slots[s] >= 0:
            home = t.entries[t.slots[s]].hash & t.slot_mask
            total += ((s - home) & t.slot_mask) + 1
    return total

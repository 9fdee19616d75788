# cython: language_level=3, boundscheck=False, wraparound=False
"""The command line's records, compiled: JSONL read and scores written, for many short records.

:func:`simple_columns` reads a block of JSONL lines whose objects have the
simplest shape, string members only, without escapes, and gives the
requested fields as columns; anything else (a blank line, an escape, a
number, a nested value, a missing or repeated requested field, bytes that
are no UTF-8) gives None, and the caller parses the block with its general
JSON reader.  :func:`records_text` writes records' scores as lines of JSON
or CSV, each distinct float formatted once (and kept for the next call) with
the C function of ``float.__repr__`` or of ``"%f" %``, each line assembled
in C.  ``kurenai/_records_py.py`` is the twin: the spec, and the path
without a compiler.
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.mem cimport PyMem_Free
from libc.math cimport isinf, isnan
from libc.stdint cimport int32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memchr, memcmp, memcpy, memset, strlen

cdef extern from "Python.h":
    object PyUnicode_DecodeUTF8(const char *data, Py_ssize_t size, const char *errors)
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    void *PyUnicode_DATA(object text)
    bint PyUnicode_IS_ASCII(object text)
    Py_ssize_t PyUnicode_GET_LENGTH(object text)
    char *PyOS_double_to_string(double value, char code, int precision, int flags,
                                int *kind) except NULL
    int Py_DTSF_ADD_DOT_0

cdef enum:
    # At most this many fields are looked up per line; more: the general reader.
    MAX_FIELDS = 8
    # A formatted float's longest repr is 24 characters ("-2.2250738585072014e-308").
    SLOT = 32


cdef inline Py_ssize_t _blank(const unsigned char *s, Py_ssize_t i, Py_ssize_t end) noexcept:
    """The first position from ``i`` that is not JSON whitespace (``\\n`` never occurs)."""
    while i < end and (s[i] == 32 or s[i] == 9 or s[i] == 13):
        i += 1
    return i


# Eight bytes at a time: a byte below 0x20 (a control character), a quote, a
# backslash or a byte of a multi-byte character stops the quick scan.
cdef extern from *:
    """
    #define KURENAI_ONES 0x0101010101010101ULL
    #define KURENAI_HIGHS 0x8080808080808080ULL
    """
    const uint64_t ONES "KURENAI_ONES"
    const uint64_t HIGHS "KURENAI_HIGHS"


cdef inline bint _plain8(const unsigned char *s) noexcept:
    """Whether none of the eight bytes at ``s`` is below 0x20, a quote, a
    backslash or above 0x7f.  (``(v - ONES) & ~v & HIGHS`` is nonzero
    exactly when a byte of ``v`` is zero; ``- ONES * 32``: below 0x20.)"""
    cdef uint64_t w, quote, backslash
    memcpy(&w, s, 8)
    quote = w ^ (ONES * 34)
    backslash = w ^ (ONES * 92)
    return not (
        ((w - ONES * 32) & ~w)
        | ((quote - ONES) & ~quote)
        | ((backslash - ONES) & ~backslash)
        | w
    ) & HIGHS


cdef inline Py_ssize_t _string(const unsigned char *s, Py_ssize_t i, Py_ssize_t end,
                               bint *wide) noexcept:
    """The closing quote of the string opened just before ``i``; -1 if the
    string has an escape or a control character, or does not end.  Sets
    ``wide`` if it has a byte above 0x7f."""
    cdef unsigned char c
    while i + 8 <= end and _plain8(s + i):
        i += 8
    while i < end:
        c = s[i]
        if c == 34:
            return i
        if c == 92 or c < 32:
            return -1
        if c > 127:
            wide[0] = True
        i += 1
    return -1


cdef bint _utf8(const char *data, Py_ssize_t size):
    """Whether these bytes are UTF-8 (as Python's strict decoder says)."""
    try:
        PyUnicode_DecodeUTF8(data, size, NULL)
    except UnicodeDecodeError:
        return False
    return True


def simple_columns(bytes block, tuple fields):
    """Per field of ``fields``, the text of each line, if every line of
    ``block`` (lines split on ``\n``, the last one with or without it) is a
    JSON object of string members without escapes or control characters, in
    which each field appears once, and the block is UTF-8; None otherwise."""
    cdef const unsigned char *s = <const unsigned char *>PyBytes_AS_STRING(block)
    cdef Py_ssize_t n = PyBytes_GET_SIZE(block)
    cdef Py_ssize_t nf = len(fields)
    cdef const char *names[MAX_FIELDS]
    cdef Py_ssize_t sizes[MAX_FIELDS]
    cdef Py_ssize_t starts[MAX_FIELDS]
    cdef Py_ssize_t stops[MAX_FIELDS]
    cdef Py_ssize_t pos = 0, end, i, key, key_end, value, value_end
    cdef int found, f
    cdef const unsigned char *newline
    cdef bint wide
    cdef list column
    if nf > MAX_FIELDS or nf == 0:
        return None
    encoded = [field.encode("utf-8", "surrogatepass") for field in fields]
    for f in range(nf):
        names[f] = PyBytes_AS_STRING(encoded[f])
        sizes[f] = PyBytes_GET_SIZE(encoded[f])
    columns = [[] for _ in range(nf)]
    while pos < n:
        newline = <const unsigned char *>memchr(s + pos, 10, n - pos)
        end = n if newline == NULL else newline - s
        found = 0
        wide = False
        for f in range(nf):
            starts[f] = -1
        i = _blank(s, pos, end)
        if i == end or s[i] != 123:  # "{"
            return None
        i = _blank(s, i + 1, end)
        if i < end and s[i] == 125:  # "}": an empty object
            i += 1
        else:
            while True:
                if i == end or s[i] != 34:
                    return None
                key = i + 1
                key_end = _string(s, key, end, &wide)
                if key_end < 0:
                    return None
                i = _blank(s, key_end + 1, end)
                if i == end or s[i] != 58:  # ":"
                    return None
                i = _blank(s, i + 1, end)
                if i == end or s[i] != 34:
                    return None
                value = i + 1
                value_end = _string(s, value, end, &wide)
                if value_end < 0:
                    return None
                for f in range(nf):
                    if sizes[f] == key_end - key and not memcmp(names[f], s + key, sizes[f]):
                        if starts[f] >= 0:
                            return None  # a repeated field
                        starts[f], stops[f] = value, value_end
                        found += 1
                        break
                i = _blank(s, value_end + 1, end)
                if i < end and s[i] == 44:  # ","
                    i = _blank(s, i + 1, end)
                    continue
                if i < end and s[i] == 125:  # "}"
                    i += 1
                    break
                return None
        if found != nf or _blank(s, i, end) != end:
            return None
        if wide and not _utf8(<const char *>s + pos, end - pos):
            return None
        for f in range(nf):
            column = columns[f]
            column.append(PyUnicode_DecodeUTF8(
                <const char *>s + starts[f], stops[f] - starts[f], NULL
            ))
        pos = end + 1
    return columns


cdef inline uint64_t _mix(uint64_t bits) noexcept:
    bits ^= bits >> 33
    bits *= 0xff51afd7ed558ccdULL
    bits ^= bits >> 33
    return bits


# The formatted floats of each style (0: JSON, 1: %f), kept from call to call
# (scores of short texts take few distinct values): an open-addressing table,
# float bits -> slot + 1 (0: empty), and each slot's characters.  Emptied when
# a call could fill it past half its capacity, and grown first for a call that
# alone would.
cdef struct Cache:
    uint64_t *keys
    int32_t *table
    char *strings
    unsigned char *lengths
    Py_ssize_t capacity
    Py_ssize_t used

cdef Cache _caches[2]


cdef void _release(Cache *cache) noexcept:
    free(cache.keys)
    free(cache.table)
    free(cache.strings)
    free(cache.lengths)
    cache.keys = NULL
    cache.table = NULL
    cache.strings = NULL
    cache.lengths = NULL
    cache.capacity = 0
    cache.used = 0


cdef int _make_room(Cache *cache, Py_ssize_t needed) except -1:
    """Room in ``cache`` for ``needed`` more floats, at most half full."""
    cdef Py_ssize_t capacity = 1 << 16
    if cache.table != NULL and 2 * (cache.used + needed) <= cache.capacity:
        return 0
    while capacity < 2 * needed:
        capacity *= 2
    if capacity > cache.capacity:
        _release(cache)
        cache.keys = <uint64_t *>malloc(capacity * sizeof(uint64_t))
        cache.table = <int32_t *>malloc(capacity * sizeof(int32_t))
        cache.strings = <char *>malloc((capacity // 2) * SLOT)
        cache.lengths = <unsigned char *>malloc(capacity // 2)
        if (cache.keys == NULL or cache.table == NULL or cache.strings == NULL
                or cache.lengths == NULL):
            _release(cache)
            raise MemoryError()
        cache.capacity = capacity
    memset(cache.table, 0, cache.capacity * sizeof(int32_t))
    cache.used = 0
    return 0


cdef Py_ssize_t _slot(Cache *cache, double x, int style) except -2:
    """The slot of ``x``'s characters in ``style``, formatted now if new; -1
    if they are longer than a slot (a %f of a large number)."""
    cdef uint64_t bits
    cdef Py_ssize_t at, length
    cdef char *digits
    cdef const char *text
    cdef char *into = cache.strings + cache.used * SLOT
    memcpy(&bits, &x, sizeof(double))
    at = <Py_ssize_t>(_mix(bits) & <uint64_t>(cache.capacity - 1))
    while cache.table[at]:
        if cache.keys[at] == bits:
            return cache.table[at] - 1
        at = (at + 1) & (cache.capacity - 1)
    if isnan(x):  # over a size limit: null in JSON, an empty cell in CSV
        length = 0 if style else 4
        memcpy(into, b"null", length)
    elif isinf(x) and not style:
        text = b"Infinity" if x > 0 else b"-Infinity"
        length = strlen(text)
        memcpy(into, text, length)
    else:
        if style:
            digits = PyOS_double_to_string(x, b"f", 6, 0, NULL)
        else:
            digits = PyOS_double_to_string(x, b"r", 0, Py_DTSF_ADD_DOT_0, NULL)
        length = strlen(digits)
        if length <= SLOT:
            memcpy(into, digits, length)
        PyMem_Free(digits)
        if length > SLOT:
            return -1
    cache.lengths[cache.used] = <unsigned char>length
    cache.keys[at] = bits
    cache.table[at] = <int32_t>(cache.used + 1)
    cache.used += 1
    return cache.used - 1


cdef inline unsigned char *_put(unsigned char *out, const char *text, Py_ssize_t size,
                                const unsigned char *stop) noexcept:
    """Copy ``size`` bytes of ``text`` (readable in whole slots of 32 bytes)
    to ``out``, before ``stop``; the end of the copy.  Copies of 32 bytes
    where there is room after: a copy of a constant size is a few moves, one
    of a variable size a slow ``rep movs`` for these short strings."""
    cdef Py_ssize_t done = 0
    if out + size + SLOT <= stop:
        while done < size:
            memcpy(out + done, text + done, SLOT)
            done += SLOT
    else:
        memcpy(out, text, size)
    return out + size


def records_text(const double[:, ::1] values, list ids, list pieces, bint fixed6=False):
    """Per record ``r``, ``pieces[0] + ids[r] + pieces[1] + v[0] + pieces[2] +
    ... + v[k - 1] + pieces[k + 1]`` as one string, with ``v[i]`` the JSON of
    ``values[i, r]`` (``float.__repr__``; NaN is ``null``, infinities
    ``Infinity`` and ``-Infinity``), or with ``fixed6`` its ``"%f" %`` (NaN:
    empty).  None if an id or a piece is not ASCII, or a ``%f`` is longer than
    32 characters.  ``values`` is (k, records), ``pieces`` has k + 2 strings."""
    cdef Py_ssize_t k = values.shape[0], count = values.shape[1]
    cdef Py_ssize_t i, r, total = 0, fixed = 0, slot, length
    cdef int style = 1 if fixed6 else 0
    cdef Cache *cache = &_caches[style]
    cdef int32_t *where = NULL
    cdef char *piece_data = NULL  # piece i at i * width, padded
    cdef Py_ssize_t *piece_sizes = NULL
    cdef Py_ssize_t width = SLOT
    cdef unsigned char *stop
    cdef unsigned char *out
    if len(pieces) != k + 2 or len(ids) != count:
        raise ValueError("records_text: pieces must be k + 2 strings and ids one per record")
    for text in [*pieces, *ids]:
        if not isinstance(text, str):
            raise TypeError("records_text: ids and pieces must be strings")
    for piece in pieces:
        if not PyUnicode_IS_ASCII(piece):
            return None
        fixed += PyUnicode_GET_LENGTH(piece)
    for record_id in ids:
        if not PyUnicode_IS_ASCII(record_id):
            return None
        total += PyUnicode_GET_LENGTH(record_id)
    total += fixed * count
    _make_room(cache, k * count)
    try:
        where = <int32_t *>malloc((k * count + 1) * sizeof(int32_t))
        for piece in pieces:
            while width < PyUnicode_GET_LENGTH(piece):
                width += SLOT
        piece_data = <char *>malloc((k + 2) * width)
        piece_sizes = <Py_ssize_t *>malloc((k + 2) * sizeof(Py_ssize_t))
        if where == NULL or piece_data == NULL or piece_sizes == NULL:
            raise MemoryError()
        for i in range(k + 2):
            piece_sizes[i] = PyUnicode_GET_LENGTH(pieces[i])
            memcpy(piece_data + i * width, PyUnicode_DATA(pieces[i]), piece_sizes[i])
        for i in range(k):
            for r in range(count):
                slot = _slot(cache, values[i, r], style)
                if slot < 0:
                    return None
                where[i * count + r] = <int32_t>slot
                total += cache.lengths[slot]
        result = PyUnicode_New(total, 127)
        out = <unsigned char *>PyUnicode_DATA(result)
        stop = out + total
        for r in range(count):
            for i in range(k + 2):
                out = _put(out, piece_data + i * width, piece_sizes[i], stop)
                if i == 0:
                    record_id = ids[r]
                    length = PyUnicode_GET_LENGTH(record_id)
                    memcpy(out, PyUnicode_DATA(record_id), length)
                    out += length
                elif i <= k:
                    slot = where[(i - 1) * count + r]
                    out = _put(out, cache.strings + slot * SLOT, cache.lengths[slot], stop)
        return result
    finally:
        free(where)
        free(piece_data)
        free(piece_sizes)

# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled JSONL reading and writing of the command line, for many short records.

:func:`simple_rows` reads a block of JSONL lines whose objects have the
simplest shape, string members only, without escapes, and gives each line's
requested fields; anything else (a blank line, an escape, a number, a nested
value, a repeated requested key, bytes that are no UTF-8) gives None, and the
caller parses the block with its general JSON reader.  :func:`records_text`
writes records' scores as JSON objects, each distinct float formatted once
with ``float.__repr__``'s own C function.  ``kurenai/_jsonl_py.py`` is the
twin: the spec, and the path without a compiler.
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

# At most this many fields are looked up per line; more: the general reader.
DEF MAX_FIELDS = 8
# A formatted float's longest repr is 24 characters ("-2.2250738585072014e-308").
DEF SLOT = 32


cdef inline Py_ssize_t _blank(const unsigned char *s, Py_ssize_t i, Py_ssize_t end) noexcept:
    """The first position from ``i`` that is not JSON whitespace (``\\n`` never occurs)."""
    while i < end and (s[i] == 32 or s[i] == 9 or s[i] == 13):
        i += 1
    return i


cdef inline Py_ssize_t _string(const unsigned char *s, Py_ssize_t i, Py_ssize_t end) noexcept:
    """The closing quote of the string opened just before ``i``; -1 if the
    string has an escape or a control character, or does not end."""
    cdef unsigned char c
    while i < end:
        c = s[i]
        if c == 34:
            return i
        if c == 92 or c < 32:
            return -1
        i += 1
    return -1


def simple_rows(bytes block, tuple fields):
    """Each line's ``{field: text}`` for the ``fields`` it holds, in the
    line's order, if every line of ``block`` (lines split on ``\\n``, the last
    one with or without it) is a JSON object of string members without
    escapes or control characters, whose requested keys appear at most once,
    and the block is UTF-8; None otherwise."""
    cdef const unsigned char *s = <const unsigned char *>PyBytes_AS_STRING(block)
    cdef Py_ssize_t n = PyBytes_GET_SIZE(block)
    cdef Py_ssize_t nf = len(fields)
    cdef const char *names[MAX_FIELDS]
    cdef Py_ssize_t sizes[MAX_FIELDS]
    cdef Py_ssize_t starts[MAX_FIELDS]
    cdef Py_ssize_t stops[MAX_FIELDS]
    cdef int order[MAX_FIELDS]
    cdef Py_ssize_t pos = 0, end, i, key, key_end, value, value_end
    cdef int found, f, j
    cdef const unsigned char *newline
    cdef dict row
    if nf > MAX_FIELDS:
        return None
    encoded = [field.encode("utf-8", "surrogatepass") for field in fields]
    for f in range(nf):
        names[f] = PyBytes_AS_STRING(encoded[f])
        sizes[f] = PyBytes_GET_SIZE(encoded[f])
    try:
        block.decode("utf-8")
    except UnicodeDecodeError:
        return None
    rows = []
    while pos < n:
        newline = <const unsigned char *>memchr(s + pos, 10, n - pos)
        end = n if newline == NULL else newline - s
        found = 0
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
                key_end = _string(s, key, end)
                if key_end < 0:
                    return None
                i = _blank(s, key_end + 1, end)
                if i == end or s[i] != 58:  # ":"
                    return None
                i = _blank(s, i + 1, end)
                if i == end or s[i] != 34:
                    return None
                value = i + 1
                value_end = _string(s, value, end)
                if value_end < 0:
                    return None
                for f in range(nf):
                    if sizes[f] == key_end - key and not memcmp(names[f], s + key, sizes[f]):
                        for j in range(found):
                            if order[j] == f:
                                return None  # a repeated requested key
                        order[found] = f
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
        if _blank(s, i, end) != end:
            return None
        row = {}
        for j in range(found):
            f = order[j]
            row[fields[f]] = PyUnicode_DecodeUTF8(
                <const char *>s + starts[f], stops[f] - starts[f], NULL
            )
        rows.append(row)
        pos = end + 1
    return rows


cdef inline uint64_t _mix(uint64_t bits) noexcept:
    bits ^= bits >> 33
    bits *= 0xff51afd7ed558ccdULL
    bits ^= bits >> 33
    return bits


# The formatted floats, kept from call to call (scores of short texts take few
# distinct values): an open-addressing table, float bits -> slot + 1 (0:
# empty), and each slot's characters.  Emptied when a call could fill it past
# half its capacity, and grown first for a call that alone would.
cdef uint64_t *_keys = NULL
cdef int32_t *_table = NULL
cdef char *_strings = NULL
cdef unsigned char *_lengths = NULL
cdef Py_ssize_t _capacity = 0
cdef Py_ssize_t _used = 0


cdef int _make_room(Py_ssize_t needed) except -1:
    """Room in the table for ``needed`` more floats, at most half full."""
    global _keys, _table, _strings, _lengths, _capacity, _used
    cdef Py_ssize_t capacity = 1 << 16
    if _table != NULL and 2 * (_used + needed) <= _capacity:
        return 0
    while capacity < 2 * needed:
        capacity *= 2
    if capacity > _capacity:
        free(_keys)
        free(_table)
        free(_strings)
        free(_lengths)
        _keys = <uint64_t *>malloc(capacity * sizeof(uint64_t))
        _table = <int32_t *>malloc(capacity * sizeof(int32_t))
        _strings = <char *>malloc((capacity // 2) * SLOT)
        _lengths = <unsigned char *>malloc(capacity // 2)
        if _keys == NULL or _table == NULL or _strings == NULL or _lengths == NULL:
            free(_keys)
            free(_table)
            free(_strings)
            free(_lengths)
            _keys = NULL
            _table = NULL
            _strings = NULL
            _lengths = NULL
            _capacity = 0
            raise MemoryError()
        _capacity = capacity
    memset(_table, 0, _capacity * sizeof(int32_t))
    _used = 0
    return 0


cdef Py_ssize_t _slot(double x) except -1:
    """The slot of ``x``'s JSON characters, formatted now if new."""
    global _used
    cdef uint64_t bits
    cdef Py_ssize_t at, length
    cdef char *digits
    cdef const char *text
    memcpy(&bits, &x, sizeof(double))
    at = <Py_ssize_t>(_mix(bits) & <uint64_t>(_capacity - 1))
    while _table[at]:
        if _keys[at] == bits:
            return _table[at] - 1
        at = (at + 1) & (_capacity - 1)
    if isnan(x):
        text, length = b"null", 4
        memcpy(_strings + _used * SLOT, text, length)
    elif isinf(x):
        text = b"Infinity" if x > 0 else b"-Infinity"
        length = strlen(text)
        memcpy(_strings + _used * SLOT, text, length)
    else:
        digits = PyOS_double_to_string(x, b"r", 0, Py_DTSF_ADD_DOT_0, NULL)
        length = strlen(digits)
        memcpy(_strings + _used * SLOT, digits, length)
        PyMem_Free(digits)
    _lengths[_used] = <unsigned char>length
    _keys[at] = bits
    _table[at] = <int32_t>(_used + 1)
    _used += 1
    return _used - 1


def records_text(const double[:, ::1] values, list ids, list pieces):
    """Per record ``r``, ``pieces[0] + ids[r] + pieces[1] + v[0] + pieces[2] +
    ... + v[k - 1] + pieces[k + 1]``, with ``v[i]`` the JSON of
    ``values[i, r]`` (``float.__repr__``; NaN is ``null``, infinities
    ``Infinity`` and ``-Infinity``), as one string; None if an id or a piece
    is not ASCII.  ``values`` is (k, records), ``pieces`` has k + 2 strings."""
    cdef Py_ssize_t k = values.shape[0], count = values.shape[1]
    cdef Py_ssize_t i, r, total = 0, fixed = 0, slot, length
    cdef int32_t *where = NULL
    cdef const char **piece_data = NULL
    cdef Py_ssize_t *piece_sizes = NULL
    cdef unsigned char *out
    if len(pieces) != k + 2 or len(ids) != count:
        raise ValueError("records_text: pieces must be k + 2 strings and ids one per record")
    for piece in pieces:
        if not PyUnicode_IS_ASCII(piece):
            return None
        fixed += PyUnicode_GET_LENGTH(piece)
    for record_id in ids:
        if not PyUnicode_IS_ASCII(record_id):
            return None
        total += PyUnicode_GET_LENGTH(record_id)
    total += fixed * count
    _make_room(k * count)
    try:
        where = <int32_t *>malloc((k * count + 1) * sizeof(int32_t))
        piece_data = <const char **>malloc((k + 2) * sizeof(char *))
        piece_sizes = <Py_ssize_t *>malloc((k + 2) * sizeof(Py_ssize_t))
        if where == NULL or piece_data == NULL or piece_sizes == NULL:
            raise MemoryError()
        for i in range(k + 2):
            piece_data[i] = <const char *>PyUnicode_DATA(pieces[i])
            piece_sizes[i] = PyUnicode_GET_LENGTH(pieces[i])
        for i in range(k):
            for r in range(count):
                slot = _slot(values[i, r])
                where[i * count + r] = <int32_t>slot
                total += _lengths[slot]
        result = PyUnicode_New(total, 127)
        out = <unsigned char *>PyUnicode_DATA(result)
        for r in range(count):
            for i in range(k + 2):
                memcpy(out, piece_data[i], piece_sizes[i])
                out += piece_sizes[i]
                if i == 0:
                    record_id = ids[r]
                    length = PyUnicode_GET_LENGTH(record_id)
                    memcpy(out, PyUnicode_DATA(record_id), length)
                    out += length
                elif i <= k:
                    slot = where[(i - 1) * count + r]
                    memcpy(out, _strings + slot * SLOT, _lengths[slot])
                    out += _lengths[slot]
        return result
    finally:
        free(where)
        free(piece_data)
        free(piece_sizes)

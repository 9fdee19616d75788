# The scan of kurenai._fused: one lowercased text -> the IDs of its tokens
# (interned in a kurenai/_kernels/_text_intern.pxd table), a sentence per line,
# exactly as four Python tokenizers of kurenai.tokenizers split it:
# ``AllCharacterSupportTokenizer`` (runs of non-space), ``RougeScoreTokenizer``
# (runs of ASCII ``[a-z0-9]``), ``CharTokenizer`` and ``UnicodeTokenizer`` (by
# Unicode class).  Their stemming, applied to the IDs, is kurenai/_kernels/_fused_stems.pxd's.
#
# Inline code only, compiled into the module that cimports it.  The rules are
# kurenai._data.rules's: as compile-time constants here (kurenai/_fused.pyx
# checks them against it when it loads) and as tables in a ScanRules, which
# the caller fills once and passes in.

from cpython.unicode cimport PyUnicode_DATA
from cpython.unicode cimport PyUnicode_GET_LENGTH, PyUnicode_KIND
from libc.stdint cimport int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy

from kurenai._kernels._text_intern cimport HashKey, Table, finish, intern_token, mix
from kurenai._kernels._text_intern cimport table_free, table_init
from kurenai._lcs cimport Doc


cdef extern from "Python.h":
    bint is_space "Py_UNICODE_ISSPACE"(uint32_t ch) nogil
    const Py_ssize_t PY_SSIZE_T_MAX


# The tokenizations, by the ``scan_mode`` tokenizers declare: compile-time
# codes (the scan branches on them per code point), the numbers of
# kurenai._data.rules.SCAN_MODES.  A scan mode (how a text becomes tokens), not
# a multi-reference mode (kurenai._core.multiref.Mode: how references combine).
cdef enum ScanMode:
    WHITESPACE = 0     # maximal runs of non-space
    ROUGE_SCORE = 1    # maximal runs of ASCII [a-z0-9]
    CHAR = 2           # unspaced-script letters alone, words of others
    UNICODE_WORDS = 3  # runs of letters, numbers and marks


# Code point flags for CHAR and UNICODE_WORDS (see ScanRules.classes) and the
# table's layout.  Compile-time constants, because the scan tests them per
# code point (read from memory they cost the scan a third more instructions).
cdef enum:
    ALONE = 1
    WORD = 2
    MARK = 4
    DIRECT_PLANES_END = 0x40000
    PLANE_14 = 0xE0000
    PLANE_14_SIZE = 0x1000
    NEWLINE = 10


cdef struct ScanRules:
    # token_char[mode][c]: is code point c (< 256) part of a token in this
    # mode?  (Only the WHITESPACE and ROUGE_SCORE rows are read.)
    uint8_t token_char[4][256]
    # Code point flags, from kurenai.tokenizers._unicode.char_classes();
    # NULL until installed (CHAR and UNICODE_WORDS never scan without it).
    const uint8_t *classes


ctypedef fused code_unit:
    uint8_t
    uint16_t
    uint32_t


cdef inline bint in_token(const uint8_t *token_char, uint32_t ch, int mode) noexcept nogil:
    if ch < 256:
        return token_char[ch]
    return mode == WHITESPACE and not is_space(ch)


cdef inline uint8_t flags_of(const uint8_t *classes, uint32_t ch) noexcept nogil:
    if ch < DIRECT_PLANES_END:
        return classes[ch]
    if ch - PLANE_14 < PLANE_14_SIZE:
        return classes[DIRECT_PLANES_END + ch - PLANE_14]
    return 0


cdef inline int emit(Table *t, Doc *doc, const char *data, int kind,
                     Py_ssize_t length, uint64_t mixed, Py_ssize_t limit) noexcept nogil:
    """Append the ID of the token ``data[:length]``, whose code points the
    scan mix-ed into ``mixed``.

    Returns -1 if out of memory, 1 once the text has more than ``limit``
    tokens (the scan stops there), else 0.
    """
    cdef int32_t token_id = intern_token(t, data, kind, length, finish(t, mixed))
    if token_id < 0:
        return -1
    doc.ids[doc.n_tokens] = token_id
    doc.n_tokens += 1
    return doc.n_tokens > limit


cdef inline void end_sentence(Doc *doc, Py_ssize_t *sentence_start) noexcept nogil:
    """Close the current sentence, if it has tokens (empty lines make none)."""
    if doc.n_tokens > sentence_start[0]:
        doc.n_sents += 1
        doc.bounds[doc.n_sents] = doc.n_tokens
        sentence_start[0] = doc.n_tokens


cdef inline int scan_units(Table *t, const uint8_t *token_char, const code_unit *units,
                           Py_ssize_t length, int mode, Doc *doc,
                           Py_ssize_t limit) noexcept nogil:
    """WHITESPACE and ROUGE_SCORE: maximal runs of token code points."""
    cdef Py_ssize_t i = 0, start, sentence_start = 0
    cdef int kind = sizeof(code_unit), status
    cdef uint64_t seed = t.key.words[0], mixed
    while True:
        # Separators; a newline ends a sentence.
        while i < length and not in_token(token_char, units[i], mode):
            if units[i] == NEWLINE:
                end_sentence(doc, &sentence_start)
            i += 1
        if i >= length:
            break
        start = i
        mixed = seed  # the token is hashed as it is read
        while i < length and in_token(token_char, units[i], mode):
            mixed = mix(mixed, units[i])
            i += 1
        status = emit(t, doc, <const char *> (units + start), kind, i - start, mixed, limit)
        if status != 0:
            return status
    end_sentence(doc, &sentence_start)
    return 0


cdef inline int scan_classes(Table *t, const uint8_t *classes, const code_unit *units,
                             Py_ssize_t length, int mode, Doc *doc,
                             Py_ssize_t limit) noexcept nogil:
    """CHAR and UNICODE_WORDS: the regex findall of kurenai.tokenizers._unicode,
    ``letter mark*  |  word (word | mark)*``, read off the flags table."""
    cdef Py_ssize_t i = 0, start, sentence_start = 0
    cdef uint8_t flags, follow
    cdef uint8_t starts_word = WORD if mode == CHAR else WORD | ALONE
    cdef int kind = sizeof(code_unit), status
    cdef uint64_t seed = t.key.words[0], mixed
    while i < length:
        flags = flags_of(classes, units[i])
        if mode == CHAR and flags & ALONE:
            follow = MARK
        elif flags & starts_word:
            follow = starts_word | MARK
        else:
            if units[i] == NEWLINE:
                end_sentence(doc, &sentence_start)
            i += 1
            continue
        start = i
        mixed = mix(seed, units[i])
        i += 1
        while i < length and flags_of(classes, units[i]) & follow:
            mixed = mix(mixed, units[i])
            i += 1
        status = emit(t, doc, <const char *> (units + start), kind, i - start, mixed, limit)
        if status != 0:
            return status
    end_sentence(doc, &sentence_start)
    return 0


cdef inline int scan(Table *t, const ScanRules *rules, const char *data, int kind,
                     Py_ssize_t length, int mode, Doc *doc, Py_ssize_t limit) noexcept nogil:
    """Tokens of one lowercased text as IDs; a sentence per non-empty line.

    Returns 0, -1 if out of memory, or 1 as soon as there are more than
    ``limit`` tokens (if ``limit`` >= 0), so memory stays bounded by it.
    """
    # Split on separators, a token takes at least one code point and one
    # separator; CHAR makes a token of every letter of an unspaced script.
    cdef Py_ssize_t most = length + 1 if mode == CHAR else length // 2 + 1
    cdef const uint8_t *token_char = rules.token_char[mode]
    cdef const uint8_t *classes = rules.classes
    if 0 <= limit < most:
        most = limit + 1
    elif limit < 0:
        limit = PY_SSIZE_T_MAX  # one comparison per token in emit
    doc.ids = NULL
    doc.bounds = NULL
    if (mode == CHAR or mode == UNICODE_WORDS) and classes == NULL:
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
            return scan_classes(t, classes, <const uint8_t *> data, length, mode, doc, limit)
        if kind == 2:
            return scan_classes(t, classes, <const uint16_t *> data, length, mode, doc, limit)
        return scan_classes(t, classes, <const uint32_t *> data, length, mode, doc, limit)
    if kind == 1:
        return scan_units(t, token_char, <const uint8_t *> data, length, mode, doc, limit)
    if kind == 2:
        return scan_units(t, token_char, <const uint16_t *> data, length, mode, doc, limit)
    return scan_units(t, token_char, <const uint32_t *> data, length, mode, doc, limit)


cdef inline int scan_alone(const HashKey *key, const ScanRules *rules, str prepared, int mode,
                           Table *table, Doc *doc, Py_ssize_t expected) except -1:
    """Scan one lowercased text into a fresh table for about ``expected``
    tokens; release with scan_alone_free (freed already if this raises)."""
    table.entries = NULL
    table.slots = NULL
    doc.ids = NULL
    doc.bounds = NULL
    if table_init(table, expected, key) < 0 or scan(
        table, rules, <const char *> PyUnicode_DATA(prepared), PyUnicode_KIND(prepared),
        PyUnicode_GET_LENGTH(prepared), mode, doc, -1
    ) < 0:
        scan_alone_free(table, doc)
        raise MemoryError()
    return 0


cdef inline int scan_many(Table *table, const ScanRules *rules, list prepared, int mode,
                          Doc *whole) except -1:
    """Scan each lowercased text of ``prepared`` into ``table`` (made by the
    caller, so equal tokens get equal IDs across texts): ``whole`` holds every
    text's IDs in turn, a text a "sentence" (``bounds[k]`` its first ID).
    The caller frees ``whole.ids`` and ``whole.bounds``, also if this raises."""
    cdef Py_ssize_t n = len(prepared), k, total = 0, capacity = 64
    cdef Doc doc
    cdef int32_t *grown
    cdef str text
    whole.ids = <int32_t *> malloc(capacity * sizeof(int32_t))
    whole.bounds = <Py_ssize_t *> malloc((n + 1) * sizeof(Py_ssize_t))
    whole.n_sents = n
    whole.n_tokens = 0
    if whole.ids == NULL or whole.bounds == NULL:
        raise MemoryError()
    whole.bounds[0] = 0
    for k in range(n):
        text = prepared[k]
        if scan(table, rules, <const char *> PyUnicode_DATA(text), PyUnicode_KIND(text),
                PyUnicode_GET_LENGTH(text), mode, &doc, -1) < 0:
            free(doc.ids)
            free(doc.bounds)
            raise MemoryError()
        if total + doc.n_tokens > capacity:
            capacity = max(2 * capacity, total + doc.n_tokens)
            grown = <int32_t *> realloc(whole.ids, capacity * sizeof(int32_t))
            if grown == NULL:
                free(doc.ids)
                free(doc.bounds)
                raise MemoryError()
            whole.ids = grown
        memcpy(whole.ids + total, doc.ids, doc.n_tokens * sizeof(int32_t))
        total += doc.n_tokens
        whole.bounds[k + 1] = total
        whole.n_tokens = total
        free(doc.ids)
        free(doc.bounds)
    return 0


cdef inline void scan_alone_free(Table *table, Doc *doc) noexcept nogil:
    free(doc.ids)
    free(doc.bounds)
    doc.ids = NULL
    doc.bounds = NULL
    table_free(table)

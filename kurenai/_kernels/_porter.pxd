# NLTK's Porter stemmer (rouge-score's), compiled: kurenai/_kernels/_porter.h
# holds the rules; this is how a module of the kernel row calls them on a
# str (``porter_stem``) or on a token's characters in C (``porter_ascii``).
# Inline code only, compiled into the module that cimports it.

from cpython.unicode cimport PyUnicode_DATA, PyUnicode_GET_LENGTH
from libc.stdlib cimport free, malloc


cdef extern from "_kernels/_porter.h":
    Py_ssize_t kurenai_porter(char *w, Py_ssize_t n) noexcept nogil


cdef extern from "Python.h":
    bint porter_is_ascii "PyUnicode_IS_ASCII"(object text)
    object porter_decode "PyUnicode_DecodeASCII"(
        const char *s, Py_ssize_t size, const char *errors)


cdef enum:
    PORTER_ON_STACK = 64


cdef inline object porter_ascii(const char *data, Py_ssize_t n):
    """The stem of the ASCII text ``data[:n]``, lower-cased first as NLTK's
    ``stem`` does: a new str."""
    cdef char small[PORTER_ON_STACK]
    cdef char *w = small
    cdef Py_ssize_t i
    cdef char c
    if n > PORTER_ON_STACK:
        w = <char *> malloc(n)
        if w == NULL:
            raise MemoryError()
    try:
        for i in range(n):
            c = data[i]
            w[i] = c + 32 if 65 <= c <= 90 else c  # A-Z
        return porter_decode(w, kurenai_porter(w, n), NULL)
    finally:
        if w != small:
            free(w)


cdef inline object porter_stem(str word):
    """NLTK's ``PorterStemmer().stem(word)`` for an ASCII ``word``; None for
    another (its lower-casing is Unicode's: the caller asks NLTK)."""
    if not porter_is_ascii(word):
        return None
    return porter_ascii(<const char *> PyUnicode_DATA(word), PyUnicode_GET_LENGTH(word))

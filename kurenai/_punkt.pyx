# cython: language_level=3, boundscheck=False, wraparound=False
"""NLTK's Punkt sentence splitter, compiled: ``PunktSentenceTokenizer.tokenize`` exactly.

The twin ``kurenai/_punkt_py.py`` is the spec (and its docstring the
algorithm).  Here one pass over the text's code points finds the candidates
(NLTK's period-context pattern: a ``.``, ``?`` or ``!`` followed by other
punctuation, or by whitespace and a token), each context's word before it and
NLTK's overlap rule; the context's tokens are NLTK's word pattern scanned by
hand (its three alternatives: a run of ``--`` or ``..`` or ``. . .``, a word
up to the marks that end one, a single character); the realignment of closing
quotes and brackets is its pattern scanned likewise.  The only character
class these patterns use is ``\\s``, taken from the engine NLTK compiles them
with (the ``regex`` module's ``\\s`` is not ``str.isspace``): ASCII from a
table, any other code point asked once and remembered.  What a token brings
to the decision is the twin's :func:`token_facts`, computed once per distinct
token; the decision between two tokens is the twin's ``breaks_between``.
"""

from cpython.unicode cimport PyUnicode_DATA, PyUnicode_GET_LENGTH, PyUnicode_KIND

from kurenai import _punkt_py as _twin

__all__ = ["PunktSplitter", "breaks_between"]

cdef extern from "Python.h":
    Py_UCS4 PyUnicode_READ(int kind, const void *data, Py_ssize_t index) nogil
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch) nogil
    object PyUnicode_Substring(object text, Py_ssize_t start, Py_ssize_t end)

cdef enum:
    FACTS_LIMIT = 65536  # distinct tokens remembered (then forgotten at once), as the twin
    WIDE_SPACES_LIMIT = 4096  # non-ASCII code points whose whitespace class is remembered
    # _ortho_heuristic's answers: False, True, "unknown" (the twin's _FALSE, _TRUE, _UNKNOWN)
    ORTHO_FALSE = 0
    ORTHO_TRUE = 1
    ORTHO_UNKNOWN = 2

# Character sets of NLTK's patterns, as C tests.


cdef inline bint _non_word(Py_UCS4 c) noexcept nogil:
    """NLTK's ``_re_non_word_chars``: ``)";}]*:@'({[`` curly quotes, guillemets, ``!?``."""
    if c < 128:
        return (c == 41 or c == 34 or c == 59 or c == 125 or c == 93 or c == 42 or c == 58
                or c == 64 or c == 39 or c == 40 or c == 123 or c == 91 or c == 33 or c == 63)
    return c == 0x2018 or c == 0x2019 or c == 0x201C or c == 0x201D or c == 0xAB or c == 0xBB


cdef inline bint _not_word_start(Py_UCS4 c) noexcept nogil:
    """Outside NLTK's ``_re_word_start``: ``("`{[:;&#*@)}]-,``."""
    return (c == 40 or c == 34 or c == 96 or c == 123 or c == 91 or c == 58 or c == 59
            or c == 38 or c == 35 or c == 42 or c == 64 or c == 41 or c == 125 or c == 93
            or c == 45 or c == 44)


cdef inline bint _closing(Py_UCS4 c) noexcept nogil:
    """The class of ``re_boundary_realignment``: ``"')]}`` curly quotes, guillemets."""
    if c < 128:
        return c == 34 or c == 39 or c == 41 or c == 93 or c == 125
    return c == 0x2018 or c == 0x2019 or c == 0x201C or c == 0x201D or c == 0xAB or c == 0xBB


cdef inline bint _sent_end(Py_UCS4 c) noexcept nogil:
    return c == 46 or c == 63 or c == 33


cdef class _Scan


cdef class PunktSplitter:
    """NLTK's ``PunktSentenceTokenizer(params)`` for ``tokenize`` (the twin's
    :class:`~kurenai._punkt_py.PunktSplitter`: same arguments, same results)."""

    cdef object _tables
    cdef object _rules
    cdef frozenset _collocations
    cdef dict _facts
    cdef dict _wide_spaces  # code point >= 128 -> whether the engine's \s matches it
    cdef object _space_match
    cdef bint _ascii_space[128]

    def __init__(self, params, rules):
        self._tables = _twin.tables_of(params)
        self._rules = rules
        self._collocations = self._tables.collocations
        self._facts = {}
        self._wide_spaces = {}
        self._space_match = rules.space.match
        cdef int code
        for code in range(128):
            self._ascii_space[code] = self._space_match(chr(code)) is not None

    def tokenize(self, str text not None):
        """``PunktSentenceTokenizer.tokenize(text)``: the sentences of ``text``."""
        return _Scan(self, text).run(True)

    def spans(self, str text not None):
        """``span_tokenize(text)``: each sentence's (start, stop) in ``text``."""
        return _Scan(self, text).run(False)

    def facts(self, str token not None):
        """The twin's :func:`token_facts` of ``token``, remembered."""
        return self._facts_of(token)

    cdef tuple _facts_of(self, str token):
        found = self._facts.get(token)
        if found is None:
            if len(self._facts) >= FACTS_LIMIT:
                self._facts.clear()
            found = self._facts[token] = _twin.token_facts(token, self._tables, self._rules)
        return <tuple> found

    def contains_break(self, str context not None):
        """``text_contains_sentbreak(context)``: a break after any token of
        ``context`` but its last."""
        return _Scan(self, context).contains_break(0, PyUnicode_GET_LENGTH(context))

    cdef bint _space(self, Py_UCS4 c) except -1:
        """The engine's ``\\s``."""
        if c < 128:
            return self._ascii_space[c]
        found = self._wide_spaces.get(c)
        if found is None:
            if len(self._wide_spaces) >= WIDE_SPACES_LIMIT:
                self._wide_spaces.clear()
            found = self._wide_spaces[c] = self._space_match(chr(c)) is not None
        return found


cdef class _Scan:
    """One text being split: its code points, read in place (one per call, so
    that calls from several threads never share it).

    Each slice of ``_slices_from_text`` is realigned as soon as the next one
    is known and goes straight to the output (``out``): beyond the output,
    a split holds one pending slice, whatever the number of sentences."""

    cdef PunktSplitter splitter
    cdef str text
    cdef const void *data
    cdef int kind
    cdef list out  # the sentences (substrings) or their (start, stop) spans
    cdef bint substrings
    cdef bint pending  # a slice waits for the next one (realignment looks ahead)
    cdef Py_ssize_t pending_start, pending_stop, realign

    def __cinit__(self, PunktSplitter splitter not None, str text not None):
        self.splitter = splitter
        self.text = text
        self.data = PyUnicode_DATA(text)
        self.kind = PyUnicode_KIND(text)
        self.out = []
        self.pending = False
        self.realign = 0

    cdef list run(self, bint substrings):
        """The text's sentences (``substrings``) or spans, realigned."""
        self.substrings = substrings
        self.slices(PyUnicode_GET_LENGTH(self.text))
        if self.pending:  # the last slice: nothing after it to realign
            self._emit(self.pending_start + self.realign, self.pending_stop)
        return self.out

    cdef inline Py_UCS4 _at(self, Py_ssize_t index) noexcept:
        return PyUnicode_READ(self.kind, self.data, index)

    cdef inline bint _space(self, Py_UCS4 c) except -1:
        return self.splitter._space(c)

    # ------------------------------------------------------------ candidates

    cdef int slices(self, Py_ssize_t n) except -1:
        """``_slices_from_text`` over ``_match_potential_end_contexts``, each
        slice pushed (``_push``) as it is found."""
        cdef Py_ssize_t last_break = 0, at, after_end, next_start, start, scan
        cdef Py_ssize_t previous_at = -1, previous_start = 0, previous_stop = 0
        cdef Py_ssize_t previous_end = 0, previous_next = -1, stop = n
        cdef Py_UCS4 c, d
        for at in range(n):
            if not _sent_end(self._at(at)) or at + 1 >= n:
                continue
            # The period-context pattern's lookahead: other punctuation, or
            # whitespace and a token.
            d = self._at(at + 1)
            if _non_word(d):
                after_end, next_start = at + 2, -1
            elif self._space(d):
                next_start = at + 2
                while next_start < n and self._space(self._at(next_start)):
                    next_start += 1
                if next_start == n:
                    continue
                after_end = next_start + 1
                while after_end < n and not self._space(self._at(after_end)):
                    after_end += 1
            else:
                continue
            # The word before: back to the last ASCII whitespace after the
            # previous candidate (none, or at its very start: the previous word's start).
            scan = at - 1
            while scan >= previous_stop:
                c = self._at(scan)
                if c == 32 or 9 <= c <= 13:
                    break
                scan -= 1
            start = scan + 1 if scan > previous_stop else previous_start
            if previous_at >= 0 and previous_stop <= start:
                last_break = self._decide(last_break, previous_start, previous_at,
                                          previous_end, previous_next)
            previous_at, previous_start, previous_stop = at, start, at
            previous_end, previous_next = after_end, next_start
        if previous_at >= 0:
            last_break = self._decide(last_break, previous_start, previous_at,
                                      previous_end, previous_next)
        while stop > 0 and Py_UNICODE_ISSPACE(self._at(stop - 1)):
            stop -= 1
        self._push(last_break, stop)
        return 0

    cdef Py_ssize_t _decide(self, Py_ssize_t last_break, Py_ssize_t start,
                            Py_ssize_t at, Py_ssize_t after_end,
                            Py_ssize_t next_start) except -1:
        """One candidate of ``_slices_from_text``: the next sentence's start."""
        if self.contains_break(start, after_end):
            self._push(last_break, at + 1)
            return next_start if next_start >= 0 else at + 1
        return last_break

    # ------------------------------------------------------------ decisions

    cdef bint contains_break(self, Py_ssize_t start, Py_ssize_t end) except -1:
        """``text_contains_sentbreak`` on the text's ``[start, end)``: its
        lines (``split("\\n")``, blank ones skipped), each one's words."""
        cdef Py_ssize_t line_start = start, line_end, i
        cdef bint blank
        cdef list previous = [None]
        while line_start <= end:
            line_end = line_start
            while line_end < end and self._at(line_end) != 10:
                line_end += 1
            blank = True  # line.strip() is empty
            for i in range(line_start, line_end):
                if not Py_UNICODE_ISSPACE(self._at(i)):
                    blank = False
                    break
            if not blank and self._line_breaks(line_start, line_end, previous):
                return True
            line_start = line_end + 1
        return False

    cdef bint _line_breaks(self, Py_ssize_t i, Py_ssize_t end, list previous) except -1:
        """The word pattern's tokens of one line, each after the first of the
        context decided against the one before it (``previous[0]``)."""
        cdef Py_ssize_t length, j
        cdef Py_UCS4 c
        while i < end:
            c = self._at(i)
            if self._space(c):
                i += 1
                continue
            length = self._multi_char(i, end)
            if length == 0:
                if _not_word_start(c):
                    length = 1
                else:
                    j = i + 1
                    while j < end and not self._word_ends(j, end):
                        j += 1
                    length = j - i
            if self._pair_breaks(previous, self.splitter._facts_of(
                    PyUnicode_Substring(self.text, i, i + length))):
                return True
            i += length
        return False

    cdef bint _pair_breaks(self, list previous, tuple current) except -1:
        """Whether the token before ``current`` (``previous[0]``) keeps a break;
        ``current`` becomes the one before."""
        cdef object first = previous[0]
        previous[0] = current
        if first is None:
            return False
        return _breaks(<tuple> first, current, self.splitter._collocations)

    cdef Py_ssize_t _multi_char(self, Py_ssize_t i, Py_ssize_t end) except -1:
        """The length of NLTK's multi-character punctuation at ``i`` (``--+``,
        ``..+``, ``(. ){2,}.``), 0 if none."""
        cdef Py_UCS4 c = self._at(i)
        cdef Py_ssize_t j, pairs
        if (c != 45 and c != 46) or i + 1 >= end:
            return 0
        if self._at(i + 1) == c:
            j = i + 2
            while j < end and self._at(j) == c:
                j += 1
            return j - i
        if c == 45:
            return 0
        pairs = 0
        j = i
        while j + 1 < end and self._at(j) == 46 and self._space(self._at(j + 1)):
            pairs += 1
            j += 2
        if pairs >= 2 and j < end and self._at(j) == 46:
            return 2 * pairs + 1
        if pairs >= 3:
            return 2 * pairs - 1  # backtracked: the last pair's period ends it
        return 0

    cdef bint _word_ends(self, Py_ssize_t j, Py_ssize_t end) except -1:
        """The word pattern's lookahead at ``j``: whitespace, the end, other
        punctuation, multi-character punctuation, or a comma followed by one
        of those."""
        cdef Py_UCS4 c = self._at(j)
        if self._space(c) or _non_word(c) or self._multi_char(j, end):
            return True
        if c != 44:
            return False
        if j + 1 == end:
            return True
        c = self._at(j + 1)
        return self._space(c) or _non_word(c) or self._multi_char(j + 1, end) != 0

    # ------------------------------------------------------------ realignment

    cdef int _push(self, Py_ssize_t next_start, Py_ssize_t next_stop) except -1:
        """``_realign_boundaries`` of the pending slice, now that the next one
        (``[next_start, next_stop)``) is known; the next one then waits."""
        cdef Py_ssize_t start, matched
        if self.pending:
            start = self.pending_start + self.realign
            matched = self._realignment(next_start, next_stop)
            if matched >= 0:
                self._emit(start, next_start + self._rstripped(next_start, matched), True)
                self.realign = matched
            else:
                self.realign = 0
                self._emit(start, self.pending_stop)
        self.pending, self.pending_start, self.pending_stop = True, next_start, next_stop
        return 0

    cdef int _emit(self, Py_ssize_t start, Py_ssize_t stop, bint always=False) except -1:
        """One sentence of the output (an empty one is dropped, unless ``always``)."""
        if always or start < stop:
            if self.substrings:
                self.out.append(PyUnicode_Substring(self.text, start, stop))
            else:
                self.out.append((start, stop))
        return 0

    cdef Py_ssize_t _realignment(self, Py_ssize_t start, Py_ssize_t stop) except -2:
        """The length of ``re_boundary_realignment``'s match on ``[start, stop)``
        (closers, lazily, then whitespace, ``--`` or the end of a line), -1 if none."""
        cdef Py_ssize_t k = start
        while k < stop and _closing(self._at(k)):
            k += 1
            if k < stop and self._space(self._at(k)):
                while k < stop and self._space(self._at(k)):
                    k += 1
                return k - start
            if k == stop or self._at(k) == 10:
                return k - start
            if k + 1 < stop and self._at(k) == 45 and self._at(k + 1) == 45:
                return k - start
        return -1

    cdef Py_ssize_t _rstripped(self, Py_ssize_t start, Py_ssize_t length) except -1:
        """``len(text[start:start + length].rstrip())``."""
        while length > 0 and Py_UNICODE_ISSPACE(self._at(start + length - 1)):
            length -= 1
        return length


def breaks_between(first, second, collocations):
    """Whether Punkt's second pass leaves a sentence break after the token
    of facts ``first`` when the token of facts ``second`` follows it."""
    if not (isinstance(first, tuple) and isinstance(second, tuple)):
        raise TypeError("breaks_between takes two TokenFacts")
    return _breaks(<tuple> first, <tuple> second, collocations)


cdef bint _breaks(tuple first, tuple second, object collocations) except -1:
    """The twin's ``breaks_between`` on two :class:`TokenFacts`."""
    # TokenFacts: sentbreak, period_final, type_no_period, abbr_or_ellipsis,
    # is_initial, is_number, next_type, ortho, starter, upper_unseen_lower
    if not first[1]:
        return first[0]
    if (first[2], second[6]) in collocations:
        return False
    cdef int ortho = second[7]
    cdef bint initial = first[4]
    if first[3] and not initial:
        if ortho == ORTHO_TRUE or second[8]:
            return True
    if initial or first[5]:
        if ortho == ORTHO_FALSE:
            return False
        if ortho == ORTHO_UNKNOWN and initial and second[9]:
            return False
    return first[0]

# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The fused compiled plan for kurenai's own tokenizers: text -> IDs -> Scores.

``FusedPlan`` is the compiled twin of ``kurenai._core.python_plan.PythonPlan``
for a tokenizer that declares a ``scan_mode``: it scans the lowercased text's
code points and interns each token's *content* in a C hash table, without
making a Python string per token (stemming reads the plan's stem cache in
C: a token becomes a string only the first time the plan stems it); the IDs feed ``kurenai._lcs``'s
kernels (``kurenai._variants``' for ROUGE-W/S/SU), and the ``Score``s are
computed with rouge-score's float operations, in the same order.

The jobs are in the inline code this module cimports from ``kurenai/_kernels/``,
compiled into it: ``_text_intern.pxd`` (the flood-resistant interning table; SipHash in
``_siphash.h``), ``_fused_scan.pxd`` (the four tokenizations),
``_fused_stems.pxd`` (the stem cache) and ``_pair_stems.pxd`` (the stemming of a pair's IDs),
``_fused_pair.pxd`` (one pair's scan and counts,
without the GIL), ``_fused_driver.pxd`` (the driver taking one pair or a
batch through scan, stemming and count, releasing the GIL around the C)
and ``_fused_scores.pxd`` (the score formulas).  This module holds their
one copy of the process state (the hash key, the scan's tables) and the plan.
"""

from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.unicode cimport (
    PyUnicode_DATA,
    PyUnicode_FromKindAndData,
    PyUnicode_GET_LENGTH,
    PyUnicode_KIND,
)
from libc.stdint cimport int32_t, int64_t, uint8_t
from libc.math cimport NAN
from libc.stdlib cimport calloc, free, malloc

from kurenai._kernels._fused_driver cimport pair_free, run_all, work_run
from kurenai._kernels._text_intern cimport Entry, HashKey, Table, probe_total, sip13
from kurenai._kernels._codes cimport LCS, LSUM, NGRAM, SKIP, WLCS
from kurenai._kernels._fused_pair cimport Layout, PairWork
from kurenai._kernels._fused_pair cimport prepared_within, prepared
from kurenai._kernels._fused_pair cimport work_free, work_init
from kurenai._kernels._fused_scan cimport (
    ALONE, CHAR, DIRECT_PLANES_END, MARK, NEWLINE, PLANE_14, PLANE_14_SIZE, ROUGE_SCORE,
    UNICODE_WORDS, WHITESPACE, WORD, ScanRules, is_space, scan_alone, scan_alone_free, scan_many,
)
from kurenai._kernels._text_intern cimport table_free, table_init
from kurenai._kernels._fused_stems cimport StemCache, cache_clear, cache_free, cache_init, memo_of
from kurenai._kernels._fused_stems cimport set_stem_rule
from kurenai._kernels._pair_stems cimport StemText, remap, stem_all
from kurenai._kernels._fused_scores cimport new_triple, type_values
from kurenai._kernels._porter cimport porter_stem as _porter_stem
from kurenai._lcs cimport Doc

import os

from kurenai._data import codes as _codes

from kurenai._data import rules as _rules


cdef extern from "Python.h":
    bint is_ascii "PyUnicode_IS_ASCII"(object text)


# ---------------------------------------------------------------- the rules

# The compile-time codes of the inline code are kurenai._core's numbers.
SCAN_MODES = {"whitespace": WHITESPACE, "rouge-score": ROUGE_SCORE, "char": CHAR,
              "unicode": UNICODE_WORDS}
if SCAN_MODES != _rules.SCAN_MODES:
    raise ImportError("kurenai._fused's scan modes differ from kurenai._data.rules.SCAN_MODES")
if (ALONE, WORD, MARK, DIRECT_PLANES_END, PLANE_14, PLANE_14_SIZE, NEWLINE) != (
    _rules.ALONE, _rules.WORD, _rules.MARK, _rules.DIRECT_PLANES_END, _rules.PLANE_14,
    _rules.PLANE_14_SIZE, ord(_rules.SENTENCE_SEPARATOR)
):
    raise ImportError("kurenai._fused's code point classes differ from kurenai._data.rules")
_codes.check_c_kinds(
    "kurenai._fused", {"NGRAM": NGRAM, "LCS": LCS, "LSUM": LSUM, "WLCS": WLCS, "SKIP": SKIP}
)

# The ROUGE type kinds this plan computes (their codes: kurenai._data.codes).
KINDS = frozenset({NGRAM, LCS, LSUM, WLCS, SKIP})

# The scan's tables: the one copy, which every plan's Layout points to.
cdef ScanRules RULES
RULES.classes = NULL
for _c in range(256):
    RULES.token_char[<int> WHITESPACE][_c] = not is_space(_c)
    RULES.token_char[<int> ROUGE_SCORE][_c] = chr(_c) in _rules.ROUGE_WORD_CHARS
del _c
cdef bytes _classes_owner = None


def set_char_classes(bytes classes):
    """Install the code point flags the CHAR and UNICODE_WORDS scans read."""
    global _classes_owner
    if len(classes) != _rules.CLASS_TABLE_SIZE:
        raise ValueError("char classes must have kurenai._data.rules.CLASS_TABLE_SIZE bytes")
    _classes_owner = classes
    RULES.classes = <const uint8_t *> classes


cdef int _need_char_classes() except -1:
    # A plan may be made in a process that never built a scorer: one
    # unpickled in a spawned worker, say.  Install the table then.
    if RULES.classes == NULL:
        from kurenai.tokenizers._unicode import char_classes
        set_char_classes(char_classes())
    return 0


# ---------------------------------------------------------------- the hash key

# The one copy of the interning key; each table copies it when it is made.
cdef HashKey HASH_KEY
HASH_KEY.constant_fast = False


def _set_hash_key(bytes key):
    """Key the token hash (16 bytes; a random one is set at import)."""
    if len(key) != 16:
        raise ValueError("the hash key is 16 bytes")
    HASH_KEY.words[0] = int.from_bytes(key[:8], "little")
    HASH_KEY.words[1] = int.from_bytes(key[8:], "little")


_set_hash_key(os.urandom(16))  # a new key in each process


def porter_stem(str word):
    """NLTK's ``PorterStemmer().stem(word)`` (rouge-score's stemmer), compiled,
    for an ASCII ``word``; None for another (NLTK's own code answers it)."""
    return _porter_stem(word)


def _token_hash(str token):
    """The strong interning hash of ``token`` under this process's key (for tests)."""
    return sip13(HASH_KEY.words, <const char *> PyUnicode_DATA(token), PyUnicode_KIND(token),
                 PyUnicode_GET_LENGTH(token))


def _degrade_fast_hash(bint on):
    """Make the fast hash a constant (for tests of the switch to SipHash)."""
    HASH_KEY.constant_fast = on


# ---------------------------------------------------------------- the plan

cdef enum:
    SMALL_ORDERS = 16  # n-gram orders whose overlaps a pair keeps on the stack

# The most entries intern_texts' table starts with (it grows beyond).
cdef Py_ssize_t TABLE_ALL_MAX = 1 << 20

# Pairs per score_many call of score_shared: score_batch's largest chunk.
SHARED_CHUNK = 64

# Bytes a plan's stem cache holds at most (tokens, stems and their entries):
# 32 MiB, some 250,000 English words; emptied when full.
STEM_CACHE_BYTES = 1 << 25


cdef Py_ssize_t _expected_tokens(list texts):
    """About how many distinct tokens ``texts`` hold: intern_texts' table sized
    once rather than grown (and rehashed) a dozen times."""
    cdef Py_ssize_t length = 0
    cdef str text
    for text in texts:
        length += PyUnicode_GET_LENGTH(text)
    return min(length // 16 + 64, TABLE_ALL_MAX)


cdef class FusedPlan:
    """What to compute for a scorer's ROUGE types, fixed at construction.

    ``spec`` is the types as ``kurenai._core.plan.parse_types`` parsed them,
    ``mode`` a code of ``SCAN_MODES``, ``stem`` the tokenizer's ``stemmer`` (None:
    no stemming) and ``score_class`` the tuple subclass of the scores;
    ``threads`` (>= 1) how many threads one long pair's LCS may use.
    """

    cdef readonly object spec
    cdef readonly tuple rouge_types
    cdef readonly object stem
    cdef dict stem_memo             # stem's own memo, read on a miss without calling it
    cdef StemCache stem_cache       # token -> stem in C; not pickled, refills
    cdef readonly object score_class
    cdef Layout c                   # the types in C, for the nogil code

    def __cinit__(self):
        self.c.kinds = self.c.gaps = self.c.unigrams = NULL
        self.c.orders = self.c.order_slot = self.c.ngram_orders = NULL
        cache_init(&self.stem_cache, &HASH_KEY, STEM_CACHE_BYTES)

    def __dealloc__(self):
        free(self.c.kinds)
        free(self.c.orders)
        free(self.c.order_slot)
        free(self.c.ngram_orders)
        free(self.c.gaps)
        free(self.c.unigrams)
        cache_free(&self.stem_cache)

    def __init__(self, spec, int mode, stem, type score_class, int threads=1):
        if not issubclass(score_class, tuple):
            raise TypeError("score_class must be a tuple subclass")
        if mode not in SCAN_MODES.values():
            raise ValueError(f"unknown scan mode {mode}")
        if mode == CHAR or mode == UNICODE_WORDS:
            _need_char_classes()
        if not set(spec.kinds) <= KINDS:
            raise ValueError(f"the compiled plan computes only the kinds {sorted(KINDS)}")
        self.spec = spec
        self.rouge_types = tuple(spec.rouge_types)
        self.stem = stem
        self.stem_memo = memo_of(stem)
        set_stem_rule(&self.stem_cache, stem, _rules.STEM_RULES["porter"])
        self.score_class = score_class
        self.c.mode = mode
        self.c.threads = max(threads, 1)
        self.c.key = &HASH_KEY
        self.c.rules = &RULES
        self._set_types(spec)

    cdef int _set_types(self, spec) except -1:
        cdef Layout *c = &self.c
        cdef Py_ssize_t i
        c.n_types = len(self.rouge_types)
        c.n_orders = len(spec.orders)
        c.kinds = <int *> malloc((c.n_types + 1) * sizeof(int))
        c.orders = <Py_ssize_t *> malloc((c.n_types + 1) * sizeof(Py_ssize_t))
        c.order_slot = <Py_ssize_t *> malloc((c.n_types + 1) * sizeof(Py_ssize_t))
        c.ngram_orders = <Py_ssize_t *> malloc((c.n_orders + 1) * sizeof(Py_ssize_t))
        c.gaps = <int *> malloc((c.n_types + 1) * sizeof(int))
        c.unigrams = <int *> malloc((c.n_types + 1) * sizeof(int))
        if not (c.kinds and c.orders and c.order_slot and c.ngram_orders and c.gaps
                and c.unigrams):
            raise MemoryError()
        for i in range(c.n_orders):
            c.ngram_orders[i] = spec.orders[i]
        for i in range(c.n_types):
            c.kinds[i] = spec.kinds[i]
            c.order_slot[i] = spec.slots[i]
            c.orders[i] = spec.orders[spec.slots[i]] if c.kinds[i] == NGRAM else 0
            c.gaps[i] = spec.gaps[i]
            c.unigrams[i] = spec.unigrams[i]
        c.want_lcs = LCS in spec.kinds
        c.want_lsum = LSUM in spec.kinds
        c.has_variants = WLCS in spec.kinds or SKIP in spec.kinds
        c.w_weight = spec.w_weight
        return 0

    @property
    def mode(self):
        """The scan mode, a code of ``SCAN_MODES``."""
        return self.c.mode

    @property
    def threads(self):
        """How many threads one long pair's LCS may use."""
        return self.c.threads

    def _stem_cache(self, Py_ssize_t max_bytes=-1):
        """(tokens, bytes) the stem cache holds; ``max_bytes`` >= 0 empties it
        and sets its bound (for tests)."""
        if max_bytes >= 0:
            cache_clear(&self.stem_cache)
            self.stem_cache.max_bytes = max_bytes
        return self.stem_cache.n, self.stem_cache.bytes

    def __reduce__(self):
        return FusedPlan, (self.spec, self.c.mode, self.stem, self.score_class, self.c.threads)

    def score(self, str target, str prediction):
        """``RougeScorer.score`` for this plan: dict of rouge type -> Score."""
        cdef PairWork work
        cdef Py_ssize_t small[SMALL_ORDERS]
        self._count_pair(&work, small, target, prediction)
        try:
            return self._scores(&work)
        finally:
            pair_free(&work, small)

    def tallies(self, str target, str prediction):
        """See ``kurenai._core.plan.Plan.tallies``."""
        cdef PairWork work
        cdef Py_ssize_t small[SMALL_ORDERS]
        cdef Py_ssize_t i
        self._count_pair(&work, small, target, prediction)
        try:
            return [self._tally(&work, i) for i in range(self.c.n_types)]
        finally:
            pair_free(&work, small)

    cdef tuple _tally(self, const PairWork *work, Py_ssize_t i):
        cdef Py_ssize_t t_len = work.t.n_tokens, p_len = work.p.n_tokens, n
        cdef const double *counts = work.variant_counts + 3 * i
        cdef bint both = t_len > 0 and p_len > 0
        cdef int kind = self.c.kinds[i]
        if kind == WLCS:
            return counts[0], counts[1], <Py_ssize_t> counts[2]
        if kind == SKIP:
            return <int64_t> counts[0], <int64_t> counts[1], <int64_t> counts[2]
        if kind == NGRAM:
            n = self.c.orders[i]
            return (work.counts.overlaps[self.c.order_slot[i]], max(t_len - n + 1, 0),
                    max(p_len - n + 1, 0))
        if kind == LCS:
            return work.counts.lcs if both else 0, t_len, p_len
        return work.counts.hits if both else 0, t_len, p_len

    cdef int _count_pair(self, PairWork *work, Py_ssize_t *small, str target,
                         str prediction) except -1:
        """Every count of one pair into ``work`` (released by _pair_free;
        ``small`` holds the n-gram overlaps of up to SMALL_ORDERS orders)."""
        work_init(work)
        work.counts.overlaps = small
        if self.c.n_orders > SMALL_ORDERS:
            work.counts.overlaps = <Py_ssize_t *> malloc(self.c.n_orders * sizeof(Py_ssize_t))
            if work.counts.overlaps == NULL:
                raise MemoryError()
        try:
            work_run(&self.c, &self.stem_cache, self.stem, self.stem_memo, work,
                     prepared(target), prepared(prediction), -1)
        except BaseException:
            pair_free(work, small)
            raise
        return 0

    def tokens(self, str text, bint stemmed=False):
        """The tokens this plan's scan finds in ``text``, before stemming (or
        after, through the plan's stem cache, if ``stemmed`` and it stems).

        Not used for scoring: it lets tests hold the compiled scan to the
        Python tokenizer it reproduces, token for token.
        """
        cdef str lowered = text.lower()  # the table points into it
        cdef Table table
        cdef Doc doc
        cdef Entry *entry
        cdef Py_ssize_t k
        cdef PairWork w  # holds the stems' buffers
        work_init(&w)
        scan_alone(self.c.key, self.c.rules, lowered, self.c.mode, &table, &doc, 16)
        try:
            if stemmed and self.stem is not None:
                stem_all(&table, self.c.rules, &self.stem_cache, self.stem, self.stem_memo,
                         &w.stems, &w.final_ids)
                remap(&doc, w.final_ids)
            result = []
            for k in range(doc.n_tokens):
                entry = &table.entries[doc.ids[k]]
                result.append(PyUnicode_FromKindAndData(entry.kind, entry.data, entry.length))
            return result
        finally:
            scan_alone_free(&table, &doc)
            work_free(&w)

    def intern_texts(self, list texts):
        """Each text's tokens, stemmed as scored, as IDs over one vocabulary:
        ``(ids, starts, size)``: ``ids`` the int32 IDs of every text in turn
        (native order, as bytes), ``starts`` the offset of each text's first
        ID and the end (``len(texts) + 1`` ints), ``size`` a bound on the IDs.
        Equal tokens get equal IDs across texts: the all-pairs kernels
        (``kurenai._pairs``) count on them without tokenizing a text twice.
        """
        cdef list lowered = [text.lower() for text in texts]  # the table points into them
        cdef Py_ssize_t k, n = len(lowered)
        cdef Table table
        cdef Doc whole
        cdef StemText stems
        cdef int32_t *final = NULL
        table.entries = NULL
        table.slots = NULL
        stems.data = NULL
        stems.used = stems.capacity = 0
        whole.ids = NULL
        whole.bounds = NULL
        try:
            if table_init(&table, _expected_tokens(lowered), &HASH_KEY) < 0:
                raise MemoryError()
            scan_many(&table, &RULES, lowered, self.c.mode, &whole)
            if self.stem is not None:
                stem_all(&table, &RULES, &self.stem_cache, self.stem, self.stem_memo,
                         &stems, &final)
                remap(&whole, final)
            ids = PyBytes_FromStringAndSize(<char *> whole.ids, whole.n_tokens * sizeof(int32_t))
            starts = [whole.bounds[k] for k in range(n + 1)]
            return ids, starts, table.n
        finally:
            free(final)
            free(stems.data)
            free(whole.ids)
            free(whole.bounds)
            table_free(&table)

    def _probes(self, str text):
        """(distinct tokens, table slots read to find each once) for ``text``.

        Equal counts mean no collision; with a keyed hash the ratio stays
        near 1.5 whatever the tokens.  For the hash-flooding tests only.
        """
        cdef str lowered = text.lower()
        cdef Table table
        cdef Doc doc
        scan_alone(self.c.key, self.c.rules, lowered, self.c.mode, &table, &doc, 16)
        try:
            return table.n, probe_total(&table)
        finally:
            scan_alone_free(&table, &doc)

    def score_many(self, list targets, list predictions, Py_ssize_t max_tokens=-1,
                   double[:, :, :] out=None):
        """Scores of many pairs of str, in order, releasing the GIL while counting.

        Returns a list of score dicts, with None for a pair where a side has more
        than ``max_tokens`` tokens (if >= 0).  With ``out`` (shape: types x 3 x
        pairs), writes precision, recall and F-measure there instead (NaN for
        such pairs) and returns None.
        """
        cdef Py_ssize_t n = len(targets), k
        cdef Py_ssize_t n_orders = self.c.n_orders
        cdef PairWork *works
        cdef Py_ssize_t *overlaps
        cdef list ready, over = []
        if len(predictions) != n:
            raise ValueError(f"{n} targets but {len(predictions)} predictions")
        if max_tokens < 0:
            ready = [prepared(text) for text in targets]
            ready += [prepared(text) for text in predictions]
        else:
            ready, over = prepared_within(&self.c, targets + predictions, n, max_tokens)
        works = <PairWork *> calloc(n + 1, sizeof(PairWork))
        overlaps = <Py_ssize_t *> malloc((n * n_orders + 1) * sizeof(Py_ssize_t))
        if works == NULL or overlaps == NULL:
            free(works)
            free(overlaps)
            raise MemoryError()
        try:
            for k in range(n):
                work_init(&works[k])
                works[k].counts.overlaps = overlaps + k * n_orders
            run_all(&self.c, &self.stem_cache, self.stem, self.stem_memo, works, ready, n,
                    max_tokens)
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
                work_free(&works[k])
            free(works)
            free(overlaps)

    def score_shared(self, list targets, list systems, list out):
        """See ``kurenai._core.plan.Plan.score_shared``: ``score_many`` per
        system, ``SHARED_CHUNK`` pairs at a time (as ``score_batch`` cuts a
        batch), scanning each target again: faster in C than tokens handed over."""
        cdef Py_ssize_t n = len(targets), start, stop
        for predictions, table in zip(systems, out):
            if len(predictions) != n:
                raise ValueError(f"{n} targets but {len(predictions)} predictions")
            for start in range(0, n, SHARED_CHUNK):
                stop = min(start + SHARED_CHUNK, n)
                self.score_many(
                    targets[start:stop], predictions[start:stop], -1, table[:, :, start:stop]
                )

    cdef dict _scores(self, const PairWork *work):
        cdef dict result = {}
        cdef Py_ssize_t i
        cdef double values[3]
        values[0] = values[1] = values[2] = 0.0  # inlined, GCC cannot see they are set
        for i in range(self.c.n_types):
            if type_values(&self.c, work, i, values):
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
        values[0] = values[1] = values[2] = 0.0  # inlined, GCC cannot see they are set
        for i in range(self.c.n_types):
            if work.status != 0:
                values[0] = values[1] = values[2] = NAN
            elif not type_values(&self.c, work, i, values):
                values[0] = values[1] = values[2] = 0.0
            for field in range(3):
                out[i, field, k] = values[field]

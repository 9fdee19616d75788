# A pair's stems for kurenai._fused: its raw token IDs -> the IDs of their
# stems, read from the plan's stem cache (kurenai/_kernels/_fused_stems.pxd)
# and, for a miss, from the tokenizer's stemmer (once, filling the cache).
# A stem new to the pair is copied into the pair's own buffer (StemText), so
# its table never points into the cache.
#
# Inline code only, compiled into the module that cimports it; with the GIL
# held (see _fused_stems.pxd).

from cpython.unicode cimport PyUnicode_DATA, PyUnicode_GET_LENGTH, PyUnicode_KIND
from libc.stdint cimport int32_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from kurenai._kernels._text_intern cimport Entry, Table, fast_hash, intern_token, read_code_point
from kurenai._kernels._fused_scan cimport ROUGE_SCORE, ScanRules
from kurenai._kernels._fused_stems cimport Record, Stem, StemCache, ask, cache_find, cache_hash
from kurenai._kernels._fused_stems cimport cache_put, prefetch, same_fast_key, stem_of, token_hash
from kurenai._kernels._porter cimport porter_ascii
from kurenai._lcs cimport Doc


cdef inline bint stemmable(const ScanRules *rules, const StemCache *c,
                           const Entry *e) noexcept nogil:
    """kurenai._data.rules.StemRule.stemmable, without making a str: long
    enough but not too long, and only ROUGE word characters if the rule says so."""
    cdef Py_ssize_t i
    cdef uint32_t ch
    if e.length < c.min_length or e.length > c.max_length:
        return False
    if not c.words_only:
        return True
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
    cdef Py_ssize_t raw_count = t.n, e, epoch = cache.epoch
    cdef int32_t *final = <int32_t *> malloc((raw_count + 1) * sizeof(int32_t))
    cdef uint64_t *hashes = <uint64_t *> malloc((raw_count + 1) * sizeof(uint64_t))
    final_ids[0] = final
    text.first = raw_count
    if final == NULL or hashes == NULL:
        free(hashes)
        raise MemoryError()
    try:
        # The cache is too big for the CPU's nearest caches: hash every token
        # first and prefetch its slot, then its record, so that their memory
        # reads overlap instead of waiting one after the other.
        for e in range(raw_count):
            final[e] = <int32_t> e if not stemmable(rules, cache, &t.entries[e]) else -2
            if final[e] == -2:
                hashes[e] = token_hash(cache, t, &t.entries[e])
                if cache.slots != NULL:
                    prefetch(&cache.slots[hashes[e] & cache.slot_mask])
        if cache.slots != NULL:
            for e in range(raw_count):
                if final[e] == -2:
                    prefetch(cache.slots[hashes[e] & cache.slot_mask].record)
        stem_pair(t, cache, stem, memo, text, final, hashes, epoch)
    finally:
        free(hashes)
    return 0


cdef inline int stem_pair(Table *t, StemCache *cache, object stem, dict memo, StemText *text,
                          int32_t *final, const uint64_t *hashes, Py_ssize_t epoch) except -1:
    """stem_all's work: final[e] for each stemmable token e (final[e] == -2),
    whose cache_hash is hashes[e] as long as the cache's epoch is ``epoch``."""
    cdef Py_ssize_t raw_count = t.n, n_before, e
    cdef int32_t index
    cdef Entry entry
    cdef Stem found
    cdef const Record *record
    cdef object answer
    found.data, found.kind, found.length, found.hash = NULL, 1, 0, 0  # both branches set it
    for e in range(raw_count):
        if final[e] != -2:
            continue
        entry = t.entries[e]  # a copy: interning may move the entries
        record = cache_find(cache, &entry, hashes[e] if cache.epoch == epoch else
                            cache_hash(cache, entry.data, entry.kind, entry.length))
        if record != NULL:
            stem_of(record, &found)
        else:
            if cache.porter and entry.kind == 1:  # an ASCII word: stemmed here
                answer = porter_ascii(entry.data, entry.length)
            else:
                answer = ask(stem, memo, &entry)  # other threads may run here
            cache_put(cache, &entry, answer, &found)
        if found.data == NULL:
            final[e] = -1
            continue
        n_before = t.n
        index = intern_token(t, found.data, found.kind, found.length,
                             found.hash if same_fast_key(&cache.key, &t.key) else
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

# Interning for kurenai._lcs's Python surface and kurenai._perl: sentences of any hashable
# tokens -> a Doc of dense int32 IDs, through a dict shared by both sides of
# a pair (the twin's ``intern_sentences`` in C).
#
# Inline code only, compiled into the module that cimports it.  (The fused
# plan interns text itself, in C: kurenai/_kernels/_text_intern.pxd.)

from cpython.dict cimport PyDict_GetItemWithError, PyDict_SetItem
from cpython.ref cimport PyObject
from libc.stdint cimport int32_t
from libc.stdlib cimport free, malloc

from kurenai._lcs cimport Doc


cdef inline int intern_doc(object sentences, dict vocab, Doc *doc) except -1:
    """Fill ``doc`` with the IDs of ``sentences`` (a list of token sequences)."""
    cdef list sents = [s if type(s) is list else list(s) for s in sentences]
    cdef Py_ssize_t total = 0, k = 0, s_i = 0, idx
    cdef list sent
    cdef PyObject *found
    for sent in sents:
        total += len(sent)
    doc.n_sents = len(sents)
    doc.n_tokens = total
    doc.ids = <int32_t *> malloc((total + 1) * sizeof(int32_t))
    doc.bounds = <Py_ssize_t *> malloc((doc.n_sents + 1) * sizeof(Py_ssize_t))
    if doc.ids == NULL or doc.bounds == NULL:
        raise MemoryError()
    for sent in sents:
        doc.bounds[s_i] = k
        s_i += 1
        for token in sent:
            # NULL and an error for an unhashable token (PyDict_GetItem would
            # swallow it, which Python 3.13 reports as an ignored exception).
            found = PyDict_GetItemWithError(vocab, token)
            if found == NULL:
                idx = len(vocab)
                PyDict_SetItem(vocab, token, idx)
            else:
                idx = <object> found
            doc.ids[k] = <int32_t> idx
            k += 1
    doc.bounds[s_i] = k
    return 0


cdef inline void free_doc(Doc *doc) noexcept:
    free(doc.ids)
    free(doc.bounds)
    doc.ids = NULL
    doc.bounds = NULL

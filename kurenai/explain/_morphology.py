"""Spans of the morphological tokenizers' words, from the offsets their analysers report.

``MorphologicalTokenizer.tokenize`` gives words only; here each adapter's
analyser is run again over the tokenizer's own loaded dictionary or model,
on the same pieces (``MorphologicalTokenizer._calls``), keeping the offsets
(MeCab's surfaces and the spaces before them, Sudachi's
``begin``/``end``, jieba's and Kiwi's start and length), and the adapter's
steps are replayed on them: the same filtering of words without a letter,
number or mark, the same gluing of split-off marks and jieba fragments, the
same stemming.  ``kurenai.explain._spans`` checks the words against
``tokenize``'s, so a drift between the two raises instead of misplacing.

MeCab's tagger and Sudachi's tokenizer are not thread-safe: one per
tokenizer instance is made here and used under a lock.
"""

from __future__ import annotations

import re
import threading
import weakref
from typing import Any, Callable

from kurenai.tokenizers._mecab_taggers import mecab_base_form
from kurenai.tokenizers._morphological import (
    JiebaTokenizer,
    KiwiTokenizer,
    MeCabTokenizer,
    MorphologicalTokenizer,
    SudachiTokenizer,
)
from kurenai.tokenizers._unicode import is_marks, is_spaced_word

__all__ = ["analysed_spans"]

Spans = list[tuple[str, int, int]]
Analyse = Callable[[str], Spans]
_HAS_WORD_CHARACTER = re.compile(r"[^\W_]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_ANALYSERS: weakref.WeakKeyDictionary[Any, Analyse] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def analysed_spans(tokenizer: MorphologicalTokenizer, text: str) -> Spans | None:
    """The words of ``tokenizer.tokenize`` on (already normalised) ``text``,
    with spans into it; None for an adapter this module does not know."""
    if not text or text.isspace():
        return []
    if not text.isascii():
        text = _SURROGATE.sub(" ", text)  # as the adapter does: same length
    with _LOCK:
        analyse = _ANALYSERS.get(tokenizer)
        if analyse is None:
            maker = _MAKERS.get(type(tokenizer))
            if maker is None:
                return None
            analyse = _ANALYSERS[tokenizer] = maker(tokenizer, _resource(tokenizer))
        words = _kept(_in_calls(tokenizer, analyse, text))
    stemmer = tokenizer.stemmer  # the adapter's stem-then-filter step, as it tokenizes
    if stemmer is None:
        return words
    return [(stem, s, e) for word, s, e in words if (stem := stemmer(word)) is not None]


def _in_calls(tokenizer: MorphologicalTokenizer, analyse: Analyse, text: str) -> Spans:
    """``analyse`` run on the pieces the adapter gives its analyser
    (``_calls``: size limits, long unbroken runs cut), spans into ``text``."""
    found: Spans = []
    offset = 0
    for call in tokenizer._calls(text):
        found.extend((word, offset + start, offset + end) for word, start, end in analyse(call))
        offset += len(call)
    return found


def _resource(tokenizer: MorphologicalTokenizer) -> Any:
    """The tokenizer's loaded package or dictionary (loaded now if not yet)."""
    if tokenizer._resource is None:
        tokenizer.tokenize("a")
    return tokenizer._resource


def _kept(analysed: Spans) -> Spans:
    """``_analysed_words._kept_words`` with spans: a split-off mark extends its word."""
    words: Spans = []
    previous_kept = False
    for word, start, end in analysed:
        if previous_kept and is_marks(word):
            last, first, _ = words[-1]
            words[-1] = (last + word, first, end)
        elif _HAS_WORD_CHARACTER.search(word):
            words.append((word.lower(), start, end))
            previous_kept = True
        else:
            previous_kept = False
    return words


def _mecab(tokenizer: MeCabTokenizer, taggers: Any) -> Analyse:
    """``taggers``: the tokenizer's resource, the process's pool of MeCab
    taggers for its options (one lent per call, as the tokenizer does)."""
    lemma = tokenizer.use_stemmer

    def analyse(text: str) -> Spans:
        found: Spans = []
        position = 0
        with taggers.lend() as tagger:  # its nodes are read before it is lent again
            for word in tagger(text):
                surface = str(word.surface)
                start = text.find(surface, position)
                if start < 0:  # not expected: MeCab's surfaces are slices of its input
                    start = position
                position = start + len(surface)
                found.append((mecab_base_form(word) if lemma else surface, start, position))
        return found

    return analyse


def _sudachi(tokenizer: SudachiTokenizer, loaded: Any) -> Analyse:
    sudachipy, dictionary = loaded
    mode = getattr(sudachipy.SplitMode, tokenizer.mode)
    make = getattr(dictionary, "tokenizer", None)
    analyser = make(mode=mode) if make is not None else dictionary.create(mode)
    lemma = tokenizer.use_stemmer

    def analyse(text: str) -> Spans:
        found: Spans = []
        for m in analyser.tokenize(text):
            word = m.dictionary_form() if lemma else m.surface()
            found.append((word, m.begin(), m.end()))
        return found

    return analyse


def _jieba(tokenizer: JiebaTokenizer, analyser: Any) -> Analyse:
    hmm = tokenizer.hmm

    def analyse(text: str) -> Spans:
        # ``_analysed_words._jieba_words``: touching fragments of spaced scripts glued.
        found: Spans = []
        previous_end, previous_spaced = -1, False
        for word, start, end in analyser.tokenize(text, HMM=hmm):
            spaced = is_spaced_word(word)
            if spaced and previous_spaced and start == previous_end:
                last, first, _ = found[-1]
                found[-1] = (last + word, first, end)
            else:
                found.append((word, start, end))
            previous_end, previous_spaced = end, spaced
        return found

    return analyse


def _kiwi(tokenizer: KiwiTokenizer, kiwi: Any) -> Analyse:
    def analyse(text: str) -> Spans:
        found = [(t.form, t.start, t.start + t.len) for t in kiwi.tokenize(text)]
        return [_contracted(found, k) if s == e else (w, s, e) for k, (w, s, e) in enumerate(found)]

    return analyse


def _contracted(found: Spans, k: int) -> tuple[str, int, int]:
    """A morpheme Kiwi reports with no length, as the copula 이 contracted into
    the ending after a vowel (친구다: 친구 + 이 + 다): the span of the syllable
    it came from, the next morpheme's at the same place (else the previous
    one's ending there), so that the text at the span is never empty."""
    word, start, _ = found[k]
    for _, first, last in found[k + 1 :]:
        if first != start:
            break
        if last > first:
            return word, first, last
    for _, first, last in reversed(found[:k]):
        if last == start and last > first:
            return word, first, last
    return word, start, start


_MAKERS: dict[type, Callable[[Any, Any], Analyse]] = {
    MeCabTokenizer: _mecab,
    SudachiTokenizer: _sudachi,
    JiebaTokenizer: _jieba,
    KiwiTokenizer: _kiwi,
}

"""Words of scripts written without spaces between them: Thai, Lao, Khmer.

Each wraps an optional package, as the other morphological adapters do
(``kurenai.tokenizers._morphological``), from the extra ``th`` (PyThaiNLP),
``lo`` (LaoNLP) or ``km`` (khmer-nltk); constructing one
only checks the package is installed, and its dictionary or model loads on
the first ``tokenize``.  They share the adapters' rules: the analyser's
words, lowercased, without those that hold no letter, number or mark
(spaces and punctuation, which these analysers return as words of their
own); untrusted input reaches the analyser in the same bounded pieces; the
analysis runs under the GIL, so ``score_batch(n_jobs=k)`` spreads it over
worker processes.

None of these languages has a stemmer in NLTK or Snowball: with
``use_stemmer=True`` only the ASCII words among them (``running`` -> ``run``)
are Porter-stemmed, as every adapter stems them; Thai, Lao and Khmer words
are matched as the analyser writes them.
"""

from __future__ import annotations

import logging
import re
import threading
from typing import Any, Callable

from kurenai.tokenizers._analyser_pool import Analyse
from kurenai.tokenizers._morphological import MorphologicalTokenizer, _import_quietly

__all__ = ["KhmerTokenizer", "LaoTokenizer", "ThaiTokenizer"]

_WHITESPACE = re.compile(r"\s+")
# khmer-nltk keeps one model for the process, whose tagger holds each
# sequence between two calls into C: one analysis at a time (it holds the
# GIL anyway), whichever instance or thread asks.
_KHMER_LOCK = threading.Lock()


class ThaiTokenizer(MorphologicalTokenizer):
    """Thai words from PyThaiNLP's ``newmm`` (dictionary maximal matching
    within Thai character clusters).

    The words are ``pythainlp.tokenize.word_tokenize(text, engine="newmm")``'s
    (formatted numbers such as ``1,234.5`` or ``12:30`` rejoined), less spaces
    and punctuation.  XL-Sum's multilingual ROUGE segments Thai the same way.
    nlpO3, PyThaiNLP's compiled ``newmm``, is three to seven times faster but
    does not give the same words (it joins a quote or an emoji to the next
    Thai word, and cuts some clusters elsewhere), so it is not used:
    ``benchmarks/bench_unspaced.py`` measures both.
    """

    name = "thai"
    extra = "th"
    requirements = (("pythainlp", "pythainlp"),)

    def _load(self) -> Any:
        word_tokenize = _import_quietly("pythainlp.tokenize").word_tokenize
        word_tokenize("ก", engine="newmm")  # builds the dictionary's trie now
        return word_tokenize

    def _analyser(self, word_tokenize: Any) -> Analyse:
        return lambda text: word_tokenize(text, engine="newmm")


class LaoTokenizer(MorphologicalTokenizer):
    """Lao words from LaoNLP (dictionary maximal matching, ``safe_mode`` on).

    The words are ``laonlp.tokenize.word_tokenize(text)``'s, less spaces and
    punctuation; LaoNLP's dictionary matching is PyThaiNLP's, whose version
    the signature records too.
    """

    name = "lao"
    extra = "lo"
    requirements = (("laonlp", "laonlp"), ("pythainlp", "pythainlp"))

    def _load(self) -> Any:
        return _import_quietly("laonlp.tokenize").word_tokenize  # the dictionary loads on import

    def _analyser(self, word_tokenize: Any) -> Analyse:
        return word_tokenize  # type: ignore[no-any-return]


class KhmerTokenizer(MorphologicalTokenizer):
    """Khmer words from khmer-nltk (a CRF over Khmer character clusters).

    The words are ``khmernltk.word_tokenize(text)``'s, less spaces and
    punctuation, with one difference: khmer-nltk deletes line breaks (the
    words on either side would become one) and reads only a space as a
    space, so every run of whitespace reaches it as one space.  A zero-width
    space (U+200B), which Khmer writers use to mark word boundaries, is
    passed as it is.  Loading lowers the ``khmer-nltk`` logger to WARNING,
    silencing its line on loading the model.
    """

    name = "khmer"
    extra = "km"
    requirements = (
        ("khmernltk", "khmer-nltk"),
        ("sklearn_crfsuite", "sklearn-crfsuite"),
        ("pycrfsuite", "python-crfsuite"),
    )

    def _load(self) -> Any:
        khmernltk = _import_quietly("khmernltk")
        logging.getLogger("khmer-nltk").setLevel(logging.WARNING)
        with _KHMER_LOCK:
            khmernltk.word_tokenize("ក")  # loads the CRF model now
        return khmernltk.word_tokenize

    def _analyser(self, word_tokenize: Callable[[str], list[str]]) -> Analyse:
        def analyse(text: str) -> list[str]:
            with _KHMER_LOCK:
                return word_tokenize(_WHITESPACE.sub(" ", text))

        return analyse

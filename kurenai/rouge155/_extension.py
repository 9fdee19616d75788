"""kurenai's extension of the script: any language's words, the script's corpus rules.

ROUGE-1.5.5.pl keeps only ASCII ``[a-z0-9]`` words, so Japanese, Chinese or
Korean summaries score 0.  With ``--tokenizer NAME`` (``tokenizer=`` in the
library) each unit is decoded as UTF-8 and split by kurenai's tokenizer
``NAME`` (``char``, ``unicode``, ``mecab``, ``jieba``, ...); the SMART
stopwords are removed with ``-s`` and the tokenizer's own stemmer is used
with ``-m``.  Units, ``-l``/``-b`` truncation (a character cut by ``-b`` is
dropped), the counting, ``-f``, ``-t``, the bootstrap and the report are the
script's.
"""

from __future__ import annotations

from typing import Callable

from kurenai.rouge155 import _data
from kurenai.rouge155._options import Options, OptionsError
from kurenai.tokenizers import get_tokenizer

__all__ = ["tokenizer_words"]


def tokenizer_words(options: Options) -> Callable[[str], list[str]]:
    """A unit (the script's latin-1 view of its bytes) -> the tokenizer's words."""
    assert options.tokenizer is not None
    try:
        tokenizer = get_tokenizer(options.tokenizer, use_stemmer=options.stem)
    except (ValueError, ImportError, TypeError) as error:
        raise OptionsError(f"--tokenizer {options.tokenizer}: {error}") from None
    stopwords = (
        _data.stopwords(_data.data_dir(options.data_dir)) if options.remove_stopwords else None
    )
    tokenize = tokenizer.tokenize

    def words_of(unit: str) -> list[str]:
        words = tokenize(unit.encode("latin-1").decode("utf-8", "ignore"))
        if stopwords is not None:
            words = [w for w in words if w not in stopwords]
        return words

    return words_of

"""Tokens with their character spans in the original text, for every named tokenizer.

:func:`token_spans` returns exactly the tokens ``tokenizer.tokenize(text)``
returns, in order, each with the span ``[start, end)`` of the original text
it was read from.  A stemmed token (``run`` for ``running``) or a dictionary
form (``走る`` for ``走っ``, Kiwi's ``하`` for ``했``) spans its surface text.
Under normalisation (``normalize="NFKC"``...) a span covers the characters
before normalisation (``ﬁ`` for the token ``fi``).

Each family of kurenai's tokenizers has a span finder that walks the text as
the tokenizer does: the whitespace split, the regular expressions of the
``rouge-score``, ``unicode`` and ``char`` tokenizers, and the analysers of
MeCab, Sudachi, jieba and Kiwi with the offsets they report.  Any other
tokenizer gets each token searched for in the lowercased text, left to right;
a token not found there has the span ``(-1, -1)``.  The finders' tokens are
checked against ``tokenize``'s: a mismatch raises ``RuntimeError`` rather
than highlight the wrong text.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_left
from collections.abc import Iterable
from typing import Any, Callable, NamedTuple

from kurenai._data.rules import ROUGE_WORD
from kurenai.explain._morphology import analysed_spans
from kurenai.explain._text import Prepared, prepare
from kurenai.tokenizers import AllCharacterSupportTokenizer, RougeScoreTokenizer
from kurenai.tokenizers._morphological import MorphologicalTokenizer
from kurenai.tokenizers._unicode import (
    CharTokenizer,
    NormalizingTokenizer,
    UnicodeTokenizer,
    _char_pattern,
    _word_pattern,
)

__all__ = ["Token", "token_spans"]

_NOT_SPACE = re.compile(r"\S+")


class Token(NamedTuple):
    """A token as the scorer counts it and the span ``[start, end)`` of text it
    came from (``(-1, -1)``: not found)."""

    text: str
    start: int
    end: int


Spans = list[tuple[str, int, int]]  # (token before stemming, start, end)
# Token._make without its Python-level call: a report makes millions of them.
_as_token: Callable[[tuple[str, int, int]], Token] = functools.partial(tuple.__new__, Token)
Finder = Callable[[Any, Prepared], Spans]


def token_spans(tokenizer: Any, text: str, offset: int = 0) -> list[Token]:
    """``tokenizer.tokenize(text)`` with each token's span (shifted by ``offset``)."""
    expected = tokenizer.tokenize(text)
    found = _find(tokenizer, text)
    if found is None:
        return _searched(expected, text, offset)
    if offset:
        tokens = [Token(t, offset + s, offset + e) for t, s, e in found]
    else:
        tokens = list(map(_as_token, found))
    if [t.text for t in tokens] != list(expected):
        raise RuntimeError(
            f"kurenai.explain cannot locate the tokens of {type(tokenizer).__name__}: "
            f"its span finder read {[t.text for t in tokens][:8]}..., tokenize gave "
            f"{list(expected)[:8]}..."
        )
    return tokens


def _find(tokenizer: Any, text: str) -> Spans | None:
    """The finder's stemmed tokens with spans, or None for an unknown tokenizer."""
    normalizer = None
    inner = tokenizer
    if isinstance(tokenizer, NormalizingTokenizer):
        normalizer, inner = tokenizer._normalize, tokenizer.tokenizer
    kind = type(inner)
    if kind in (UnicodeTokenizer, CharTokenizer):
        normalizer = inner._normalizer
        pattern = (_char_pattern if kind is CharTokenizer else _word_pattern)()
        spans = _matches(pattern, prepare(text, normalizer, lower=True))
        return _stemmed(spans, inner.stemmer)
    if kind is AllCharacterSupportTokenizer and normalizer is None:
        return _stemmed(_split(text), inner.stemmer)
    if kind in (AllCharacterSupportTokenizer, RougeScoreTokenizer):
        pattern = ROUGE_WORD if kind is RougeScoreTokenizer else _NOT_SPACE
        spans = _matches(pattern, prepare(text, normalizer, lower=True))
        return _stemmed(spans, inner.stemmer)
    if isinstance(inner, MorphologicalTokenizer) and normalizer is None:
        prepared = prepare(text, inner._normalizer, lower=False)
        found = analysed_spans(inner, prepared.text)
        if found is None:
            return None
        return [(word, *prepared.span(s, e)) for word, s, e in found]
    return None


def _split(text: str) -> Spans:
    """``text.lower().split()`` with spans: each word is the first occurrence of
    itself after the previous one, as only whitespace lies between them."""
    lowered = text.lower()
    if len(lowered) != len(text):
        return _matches(_NOT_SPACE, prepare(text, None, lower=True))
    spans: Spans = []
    end = 0
    find = lowered.find
    for word in lowered.split():
        start = find(word, end)
        end = start + len(word)
        spans.append((word, start, end))
    return spans


def _matches(pattern: re.Pattern[str], prepared: Prepared) -> Spans:
    found = pattern.finditer(prepared.text)
    if prepared.starts is None:
        return [(m.group(), *m.span()) for m in found]
    return [(m.group(), *prepared.span(*m.span())) for m in found]


def _stemmed(spans: Spans, stemmer: Callable[[str], str | None] | None) -> Spans:
    """The tokenizer's stemmer applied to each token; a dropped one loses its span."""
    if stemmer is None:
        return spans
    kept: Spans = []
    for token, start, end in spans:
        stem = stemmer(token)
        if stem is not None:
            kept.append((stem, start, end))
    return kept


def _searched(tokens: Iterable[str], text: str, offset: int) -> list[Token]:
    """Each token looked for after the last, as it is or in the lowercased text:
    whichever occurrence comes first."""
    lowered = prepare(text, None, lower=True)
    found: list[Token] = []
    position = 0  # in ``text``
    for token in tokens:
        candidates = []
        at = text.find(token, position) if token else -1
        if at >= 0:
            candidates.append((at, at + len(token)))
        from_lowered = position if lowered.starts is None else bisect_left(lowered.starts, position)
        at = lowered.text.find(token, from_lowered) if token else -1
        if at >= 0:
            candidates.append(lowered.span(at, at + len(token)))
        start, end = min(candidates) if candidates else (-1, -1)
        if start >= 0:
            position = end
            start, end = offset + start, offset + end
        found.append(Token(token, start, end))
    return found

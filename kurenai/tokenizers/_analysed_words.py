"""The words kept from a morphological analyser's output.

Every adapter lowercases the analyser's words and drops those with no letter,
number or mark (punctuation, symbols, emoji, spaces); a combining mark an
analyser split off its letter is glued back on (``_kept_words``, and
``_kept_within`` that stops past a limit of words).  jieba's fragments of a
word of a spaced script are glued back first (``_jieba_words``).  Each
gluing joins a word's parts once, linear in a long run.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kurenai.tokenizers._stemming import Stemmer
from kurenai.tokenizers._unicode import is_marks, is_spaced_word

__all__: list[str] = []

_HAS_WORD_CHARACTER = re.compile(r"[^\W_]")


def _kept_words(analysed: Iterable[str]) -> list[str]:
    """Lowercased words with a letter, number or mark, marks kept on their base."""
    # A word and the marks glued to it are joined once at the end: appending
    # to the last string is quadratic in a long run of marks.
    groups: list[list[str]] = []
    previous_kept = False
    for word in analysed:
        if previous_kept and is_marks(word):
            groups[-1].append(word)  # an analyser that split a combining mark off its letter
        elif _HAS_WORD_CHARACTER.search(word):
            groups.append([word.lower()])
            previous_kept = True
        else:
            previous_kept = False
    return [group[0] if len(group) == 1 else "".join(group) for group in groups]


def _kept_within(analysed: Iterable[str], stemmer: Stemmer | None, limit: int) -> list[str] | None:
    """``stemmed(_kept_words(analysed), stemmer)``, or None as soon as it has
    more than ``limit`` words.  Exact: a word is final once the next kept
    word starts (only marks join the last one), and is then stemmed and
    counted, so words are counted only once the stemmer has kept them."""
    tokens: list[str] = []
    group: list[str] = []
    previous_kept = False
    for word in analysed:
        if previous_kept and is_marks(word):
            group.append(word)
            continue
        previous_kept = _HAS_WORD_CHARACTER.search(word) is not None
        if previous_kept:
            if group:
                _add_word(tokens, group, stemmer)
                if len(tokens) > limit:
                    return None
            group = [word.lower()]
    if group:
        _add_word(tokens, group, stemmer)
    return None if len(tokens) > limit else tokens


def _add_word(tokens: list[str], group: list[str], stemmer: Stemmer | None) -> None:
    word: str | None = group[0] if len(group) == 1 else "".join(group)
    if stemmer is not None:
        word = stemmer(word)  # type: ignore[arg-type]
    if word is not None:
        tokens.append(word)


def _jieba_words(analysed: Iterable[tuple[str, int, int]]) -> list[str]:
    # jieba cuts non-ASCII letters outside Chinese one by one ("naïve" -> na/ï/ve):
    # glue touching fragments of spaced scripts back into their word.  A word
    # is kept as its list of fragments and joined once at the end: appending
    # to a string is quadratic in a long run ("é" * 400_000 took seconds).
    groups: list[list[str]] = []
    previous_end, previous_spaced = -1, False
    for word, start, end in analysed:
        spaced = is_spaced_word(word)
        if spaced and previous_spaced and start == previous_end:
            groups[-1].append(word)
        else:
            groups.append([word])
        previous_end, previous_spaced = end, spaced
    return [group[0] if len(group) == 1 else "".join(group) for group in groups]

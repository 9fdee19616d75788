"""The pure twin of ``kurenai._punkt``: NLTK's Punkt sentence splitter, decision for decision.

:class:`PunktSplitter` gives what NLTK's ``PunktSentenceTokenizer(params).tokenize(text)``
gives (``nltk.sent_tokenize`` with English tables), found the same way:

- the candidates are the matches of NLTK's period-context pattern (a ``.``,
  ``?`` or ``!`` followed by other punctuation, or by whitespace and a token);
  each one's context is the word before it (back to the last ASCII whitespace,
  NLTK's ``_get_last_whitespace_index``, with its overlap rule), the mark and
  what follows;
- a candidate ends a sentence if Punkt's two annotation passes over the
  context's tokens (NLTK's word pattern, line by line) mark a break on any
  token but the last (``text_contains_sentbreak``);
- closing quotes and brackets after a break move to the sentence before it
  (``_realign_boundaries``), and empty sentences are dropped.

What each token contributes is a function of the token alone (its type, case,
first-pass mark, orthographic evidence...): :func:`token_facts` computes it
once per distinct token, and a break between two tokens is a few comparisons
of their facts (:func:`breaks_between`).  Regular expressions come from the
``rules`` the caller passes (NLTK's own patterns, compiled by the engine NLTK
uses: in NLTK 3.10 the ``regex`` module, whose ``\\s``, ``\\d`` and ``\\w``
are not ``re``'s), so the character classes are NLTK's by construction.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from typing import Any, NamedTuple

__all__ = ["PunktSplitter", "TokenFacts", "breaks_between", "tables_of", "token_facts"]

# NLTK's orthographic context flags (nltk.tokenize.punkt._ORTHO_*).
_ORTHO_BEG_UC, _ORTHO_MID_UC, _ORTHO_UNK_UC = 1 << 1, 1 << 2, 1 << 3
_ORTHO_BEG_LC, _ORTHO_MID_LC, _ORTHO_UNK_LC = 1 << 4, 1 << 5, 1 << 6
_ORTHO_UC = _ORTHO_BEG_UC + _ORTHO_MID_UC + _ORTHO_UNK_UC
_ORTHO_LC = _ORTHO_BEG_LC + _ORTHO_MID_LC + _ORTHO_UNK_LC
# _ortho_heuristic's three answers.
_FALSE, _TRUE, _UNKNOWN = 0, 1, 2
_PUNCTUATION = frozenset(";:,.!?")  # PunktSentenceTokenizer.PUNCTUATION
_SENT_END_CHARS = frozenset(".?!")  # PunktLanguageVars.sent_end_chars
_ASCII_WHITESPACE = " \t\n\r\x0b\x0c"  # string.whitespace
# The characters re_boundary_realignment's match must start with.
_REALIGNED = frozenset("\"')]}\u2018\u2019\u201c\u201d\xab\xbb")
_FACTS_LIMIT = 1 << 16  # distinct tokens remembered (then forgotten at once)


class TokenFacts(NamedTuple):
    """What a token brings to Punkt's decisions, as the first token of a
    pair (``sentbreak`` ... ``is_number``) and as the second (``next_type``
    ... ``upper_unseen_lower``)."""

    sentbreak: bool  # the first pass's mark (a lone . ? !, or a period-final non-abbreviation)
    period_final: bool
    type_no_period: str
    abbr_or_ellipsis: bool  # first pass: a known abbreviation, or an ellipsis
    is_initial: bool  # one letter and a period
    is_number: bool  # type_no_period is ##number##
    next_type: str  # type_no_sentperiod after the first pass
    ortho: int  # _ortho_heuristic: False 0, True 1, "unknown" 2
    starter: bool  # upper-case first letter and next_type a frequent sentence starter
    upper_unseen_lower: bool  # upper-case first letter, next_type never seen lower-case


def token_facts(token: str, tables: Any, rules: Any) -> TokenFacts:
    """``token``'s facts under ``tables`` (abbreviations, sentence starters,
    orthographic contexts) and ``rules`` (NLTK's token patterns), as
    ``PunktToken`` and the first pass derive them."""
    lowered = token.lower()
    type_ = rules.numeric.sub("##number##", lowered)  # PunktToken._get_type
    period_final = token.endswith(".")
    sentbreak = abbr = ellipsis = False
    if token in _SENT_END_CHARS:
        sentbreak = True
    elif rules.ellipsis.match(token):
        ellipsis = True
    elif period_final and not token.endswith(".."):
        bare = token[:-1].lower()
        if bare in tables.abbrev_types or bare.split("-")[-1] in tables.abbrev_types:
            abbr = True
        else:
            sentbreak = True
    type_no_period = type_[:-1] if len(type_) > 1 and type_[-1] == "." else type_
    next_type = type_no_period if sentbreak else type_
    first_upper = token[0].isupper()
    context = tables.ortho_context.get(next_type, 0)
    if token in _PUNCTUATION:
        ortho = _FALSE
    elif first_upper and (context & _ORTHO_LC) and not (context & _ORTHO_MID_UC):
        ortho = _TRUE
    elif token[0].islower() and ((context & _ORTHO_UC) or not (context & _ORTHO_BEG_LC)):
        ortho = _FALSE
    else:
        ortho = _UNKNOWN
    return TokenFacts(
        sentbreak,
        period_final,
        type_no_period,
        abbr or ellipsis,
        rules.initial.match(token) is not None,
        type_no_period == "##number##",
        next_type,
        ortho,
        first_upper and next_type in tables.sent_starters,
        first_upper and not (context & _ORTHO_LC),
    )


def breaks_between(first: TokenFacts, second: TokenFacts, collocations: Collection[Any]) -> bool:
    """Whether Punkt's second pass leaves a sentence break after ``first``
    when ``second`` follows it (``_second_pass_annotation``)."""
    if not first.period_final:
        return first.sentbreak
    if (first.type_no_period, second.next_type) in collocations:
        return False
    if (
        first.abbr_or_ellipsis
        and not first.is_initial
        and (second.ortho == _TRUE or second.starter)
    ):
        return True
    if first.is_initial or first.is_number:
        if second.ortho == _FALSE:
            return False
        if second.ortho == _UNKNOWN and first.is_initial and second.upper_unseen_lower:
            return False
    return first.sentbreak


class _Tables(NamedTuple):
    abbrev_types: frozenset[str]
    collocations: frozenset[tuple[str, str]]
    sent_starters: frozenset[str]
    ortho_context: dict[str, int]


def tables_of(params: Any) -> _Tables:
    """A frozen copy of a ``PunktParameters``-like object's four tables."""
    return _Tables(
        frozenset(params.abbrev_types),
        frozenset(tuple(pair) for pair in params.collocations),
        frozenset(params.sent_starters),
        dict(params.ortho_context),
    )


class PunktSplitter:
    """NLTK's ``PunktSentenceTokenizer(params)`` for ``tokenize``.

    ``params``: a ``PunktParameters``-like object (``abbrev_types``,
    ``collocations``, ``sent_starters``, ``ortho_context``), copied.
    ``rules``: NLTK's patterns compiled by its engine, as attributes
    ``period_context``, ``word_tokenizer``, ``boundary_realignment``,
    ``numeric``, ``initial``, ``ellipsis`` and ``space`` (``\\s`` alone).
    """

    def __init__(self, params: Any, rules: Any) -> None:
        self._tables = tables_of(params)
        self._rules = rules
        self._facts: dict[str, TokenFacts] = {}
        self._contexts = rules.period_context.finditer
        self._words = rules.word_tokenizer.findall
        self._realignment = rules.boundary_realignment.match

    def tokenize(self, text: str) -> list[str]:
        """``PunktSentenceTokenizer.tokenize(text)``: the sentences of ``text``."""
        return [text[start:stop] for start, stop in self._realigned(text, self._slices(text))]

    def spans(self, text: str) -> list[tuple[int, int]]:
        """``span_tokenize(text)``: each sentence's (start, stop) in ``text``."""
        return list(self._realigned(text, self._slices(text)))

    def facts(self, token: str) -> TokenFacts:
        """:func:`token_facts` of ``token``, remembered."""
        found = self._facts.get(token)
        if found is None:
            if len(self._facts) >= _FACTS_LIMIT:
                self._facts.clear()
            found = self._facts[token] = token_facts(token, self._tables, self._rules)
        return found

    def contains_break(self, context: str) -> bool:
        """``text_contains_sentbreak(context)``: a break after any token of
        ``context`` but its last."""
        tokens: list[str] = []
        for line in context.split("\n"):
            if line.strip():
                tokens += self._words(line)
        facts = self.facts
        collocations = self._tables.collocations
        previous = None
        for token in tokens:
            current = facts(token)
            if previous is not None and breaks_between(previous, current, collocations):
                return True
            previous = current
        return False

    # Generators, one after the other: beyond the output, a split holds a
    # candidate and a slice at a time, whatever the number of sentences.

    def _slices(self, text: str) -> Iterator[tuple[int, int]]:
        """``_slices_from_text``, over ``_match_potential_end_contexts``."""
        last_break = 0
        for start, match in self._candidates(text):
            if self.contains_break(text[start : match.end("after_tok")]):
                yield last_break, match.end()
                next_start = match.start("next_tok")
                last_break = next_start if next_start >= 0 else match.end()
        yield last_break, len(text.rstrip())

    def _candidates(self, text: str) -> Iterator[tuple[int, Any]]:
        """Each candidate match that NLTK keeps, with where its context starts."""
        previous_start = previous_stop = 0
        previous = None
        for match in self._contexts(text):
            at = match.start()
            # _get_last_whitespace_index on text[previous_stop:at]: 0 when none
            # (or when it is the first character).
            last = max([text.rfind(space, previous_stop, at) for space in _ASCII_WHITESPACE])
            start = last + 1 if last > previous_stop else previous_start
            if previous is not None and previous_stop <= start:
                yield previous_start, previous
            previous, previous_start, previous_stop = match, start, at
        if previous is not None:
            yield previous_start, previous

    def _realigned(self, text: str, slices: Iterable[tuple[int, int]]) -> Iterator[tuple[int, int]]:
        """``_realign_boundaries``: closing punctuation after a break joins the
        sentence before it; empty sentences are dropped.  Each slice is
        decided once the next one is known."""
        realign = 0
        pending: tuple[int, int] | None = None
        for next_start, next_stop in slices:
            if pending is not None:
                start, stop = pending
                start += realign
                match = None
                if next_start < next_stop and text[next_start] in _REALIGNED:
                    match = self._realignment(text[next_start:next_stop])
                if match is not None:
                    yield start, next_start + len(match.group(0).rstrip())
                    realign = match.end()
                else:
                    realign = 0
                    if start < stop and start < len(text):
                        yield start, stop
            pending = (next_start, next_stop)
        if pending is not None:  # the last slice
            start, stop = pending[0] + realign, pending[1]
            if start < stop and start < len(text):
                yield start, stop

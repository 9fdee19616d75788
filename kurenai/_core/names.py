"""ROUGE type names: the one rule for spelling them, read from the kind registry.

Every surface (``RougeScorer``, ``score_multi``, ``kurenai.metrics``,
``kurenai.spark`` and its SQL function, the command line, ``is_rouge_type``)
parses names here, so each accepts and rejects the same names, with the
same meaning and the same message.

The rule.  A type is ``rouge`` + a kind's suffix (kurenai's and rouge-score's
spelling: ``rouge2``, ``rougeL``, ``rougeLsum``, ``rougeW``, ``rougeSU4``),
and has two aliases: ``ROUGE-`` + the suffix (ROUGE-1.5.5's and Foundry's:
``ROUGE-2``, ``ROUGE-L``, ``ROUGE-SU4``) and ``rouge_`` + the suffix in lower
case (Foundry's: ``rouge_l``, ``rouge_lsum``, ``rouge_su4``).  A type read on
sentences (rougeLsum, rougeW) also names its detected-sentences variant
(``split_summaries`` for that type): any spelling + ``_sentences``
(``rougeLsum_sentences``, ``rouge_lsum_sentences``), or Foundry's
``ROUGE-Lsum (detected sentences)``.  An alias means exactly its type;
results are keyed by the name as given (as rouge-score keys by the given
name), except ``kurenai.spark``'s struct fields, which take kurenai's
spelling (:attr:`TypeName.canonical`).

>>> resolve("rouge_lsum_sentences").canonical, resolve("ROUGE-SU4").rouge_type
('rougeLsum_sentences', 'rougeSU4')
"""

from __future__ import annotations

import re
from typing import NamedTuple

from kurenai._core.kinds import KINDS, Kind, Params
from kurenai._data.spelling import closest, meant

__all__ = [
    "ROUGE_TYPES",
    "TypeName",
    "check_sentences",
    "invalid_type",
    "is_rouge_type",
    "resolve",
    "type_and_split",
    "valid_types",
]

# rouge-score's types, in the registry's order.
ROUGE_TYPES = tuple(name for kind in KINDS for name in kind.rouge_score_names)

_PREFIX, _UPPER, _SNAKE = "rouge", "ROUGE-", "rouge_"
_DETECTED, _FOUNDRY_DETECTED = "_sentences", " (detected sentences)"
_PATTERNS = [(kind, re.compile(kind.suffix)) for kind in KINDS]
_SNAKE_PATTERNS = [(kind, re.compile(kind.suffix, re.IGNORECASE)) for kind in KINDS]
# The names a near miss is compared with.
_COMMON = (*ROUGE_TYPES, "rougeW", "rougeS", "rougeSU", "rougeS4", "rougeSU4")


class TypeName(NamedTuple):
    """A ROUGE type name, parsed."""

    name: str  # as given: the key of its scores
    rouge_type: str  # kurenai's name of its type (``ROUGE-L`` -> ``rougeL``)
    kind: Kind
    params: Params
    detected: bool  # a detected-sentences name: split_summaries for this type

    @property
    def canonical(self) -> str:
        """The name in kurenai's spelling, detected sentences included."""
        return self.rouge_type + (_DETECTED if self.detected else "")


def resolve(name: object) -> TypeName:
    """``name`` parsed, or the ValueError of :func:`invalid_type` (or, for a
    name of the grammar whose number is out of range, one that says so).

    >>> resolve("rougeS" + "9" * 30)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: invalid ROUGE type 'rougeS999...999': the gap k of ... is at most 1000000000
    """
    found = _parse(name) if isinstance(name, str) else None
    if found is None:
        raise invalid_type(name)
    return found


def is_rouge_type(name: object) -> bool:
    """Whether ``name`` is a ROUGE type name (any spelling of the rule above).

    >>> is_rouge_type("rougeSU4"), is_rouge_type("ROUGE-L"), is_rouge_type("rougeS0")
    (True, True, False)
    """
    try:
        return isinstance(name, str) and _parse(name) is not None
    except ValueError:  # of the grammar, but out of range
        return False


def valid_types() -> str:
    """The valid names, as every error message lists them."""
    types = ", ".join(kind.grammar for kind in KINDS)
    sentences = " and ".join(kind.grammar for kind in KINDS if kind.reads_sentences)
    return (
        f"{types}; each also as ROUGE-X or rouge_x (ROUGE-L, rouge_l, ROUGE-SU4, rouge_su4); "
        f"{sentences} on detected sentences as NAME_sentences or 'ROUGE-X (detected sentences)'"
    )


def invalid_type(name: object) -> ValueError:
    """The error for a name that is not a ROUGE type (with the type it likely
    means, if one: :func:`suggestion`)."""
    hint = meant(suggestion(name))
    return ValueError(f"invalid ROUGE type {name!r}{hint}; valid types: {valid_types()}")


def suggestion(name: object) -> str | None:
    """The type a misspelt ``name`` likely means: the name of the grammar
    read in any case (``rougeLSum`` -> ``rougeLsum``, ``Rouge-l`` -> ``rougeL``),
    else the closest common name by difflib, unless only a number differs
    (``rouge10`` means no ``rouge1``).

    >>> suggestion("rougeLSum"), suggestion("rogueL"), suggestion("rouge10")
    ('rougeLsum', 'rougeL', None)
    """
    if not isinstance(name, str) or len(name) > 100:
        return None
    base, tail = name, ""
    if name.lower().endswith(_DETECTED):
        base, tail = name[: -len(_DETECTED)], _DETECTED
    prefix, common = "", _COMMON
    if base.lower().startswith(_PREFIX):  # the kind is misspelt: read the suffix alone
        base = base[len(_PREFIX) :].lstrip("-_ ")
        prefix, common = _PREFIX, tuple(name[len(_PREFIX) :] for name in _COMMON)
        for kind, pattern in _SNAKE_PATTERNS:
            match = pattern.fullmatch(base)
            if match is not None and (not tail or kind.reads_sentences):
                try:
                    return kind.name(kind.params(match.groups())) + tail
                except ValueError:  # a number out of range
                    return None
    near = closest(base, common)
    if near is None or re.sub("[0-9]", "", near) == re.sub("[0-9]", "", base):
        return None
    return prefix + near + tail


def check_sentences(parsed: TypeName, split_summaries: bool) -> None:
    """A ValueError if ``parsed`` asks for detected sentences and the scorer
    reads sentences per line: one scorer splits sentences one way."""
    if parsed.detected and not split_summaries:
        raise ValueError(
            f"ROUGE type {parsed.name!r} is {parsed.rouge_type} on detected sentences: "
            "it needs split_summaries=True (--split-summaries on the command line)"
        )


def type_and_split(name: object, split_summaries: bool | str = False) -> tuple[str, bool | str]:
    """kurenai's ROUGE type for ``name``, and whether its sentences are
    detected (``split_summaries``, for the types read on sentences, or a
    detected-sentences name) rather than taken per line: how the Spark, DuckDB
    and polars surfaces, whose names pick the splitting, read a name.  With
    ``split_summaries="punkt"``, detected sentences are punkt's: the split is
    ``"punkt"``, as ``RougeScorer(split_summaries=...)`` takes it.

    >>> type_and_split("ROUGE-Lsum (detected sentences)"), type_and_split("rouge_l", True)
    (('rougeLsum', True), ('rougeL', False))
    >>> type_and_split("rougeLsum", "punkt"), type_and_split("rouge1", "punkt")
    (('rougeLsum', 'punkt'), ('rouge1', False))
    """
    parsed = resolve(name)
    split = parsed.detected or (bool(split_summaries) and parsed.kind.reads_sentences)
    if split and split_summaries == "punkt":
        return parsed.rouge_type, "punkt"
    return parsed.rouge_type, split


def _parse(name: str) -> TypeName | None:
    base, detected = name, False
    if name.startswith(_UPPER) and name.endswith(_FOUNDRY_DETECTED):
        base, detected = name[: -len(_FOUNDRY_DETECTED)], True
    elif name.endswith(_DETECTED):
        base, detected = name[: -len(_DETECTED)], True
    if base.startswith(_SNAKE):
        suffix = base[len(_SNAKE) :]
        patterns = _SNAKE_PATTERNS if suffix == suffix.lower() else []
    elif base.startswith(_UPPER):
        suffix, patterns = base[len(_UPPER) :], _PATTERNS
    elif base.startswith(_PREFIX):
        suffix, patterns = base[len(_PREFIX) :], _PATTERNS
    else:
        return None
    for kind, pattern in patterns:
        match = pattern.fullmatch(suffix)
        if match is not None:
            if detected and not kind.reads_sentences:
                return None
            try:
                params = kind.params(match.groups())
            except ValueError as error:  # a number out of range: said, not an OverflowError later
                raise ValueError(f"invalid ROUGE type {_shown(name)}: {error}") from None
            return TypeName(name, kind.name(params), kind, params, detected)
    return None


def _shown(name: str) -> str:
    """``name`` for a message: its repr, cut if long."""
    return repr(name) if len(name) <= 60 else repr(name[:57]) + "..."

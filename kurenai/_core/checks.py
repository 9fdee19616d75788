"""The front ends' argument checks: one function per mistake, one message.

``RougeScorer`` and its ``score_batch``, ``kurenai.metrics``,
``kurenai.spark``, ``kurenai.frames`` (DuckDB, polars) and the command line
check their shared arguments here, so the same mistake gets the same
exception everywhere: a TypeError for a value of the wrong type, a
ValueError for a wrong value of the right type, with the same message (the
command line prints it after the option's name).  What each surface has on
its own (Spark's column types, the CLI's file options) it checks itself.

>>> limit(-1, "max_tokens")
Traceback (most recent call last):
ValueError: max_tokens must be None or an int >= 0, got -1
>>> rouge_types("rouge1")
Traceback (most recent call last):
TypeError: rouge_types must be a list of ROUGE types, e.g. ['rouge1'], not a single string
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from typing import Any

import numpy as np

__all__ = [
    "DEFAULT_TYPES",
    "distinct",
    "env_switch",
    "flag",
    "language",
    "limit",
    "not_a_string",
    "rouge_types",
    "some_types",
    "splitting",
    "text_item",
]

# The types a surface scores when none are named: the command line, Spark's
# rouge_scores and polars' scores (kurenai.metrics keeps evaluate's default).
DEFAULT_TYPES = ("rouge1", "rouge2", "rougeL")


def flag(value: Any, name: str) -> bool:
    """``value`` as a bool: a bool or a NumPy bool, else a TypeError.

    A truthy stand-in is refused: ``use_stemmer="no"`` would stem.
    """
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise TypeError(f"{name} must be a bool, got {type(value).__name__}")


_ON = ("1", "true", "yes", "on")
_OFF = ("", "0", "false", "no", "off")


def env_switch(name: str) -> bool:
    """Whether the environment variable ``name`` turns a switch on
    (1/true/yes/on, any case); unset, empty or 0/false/no/off: off.  Any
    other value is a ValueError, so a typo is not silently ignored."""
    value = os.environ.get(name, "").strip().lower()
    if value in _OFF:
        return False
    if value not in _ON:
        raise ValueError(f"{name}={value!r}: use one of {', '.join(_ON + _OFF[1:])}")
    return True


def language(value: Any, name: str = "lang") -> str | None:
    """``lang=`` as its language's code (None: none); a TypeError for a
    non-str, a ValueError listing the known languages for an unknown one.

    >>> language("Bangla"), language(None)
    ('bn', None)
    """
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(
            f"{name} must be None or a language such as 'de', got {type(value).__name__}"
        )
    from kurenai._core.languages import language as row

    return row(value).code


def splitting(value: Any, name: str) -> bool | str:
    """``split_summaries``: a bool (as :func:`flag`) or ``"punkt"`` (NLTK's
    English punkt, ``kurenai.sentences.punkt_sentences``).

    >>> splitting("punkt", "split_summaries"), splitting(True, "split_summaries")
    ('punkt', True)
    >>> splitting("nltk", "split_summaries")
    Traceback (most recent call last):
    ValueError: split_summaries must be a bool or 'punkt', got 'nltk'
    """
    if isinstance(value, str):
        if value == "punkt":
            return value
        raise ValueError(f"{name} must be a bool or 'punkt', got {value!r}")
    return flag(value, name)


def limit(value: Any, name: str) -> int:
    """A size limit (``max_tokens``, ``max_chars``: None or an int >= 0) as
    the plans take it, -1 for none.

    >>> limit(None, "max_tokens"), limit(0, "max_tokens"), limit(10**30, "x") == sys.maxsize
    (-1, 0, True)
    """
    if value is None:
        return -1
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} must be None or an int >= 0, got {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{name} must be None or an int >= 0, got {value}")
    # No text has more tokens (or characters) than this: larger limits are no limit.
    return min(value, sys.maxsize)


def rouge_types(value: Any) -> tuple[Any, ...]:
    """``rouge_types`` as a tuple of its items (the names are checked by
    :mod:`kurenai._core.names`); a TypeError for a bare string or a
    non-iterable."""
    if isinstance(value, (str, bytes)):
        raise TypeError(
            f"rouge_types must be a list of ROUGE types, e.g. [{value!r}], not a single string"
        )
    try:
        return tuple(value)
    except TypeError:
        raise TypeError(f"rouge_types must be a list of str, got {type(value).__name__}") from None


def some_types(names: tuple[Any, ...] | list[Any]) -> None:
    """A ValueError for no types, where a surface needs one (a struct or a
    summary of no fields)."""
    if not names:
        raise ValueError("rouge_types must name at least one ROUGE type")


def distinct(names: Iterable[str], fields: Iterable[str]) -> None:
    """A ValueError for a type asked for twice, where each type names a
    field or column: ``fields`` are those names, one per name (two spellings
    of one type may name one field).

    >>> distinct(["rouge1", "ROUGE-L", "rougeL"], ["rouge1", "rougeL", "rougeL"])
    Traceback (most recent call last):
    ValueError: ROUGE type 'rougeL' asked for twice (as 'ROUGE-L' and 'rougeL')
    """
    seen: dict[str, str] = {}
    for name, field in zip(names, fields):
        if field in seen:
            first = seen[field]
            named = "" if first == name else f" (as {first!r} and {name!r})"
            raise ValueError(f"ROUGE type {field!r} asked for twice{named}")
        seen[field] = name


def not_a_string(value: Any, name: str, wanted: str = "a sequence of str") -> None:
    """A TypeError if ``value``, which must hold several texts, is one string."""
    if isinstance(value, str):
        raise TypeError(f"{name} must be {wanted}, not a single string")


def text_item(name: str, index: int, value: Any, hint: str = "") -> TypeError:
    """The error for item ``index`` of the texts ``name`` that is not a str:
    ``value`` is None for a null (None, NaN, ``pd.NA``); ``hint`` says how the
    surface takes nulls, if it can."""
    if value is None:
        return TypeError(f"{name}[{index}] must be a str, got a null (None, NaN or NA){hint}")
    return TypeError(f"{name}[{index}] must be a str, got {type(value).__name__}")

"""The command line's option values: argparse ``type=`` functions.

Each turns one option's text into its value or raises
``argparse.ArgumentTypeError``; where the library checks the same argument
(``kurenai._core.checks``, the names and modes registries), the message is
the library's own, after argparse's ``argument --option:``.
"""

from __future__ import annotations

import argparse
from typing import Callable, TypeVar

from kurenai._core import checks as _checks
from kurenai._core import multiref as _multiref
from kurenai._core import names as _names
from kurenai._core.parsers import int_in

__all__ = [
    "fraction",
    "int_in",
    "language",
    "limit",
    "mode",
    "rouge_type",
    "rouge_type_list",
    "rouge_types",
    "splitter",
    "thresholds",
    "tokenizer",
]

T = TypeVar("T")


def argued(check: Callable[..., T], *values: object) -> T:
    """``check(*values)``, its ValueError as argparse's: the message every surface gives."""
    try:
        return check(*values)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def rouge_type(text: str) -> str:
    """``text`` if it names a ROUGE type."""
    return argued(_names.resolve, text).name


def rouge_types(text: str) -> list[str]:
    """The types of a comma list (``rougeL,rouge1``)."""
    return argued(rouge_type_list, text.split(","))


def rouge_type_list(names: list[str]) -> list[str]:
    """The types of ``--rouge-types`` (its words: :func:`kurenai._core.parsers.words`),
    by kurenai's names: each names its output columns, so each comes once."""
    types = [_names.resolve(name.strip()).name for name in names if name.strip()]
    _checks.distinct(types, types)
    _checks.some_types(types)
    return types


def tokenizer(text: str) -> str:
    """``text`` if it names a registered tokenizer (the registry's message if not)."""
    argued(_checks.tokenizer, text)
    return text


def language(text: str) -> str | None:
    """The code of the language ``--lang`` names."""
    return argued(_checks.language, text)


def splitter(text: str) -> str:
    """The sentence splitter ``--split-summaries`` names: ``punkt`` (without a
    value the option means kurenai's splitter)."""
    if text != "punkt":
        raise argparse.ArgumentTypeError(
            f"expected punkt (or no value: kurenai's splitter), got {text[:40]!r}"
        )
    return text


def mode(text: str) -> str:
    """The multi-reference mode ``text`` names."""
    return argued(_multiref.check_mode, text)


def limit(name: str) -> Callable[[str], int]:
    """An argparse type: the size limit ``name`` (``max_tokens``)."""

    def parse(text: str) -> int:
        try:
            value = int(text) if len(text) < 100 else None
        except ValueError:
            value = None
        if value is None:
            raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {text[:40]!r}")
        argued(_checks.limit, value, name)
        return value

    return parse


def thresholds(text: str) -> dict[str, float]:
    """``rougeL=0.35,rouge1=0.4`` as ``{"rougeL": 0.35, "rouge1": 0.4}``."""
    found = {}
    for item in text.split(","):
        name, equals, value = item.strip().partition("=")
        if not equals:
            raise argparse.ArgumentTypeError(
                f"expected TYPE=VALUE[,TYPE=VALUE...] with a ROUGE type, got {item.strip()!r}"
            )
        found[rouge_type(name)] = fraction(value)
    return found


def fraction(text: str) -> float:
    try:
        value = float(text) if len(text) < 100 else -1.0
    except ValueError:
        value = -1.0
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 1, got {text[:40]!r}")
    return value

"""Near misses: "did you mean" for a name that is not in a registry.

Every registry that refuses a name (ROUGE types, tokenizers, stemmers,
languages, multi-reference modes) and every command line's choices (input
and output formats) asks :func:`did_you_mean` for the one clause it adds to
its message, so a misspelling gets the same suggestion on every surface.
Imports nothing of kurenai: the tokenizers' registry, below ``_core``, reads
it too.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["closest", "did_you_mean", "meant"]

# How alike (difflib's ratio, 0 to 1) a name and a suggestion must be:
# 'whitspace' -> 'whitespace' (0.95), 'germna' -> 'german' (0.83); not
# 'worst' -> 'best' (0.67).
CUTOFF = 0.75


def _folded(name: str) -> str:
    return name.casefold().replace("_", "-")


def closest(name: object, choices: Iterable[str]) -> str | None:
    """The choice ``name`` most likely meant: one equal but for case and
    ``_``/``-``, else the closest by difflib at :data:`CUTOFF`; None for
    no likely one (or a ``name`` that is no str).

    >>> closest("rouge_score", ["rouge-score", "unicode"]), closest("Char", ["char"])
    ('rouge-score', 'char')
    >>> closest("nope", ["rouge-score", "unicode"]) is None
    True
    """
    if not isinstance(name, str) or not name or len(name) > 100:
        return None
    by_fold: dict[str, str] = {}
    for choice in choices:
        by_fold.setdefault(_folded(choice), choice)
    found = by_fold.get(_folded(name))
    if found is not None:
        return found if found != name else None
    near = difflib.get_close_matches(_folded(name), list(by_fold), n=1, cutoff=CUTOFF)
    return by_fold[near[0]] if near else None


def did_you_mean(name: object, choices: Iterable[str]) -> str:
    """``" (did you mean 'x'?)"`` for the likely choice (:func:`closest`),
    else ``""``: the clause a refusal puts after the name it refuses.

    >>> "unknown tokenizer 'whitspace'" + did_you_mean("whitspace", ["whitespace"])
    "unknown tokenizer 'whitspace' (did you mean 'whitespace'?)"
    """
    return meant(closest(name, choices))


def meant(found: str | None) -> str:
    """The clause of :func:`did_you_mean` for a suggestion found otherwise
    (``""`` for None), e.g. the ROUGE type grammar's own."""
    return "" if found is None else f" (did you mean {found!r}?)"

"""The ROUGE kind codes, and the check of the compiled plan's codes against them.

Kept apart from the registry (:mod:`kurenai._core.kinds`, which needs
rouge-score's ``Score`` and so NumPy) so that ``import kurenai`` can check
the compiled plan when it loads without importing either: the command
lines that never build a ``Score`` (``python -m kurenai.rouge155``) start
faster.  The registry holds its entries to these codes when it loads.
"""

from __future__ import annotations

__all__ = [
    "BY_NAME",
    "CODES",
    "LCS",
    "LSUM",
    "NGRAM",
    "SKIP",
    "WLCS",
    "check_c_kinds",
    "check_compiled_kinds",
]

# The kind codes of ``TypeSpec.kinds``.  The compiled modules' C switches use
# the same numbers, declared once in kurenai/_kernels/_codes.pxd (see check_c_kinds).
NGRAM, LCS, LSUM, WLCS, SKIP = 0, 1, 2, 3, 4
BY_NAME = {"NGRAM": NGRAM, "LCS": LCS, "LSUM": LSUM, "WLCS": WLCS, "SKIP": SKIP}
CODES = frozenset(BY_NAME.values())


def check_c_kinds(module: str, declared: dict[str, int]) -> None:
    """An ImportError unless ``declared``, the numbers a compiled ``module``
    was built with (its C enum, name -> number), are :data:`BY_NAME`: a
    module built from another numbering would count one kind as another."""
    if declared != BY_NAME:
        raise ImportError(
            f"{module} was built with the kind codes {declared}, "
            f"not kurenai._data.codes' {BY_NAME}: rebuild it from this source tree "
            "(python setup.py build_ext --inplace)"
        )


def check_compiled_kinds(declared: object) -> None:
    """An ImportError unless ``declared`` (the compiled plan's ``KINDS``) is a
    set of the registry's codes: the compiled switch must not compute a
    kind under another kind's number."""
    if not isinstance(declared, (set, frozenset)) or not declared <= CODES:
        raise ImportError(
            f"kurenai._fused declares the kinds {declared!r}, "
            f"not a subset of kurenai._core.kinds.CODES {sorted(CODES)}"
        )

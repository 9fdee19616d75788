"""The one place that chooses the implementation of the kernels.

``KURENAI_IMPLEMENTATION`` selects it: ``auto`` (default: compiled if it
imports, otherwise pure Python with one warning; always pure Python on
interpreters other than CPython), ``compiled`` (fail loudly if the extension
is missing) or ``python`` (force the pure twin).  ``IMPLEMENTATION`` tells
which one is live.  ``kernels`` is ``kurenai._lcs`` or its twin
``kurenai._lcs_py``; ``fused`` is ``kurenai._fused``, the compiled text-to-scores
plan (``FusedPlan``), or None.
``kurenai._core.choice.make_plan`` picks a scorer's plan from them.
``variants`` holds the ROUGE-W/S/SU kernels (``_variants`` or its twin) and
``resample`` the bootstrap's summing kernel (or None), ``perl`` ROUGE-1.5.5.pl's
evaluations and bootstrap (``kurenai._perl``, or None), ``records`` the
command line's JSONL reading and record writing (``kurenai._records`` or its twin),
``punkt`` NLTK's Punkt sentence splitter (``kurenai._punkt`` or its twin),
``pairs`` the all-pairs kernels of ``RougeScorer.score_matrix`` (``kurenai._pairs``
or its twin).
"""

from __future__ import annotations

import importlib
import os
import sys
import warnings
from types import ModuleType
from typing import Callable

# Only the kind codes (data, below every layer): the plans and ``Score``
# (rouge-score, NumPy) are not this module's, so that ``import kurenai`` stays
# light for the command lines that never build one (``kurenai.rouge155``).
from kurenai._data.codes import check_compiled_kinds

__all__ = [
    "CHOICES",
    "ENV_VAR",
    "IMPLEMENTATION",
    "fused",
    "kernels",
    "pairs",
    "perl",
    "punkt",
    "records",
    "resample",
    "variants",
]

ENV_VAR = "KURENAI_IMPLEMENTATION"
CHOICES = ("auto", "compiled", "python")


def _load(choice: str) -> tuple[ModuleType, str]:
    if choice not in CHOICES:
        raise ImportError(f"{ENV_VAR}={choice!r} is not one of {', '.join(CHOICES)}")
    # (sys.implementation, not the platform module: a command's start-up pays for that.)
    if choice == "auto" and sys.implementation.name != "cpython":
        choice = "python"  # the extension is built for CPython only
    if choice != "python":
        try:
            # import_module, not ``from kurenai import _lcs``: while kurenai is
            # still importing, the latter reports a missing module as "most
            # likely due to a circular import", which it never is here.
            return importlib.import_module("kurenai._lcs"), "compiled"
        except ImportError as error:
            cause = _why(error, "kurenai._lcs")
            if choice == "compiled":
                raise ImportError(
                    f"{ENV_VAR}=compiled but kurenai._lcs cannot be imported: {cause}"
                ) from error
            warnings.warn(
                f"kurenai's compiled kernels are unavailable: {cause}; "
                "using the pure-Python fallback, which is much slower. "
                f"Reinstall kurenai with a C compiler available to fix this, or set "
                f"{ENV_VAR}=python to choose pure Python without this warning.",
                RuntimeWarning,
                stacklevel=3,
            )
    return importlib.import_module("kurenai._lcs_py"), "python"


def _why(error: ImportError, module: str) -> str:
    """The real cause of the failed import of the compiled ``module``: absent
    (an install without its extension), or there but refused (its message:
    built for another Python, a missing symbol...)."""
    if isinstance(error, ModuleNotFoundError) and (error.name or "").startswith("kurenai."):
        return (
            f"{error.name} is missing: kurenai was installed without its compiled "
            "extension (built without a C compiler?)"
        )
    return f"{module} is there but cannot be loaded ({error})"


def _compiled(
    name: str, what: str, fallback: str, check: Callable[[ModuleType], None] | None = None
) -> ModuleType | None:
    """The compiled module ``kurenai.<name>`` when the compiled implementation
    is live; None otherwise, or if it cannot be imported or ``check`` rejects
    it with an ImportError (one warning under ``auto``, saying what is used
    instead; an error under ``compiled``)."""
    if IMPLEMENTATION != "compiled":
        return None
    try:
        module = importlib.import_module(f"kurenai.{name}")
        if check is not None:
            check(module)
        return module
    except ImportError as error:
        if _CHOICE == "compiled":
            raise
        cause = _why(error, f"kurenai.{name}")
        warnings.warn(
            f"kurenai's compiled {what} is unavailable: {cause}; {fallback}",
            RuntimeWarning,
            stacklevel=3,
        )
        return None


_CHOICE = os.environ.get(ENV_VAR, "auto").strip().lower() or "auto"
kernels, IMPLEMENTATION = _load(_CHOICE)
# The compiled plan switches on kind codes in C (as it checks its scan modes
# against kurenai._data.rules): the kinds it declares must be the registry's.
fused = _compiled(
    "_fused",
    "text path",
    "scoring uses Python tokenization, correctly but more slowly.",
    lambda module: check_compiled_kinds(getattr(module, "KINDS", None)),
)
variants: ModuleType = _compiled(
    "_variants", "ROUGE-W/S/SU kernels", "those types use the pure-Python twin (slower)."
) or importlib.import_module("kurenai._variants_py")
# The bootstrap's summing kernel; None: kurenai.stats._bootstrap sums with NumPy.
resample = _compiled("_resample", "bootstrap kernel", "the bootstrap sums with NumPy.")
# ROUGE-1.5.5.pl's evaluations and bootstrap; None: kurenai.rouge155 counts
# with its pure Python (the spec).
perl = _compiled("_perl", "ROUGE-1.5.5 kernel", "kurenai.rouge155 counts in pure Python (slower).")
# The command line's fast paths for records: kurenai._records, or its twin.
records: ModuleType = _compiled(
    "_records", "record reader and writer", "the command line reads and writes records more slowly."
) or importlib.import_module("kurenai._records_py")
# NLTK's Punkt sentence splitter: kurenai._punkt, or its twin.
punkt: ModuleType = _compiled(
    "_punkt", "Punkt sentence splitter", "punkt sentences are found more slowly."
) or importlib.import_module("kurenai._punkt_py")
# The all-pairs kernels (score_matrix, one-to-many, rewards): kurenai._pairs, or its twin.
pairs: ModuleType = _compiled(
    "_pairs", "all-pairs kernels", "score_matrix counts in pure Python (slower)."
) or importlib.import_module("kurenai._pairs_py")

"""The one place that chooses the implementation: kernels and plans.

``KURENAI_IMPLEMENTATION`` selects it: ``auto`` (default: compiled if it
imports, otherwise pure Python with one warning; always pure Python on
interpreters other than CPython), ``compiled`` (fail loudly if the extension
is missing) or ``python`` (force the pure twin).  ``IMPLEMENTATION`` tells
which one is live.  ``kernels`` is ``kurenai._lcs`` or its twin
``kurenai._lcs_py``; ``fastpath`` is the compiled text-to-scores path, or None.
:func:`make_plan` picks a scorer's plan from them.
``variants`` holds the ROUGE-W/S/SU kernels (``_variants`` or its twin).
"""

from __future__ import annotations

import importlib
import os
import platform
import warnings
from types import ModuleType
from typing import Any

from kurenai._plan import Plan, TypeSpec
from kurenai._plan_py import PythonPlan, Splitter
from kurenai.scoring import Score

__all__ = ["CHOICES", "ENV_VAR", "IMPLEMENTATION", "fastpath", "kernels", "make_plan", "scan_mode"]

ENV_VAR = "KURENAI_IMPLEMENTATION"
CHOICES = ("auto", "compiled", "python")


def _load(choice: str) -> tuple[ModuleType, str]:
    if choice not in CHOICES:
        raise ImportError(f"{ENV_VAR}={choice!r} is not one of {', '.join(CHOICES)}")
    if choice == "auto" and platform.python_implementation() != "CPython":
        choice = "python"  # the extension is built for CPython only
    if choice != "python":
        try:
            from kurenai import _lcs
        except ImportError as error:
            if choice == "compiled":
                raise ImportError(
                    f"{ENV_VAR}=compiled but kurenai._lcs cannot be imported: {error}"
                ) from error
            warnings.warn(
                f"kurenai's compiled kernels are unavailable ({error}); "
                "using the pure-Python fallback, which is much slower. "
                f"Reinstall kurenai with a C compiler available to fix this, or set "
                f"{ENV_VAR}=python to choose pure Python without this warning.",
                RuntimeWarning,
                stacklevel=3,
            )
        else:
            return _lcs, "compiled"
    from kurenai import _lcs_py

    return _lcs_py, "python"


def _load_fastpath(choice: str) -> ModuleType | None:
    try:
        return importlib.import_module("kurenai._fastpath")
    except ImportError as error:
        if choice == "compiled":
            raise
        warnings.warn(
            f"kurenai's compiled text path is unavailable ({error}); scoring uses "
            "Python tokenization, correctly but more slowly.",
            RuntimeWarning,
            stacklevel=3,
        )
        return None


def scan_mode(tokenizer: Any) -> str | None:
    """The compiled scan mode ``tokenizer`` declares, or None.

    Read from its own class only: a subclass may tokenize differently, and
    opts in by declaring ``scan_mode`` itself.
    """
    if "scan_mode" not in vars(type(tokenizer)):
        return None
    mode = getattr(tokenizer, "scan_mode", None)
    return mode if isinstance(mode, str) else None


def make_plan(spec: TypeSpec, tokenizer: Any, splitter: Splitter | None) -> Plan:
    """The plan a scorer runs: the compiled twin when it reproduces this
    tokenizer and these types exactly, else the Python twin on ``kernels``."""
    mode = scan_mode(tokenizer) if splitter is None else None
    if fastpath is not None and mode in fastpath.MODES and set(spec.kinds) <= fastpath.KINDS:
        if mode in ("char", "unicode"):
            from kurenai._unicode_tokenizers import char_classes

            fastpath.set_char_classes(char_classes())  # built once, ~0.25 s
        stemmer = getattr(tokenizer, "stemmer", None)
        return fastpath.Plan(spec, fastpath.MODES[mode], stemmer, Score)  # type: ignore[no-any-return]
    return PythonPlan(spec, tokenizer, kernels, splitter)


_CHOICE = os.environ.get(ENV_VAR, "auto").strip().lower() or "auto"
kernels, IMPLEMENTATION = _load(_CHOICE)
fastpath: ModuleType | None = _load_fastpath(_CHOICE) if IMPLEMENTATION == "compiled" else None


def _load_variants(implementation: str) -> ModuleType:
    if implementation == "compiled":
        try:
            return importlib.import_module("kurenai._variants")
        except ImportError as error:
            if _CHOICE == "compiled":
                raise
            warnings.warn(
                f"kurenai's compiled ROUGE-W/S/SU kernels are unavailable ({error}); "
                "those types use the pure-Python fallback, which is much slower.",
                RuntimeWarning,
                stacklevel=3,
            )
    return importlib.import_module("kurenai._variants_py")


variants: ModuleType = _load_variants(IMPLEMENTATION)

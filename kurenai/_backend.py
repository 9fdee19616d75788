"""The one place that chooses the kernel implementation.

``KURENAI_IMPLEMENTATION`` selects it: ``auto`` (default: compiled if it
imports, otherwise pure Python with one warning), ``compiled`` (fail loudly if
the extension is missing) or ``python`` (force the pure twin).
``IMPLEMENTATION`` tells which one is live.  ``fastpath`` is the compiled
text-to-scores path for kurenai's own tokenizers, or None with pure Python.
``variants`` holds the ROUGE-W/S/SU kernels (``_variants`` or its twin).
"""

from __future__ import annotations

import importlib
import os
import warnings
from types import ModuleType

ENV_VAR = "KURENAI_IMPLEMENTATION"
CHOICES = ("auto", "compiled", "python")


def _load(choice: str) -> tuple[ModuleType, str]:
    if choice not in CHOICES:
        raise ImportError(f"{ENV_VAR}={choice!r} is not one of {', '.join(CHOICES)}")
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
                "Reinstall kurenai with a C++ compiler available to fix this.",
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

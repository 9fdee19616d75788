"""ROUGE-1.5.5.pl's rounding of a score before it compares or stores it.

Kept apart from the registry (:mod:`kurenai._core.kinds`, which needs NumPy)
so that :mod:`kurenai.rouge155` reads the same function without it.  The
compiled ``kurenai._perl`` rounds in C; ``tests/kernel_modules/test_perl_kernels.py``
holds its ``rounded`` to this function.
"""

from __future__ import annotations

__all__ = ["perl_rounded"]


def perl_rounded(value: float) -> float:
    """``value`` as the script's ``sprintf("%07.5f")`` leaves it for comparing.

    Python's formatting rounds the exact binary value half to even, as C's
    does.  The zero padding to width 7 never changes the number (``.5f``
    writes at least 7 characters for a finite value), so it is left out:
    it would turn ``inf`` into ``0000inf``, which ``float`` cannot read.
    """
    return float(f"{value:.5f}")

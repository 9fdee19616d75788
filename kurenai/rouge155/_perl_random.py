"""Perl's ``srand``/``rand``: the 48-bit ``drand48`` generator, vectorised.

Perl (5.20 and later, on every platform) draws with its own ``drand48``:
``srand(s)`` sets the state to ``(s << 16) + 0x330E``, each ``rand`` steps
``x <- (0x5DEECE66D·x + 0xB) mod 2^48`` and returns ``x / 2^48``, and
``rand(n)`` is ``n`` times that (a double product), so ``int(rand(n))`` is
the index the script's bootstrap draws.  The k-th state after ``srand(s)``
is ``A_k·x0 + C_k mod 2^48`` for constants of k alone, which lets NumPy draw
all of a block of seeds at once, in exactly Perl's order.

>>> perl_indices([1], 618)[0, :3].tolist()  # perl -e 'srand(1); print int(rand(618))'
[25, 280, 515]
"""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt

__all__ = ["perl_indices", "perl_rand"]

_A = 0x5DEECE66D
_C = 0xB
_MASK = (1 << 48) - 1
_SEED_LOW = 0x330E


def perl_rand(seed: int, count: int) -> list[float]:
    """The first ``count`` values of ``rand()`` after ``srand(seed)`` (the
    readable specification of :func:`perl_indices`)."""
    state = ((seed & 0xFFFFFFFF) << 16) + _SEED_LOW
    values = []
    for _ in range(count):
        state = (_A * state + _C) & _MASK
        values.append(state * 2.0**-48)
    return values


@functools.lru_cache(maxsize=4)
def _steps(count: int) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """``A_k`` and ``C_k`` for k = 1..count: state_k = A_k·x0 + C_k (mod 2^48)."""
    multipliers = np.empty(count, dtype=np.uint64)
    offsets = np.empty(count, dtype=np.uint64)
    a, c = 1, 0
    for k in range(count):
        a, c = (_A * a) & _MASK, (_A * c + _C) & _MASK
        multipliers[k], offsets[k] = a, c
    return multipliers, offsets


def perl_indices(seeds: list[int] | range, count: int) -> npt.NDArray[np.int64]:
    """``int(rand(count))`` drawn ``count`` times after ``srand(seed)``, per seed.

    Row s holds the draws of ``seeds[s]``: the indices of one bootstrap sample.
    """
    multipliers, offsets = _steps(count)
    starts = np.array([((s & 0xFFFFFFFF) << 16) + _SEED_LOW for s in seeds], dtype=np.uint64)
    # uint64 products wrap modulo 2^64, which keeps the low 48 bits exact.
    states = (starts[:, None] * multipliers[None, :] + offsets[None, :]) & np.uint64(_MASK)
    draws = states.astype(np.float64) * 2.0**-48 * float(count)
    return np.floor(draws).astype(np.int64)

"""Floats formatted a block at a time, to the very characters Python gives.

The outputs write every score as Python formats it one float at a time:
``"%f" % x`` in CSV, ``float.__repr__`` in JSON (as ``json.dumps`` does).
Calling those once per score is the command line's hot loop, so:

- :func:`fixed6_rows` writes ``%f`` of scores in [0, 1] with integer
  arithmetic on whole arrays: ``%f`` is ``x * 10**6`` rounded to the nearest
  integer, written with six decimals.  ``x * 1e6`` in float64 is within
  2**-33 of the exact product (below 2**20, half an ulp), so where it is
  farther than 1e-9 from a half-integer both round to the same integer; the
  few scores closer than that (ties such as 2**-7) are formatted by ``%``
  itself, and a score outside [0, 1] or NaN makes the block fall back to
  the caller's per-float formatting.
- :func:`json_floats` formats each distinct value of a block once (scores
  of short texts repeat: few distinct ratios) and hands the strings out by
  index; values are told apart by their bits, so ``-0.0`` is not ``0.0``.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

__all__ = ["below", "fixed6_rows", "json_float", "json_floats"]

# Farther than this from a half-integer, x * 1e6 rounds as the exact product.
_MARGIN = 1e-9
# A score's micro-units m = 1000 * high + low as the 8 bytes of its %f:
# _HIGH[high] holds "d.ddd" (bytes 0-4), _LOW[low] the last three digits.
_HIGH = np.array(
    [int.from_bytes(f"{h // 1000}.{h % 1000:03d}\0\0\0".encode(), "little") for h in range(1001)],
    dtype="<u8",
)
_LOW = np.array(
    [int.from_bytes(f"\0\0\0\0\0{low:03d}".encode(), "little") for low in range(1000)], dtype="<u8"
)


def fixed6_rows(table: npt.NDArray[np.float64]) -> list[str] | None:
    """Per row of ``table`` (records x scores), ``",%f,%f,...\\n"`` of its
    values; None if a value is not in [0, 1] (NaN, a negative zero...)."""
    table = np.ascontiguousarray(table, dtype=np.float64)
    rows, cells = table.shape
    if not rows:
        return []
    if not ((table >= 0.0) & (table <= 1.0) & ~np.signbit(table)).all():
        return None
    scaled = table * 1e6
    micros = np.rint(scaled).astype(np.int64)
    close = np.abs(scaled - np.floor(scaled) - 0.5) <= _MARGIN
    for row, cell in zip(*np.nonzero(close)):  # format these as % does
        exact = "%f" % float(table[row, cell])  # noqa: UP031 - the reference's own %
        micros[row, cell] = int(exact.replace(".", ""))
    high, low = np.divmod(micros, 1000)
    text = np.empty((rows, cells * 9 + 1), dtype=np.uint8)
    view = text[:, :-1].reshape(rows, cells, 9)
    view[:, :, 0] = ord(",")
    view[:, :, 1:] = (_HIGH[high] | _LOW[low]).view(np.uint8).reshape(rows, cells, 8)
    text[:, -1] = ord("\n")
    return text.tobytes().decode("ascii").splitlines(keepends=True)


def json_float(value: float) -> str:
    """``value`` as ``json.dumps`` writes it (NaN and infinities included)."""
    if value != value:
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)


def json_floats(values: npt.NDArray[np.float64]) -> npt.NDArray[np.object_]:
    """``json_float`` of every value, as an object array of the same shape."""
    values = np.ascontiguousarray(values, dtype=np.float64)
    distinct, where = np.unique(values.view(np.int64).ravel(), return_inverse=True)
    strings = np.array([json_float(v) for v in distinct.view(np.float64).tolist()], dtype=object)
    return strings[where.reshape(values.shape)]


def below(score: float, threshold: float) -> str:
    """``score < threshold`` as a missed gate prints it: four decimals, unless
    rounding would hide that it is below (``0.3000 < 0.3``).

    >>> below(0.29996, 0.3), below(0.25, 0.3)
    ('0.29996 < 0.3', '0.2500 < 0.3')
    """
    shown = f"{score:.4f}" if round(score, 4) < threshold else repr(score)
    return f"{shown} < {threshold}"

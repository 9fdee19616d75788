"""Columns of text from wherever pipelines keep them, as plain Python lists.

pandas Series, NumPy arrays and pyarrow arrays become a ``list`` of ``str``
(and ``None``), so the scorer sees one kind of input.  Their missing values
(``None``, NaN, ``pd.NA``, ``pd.NaT``) all become ``None``: null in, null out
under ``allow_none=True``, and otherwise the scorer's one clear error naming
the index.  pandas and pyarrow are never imported here: an object of theirs
can only exist once its library is loaded.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Mapping, Set
from types import ModuleType
from typing import Any

import numpy as np

from kurenai._data.extras import pip_install

__all__ = ["check_reference_group", "column", "reference_column", "require", "texts"]

# Optional libraries -> the extra that installs them.
_EXTRAS = {"pyarrow": "arrow", "pandas": "arrow"}


def require(module: str, purpose: str) -> ModuleType:
    """Import an optional library, or raise ImportError naming the extra."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        extra = _EXTRAS.get(module, module)
        raise ImportError(f"{purpose} needs {module}: {pip_install(extra)}") from error


def texts(values: Any, name: str = "texts") -> Any:
    """``values`` as a sequence of texts, nulls as ``None``.

    A list without nulls other than ``None`` is returned as it is (no copy);
    pandas, NumPy and pyarrow columns become lists; any other iterable is
    returned unchanged for the scorer to check.

    >>> texts(["a", float("nan"), None])
    ['a', None, None]
    >>> texts(np.array(["a", "b"]))
    ['a', 'b']
    """
    values = column(values, name)
    if isinstance(values, (list, tuple)) and not _TEXT_TYPES.issuperset(map(type, values)):
        return [None if is_null(value) else value for value in values]
    return values


def column(values: Any, name: str = "texts") -> Any:
    """``values`` as a sequence, its items unread: a pandas, NumPy or pyarrow
    column becomes a list; a mapping, a set or bytes is a TypeError.  The
    caller reads the items (and their nulls) in its own single pass."""
    values = _as_list(values, name, flat=True)
    check_reference_group(values, name, "a sequence of str")
    return values


def reference_column(values: Any, name: str = "references") -> list[Any]:
    """Per record, its reference: a str, or a list of str for several
    (``name`` names the argument in errors; one prediction's list alone:
    :func:`kurenai._core.batch.reference_group`).

    >>> reference_column(np.array([["a b", "c"], ["d", "e"]]))
    [['a b', 'c'], ['d', 'e']]
    """
    rows = _as_list(values, name)
    if isinstance(rows, (str, bytes)):
        raise TypeError(f"{name} must be a list of str or of lists of str, not a string")
    check_reference_group(rows, name, "a list of str or of lists of str")
    return [
        row if isinstance(row, str) else _reference_list(row, f"{name}[{index}]")
        for index, row in enumerate(rows)
    ]


def check_reference_group(value: Any, name: str, wanted: str = "a str or a list of str") -> None:
    """TypeError if ``value`` cannot be one record's list of references (or,
    with ``wanted``, a column of texts).

    Iterating a mapping gives its keys and a set its members in no fixed
    order, and bytes give integers: none is a list of texts, and scoring what
    they give would be a silent wrong number.

    >>> check_reference_group({"a", "b"}, "refs[0]")
    Traceback (most recent call last):
    TypeError: refs[0] must be a str or a list of str, got set (a set: its members have no order)
    """
    if isinstance(value, Mapping):
        why = "a mapping: iterating it gives its keys"
    elif isinstance(value, Set):
        why = "a set: its members have no order"
    elif isinstance(value, (bytes, bytearray, memoryview)):
        why = "bytes: decode them to str"
    else:
        return
    raise TypeError(f"{name} must be {wanted}, got {type(value).__name__} ({why})")


def is_null(value: Any) -> bool:
    """Whether ``value`` is a missing value of Python, NumPy or pandas."""
    if value is None:
        return True
    if isinstance(value, (float, np.floating)):
        return math.isnan(value)
    return type(value).__name__ in ("NAType", "NaTType") and _from(value, "pandas")


_TEXT_TYPES = frozenset({str, type(None)})


def _as_list(values: Any, name: str, flat: bool = False) -> Any:
    if isinstance(values, (list, tuple, str, bytes)):
        return values
    if _from(values, "pyarrow"):
        if hasattr(values, "num_columns"):
            raise TypeError(f"{name} must be one column (a pyarrow Array), not a table")
        return values.to_pylist()
    if _from(values, "pandas"):
        if hasattr(values, "columns"):
            raise TypeError(f"{name} must be one column (a pandas Series), not a DataFrame")
        return values.tolist()
    if isinstance(values, np.ndarray):
        if values.ndim != 1 and flat:
            raise TypeError(f"{name} must be a 1-D array, got {values.ndim} dimensions")
        return values.tolist()
    return values


def _reference_list(row: Any, name: str) -> Any:
    # One record's references: keep what the scorer can check (it names the
    # record on error), but turn array-likes into lists of texts.
    check_reference_group(row, name)
    if isinstance(row, (list, tuple)) or not hasattr(row, "__iter__"):
        return row
    return texts(row)


def _from(value: Any, library: str) -> bool:
    return type(value).__module__.partition(".")[0] == library

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
from types import ModuleType
from typing import Any

import numpy as np

__all__ = ["references", "require", "texts"]

# Optional libraries -> the extra that installs them.
_EXTRAS = {"pyarrow": "arrow", "pandas": "arrow"}


def require(module: str, purpose: str) -> ModuleType:
    """Import an optional library, or raise ImportError naming the extra."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        extra = _EXTRAS.get(module, module)
        raise ImportError(
            f"{purpose} needs {module}: pip install -e '.[{extra}]' in a kurenai checkout"
        ) from error


def texts(values: Any) -> Any:
    """``values`` as a sequence of texts, nulls as ``None``.

    A list without nulls other than ``None`` is returned as it is (no copy);
    pandas, NumPy and pyarrow columns become lists; any other iterable is
    returned unchanged for the scorer to check.

    >>> texts(["a", float("nan"), None])
    ['a', None, None]
    >>> texts(np.array(["a", "b"]))
    ['a', 'b']
    """
    values = _as_list(values, "texts")
    if isinstance(values, (list, tuple)) and not _TEXT_TYPES.issuperset(map(type, values)):
        return [None if is_null(value) else value for value in values]
    return values


def references(values: Any) -> list[Any]:
    """Per record, its reference: a str, or a list of str for several.

    >>> references(np.array([["a b", "c"], ["d", "e"]]))
    [['a b', 'c'], ['d', 'e']]
    """
    rows = _as_list(values, "references")
    if isinstance(rows, (str, bytes)):
        raise TypeError("references must be a list of str or of lists of str, not a string")
    return [row if isinstance(row, str) else _reference_list(row) for row in rows]


def is_null(value: Any) -> bool:
    """Whether ``value`` is a missing value of Python, NumPy or pandas."""
    if value is None:
        return True
    if isinstance(value, (float, np.floating)):
        return math.isnan(value)
    return type(value).__name__ in ("NAType", "NaTType") and _from(value, "pandas")


_TEXT_TYPES = frozenset({str, type(None)})


def _as_list(values: Any, name: str) -> Any:
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
        if values.ndim != 1 and name == "texts":
            raise TypeError(f"{name} must be a 1-D array, got {values.ndim} dimensions")
        return values.tolist()
    return values


def _reference_list(row: Any) -> Any:
    # One record's references: keep what the scorer can check (it names the
    # record on error), but turn array-likes into lists of texts.
    if isinstance(row, (list, tuple)) or not hasattr(row, "__iter__"):
        return row
    return texts(row)


def _from(value: Any, library: str) -> bool:
    return type(value).__module__.partition(".")[0] == library

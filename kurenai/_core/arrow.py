"""Scores as pyarrow structs: ``RougeScorer.score_arrow`` and ``kurenai.spark``.

One field per ROUGE type, each ``struct<precision, recall, fmeasure: double>``,
one row per pair, null where a side is null or longer than ``max_tokens``:
the column Spark, Ray Data ``map_batches`` and ``datasets.map(batched=True)``
take as it is.  The numbers come from ``score_batch(columnar=True)``; the
arrays are wrapped, not copied.  A computed score is never NaN, so NaN marks
exactly the null rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from kurenai._core import checks as _checks
from kurenai._core import inputs as _inputs
from kurenai._core.plan import SCORE_FIELDS
from kurenai.scoring import Score

__all__ = ["SCORE_FIELDS", "require_pyarrow", "score_struct", "struct_array", "struct_of"]

# One (3, rows) table per type: precision, recall, F-measure (SCORE_FIELDS).
Table = Any


def require_pyarrow() -> Any:
    """pyarrow, or an ImportError naming the extra that installs it."""
    return _inputs.require("pyarrow", "score_arrow")


def score_struct(table: Table, nulls: np.ndarray) -> Any:
    """``struct<precision, recall, fmeasure: double>`` of one type's (3, rows)
    ``table``, null (its fields too) where ``nulls`` is true."""
    pa = require_pyarrow()
    mask = pa.array(nulls) if nulls.any() else None
    return pa.StructArray.from_arrays(
        [pa.array(values, mask=nulls if mask is not None else None) for values in table],
        names=list(SCORE_FIELDS),
        mask=mask,
    )


def struct_of(names: Sequence[str], tables: Sequence[Table], nulls: np.ndarray) -> Any:
    """A struct with one :func:`score_struct` field per name, null as a whole
    where ``nulls`` is true."""
    pa = require_pyarrow()
    mask = pa.array(nulls) if nulls.any() else None
    fields = [score_struct(table, nulls) for table in tables]
    return pa.StructArray.from_arrays(fields, names=list(names), mask=mask)


def struct_array(columns: dict[str, Score]) -> Any:
    """``score_batch(columnar=True)``'s result as a ``pyarrow.StructArray``."""
    require_pyarrow()
    _checks.some_types(list(columns))
    nulls = np.isnan(next(iter(columns.values())).fmeasure)
    return struct_of(list(columns), list(columns.values()), nulls)

"""``RougeScorer.score_arrow``: scores as a pyarrow ``StructArray``.

One field per ROUGE type, each ``struct<precision, recall, fmeasure: double>``,
one row per pair, null where a side is null or longer than ``max_tokens``:
the column Spark, Ray Data ``map_batches`` and ``datasets.map(batched=True)``
take as it is.  The numbers come from ``score_batch(columnar=True)``; the
arrays are wrapped, not copied.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kurenai._core import inputs as _inputs
from kurenai.scoring import Score

__all__ = ["FIELDS", "require_pyarrow", "struct_array"]

FIELDS = ("precision", "recall", "fmeasure")


def require_pyarrow() -> Any:
    """pyarrow, or an ImportError naming the extra that installs it."""
    return _inputs.require("pyarrow", "score_arrow")


def struct_array(columns: dict[str, Score]) -> Any:
    """``score_batch(columnar=True)``'s result as a ``pyarrow.StructArray``."""
    pa = require_pyarrow()
    if not columns:
        raise ValueError("score_arrow needs at least one ROUGE type")
    # A computed score is never NaN: NaN marks exactly the null rows.
    null = np.isnan(next(iter(columns.values())).fmeasure)
    mask = pa.array(null) if null.any() else None
    fields = [
        pa.StructArray.from_arrays(
            [pa.array(values, mask=null if mask is not None else None) for values in score],
            names=FIELDS,
            mask=mask,
        )
        for score in columns.values()
    ]
    return pa.StructArray.from_arrays(fields, names=list(columns), mask=mask)

"""ROUGE in Ray Data: a callable class for ``Dataset.map_batches``.

    import ray
    from kurenai.ray import RougeScores

    scored = ray.data.read_parquet("outputs.parquet").map_batches(
        RougeScores,
        fn_constructor_kwargs={"rouge_types": ["rouge1", "rougeL"], "use_stemmer": True},
        batch_format="pyarrow",  # or "pandas"
        concurrency=4,           # actors: each builds its scorer once
    )

Each actor builds one :class:`~kurenai.rouge_scorer.RougeScorer` (in
``__init__``, which Ray runs once per worker) and scores every batch it is
given with :meth:`~kurenai.rouge_scorer.RougeScorer.score_arrow`: the batch
comes back with one more column, a struct with a field per ROUGE type, each
``struct<precision, recall, fmeasure: double>``, null where a side is null
(None, NaN) or over ``max_tokens``/``max_chars``, as in ``kurenai.spark``.
The column's field metadata holds the scorer's signature under
``b"kurenai.signature"`` (:mod:`kurenai.signature`).  A batch is an Arrow
table or a pandas DataFrame; the result is an Arrow table either way (Ray
takes it whatever the ``batch_format``), so nulls stay nulls.  Needs the
``ray`` extra.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kurenai._core import checks as _checks
from kurenai._core.arrow import require_pyarrow
from kurenai.rouge_scorer import RougeScorer

__all__ = ["SIGNATURE_KEY", "RougeScores"]

#: The key of the signature in the score column's field metadata.
SIGNATURE_KEY = b"kurenai.signature"


class RougeScores:
    """``batch -> batch + scores`` for ``Dataset.map_batches`` (see the module).

    Args:
        rouge_types: the types to score (a field each).
        target_column: the column of references.
        prediction_column: the column of predictions.
        output_column: the name of the struct column added (it must not exist).
        n_jobs: threads per batch (``score_batch``'s meaning).
        max_tokens: ``score_batch``'s token limit (a null row over it).
        max_chars: ``score_batch``'s limit in code points (a null row over it).
        scorer_options: the other :class:`~kurenai.rouge_scorer.RougeScorer`
            arguments (``use_stemmer``, ``tokenizer``, ``lang``...).
    """

    def __init__(
        self,
        rouge_types: Iterable[str] = ("rouge1", "rouge2", "rougeL"),
        *,
        target_column: str = "target",
        prediction_column: str = "prediction",
        output_column: str = "rouge",
        n_jobs: int = 1,
        max_tokens: int | None = None,
        max_chars: int | None = None,
        **scorer_options: Any,
    ) -> None:
        require_pyarrow()
        for name, value in (
            ("target_column", target_column),
            ("prediction_column", prediction_column),
            ("output_column", output_column),
        ):
            if not isinstance(value, str):
                raise TypeError(f"{name} must be a str, got {type(value).__name__}")
        self.scorer = RougeScorer(list(rouge_types), **scorer_options)
        self.columns = (target_column, prediction_column, output_column)
        self.n_jobs = n_jobs
        _checks.limit(max_tokens, "max_tokens")  # refused here, before any batch
        _checks.limit(max_chars, "max_chars")
        self.max_tokens, self.max_chars = max_tokens, max_chars
        self.signature = str(self.scorer.signature())

    def __call__(self, batch: Any) -> Any:
        pa = require_pyarrow()
        table = batch if isinstance(batch, pa.Table) else _from_pandas(pa, batch)
        target, prediction, output = self.columns
        for name in (target, prediction):
            if name not in table.column_names:
                raise KeyError(f"no column {name!r} in the batch (columns: {table.column_names})")
        if output in table.column_names:
            raise ValueError(f"the batch already has a column {output!r} (choose output_column)")
        scores = self.scorer.score_arrow(
            table.column(target).combine_chunks(),
            table.column(prediction).combine_chunks(),
            self.n_jobs,
            max_tokens=self.max_tokens,
            max_chars=self.max_chars,
        )
        field = pa.field(output, scores.type, metadata={SIGNATURE_KEY: self.signature})
        return table.append_column(field, scores)


def _from_pandas(pa: Any, batch: Any) -> Any:
    """A pandas batch as an Arrow table (its index dropped, as Ray's is)."""
    if not hasattr(batch, "columns") or not hasattr(batch, "to_dict"):
        raise TypeError(
            f"a batch must be a pyarrow.Table or a pandas.DataFrame, got {type(batch).__name__}"
        )
    return pa.Table.from_pandas(batch, preserve_index=False)

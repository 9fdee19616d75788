"""ROUGE as a polars expression namespace: importing this module adds
``Expr.rouge`` (in a kurenai checkout, ``pip install -e '.[polars]'``)::

    import polars as pl
    import kurenai.frames.polars  # registers the namespace

    df.with_columns(rougeL=pl.col("prediction").rouge.score(pl.col("target"), "rougeL"))

``score`` gives ``struct(precision, recall, fmeasure)``; ``scores`` one such
field per type.  NULL where a text is NULL or has more than ``max_tokens``
tokens; every other row equals ``RougeScorer.score(target, prediction)``.
Each batch polars hands over is scored as one Arrow batch on ``n_jobs``
threads (-1: every core).  Examples: ``docs/guides/sql-and-frames.md``.

polars is imported inside the functions, and the namespace registered only
where polars is installed, so this module imports (and its doctests collect)
without the extra.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Callable

from kurenai._core import checks as _checks
from kurenai._core.names import type_and_split
from kurenai.frames._scoring import SCORE_FIELDS, Options, checked_types, nested, single

if TYPE_CHECKING:
    import polars as pl

__all__ = ["RougeNamespace", "score_dtype"]


def score_dtype() -> pl.Struct:
    """``pl.Struct({"precision": Float64, "recall": Float64, "fmeasure": Float64})``."""
    import polars as pl

    return pl.Struct({name: pl.Float64 for name in SCORE_FIELDS})


class RougeNamespace:
    """``pl.col("prediction").rouge``: scores of this column against a target."""

    def __init__(self, expr: pl.Expr) -> None:
        self._expr = expr

    def score(
        self,
        target: pl.Expr | str,
        rouge_type: str = "rougeL",
        *,
        use_stemmer: bool = False,
        tokenizer: Any = None,
        split_summaries: bool | str = False,
        max_tokens: int | None = None,
        max_chars: int | None = None,
        n_jobs: int = -1,
        lang: str | None = None,
    ) -> pl.Expr:
        """``struct(precision, recall, fmeasure)`` of this column against
        ``target`` (an expression or a column name), of one type (kurenai's
        or Foundry's name, as in :mod:`kurenai.spark`)."""
        type_and_split(rouge_type)  # an unknown type fails here
        options = Options(
            use_stemmer, tokenizer, split_summaries, max_tokens, n_jobs, max_chars, lang
        )
        return self._map(target, lambda p, t: single(options, rouge_type, p, t), score_dtype())

    def scores(
        self,
        target: pl.Expr | str,
        rouge_types: Sequence[str] = _checks.DEFAULT_TYPES,
        *,
        use_stemmer: bool = False,
        tokenizer: Any = None,
        split_summaries: bool | str = False,
        max_tokens: int | None = None,
        max_chars: int | None = None,
        n_jobs: int = -1,
        lang: str | None = None,
    ) -> pl.Expr:
        """A struct with one ``struct(precision, recall, fmeasure)`` field per
        type, named as given; NULL as a whole where a row is NULL."""
        import polars as pl

        names = checked_types(rouge_types)
        options = Options(
            use_stemmer, tokenizer, split_summaries, max_tokens, n_jobs, max_chars, lang
        )
        dtype = pl.Struct({name: score_dtype() for name in names})
        return self._map(target, lambda p, t: nested(options, names, p, t), dtype)

    def _map(
        self, target: pl.Expr | str, score: Callable[[list[Any], list[Any]], Any], dtype: Any
    ) -> pl.Expr:
        import polars as pl

        if isinstance(target, str):
            target = pl.col(target)
        if not isinstance(target, pl.Expr):
            raise TypeError(f"target must be a polars expression or column name, got {target!r}")

        def batch(pair: pl.Series) -> pl.Series:
            parts = pair.struct.unnest()
            return pl.Series(pair.name, score(parts["p"].to_list(), parts["t"].to_list()), dtype)

        pair = pl.struct(self._expr.alias("p"), target.alias("t"))
        # Each row is scored on its own: polars may hand the column over in batches.
        mapped = pair.map_batches(batch, return_dtype=dtype, is_elementwise=True)
        return mapped.alias(_output_name(self._expr))


def _output_name(expr: pl.Expr) -> str:
    try:
        return str(expr.meta.output_name())
    except Exception:
        return "rouge"


def _register() -> None:
    try:
        import polars as pl
    except ImportError:  # no polars, no Expr to extend
        return
    pl.api.register_expr_namespace("rouge")(RougeNamespace)


_register()

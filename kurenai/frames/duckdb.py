"""ROUGE as a DuckDB SQL function over Arrow batches
(in a kurenai checkout, ``pip install -e '.[duckdb]'``)::

    import duckdb
    from kurenai.frames.duckdb import register

    con = duckdb.connect()
    register(con)
    con.sql("SELECT rouge_score(prediction, target, 'rougeL') FROM 'pairs.parquet'")

``rouge_score(prediction, target, rouge_type)`` returns
``STRUCT(precision DOUBLE, recall DOUBLE, fmeasure DOUBLE)``: NULL when a
text or the type is NULL, or a text has more than ``max_tokens`` tokens;
every other row equals ``RougeScorer.score(target, prediction)``.  The type
takes kurenai's names (``rougeL``) or Foundry's (``ROUGE-L``), as
:mod:`kurenai.spark`; an unknown one fails the query, naming the valid ones.
DuckDB hands the function 2048 rows at a time, scored on ``n_jobs`` threads.
Examples: ``docs/guides/sql-and-frames.md``.  duckdb is imported only by
:func:`register`, so this module imports without the extra.
"""

from __future__ import annotations

from typing import Any

from kurenai._data.extras import pip_install
from kurenai.frames._scoring import SCORE_FIELDS, Options, by_row_type

__all__ = ["RETURN_TYPE", "register"]

RETURN_TYPE = "STRUCT(" + ", ".join(f"{name} DOUBLE" for name in SCORE_FIELDS) + ")"


def register(
    con: Any,
    name: str = "rouge_score",
    *,
    use_stemmer: bool = False,
    tokenizer: Any = None,
    split_summaries: bool | str = False,
    max_tokens: int | None = None,
    max_chars: int | None = None,
    n_jobs: int = -1,
    lang: str | None = None,
) -> None:
    """Make ``name(prediction, target, rouge_type)`` a SQL function of ``con``.

    The tokenizer (a name such as ``"char"``, ``"jieba"``, or an object),
    stemmer, language (``lang``: see ``RougeScorer``), sentence splitting
    for ``rougeLsum``, size limit and threads
    (-1: every core) are fixed here; bad ones raise here, not in a query.
    """
    try:
        import duckdb  # noqa: F401
        import pyarrow as pa  # noqa: F401
    except ImportError as error:
        raise ImportError(
            f"kurenai.frames.duckdb needs duckdb and pyarrow ({error}): {pip_install('duckdb')}"
        ) from error
    if not isinstance(name, str) or not name:
        raise TypeError(f"name must be a non-empty str, got {name!r}")
    options = Options(use_stemmer, tokenizer, split_summaries, max_tokens, n_jobs, max_chars, lang)

    def rouge(prediction: Any, target: Any, rouge_type: Any) -> Any:
        return by_row_type(
            options, prediction.to_pylist(), target.to_pylist(), rouge_type.to_pylist()
        )

    # "special": the function sees the NULL rows and answers NULL for them
    # itself, as it must for a text over max_tokens (DuckDB's default NULL
    # handling forbids a NULL result).
    con.create_function(
        name,
        rouge,
        ["VARCHAR", "VARCHAR", "VARCHAR"],
        RETURN_TYPE,
        type="arrow",
        null_handling="special",
    )

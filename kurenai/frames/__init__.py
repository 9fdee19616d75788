"""ROUGE in SQL and data frames beyond Spark: DuckDB and polars.

* :mod:`kurenai.frames.duckdb`: ``register(con)`` makes
  ``rouge_score(prediction, target, rouge_type)`` a DuckDB SQL function.
* :mod:`kurenai.frames.polars`: importing it adds the ``rouge`` expression
  namespace, ``pl.col("prediction").rouge.score(pl.col("target"), "rougeL")``.

Both score whole Arrow batches with ``RougeScorer.score_batch(columnar=True)``
on every core (``n_jobs``) and give ``struct(precision, recall, fmeasure)``,
NULL where a text is NULL or longer than ``max_tokens``, with the semantics
of :mod:`kurenai.spark` (the same type names, tokenizers and stemmer).
In a kurenai checkout, each needs its extra: ``pip install -e '.[duckdb]'``
(or ``'.[polars]'``).
"""

__all__: list[str] = []

"""The pyspark side of ``kurenai.spark``: UDFs over Arrow batches.

Spark >= 4.1 has Arrow UDFs (``pyarrow.Array`` in and out), which can return
a NULL struct directly.  Older Spark runs the same batches through a pandas
UDF, whose struct results cannot be NULL: there the UDF marks NULL rows with
NULL fields and a ``CASE WHEN`` around it turns them into NULL structs (Spark
still evaluates the UDF once per row).

pyspark, pyarrow and pandas are imported inside the functions, so that this
module imports (and its doctests collect) without the ``spark`` extra.
Without ``from __future__ import annotations`` on purpose: Spark reads the
UDFs' type hints, which must then be the classes themselves.
"""

from typing import TYPE_CHECKING, Any

from kurenai._core.inputs import is_null
from kurenai._core.plan import SCORE_FIELDS
from kurenai.spark import _worker as _spark_worker
from kurenai.spark._worker import Spec

if TYPE_CHECKING:
    from pyspark.sql import Column

_SCORE_DDL = ", ".join(f"{field}: double" for field in SCORE_FIELDS)


def has_arrow_udf() -> bool:
    """Whether this pyspark has Arrow UDFs (4.1 and later)."""
    from pyspark.sql import functions

    return hasattr(functions, "arrow_udf")


def return_ddl(spec: Spec) -> str:
    """The Spark type of the result, as DDL.

    >>> return_ddl(Spec((("", "rougeL", False),), False, None, None, False, "None"))
    'struct<precision: double, recall: double, fmeasure: double>'
    """
    if not spec.nested:
        return f"struct<{_SCORE_DDL}>"
    fields = ", ".join(f"`{field}`: struct<{_SCORE_DDL}>" for field, _, _ in spec.fields)
    return f"struct<{fields}>"


def as_column(value: Any) -> "Column":
    """A Column, from a Column or a column name."""
    from pyspark.sql import Column, functions

    if isinstance(value, str):
        return functions.col(value)
    if isinstance(value, Column):
        return value
    raise TypeError(f"prediction and target must be Columns or column names, got {value!r}")


def column(spec: Spec, prediction: Any, target: Any, arrow: "bool | None" = None) -> "Column":
    """The scores of ``prediction`` against ``target`` as one struct Column,
    through an Arrow UDF (default where Spark has them) or a pandas UDF."""
    import pyarrow as pa

    prediction, target = as_column(prediction), as_column(target)
    if not (has_arrow_udf() if arrow is None else arrow):
        return _pandas_column(spec, prediction, target)

    def rouge(prediction: pa.Array, target: pa.Array) -> pa.Array:
        return _spark_worker.score_arrow(spec, prediction, target)

    return _factory("arrow_udf")(rouge, return_ddl(spec))(prediction, target)


def sql_function(spec: Spec, split_summaries: "bool | str") -> Any:
    """The UDF behind the SQL function: (prediction, target[, type[, stemmer]])."""
    import pyarrow as pa

    if not has_arrow_udf():
        raise RuntimeError(
            "kurenai.spark.register needs Spark >= 4.1 (Arrow UDFs); "
            "use rouge_score() in the DataFrame API on older versions"
        )

    def rouge_sql(prediction: pa.Array, target: pa.Array, *options: pa.Array) -> pa.Array:
        return _spark_worker.score_sql(spec, split_summaries, prediction, target, *options)

    return _factory("arrow_udf")(rouge_sql, return_ddl(spec._replace(nested=False)))


def _pandas_column(spec: Spec, prediction: "Column", target: "Column") -> "Column":
    import pandas as pd
    from pyspark.sql import functions

    flat = [f"{i}_{name}" for i in range(len(spec.fields)) for name in SCORE_FIELDS]
    ddl = "struct<" + ", ".join(f"`{name}`: double" for name in flat) + ">"

    def rouge(prediction: pd.Series, target: pd.Series) -> pd.DataFrame:
        predictions, targets = _texts(prediction, "prediction"), _texts(target, "target")
        tables = _spark_worker.score_tables(spec, predictions, targets)[0]
        return pd.DataFrame(dict(zip(flat, (row for table in tables for row in table))))

    scores = _factory("pandas_udf")(rouge, ddl)(prediction, target)

    def score(i: int) -> "Column":
        return functions.struct(*(scores[f"{i}_{n}"].alias(n) for n in SCORE_FIELDS))

    if spec.nested:
        result = functions.struct(*(score(i).alias(f[0]) for i, f in enumerate(spec.fields)))
    else:
        result = score(0)
    # A NaN field arrives in Spark as NULL: exactly the NULL rows.
    return functions.when(scores[flat[0]].isNotNull(), result)


def _factory(name: str) -> Any:
    # Any: pyspark's annotations do not list every version's UDF factories.
    from pyspark.sql import functions

    return getattr(functions, name)


def _texts(series: Any, name: str) -> "list[str | None]":
    """The texts of a pandas batch; a missing string (None, NaN or NA) is NULL.

    Any other value (an int or array column) is a TypeError: pandas batches
    carry no Arrow type to check, and turning it into NULL would hide it.
    """
    texts: list[str | None] = []
    for text in series:
        if isinstance(text, str):
            texts.append(text)
        elif is_null(text):
            texts.append(None)
        else:
            raise TypeError(
                f"kurenai.spark: {name} must be a string column, got {type(text).__name__} values"
            )
    return texts

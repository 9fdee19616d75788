"""kurenai.spark refuses bad arguments as early as Spark lets it know them.

At build time (no JVM needed): type names, flags, limits, tokenizers, the
SQL function's name, and prediction/target that are neither Columns nor
names.  On the executors (the Arrow and pandas batch functions, called here
directly): a non-string prediction or target column and bad SQL arguments,
each one TypeError naming the argument, where an int column used to score as
all NULL (pandas) or fail on row 0 with the scorer's message.
"""

from __future__ import annotations

import importlib.util

import pytest
from optional import missing

from kurenai.spark import register, rouge_score, rouge_scores, tokenizer_key
from kurenai.spark._worker import Spec, score_arrow, score_sql

pa = pytest.importorskip("pyarrow")
SPEC = Spec((("", "rougeL", False),), False, None, None, False, tokenizer_key(None))


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ({"rouge_type": 3}, ValueError, "ROUGE type"),
        ({"rouge_type": "rougeX"}, ValueError, "ROUGE type"),
        ({"use_stemmer": "yes"}, TypeError, "use_stemmer must be a bool"),
        ({"max_tokens": -1}, ValueError, "max_tokens"),
        ({"tokenizer": "nope"}, ValueError, "unknown tokenizer"),
        ({"tokenizer": 3}, TypeError, "tokenize"),
    ],
)
def test_bad_arguments_fail_when_the_column_is_built(
    arguments: dict[str, object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        rouge_score(prediction="p", target="t", **arguments)  # type: ignore[arg-type]


def test_bad_type_lists_fail_when_the_column_is_built() -> None:
    with pytest.raises(TypeError, match="rouge_types must be a list"):
        rouge_scores(prediction="p", target="t", rouge_types="rouge1")
    with pytest.raises(ValueError, match="asked for twice"):
        rouge_scores(prediction="p", target="t", rouge_types=["rougeL", "ROUGE-L"])


def test_a_prediction_that_is_no_column_fails_when_the_column_is_built() -> None:
    if importlib.util.find_spec("pyspark") is None:
        missing("pyspark is not installed (the spark and test-all extras)")
    pytest.importorskip("pandas")
    with pytest.raises(TypeError, match="must be Columns or column names, got 3"):
        rouge_score(prediction=3, target="t")  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["", "  ", 3, None])
def test_register_refuses_a_bad_function_name(name: object) -> None:
    with pytest.raises(TypeError, match="SQL function's name"):
        register(object(), name)  # type: ignore[arg-type]


TEXTS = pa.array(["the cat sat", None])
WRONG_COLUMNS = {
    "int": pa.array([1, 2]),
    "array": pa.array([["a b"], ["c"]]),
    "binary": pa.array([b"a", b"b"]),
}


@pytest.mark.parametrize("wrong", sorted(WRONG_COLUMNS))
@pytest.mark.parametrize("side", ["prediction", "target"])
def test_a_column_that_is_not_text_is_one_type_error(backend: str, wrong: str, side: str) -> None:
    column = WRONG_COLUMNS[wrong]
    sides = (column, TEXTS) if side == "prediction" else (TEXTS, column)
    with pytest.raises(TypeError, match=rf"^kurenai.spark: {side} must be a string column"):
        score_arrow(SPEC, *sides)
    with pytest.raises(TypeError, match=rf"^kurenai.spark: {side} \(argument \d\) must be a str"):
        score_sql(SPEC, False, *sides)


def test_text_columns_score_and_all_null_columns_are_null(backend: str) -> None:
    result = score_arrow(SPEC, pa.array(["the cat", None]), TEXTS).to_pylist()
    assert result[0]["recall"] == pytest.approx(2 / 3) and result[1] is None
    assert score_arrow(SPEC, pa.nulls(2), TEXTS).to_pylist() == [None, None]
    assert score_arrow(SPEC, pa.array(["a", "b"], pa.large_string()), TEXTS).to_pylist()[1] is None


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ((pa.array([1, 2]),), r"rouge_type \(argument 3\) must be a string column, got int64"),
        ((pa.array(["rouge1"] * 2), pa.array(["yes", "no"])), r"use_stemmer \(argument 4\)"),
        ((pa.array(["rouge1"] * 2), pa.array([1, 0])), r"must be a boolean, got int64"),
        ((pa.array(["rouge1"] * 2), pa.array([True] * 2), pa.array([1, 2])), "2 to 4 arguments"),
    ],
)
def test_bad_sql_arguments_are_one_type_error(
    backend: str, options: tuple[object, ...], message: str
) -> None:
    with pytest.raises(TypeError, match=message):
        score_sql(SPEC, False, TEXTS, TEXTS, *options)


def test_good_sql_arguments_score(backend: str) -> None:
    types, stems = pa.array(["rouge1", None]), pa.array([True, None])
    rows = score_sql(SPEC, False, TEXTS, TEXTS, types, stems).to_pylist()
    assert rows[0] == {"precision": 1.0, "recall": 1.0, "fmeasure": 1.0} and rows[1] is None


def test_the_pandas_batch_refuses_non_text_values() -> None:
    pd = pytest.importorskip("pandas")
    from kurenai.spark._udfs import _texts

    assert _texts(pd.Series(["a", None, float("nan")]), "prediction") == ["a", None, None]
    with pytest.raises(TypeError, match="prediction must be a string column, got int values"):
        _texts(pd.Series([1, 2]), "prediction")

"""Columns from pandas, NumPy and pyarrow into the scorer; score_arrow.

pandas and pyarrow are in the ``test`` extra (``kurenai[arrow]``): missing,
these tests skip on a developer's machine but fail under CI.
"""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from kurenai._core import inputs as _inputs
from kurenai._data.extras import pip_install
from kurenai.rouge_scorer import RougeScorer


def _need(module: str) -> Any:
    try:
        return __import__(module)
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail(f"CI must install kurenai[arrow]: {module} is missing")
        pytest.skip(f"{module} is not installed (pip install 'kurenai[arrow]')")


@pytest.fixture(scope="module")
def pd() -> Any:
    return _need("pandas")


@pytest.fixture(scope="module")
def pa() -> Any:
    return _need("pyarrow")


TARGETS = ["a b c", None, "c d", "x y", "e", "z"]
PREDICTIONS = ["a b", "b", "c", "x", "e f", None]
NULL = [False, True, False, False, False, True]


def expected(scorer: RougeScorer) -> list[Any]:
    return scorer.score_batch(TARGETS, PREDICTIONS, allow_none=True)


def with_nulls(values: list[Any], *nulls: Any) -> list[Any]:
    """``values`` with its Nones replaced by ``nulls`` in turn."""
    out, index = [], 0
    for value in values:
        if value is None:
            value, index = nulls[index % len(nulls)], index + 1
        out.append(value)
    return out


def test_pandas_series_with_every_kind_of_null(backend: str, pd: Any) -> None:
    scorer = RougeScorer(["rouge1", "rougeL"])
    targets = pd.Series(with_nulls(TARGETS, float("nan")), dtype=object)
    predictions = pd.Series(with_nulls(PREDICTIONS, pd.NA), dtype=object)
    assert scorer.score_batch(targets, predictions, allow_none=True) == expected(scorer)
    strings = pd.Series(TARGETS, dtype="string"), pd.Series(PREDICTIONS, dtype="string")
    assert scorer.score_batch(*strings, allow_none=True, n_jobs=2) == expected(scorer)
    frame = pd.DataFrame({"t": TARGETS, "p": PREDICTIONS})
    columns = scorer.score_batch(frame.t, frame.p, allow_none=True, columnar=True)
    assert np.isnan(columns["rouge1"].fmeasure).tolist() == NULL
    with pytest.raises(TypeError, match=r"targets\[1\] must be a str.*allow_none=True"):
        scorer.score_batch(frame.t, frame.p)
    with pytest.raises(TypeError, match="not a DataFrame"):
        scorer.score_batch(frame, frame)


def test_numpy_arrays(pd: Any) -> None:
    scorer = RougeScorer(["rouge1"])
    targets = np.array(with_nulls(TARGETS, np.nan), dtype=object)
    predictions = np.array(with_nulls(PREDICTIONS, np.float32("nan")), dtype=object)
    assert scorer.score_batch(targets, predictions, allow_none=True) == expected(scorer)
    assert scorer.score_batch(np.array(["a b"]), np.array(["a"])) == scorer.score_batch(
        ["a b"], ["a"]
    )
    assert _inputs.texts(np.array([np.nan, np.nan])) == [None, None]
    assert _inputs.texts([pd.NaT, pd.NA, "x"]) == [None, None, "x"]
    with pytest.raises(TypeError, match="1-D array"):
        scorer.score_batch(np.array([["a"]]), np.array([["a"]]))


def test_pyarrow_arrays_and_chunked_arrays(backend: str, pa: Any) -> None:
    scorer = RougeScorer(["rouge2", "rougeLsum"])
    targets = pa.chunked_array([TARGETS[:2], TARGETS[2:]], type=pa.large_string())
    predictions = pa.array(PREDICTIONS)
    assert scorer.score_batch(targets, predictions, allow_none=True) == expected(scorer)
    with pytest.raises(TypeError, match="not a table"):
        scorer.score_batch(pa.table({"t": TARGETS}), predictions)


def test_score_multi_batch_takes_columns(pd: Any, pa: Any) -> None:
    scorer = RougeScorer(["rouge1"])
    references, predictions = [["a b", "a"], ["c"]], ["a", "c"]
    expected_scores = scorer.score_multi_batch(references, predictions)
    got = scorer.score_multi_batch(pd.Series(references), np.array(predictions))
    assert got == expected_scores
    assert scorer.score_multi_batch(pa.array(references), pa.array(predictions)) == got


def test_plain_lists_are_not_copied() -> None:
    texts = ["a", "b", None]
    assert _inputs.texts(texts) is texts


def test_score_arrow(backend: str, pa: Any, pd: Any) -> None:
    scorer = RougeScorer(["rouge1", "rougeL"])
    targets = pd.Series(with_nulls(TARGETS, float("nan")))
    result = scorer.score_arrow(targets, pa.array(PREDICTIONS), max_tokens=2)
    field = pa.struct([(name, pa.float64()) for name in ("precision", "recall", "fmeasure")])
    assert result.type == pa.struct([("rouge1", field), ("rougeL", field)])
    rows = scorer.score_batch(TARGETS, PREDICTIONS, allow_none=True, max_tokens=2)
    assert result.is_null().to_pylist() == [row is None for row in rows]
    assert result.is_null().to_pylist() == [True, True, False, False, False, True]
    expected_rows = [
        None if row is None else {t: score._asdict() for t, score in row.items()} for row in rows
    ]
    assert result.to_pylist() == expected_rows
    assert result.field("rouge1").field("fmeasure").null_count == 3
    clean = scorer.score_arrow(["a b"], ["a"])
    assert clean.null_count == 0 and clean.to_pylist()[0]["rouge1"]["recall"] == 0.5


def test_score_arrow_without_pyarrow_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(ImportError, match=re.escape(pip_install("arrow"))):
        RougeScorer(["rouge1"]).score_arrow(["a"], ["a"])


def test_import_kurenai_loads_neither_pandas_nor_pyarrow() -> None:
    code = (
        "import sys, kurenai, kurenai.metrics, kurenai.rouge_scorer, kurenai.torchmetrics;"
        "print(sorted({'pandas', 'pyarrow', 'torch', 'torchmetrics', 'scipy'} & set(sys.modules)))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_is_null() -> None:
    assert [_inputs.is_null(v) for v in (None, math.nan, np.float64("nan"), "", 0.0)] == [
        True, True, True, False, False,
    ]  # fmt: skip


def test_metrics_take_columns(pd: Any, pa: Any) -> None:
    from kurenai import metrics

    predictions = ["a b c", "今日 は 晴れ", "x y"]
    references = [["a b", "c"], ["今日 は 雨"], ["y", "x", "z"]]
    expected = metrics.compute(predictions, references, use_aggregator=False, details=True)
    for columns in (
        (pd.Series(predictions), pd.Series(references)),
        (np.array(predictions), np.array(references, dtype=object)),
        (pa.chunked_array([predictions[:1], predictions[1:]]), pa.array(references)),
    ):
        assert metrics.compute(*columns, use_aggregator=False, details=True) == expected
    single = metrics.compute(pd.Series(predictions), pa.array(["a", "b", "x"]), ["rouge1"], seed=0)
    assert single == metrics.compute(predictions, ["a", "b", "x"], ["rouge1"], seed=0)

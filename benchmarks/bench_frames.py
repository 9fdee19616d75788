"""kurenai.frames in DuckDB and polars against the per-row Python UDF each
engine offers, in one run: rows per second of ROUGE-L on a Parquet file.

    python benchmarks/bench_frames.py [--rows 100000] [--udf-rows 3000]
                                      [--repeats 3] [--implementation python] [--tiny]

Each round writes ``--rows`` new generated pairs (Faker's English sentences,
SciTLDR-shaped: ``benchmarks/_text.py``; no text in two rounds) to a Parquet
file; every contender scores the file's ``prediction`` against its ``target``
with rouge-score's tokenizer (so all compute the same numbers, checked first
on a round never timed):

- DuckDB ``kurenai arrow udf``: ``kurenai.frames.duckdb.register`` and one
  query, ``SELECT sum(rouge_score(prediction, target, 'rougeL').fmeasure)``,
  on every core (``n_jobs=-1``) and on one (``n_jobs=1``);
- DuckDB ``rouge-score row udf``: ``create_function`` of a Python function
  calling rouge-score's ``RougeScorer.score`` per row, the UDF a user writes
  today; and ``kurenai row udf``: the same calling kurenai's ``score``;
- polars ``kurenai namespace``: ``pl.col("prediction").rouge.score(...)``
  (``n_jobs=-1`` and 1) over ``scan_parquet``;
- polars ``rouge-score map_elements``: a per-row ``map_elements`` calling
  rouge-score.

The per-row UDFs are ~100x slower, so they run on the round's first
``--udf-rows`` rows only (in a file of their own); their rows/s is that
subset's rate.  Every round is a first run: new pairs, and every connection,
registered function, scorer and UDF made anew for it (untimed), the
contenders taking turns to go first.  Medians over ``--repeats`` rounds.
``--tiny``: a few generated pairs, one run of each kurenai contender, no
timing of the others.
"""

from __future__ import annotations

import argparse
import itertools
import tempfile
from pathlib import Path
from typing import Any, Callable

from _common import add_common_options, first_runs, header
from _text import fresh_pairs, text_source

STRUCT = "STRUCT(precision DOUBLE, recall DOUBLE, fmeasure DOUBLE)"


def pairs(count: int, seed: int) -> tuple[list[str], list[str]]:
    """Round ``seed``'s ``count`` predictions and targets, texts no other
    round has (the benchmarks' fresh-text hook, which
    tests/shipping/test_benchmark_texts.py checks; round 0 is the check)."""
    return fresh_pairs(count, seed=1_000 * seed)


def _parquet(predictions: list[str], targets: list[str], path: Path) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"prediction": predictions, "target": targets}), path)
    return path


def _contenders(
    texts: tuple[list[str], list[str]], udf_rows: int, folder: Path, label: str
) -> dict[str, tuple[Path, Callable[[Path], Any]]]:
    """Every contender made anew for one round's pairs, with its file."""
    predictions, targets = texts
    path = _parquet(predictions, targets, folder / f"{label}.parquet")
    small = _parquet(predictions[:udf_rows], targets[:udf_rows], folder / f"{label}-small.parquet")
    return {**_duckdb(path, small), **_polars(path, small)}


def _duckdb(path: Path, small: Path) -> dict[str, tuple[Path, Callable[[Path], Any]]]:
    import duckdb
    from rouge_score import rouge_scorer

    from kurenai.frames.duckdb import register
    from kurenai.rouge_scorer import RougeScorer

    con = duckdb.connect()
    register(con, "rouge_all", tokenizer="rouge-score", n_jobs=-1)
    register(con, "rouge_one", tokenizer="rouge-score", n_jobs=1)
    theirs = rouge_scorer.RougeScorer(["rougeL"])
    ours = RougeScorer(["rougeL"], tokenizer="rouge-score")
    con.create_function(
        "rs_row",
        lambda p, t: theirs.score(t, p)["rougeL"]._asdict(),
        ["VARCHAR", "VARCHAR"],
        STRUCT,
    )
    con.create_function(
        "kurenai_row",
        lambda p, t: ours.score(t, p)["rougeL"]._asdict(),
        ["VARCHAR", "VARCHAR"],
        STRUCT,
    )

    def query(function: str, extra: str = "") -> Callable[[Path], Any]:
        def run(file: Path) -> Any:
            sql = f"SELECT sum({function}(prediction, target{extra}).fmeasure) FROM '{file}'"
            return con.execute(sql).fetchall()[0][0]

        return run

    return {
        "duckdb kurenai arrow udf n_jobs=-1": (path, query("rouge_all", ", 'rougeL'")),
        "duckdb kurenai arrow udf n_jobs=1": (path, query("rouge_one", ", 'rougeL'")),
        "duckdb kurenai row udf": (small, query("kurenai_row")),
        "duckdb rouge-score row udf": (small, query("rs_row")),
    }


def _polars(path: Path, small: Path) -> dict[str, tuple[Path, Callable[[Path], Any]]]:
    import polars as pl
    from rouge_score import rouge_scorer

    import kurenai.frames.polars  # noqa: F401 - registers Expr.rouge

    theirs = rouge_scorer.RougeScorer(["rougeL"])
    dtype = pl.Struct({"precision": pl.Float64, "recall": pl.Float64, "fmeasure": pl.Float64})

    def namespace(n_jobs: int) -> Callable[[Path], Any]:
        def run(file: Path) -> Any:
            expr = pl.col("prediction").rouge.score(
                "target", "rougeL", tokenizer="rouge-score", n_jobs=n_jobs
            )
            frame = pl.scan_parquet(file).select(expr.struct.field("fmeasure").sum()).collect()
            return frame.item()

        return run

    def per_row(file: Path) -> Any:
        def one(row: dict[str, str]) -> dict[str, float]:
            return dict(theirs.score(row["target"], row["prediction"])["rougeL"]._asdict())

        expr = pl.struct("prediction", "target").map_elements(one, return_dtype=dtype)
        return pl.read_parquet(file).select(expr.struct.field("fmeasure").sum()).item()

    return {
        "polars kurenai namespace n_jobs=-1": (path, namespace(-1)),
        "polars kurenai namespace n_jobs=1": (path, namespace(1)),
        "polars rouge-score map_elements": (small, per_row),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000, help="rows a round")
    parser.add_argument("--udf-rows", type=int, default=3000, help="rows of the per-row UDFs")
    parser.add_argument("--repeats", type=int, default=3, help="rounds of first runs")
    add_common_options(parser)
    args = parser.parse_args(argv)
    header(args)
    if args.tiny:
        args.rows, args.udf_rows, args.repeats = 64, 16, 0
    if not args.tiny:
        print(f"{args.repeats} rounds of {args.rows} new pairs ({text_source()})")
    with tempfile.TemporaryDirectory() as folder:
        # Round 0 checks the numbers (and pays the imports); it is never timed.
        contenders = _contenders(pairs(args.udf_rows, 0), args.udf_rows, Path(folder), "check")
        sums = {name: run(small) / args.udf_rows for name, (small, run) in contenders.items()}
        same = max(sums.values()) - min(sums.values()) < 1e-12
        verdict = "the same" if same else "NOT the same"
        print(f"{args.udf_rows} rows checked: every contender's mean F is {verdict}")
        if args.tiny:
            _tiny(pairs(args.rows, 1), args.udf_rows, Path(folder))
            return 0
        sizes: dict[str, int] = {}
        labels = itertools.count(1)

        def make(texts: tuple[list[str], list[str]]) -> dict[str, Callable[[], object]]:
            made = _contenders(texts, args.udf_rows, Path(folder), f"round{next(labels)}")
            for name, (file, _) in made.items():
                sizes[name] = args.udf_rows if file.stem.endswith("-small") else args.rows
            return {name: (lambda r=run, f=file: r(f)) for name, (file, run) in made.items()}

        times = first_runs([pairs(args.rows, k + 1) for k in range(args.repeats)], make)
    _report(sizes, times, args.repeats)
    return 0


def _tiny(texts: tuple[list[str], list[str]], udf_rows: int, folder: Path) -> None:
    for name, (file, run) in _contenders(texts, udf_rows, folder, "tiny").items():
        if "kurenai" in name and " row udf" not in name:
            print(f"--tiny: {name}: sum of F over {len(texts[0])} rows {run(file):.4f}")


def _report(sizes: dict[str, int], times: dict[str, float], repeats: int) -> None:
    print(
        f"ROUGE-L, medians of {repeats} rounds; ratio: rows/s over the engine's rouge-score row UDF"
    )
    print(f"{'contender':38} {'rows':>8} {'rows/s':>10} {'ratio':>8}")
    for engine, naive in (
        ("duckdb", "duckdb rouge-score row udf"),
        ("polars", "polars rouge-score map_elements"),
    ):
        base = sizes[naive] / times[naive]
        for name in (n for n in times if n.startswith(engine)):
            rate = sizes[name] / times[name]
            print(f"{name:38} {sizes[name]:8d} {rate:10.0f} {rate / base:7.1f}x")


if __name__ == "__main__":
    raise SystemExit(main())

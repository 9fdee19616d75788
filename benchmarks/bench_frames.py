"""kurenai.frames in DuckDB and polars against the per-row Python UDF each
engine offers, in one run: rows per second of ROUGE-L on a Parquet file.

    python benchmarks/bench_frames.py [--data-dir DIR] [--rows 100000] [--udf-rows 3000]
                                      [--repeats 3] [--implementation python] [--tiny]

The SciTLDR pairs (618) are replicated to ``--rows`` rows in a Parquet file;
every contender scores the file's ``prediction`` against its ``target`` with
rouge-score's tokenizer (so all compute the same numbers, checked first):

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

The per-row UDFs are ~100x slower, so they run on the first ``--udf-rows``
rows only; their rows/s is that subset's rate (the rows repeat the same
pairs).  Medians over ``--repeats`` interleaved repeats.  ``--tiny``: a few
generated pairs, one run of each kurenai contender, no timing of the others.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any, Callable

from _common import (
    add_common_options,
    find_data_dir,
    header,
    interleaved,
    read_jsonl,
    synthetic_pairs,
)

# Not fresh text (benchmarks/_text.py): said in the header of every run.
REPEATS_TEXTS = (
    "each repeat scores the same texts again (a corpus of a few hundred pairs, "
    "or generated pairs reused): warm figures, not a first run's"
)

STRUCT = "STRUCT(precision DOUBLE, recall DOUBLE, fmeasure DOUBLE)"


def _parquet(pairs: list[tuple[str, str]], rows: int, path: Path) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    chosen = [pairs[i % len(pairs)] for i in range(rows)]
    table = pa.table({"prediction": [p for _, p in chosen], "target": [t for t, _ in chosen]})
    pq.write_table(table, path)
    return path


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
    parser.add_argument("--data-dir")
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--udf-rows", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=3)
    add_common_options(parser)
    args = parser.parse_args(argv)
    header(args)
    if args.tiny:
        pairs, args.rows, args.udf_rows = synthetic_pairs(4, 40), 64, 16
    else:
        rows = read_jsonl(find_data_dir(args.data_dir) / "en_scitldr_test.jsonl")
        pairs = [(r["target"], r["prediction"]) for r in rows]
    with tempfile.TemporaryDirectory() as folder:
        path = _parquet(pairs, args.rows, Path(folder) / "pairs.parquet")
        small = _parquet(pairs, args.udf_rows, Path(folder) / "small.parquet")
        contenders = {**_duckdb(path, small), **_polars(path, small)}
        sums = {name: run(small) / args.udf_rows for name, (_, run) in contenders.items()}
        same = max(sums.values()) - min(sums.values()) < 1e-12
        verdict = "the same" if same else "NOT the same"
        print(f"{args.udf_rows} rows checked: every contender's mean F is {verdict}")
        if args.tiny:
            for name, (file, run) in contenders.items():
                if "kurenai" in name and " row udf" not in name:
                    print(f"--tiny: {name}: sum of F over {args.rows} rows {run(file):.4f}")
            return 0
        sizes = {
            name: args.rows if file == path else args.udf_rows
            for name, (file, _) in contenders.items()
        }
        times = interleaved(
            {name: (lambda r=run, f=file: r(f)) for name, (file, run) in contenders.items()},
            args.repeats,
        )
    _report(sizes, times, args.repeats)
    return 0


def _report(sizes: dict[str, int], times: dict[str, float], repeats: int) -> None:
    print(f"ROUGE-L, medians of {repeats}; ratio: rows/s over the engine's rouge-score row UDF")
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

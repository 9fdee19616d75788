"""The command line's speed: bootstrap aggregation and records per second.

On 30,900 records a round (the size of SciTLDR's test set taken 50 times;
rouge1, rouge2, rougeL), measures:

- the bootstrap (1000 samples, 95%): rouge-score's ``BootstrapAggregator``
  (``add_scores`` per record, then ``aggregate``) against kurenai's vectorised
  ``kurenai.stats._bootstrap.bootstrap`` on the same scores, seeded alike; the
  results are checked equal before timing;
- the command line end to end (``kurenai.cli.main`` in process, JSONL in,
  CSV out to a file) in records/s, against ``score_batch(columnar=True)`` on
  the same texts already in memory, with and without ``--aggregate``.

Every round of the command line is a first run: records no other round has
(``benchmarks/_text.py``: Faker's English with the ``bench`` extra), in new
files, each run a new process's worth of state (the CLI builds its scorer).
Medians of interleaved rounds; ratios are from the same run.  ``--tiny``
runs a few generated records once, without timing rouge-score's bootstrap.

    python benchmarks/bench_cli.py [--repeats N] [--records N]
                                   [--implementation python] [--tiny]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Callable

import numpy as np
from _common import add_common_options, first_runs, header, interleaved
from _text import fresh_pairs, text_source
from rouge_score.scoring import BootstrapAggregator, Score

from kurenai import cli
from kurenai.rouge_scorer import RougeScorer
from kurenai.stats._bootstrap import bootstrap

TYPES = ["rouge1", "rouge2", "rougeL"]


def pairs(count: int, seed: int) -> tuple[list[str], list[str]]:
    """Round ``seed``'s ``count`` records (predictions, targets): texts no
    other round has (the benchmarks' fresh-text hook, which
    tests/shipping/test_benchmark_texts.py checks)."""
    return fresh_pairs(count, seed=100_000 * seed)


def main() -> None:
    options = _options()
    header(options)
    if options.tiny:
        options.repeats, options.records = 1, 8
    rounds = [pairs(options.records, seed) for seed in range(options.repeats)]
    print(f"{options.records} new records a round ({text_source()}), types {','.join(TYPES)}")
    predictions, targets = rounds[0]
    _bench_bootstrap(targets, predictions, options.repeats, options.tiny)
    with tempfile.TemporaryDirectory() as tmp:
        _bench_cli(rounds, Path(tmp))


def _files(folder: Path, targets: list[str], predictions: list[str]) -> None:
    """The round's records as JSONL and as two text files (newlines escaped)."""
    with (folder / "records.jsonl").open("w", encoding="utf-8") as out:
        for target, prediction in zip(targets, predictions):
            out.write(json.dumps({"target": target, "prediction": prediction}) + "\n")
    escape = {ord("\\"): "\\\\", ord("\n"): "\\n"}
    for name, texts in (("targets.txt", targets), ("predictions.txt", predictions)):
        lines = (text.translate(escape) + "\n" for text in texts)
        (folder / name).write_text("".join(lines), encoding="utf-8")


def _options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3, help="interleaved rounds (median)")
    parser.add_argument("--records", type=int, default=30_900, help="records a round")
    add_common_options(parser)
    return parser.parse_args()


def _bench_bootstrap(
    targets: list[str], predictions: list[str], repeats: int, tiny: bool = False
) -> None:
    columns = RougeScorer(TYPES).score_batch(targets, predictions, columnar=True)
    matrices = {t: np.column_stack(list(columns[t])) for t in TYPES}
    rows = [{t: Score(*matrices[t][i]) for t in TYPES} for i in range(len(targets))]

    def rouge_score() -> object:
        aggregator = BootstrapAggregator()
        for scores in rows:
            aggregator.add_scores(scores)
        np.random.seed(0)
        return aggregator.aggregate()

    def kurenai() -> object:
        return bootstrap(matrices, 1000, 0.95, seed=0)

    if rouge_score() != kurenai():
        sys.exit("the bootstrap results differ from rouge-score's")
    if tiny:  # no rouge-score timing
        seconds = interleaved({"kurenai": kurenai}, repeats)["kurenai"]
        print("\nbootstrap, 1000 samples (results equal to rouge-score's, checked; --tiny)")
        print(f"  {'kurenai':<12} {seconds:7.2f} s")
        return
    times = interleaved({"rouge-score": rouge_score, "kurenai": kurenai}, repeats)
    print("\nbootstrap, 1000 samples (results equal to rouge-score's, checked)")
    for name, seconds in times.items():
        ratio = times["rouge-score"] / seconds
        print(f"  {name:<12} {seconds:7.2f} s   {ratio:5.1f}x")


def _bench_cli(rounds: list[tuple[list[str], list[str]]], tmp: Path) -> None:
    def make(round_texts: tuple[list[str], list[str]]) -> dict[str, Callable[[], object]]:
        predictions, targets = round_texts
        folder = Path(tempfile.mkdtemp(dir=tmp))
        _files(folder, targets, predictions)
        path = folder / "records.jsonl"
        scorer = RougeScorer(TYPES)
        jsonl = ["--target-file", str(path), "--prediction-file", str(path)]
        text = ["--target-file", str(folder / "targets.txt"), "--newline-escape"]
        text += ["--prediction-file", str(folder / "predictions.txt")]
        common = ["--quiet", "--rouge-types", ",".join(TYPES), "--output", str(tmp / "out.csv")]

        def run(files: list[str], *extra: str) -> None:
            if cli.main([*files, *common, *extra]) != 0:
                sys.exit("the command line failed")

        return {
            "score_batch(columnar=True), in memory": lambda: scorer.score_batch(
                targets, predictions, columnar=True
            ),
            "CLI, JSONL in, per-record CSV": lambda: run(jsonl),
            "CLI, plain text in, per-record CSV": lambda: run(text),
            "CLI, JSONL in, --aggregate mean": lambda: run(jsonl, "--aggregate", "mean"),
            "CLI, JSONL in, --aggregate bootstrap": lambda: run(
                jsonl, "--aggregate", "bootstrap", "--seed", "1"
            ),
        }

    # A round's files are written just before its runs, and its texts are
    # new to every contender's scorer (the CLI builds its own each run).
    times = first_runs(rounds, make)
    base = times["score_batch(columnar=True), in memory"]
    records = len(rounds[0][0])
    print("\nend to end (one core), records/s and share of in-process score_batch")
    for name, seconds in times.items():
        print(f"  {name:<40} {records / seconds:9.0f}/s  {100 * base / seconds:5.0f}%")


if __name__ == "__main__":
    main()

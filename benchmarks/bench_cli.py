"""The command line's speed: bootstrap aggregation and records per second.

On the SciTLDR test set repeated 50 times (30,900 records, rouge1, rouge2,
rougeL, as in the issue that asked for it), measures:

- the bootstrap (1000 samples, 95%): rouge-score's ``BootstrapAggregator``
  (``add_scores`` per record, then ``aggregate``) against kurenai's vectorised
  ``kurenai.stats._bootstrap.bootstrap`` on the same scores, seeded alike; the
  results are checked equal before timing;
- the command line end to end (``kurenai.cli.main`` in process, JSONL in,
  CSV out to a file) in records/s, against ``score_batch(columnar=True)`` on
  the same texts already in memory, with and without ``--aggregate``.

Medians of interleaved repeats; ratios are from the same run.  ``--tiny``
runs a few generated records once, without timing rouge-score's bootstrap.

    python benchmarks/bench_cli.py [--data-dir DIR] [--repeats N] [--copies N]
                                   [--implementation python] [--tiny]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import numpy as np
from _common import (
    add_common_options,
    find_data_dir,
    header,
    interleaved,
    read_jsonl,
    synthetic_pairs,
)
from rouge_score.scoring import BootstrapAggregator, Score

from kurenai import cli
from kurenai.rouge_scorer import RougeScorer
from kurenai.stats._bootstrap import bootstrap

# Not fresh text (benchmarks/_text.py): said in the header of every run.
REPEATS_TEXTS = (
    "each repeat scores the same texts again (a corpus of a few hundred pairs, "
    "or generated pairs reused): warm figures, not a first run's"
)

TYPES = ["rouge1", "rouge2", "rougeL"]


def main() -> None:
    options = _options()
    header(options)
    if options.tiny:
        options.repeats = 1
        records = [{"target": t, "prediction": p} for t, p in synthetic_pairs(8, 70)]
        source = "generated"
    else:
        records = read_jsonl(find_data_dir(options.data_dir) / "en_scitldr_test.jsonl")
        records = records * options.copies
        source = f"SciTLDR x {options.copies}"
    targets = [str(r["target"]) for r in records]
    predictions = [str(r["prediction"]) for r in records]
    print(f"{len(records)} records ({source}), types {','.join(TYPES)}")
    _bench_bootstrap(targets, predictions, options.repeats, options.tiny)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "records.jsonl"
        with path.open("w", encoding="utf-8") as out:
            for target, prediction in zip(targets, predictions):
                out.write(json.dumps({"target": target, "prediction": prediction}) + "\n")
        escape = {ord("\\"): "\\\\", ord("\n"): "\\n"}
        for name, texts in (("targets.txt", targets), ("predictions.txt", predictions)):
            lines = (text.translate(escape) + "\n" for text in texts)
            (Path(tmp) / name).write_text("".join(lines), encoding="utf-8")
        _bench_cli(path, targets, predictions, Path(tmp), options.repeats)


def _options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", help="folder of the benchmark corpora")
    parser.add_argument("--repeats", type=int, default=3, help="interleaved repeats (median)")
    parser.add_argument("--copies", type=int, default=50, help="copies of the corpus")
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


def _bench_cli(
    path: Path, targets: list[str], predictions: list[str], tmp: Path, repeats: int
) -> None:
    scorer = RougeScorer(TYPES)
    jsonl = ["--target-file", str(path), "--prediction-file", str(path)]
    text = ["--target-file", str(tmp / "targets.txt"), "--newline-escape"]
    text += ["--prediction-file", str(tmp / "predictions.txt")]
    common = ["--quiet", "--rouge-types", ",".join(TYPES), "--output", str(tmp / "out.csv")]

    def run(files: list[str], *extra: str) -> None:
        if cli.main([*files, *common, *extra]) != 0:
            sys.exit("the command line failed")

    contenders = {
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
    times = interleaved(contenders, repeats)
    base = times["score_batch(columnar=True), in memory"]
    print("\nend to end (one core), records/s and share of in-process score_batch")
    for name, seconds in times.items():
        print(f"  {name:<40} {len(targets) / seconds:9.0f}/s  {100 * base / seconds:5.0f}%")


if __name__ == "__main__":
    main()

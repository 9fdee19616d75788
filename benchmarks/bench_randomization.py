"""Approximate randomization where users wait: two systems on 200,000 short records.

Times, interleaved in one run (medians of ``--repeats``):

- ``score_batch(columnar=True)`` of one system's records: the yardstick of
  "how long does the test add";
- the paired bootstrap (``--baseline-file``'s default test; 1000 samples,
  compiled kernel);
- approximate randomization (``--paired-ar``; 10,000 trials, sacrebleu's
  default) on the compiled kernel (``kurenai._resample``: MT19937 words and
  sixteen trials' signed sums side by side in C) and on its NumPy twin
  (``RandomState.randint`` words, NumPy sums): the path of the pure-Python
  install;
- the command line end to end (``kurenai.cli.main`` in process, JSONL in,
  ``--baseline-file``), with the bootstrap and with ``--paired-ar``.

The twins' results are checked equal before anything is timed.  Wall and
CPU seconds are both printed (shared cores stretch the wall times).  Types:
rouge1 and rougeL.  The records are generated as ``bench_bootstrap.py``'s
(Zipf words, 6-20 a target); the baseline keeps fewer of the target's words.
``--tiny`` runs 300 records, 50 samples and 200 trials once.

    python benchmarks/bench_randomization.py [--records N] [--samples N] [--trials N]
                                             [--repeats N] [--skip-twin] [--tiny]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from pathlib import Path
from typing import Callable

import numpy as np
from _common import add_common_options, header, interleaved_wall_and_cpu
from bench_bootstrap import _load, on_twin, short_records

from kurenai import cli
from kurenai.rouge_scorer import RougeScorer
from kurenai.stats import _bootstrap as _bootstrap
from kurenai.stats._randomization import paired_randomization

# Not fresh text (benchmarks/_text.py): said in the header of every run.
REPEATS_TEXTS = "times the statistics on scores already made: no text is tokenized or stemmed"

TYPES = ["rouge1", "rougeL"]


def weaker(predictions: list[str], seed: int = 1) -> list[str]:
    """A baseline: each prediction with about a fifth of its words replaced."""
    rng = random.Random(seed)
    return [" ".join(w if rng.random() < 0.8 else "zz" for w in p.split()) for p in predictions]


def main() -> None:
    options = _options()
    header(options)
    if options.tiny:
        options.records, options.samples, options.trials, options.repeats = 300, 50, 200, 1
    targets, predictions = short_records(options.records)
    baseline = weaker(predictions)
    print(f"{len(targets):,} generated records, types {','.join(TYPES)}")
    print(
        f"{options.samples} bootstrap samples, {options.trials} randomization trials; "
        f"{os.cpu_count()} cores, load {_load()}"
    )
    scorer = RougeScorer(TYPES)
    system = scorer.score_batch(targets, predictions, columnar=True)
    base = scorer.score_batch(targets, baseline, columnar=True)
    f_system = {t: np.asarray(system[t].fmeasure) for t in TYPES}
    f_base = {t: np.asarray(base[t].fmeasure) for t in TYPES}

    def randomization() -> object:
        return paired_randomization(f_system, f_base, options.trials, seed=0)

    def bootstrap() -> object:
        return _bootstrap.paired_bootstrap(f_system, f_base, options.samples, seed=0)

    if _bootstrap._KERNEL is None:
        print("(no compiled kernel in this implementation: both AR rows run the NumPy twin)")

    def checked() -> object:  # the twins' equality, on fewer trials when they are many
        return paired_randomization(f_system, f_base, min(options.trials, 500), seed=0)

    if checked() != on_twin(checked)():
        sys.exit("the randomization test's twins differ")
    contenders: dict[str, Callable[[], object]] = {
        "score_batch(columnar=True)": lambda: scorer.score_batch(
            targets, predictions, columnar=True
        ),
        f"paired bootstrap, {options.samples} samples": bootstrap,
        f"AR {options.trials} trials, compiled": randomization,
    }
    if not options.skip_twin:
        contenders[f"AR {options.trials} trials, NumPy twin"] = on_twin(randomization)
    with tempfile.TemporaryDirectory() as tmp:
        contenders.update(_cli_contenders(Path(tmp), targets, predictions, baseline, options))
        times = interleaved_wall_and_cpu(contenders, options.repeats)
    _report(times, options.repeats, f"AR {options.trials} trials, NumPy twin")


def _cli_contenders(
    tmp: Path,
    targets: list[str],
    predictions: list[str],
    baseline: list[str],
    options: argparse.Namespace,
) -> dict[str, Callable[[], object]]:
    path, old = tmp / "records.jsonl", tmp / "baseline.jsonl"
    with path.open("w", encoding="utf-8") as out, old.open("w", encoding="utf-8") as base:
        for target, prediction, weak in zip(targets, predictions, baseline):
            out.write(json.dumps({"target": target, "prediction": prediction}) + "\n")
            base.write(json.dumps({"prediction": weak}) + "\n")
    argv = ["--target-file", str(path), "--prediction-file", str(path), "--quiet", "--seed", "1"]
    argv += ["--rouge-types", ",".join(TYPES), "--baseline-file", str(old)]
    argv += ["--bootstrap-samples", str(options.samples)]

    def run(*extra: str) -> Callable[[], None]:
        def go() -> None:
            if cli.main([*argv, *extra, "--output", str(tmp / "out.txt")]) != 0:
                sys.exit("the command line failed")

        return go

    return {
        "CLI --baseline-file (bootstrap)": run(),
        "CLI --baseline-file --paired-ar": run("--paired-ar", "--ar-trials", str(options.trials)),
    }


def _report(times: dict[str, tuple[float, float]], repeats: int, twin: str) -> None:
    """Wall and CPU seconds, as multiples of scoring's; AR compiled against its twin."""
    scoring = times["score_batch(columnar=True)"]
    print(f"\nmedians of {repeats} interleaved repeats (the twins checked equal first)")
    print(f"  {'':<40}{'seconds':>15}{'x scoring':>16}")
    print(f"  {'':<40}{'wall':>8}{'CPU':>7}{'wall':>8}{'CPU':>8}")
    for name, (wall, cpu) in times.items():
        cells = f"{wall:8.2f}{cpu:7.2f}{wall / scoring[0]:7.2f}x{cpu / max(scoring[1], 1e-9):7.2f}x"
        print(f"  {name:<40}{cells}")
    compiled = next(v for k, v in times.items() if k.startswith("AR") and k.endswith("compiled"))
    if twin in times:
        print(
            f"  AR compiled vs its NumPy twin: {times[twin][0] / compiled[0]:.1f}x wall, "
            f"{times[twin][1] / max(compiled[1], 1e-9):.1f}x CPU"
        )
    print(f"  load average now {_load()}")


def _options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=200_000, help="generated records")
    parser.add_argument("--samples", type=int, default=1000, help="bootstrap samples")
    parser.add_argument("--trials", type=int, default=10_000, help="randomization trials")
    parser.add_argument("--repeats", type=int, default=3, help="interleaved repeats (median)")
    parser.add_argument(
        "--skip-twin", action="store_true", help="do not time the NumPy twin (minutes per run)"
    )
    add_common_options(parser)
    return parser.parse_args()


if __name__ == "__main__":
    main()

"""The bootstrap where users wait: 200,000 short records, rouge1 and rougeL.

Times, interleaved in one run (medians of ``--repeats``):

- ``score_batch(columnar=True)`` of the records: the scoring the bootstrap
  follows, the yardstick of "how long does the aggregate add";
- rouge-score's ``BootstrapAggregator`` (``add_scores`` per record, then
  ``aggregate``, 1000 samples): what ``--use-aggregator`` replaces;
- kurenai's bootstrap on its NumPy twin (``RandomState.randint`` draws the
  indices, NumPy sums): the code path before the compiled draws, and the
  path of the pure-Python install;
- kurenai's bootstrap on the compiled kernel (``kurenai._resample``: the
  MT19937 draws and the sums fused in C);
- the command line end to end (``kurenai.cli.main`` in process, JSONL in,
  ``--use-aggregator --seed 1``) on each twin.

Every result is checked equal to rouge-score's (and the twins' to each
other) before anything is timed.  Wall and CPU seconds are both printed: on
cores shared with other work the wall times stretch; a one-thread
contender's CPU time is its cost.  The records are generated (no corpus):
Zipf words, 6-20 a target, the prediction keeping ~70% of them.  ``--tiny``
runs 300 records and 50 samples once, without timing rouge-score.

    python benchmarks/bench_bootstrap.py [--records N] [--samples N] [--repeats N]
                                         [--skip-rouge-score] [--implementation python]
                                         [--tiny]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable

import numpy as np
from _common import add_common_options, header, interleaved_wall_and_cpu
from rouge_score.scoring import BootstrapAggregator, Score

from kurenai import cli
from kurenai.rouge_scorer import RougeScorer
from kurenai.stats import _bootstrap as _bootstrap

# Not fresh text (benchmarks/_text.py): said in the header of every run.
REPEATS_TEXTS = "times the statistics on scores already made: no text is tokenized or stemmed"

TYPES = ["rouge1", "rougeL"]


def short_records(count: int, seed: int = 0) -> tuple[list[str], list[str]]:
    """``count`` deterministic (target, prediction) pairs of 6-20 Zipf words."""
    rng = random.Random(seed)
    vocab = [f"w{rank}" for rank in range(5000)]
    weights = [1 / (rank**1.1) for rank in range(1, len(vocab) + 1)]
    words = rng.choices(vocab, weights=weights, k=count * 20)
    targets, predictions = [], []
    for k in range(count):
        target = words[20 * k : 20 * k + rng.randint(6, 20)]
        kept = [w if rng.random() < 0.7 else rng.choice(vocab) for w in target]
        targets.append(" ".join(target))
        predictions.append(" ".join(kept[: len(kept) - rng.randint(0, 3)]))
    return targets, predictions


@contextmanager
def numpy_twin() -> Iterator[None]:
    """kurenai's bootstrap on its NumPy twin while inside."""
    kernel = _bootstrap._KERNEL
    _bootstrap._KERNEL = None
    try:
        yield
    finally:
        _bootstrap._KERNEL = kernel


def on_twin(run: Callable[[], Any]) -> Callable[[], Any]:
    def twin() -> Any:
        with numpy_twin():
            return run()

    return twin


def main() -> None:
    options = _options()
    header(options)
    if options.tiny:
        options.records, options.samples, options.repeats = 300, 50, 1
    targets, predictions = short_records(options.records)
    print(f"{len(targets):,} generated records, types {','.join(TYPES)}")
    print(f"{options.samples} samples; {os.cpu_count()} cores, load {_load()}")
    scorer = RougeScorer(TYPES)
    columns = scorer.score_batch(targets, predictions, columnar=True)
    matrices = {t: np.column_stack(list(columns[t])) for t in TYPES}
    rows = [{t: Score(*matrices[t][i]) for t in TYPES} for i in range(len(targets))]

    def rouge_score() -> object:
        aggregator = BootstrapAggregator(n_samples=options.samples)
        for scores in rows:
            aggregator.add_scores(scores)
        np.random.seed(0)
        return aggregator.aggregate()

    def kurenai() -> object:
        return _bootstrap.bootstrap(matrices, options.samples, seed=0)

    expected = rouge_score()
    if _bootstrap._KERNEL is None:
        print("(no compiled kernel in this implementation: both kurenai rows run the NumPy twin)")
    if not kurenai() == on_twin(kurenai)() == expected:
        sys.exit("the bootstrap results differ from rouge-score's")
    contenders: dict[str, Callable[[], object]] = {
        "score_batch(columnar=True)": lambda: scorer.score_batch(
            targets, predictions, columnar=True
        ),
        "kurenai, NumPy twin (randint)": on_twin(kurenai),
        "kurenai, compiled draws + sums": kurenai,
    }
    if not (options.tiny or options.skip_rouge_score):
        contenders["rouge-score BootstrapAggregator"] = rouge_score
    with tempfile.TemporaryDirectory() as tmp:
        contenders.update(_cli_contenders(Path(tmp), targets, predictions, options.samples))
        times = interleaved_wall_and_cpu(contenders, options.repeats)
    _report(times, options.repeats)


def _cli_contenders(
    tmp: Path, targets: list[str], predictions: list[str], samples: int
) -> dict[str, Callable[[], object]]:
    path = tmp / "records.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for target, prediction in zip(targets, predictions):
            out.write(json.dumps({"target": target, "prediction": prediction}) + "\n")
    argv = ["--target-file", str(path), "--prediction-file", str(path), "--quiet"]
    argv += ["--rouge-types", ",".join(TYPES), "--use-aggregator", "--seed", "1"]
    argv += ["--bootstrap-samples", str(samples)]

    def run(output: Path) -> None:
        if cli.main([*argv, "--output", str(output)]) != 0:
            sys.exit("the command line failed")

    compiled, twin = tmp / "compiled.txt", tmp / "twin.txt"
    run(compiled)
    on_twin(lambda: run(twin))()
    if compiled.read_bytes() != twin.read_bytes():
        sys.exit("the command line's two twins print different aggregates")
    return {
        "CLI --use-aggregator, NumPy twin": on_twin(lambda: run(twin)),
        "CLI --use-aggregator, compiled": lambda: run(compiled),
    }


def _report(times: dict[str, tuple[float, float]], repeats: int) -> None:
    """Wall and CPU seconds, each as a multiple of scoring's and as a speedup
    over rouge-score's aggregator (the NumPy twin where it is not timed; the
    CLI rows over the CLI on the NumPy twin)."""
    scoring = times["score_batch(columnar=True)"]
    print(f"\nmedians of {repeats} interleaved repeats (results checked equal first)")
    print(f"  {'':<38}{'seconds':>15}{'x scoring':>16}{'speedup':>16}")
    print(f"  {'':<38}{'wall':>8}{'CPU':>7}{'wall':>8}{'CPU':>8}{'wall':>8}{'CPU':>8}")
    for name, (wall, cpu) in times.items():
        base = times.get("rouge-score BootstrapAggregator", times["kurenai, NumPy twin (randint)"])
        if name.startswith("CLI"):
            base = times["CLI --use-aggregator, NumPy twin"]
        cells = f"{wall:8.2f}{cpu:7.2f}{wall / scoring[0]:7.2f}x{cpu / max(scoring[1], 1e-9):7.2f}x"
        if name != "score_batch(columnar=True)":
            cells += f"{base[0] / wall:7.1f}x{base[1] / max(cpu, 1e-9):7.1f}x"
        print(f"  {name:<38}{cells}")
    print("  (speedup: against rouge-score's aggregator, or the twin where it is not timed;")
    print("   CLI rows against the CLI on the NumPy twin; CPU counts every thread)")
    print(f"  load average now {_load()}")


def _load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def _options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=200_000, help="generated records")
    parser.add_argument("--samples", type=int, default=1000, help="bootstrap samples")
    parser.add_argument("--repeats", type=int, default=3, help="interleaved repeats (median)")
    parser.add_argument(
        "--skip-rouge-score", action="store_true", help="do not time rouge-score's aggregator"
    )
    add_common_options(parser)
    return parser.parse_args()


if __name__ == "__main__":
    main()

"""kurenai.metrics.compute vs rouge-score driven as HF evaluate drives it; score_arrow.

    python benchmarks/bench_metrics.py [--data-dir DIR] [--repeats 5] [--pairs 120]
                                       [--arrow-pairs 20000]
                                       [--implementation python] [--tiny]

1. ``compute()`` on English pairs (four types) against
   evaluate's rouge algorithm run on rouge-score (``score`` per pair, then
   ``BootstrapAggregator`` and ``mid.fmeasure``, or the list of F-measures),
   with ``use_aggregator`` False and True.  kurenai runs with rouge-score's
   tokenizer (the same numbers, checked here) and with its default.
2. ``RougeScorer.score_arrow`` against ``score_batch(columnar=True)`` on
   ``--arrow-pairs`` generated pairs a round.

Every round is a first run: its pairs are new to the process (SciTLDR's 618
pairs cut into disjoint rounds, else generated: ``benchmarks/_text.py``) and
every scorer is built anew for it.  Contenders run round-robin; medians and
ratios come from the same run.
``--tiny`` runs kurenai alone, once, on a few generated pairs.
"""

from __future__ import annotations

import argparse
import functools
from typing import Any, Callable

import numpy as np
from _common import add_common_options, first_runs, header
from _text import english_rounds, fresh_pairs
from rouge_score import rouge_scorer, scoring

from kurenai import metrics
from kurenai.rouge_scorer import RougeScorer

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


Rounds = list[tuple[list[str], list[str]]]  # per round: predictions, references


def pairs(count: int, seed: int) -> tuple[list[str], list[str]]:
    """Round ``seed``'s ``count`` generated pairs (predictions, references):
    texts no other round has (the benchmarks' fresh-text hook, which
    tests/shipping/test_benchmark_texts.py checks)."""
    return fresh_pairs(count, seed=1_000 * seed)


def evaluate_rouge(predictions: list[str], references: list[str], use_aggregator: bool) -> Any:
    """HF evaluate's ``rouge._compute`` (single reference), on rouge-score."""
    scorer = rouge_scorer.RougeScorer(TYPES)
    all_scores = [scorer.score(ref, pred) for ref, pred in zip(references, predictions)]
    if not use_aggregator:
        return {key: [s[key].fmeasure for s in all_scores] for key in TYPES}
    aggregator = scoring.BootstrapAggregator()
    for scores in all_scores:
        aggregator.add_scores(scores)
    return {key: value.mid.fmeasure for key, value in aggregator.aggregate().items()}


def seeded(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Callable[[], Any]:
    """``function(*args, **kwargs)`` after ``np.random.seed(0)``, as
    ``evaluate.load("rouge", seed=0)`` runs its metric."""

    def call() -> Any:
        np.random.seed(0)
        return function(*args, **kwargs)

    return call


def compute_contenders(
    use_aggregator: bool, tiny: bool, texts: tuple[list[str], list[str]]
) -> dict[str, Callable[[], Any]]:
    found = {
        "rouge-score (evaluate)": seeded(evaluate_rouge, *texts, use_aggregator),
        "kurenai (rouge-score tok)": seeded(
            metrics.compute, *texts, use_aggregator=use_aggregator, tokenizer="rouge-score"
        ),
        "kurenai (default)": seeded(metrics.compute, *texts, use_aggregator=use_aggregator),
    }
    if tiny:  # kurenai alone: no rouge-score timing
        del found["rouge-score (evaluate)"]
    return found


def bench_compute(rounds: Rounds, check: tuple[list[str], list[str]], tiny: bool) -> None:
    print(f"compute() on {len(rounds[0][0])} pairs a round, {', '.join(TYPES)}")
    for use_aggregator in (False, True):
        make = functools.partial(compute_contenders, use_aggregator, tiny)
        # The check's round (never timed) first: lazy imports out of the first timed round.
        results = {name: run() for name, run in make(check).items()}
        if tiny:
            times = first_runs(rounds, make)
            print(f"  use_aggregator={use_aggregator} (--tiny: kurenai only)")
            for name, seconds in times.items():
                print(f"    {name:28s} {seconds * 1000:9.1f} ms")
            continue
        same = results["rouge-score (evaluate)"] == results["kurenai (rouge-score tok)"]
        times = first_runs(rounds, make)
        base = times["rouge-score (evaluate)"]
        print(f"  use_aggregator={use_aggregator} (same numbers as evaluate: {same})")
        for name, seconds in times.items():
            print(f"    {name:28s} {seconds * 1000:9.1f} ms  {base / seconds:7.1f}x")


def bench_arrow(rounds: Rounds) -> None:
    def make(texts: tuple[list[str], list[str]]) -> dict[str, Callable[[], Any]]:
        predictions, references = texts
        scorer = RougeScorer(TYPES, tokenizer="unicode")
        other = RougeScorer(TYPES, tokenizer="unicode")
        return {
            "score_batch(columnar=True)": lambda: scorer.score_batch(
                references, predictions, columnar=True
            ),
            "score_arrow": lambda: other.score_arrow(references, predictions),
        }

    for run in make((["a warm-up"], ["in no round"])).values():
        run()  # imports pyarrow, builds the code-point table
    times = first_runs(rounds, make)
    base = times["score_batch(columnar=True)"]
    print(f"score_arrow on {len(rounds[0][0])} new pairs a round, {', '.join(TYPES)}")
    for name, seconds in times.items():
        print(f"    {name:28s} {seconds * 1000:9.1f} ms  {seconds / base:7.2f}x the time")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--pairs", type=int, default=120, help="compute()'s pairs a round")
    parser.add_argument("--arrow-pairs", type=int, default=20_000, help="pairs a round")
    add_common_options(parser)
    args = parser.parse_args()
    header(args)
    if args.tiny:
        rounds, check = [pairs(8, 0)], pairs(8, 1)
        arrow = [pairs(32, 2)]
    else:
        found, source = english_rounds(args.data_dir, args.pairs, args.repeats + 1)
        rounds, check = found[:-1], found[-1]
        print(source + " (the last one only checks the numbers)")
        arrow = [pairs(args.arrow_pairs, 10 + k) for k in range(args.repeats)]
    bench_compute(rounds, check, args.tiny)
    bench_arrow(arrow)


if __name__ == "__main__":
    main()

"""kurenai.metrics.compute vs rouge-score driven as HF evaluate drives it; score_arrow.

    python benchmarks/bench_metrics.py [--data-dir DIR] [--repeats 5] [--arrow-pairs 100000]
                                       [--implementation python] [--tiny]

1. ``compute()`` on the English corpus (SciTLDR, 618 pairs; four types) against
   evaluate's rouge algorithm run on rouge-score (``score`` per pair, then
   ``BootstrapAggregator`` and ``mid.fmeasure``, or the list of F-measures),
   with ``use_aggregator`` False and True.  kurenai runs with rouge-score's
   tokenizer (the same numbers, checked here) and with its default.
2. ``RougeScorer.score_arrow`` against ``score_batch(columnar=True)`` on the
   corpus repeated to ``--arrow-pairs`` pairs.

Contenders run round-robin; medians and ratios come from the same run.
``--tiny`` runs kurenai alone, once, on a few generated pairs.
"""

from __future__ import annotations

import argparse
from typing import Any, Callable

import numpy as np
from _common import (
    add_common_options,
    find_data_dir,
    header,
    interleaved,
    read_jsonl,
    synthetic_pairs,
)
from rouge_score import rouge_scorer, scoring

from kurenai import metrics
from kurenai.rouge_scorer import RougeScorer

# Not fresh text (benchmarks/_text.py): said in the header of every run.
REPEATS_TEXTS = (
    "each repeat scores the same texts again (a corpus of a few hundred pairs, "
    "or generated pairs reused): warm figures, not a first run's"
)

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


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


def bench_compute(
    predictions: list[str], references: list[str], repeats: int, tiny: bool = False
) -> None:
    kind = "generated" if tiny else "English"
    print(f"compute() on {len(predictions)} {kind} pairs, {', '.join(TYPES)}")
    for use_aggregator in (False, True):
        texts = predictions, references
        contenders = {
            "rouge-score (evaluate)": seeded(evaluate_rouge, *texts, use_aggregator),
            "kurenai (rouge-score tok)": seeded(
                metrics.compute, *texts, use_aggregator=use_aggregator, tokenizer="rouge-score"
            ),
            "kurenai (default)": seeded(metrics.compute, *texts, use_aggregator=use_aggregator),
        }
        if tiny:  # kurenai alone: no rouge-score timing
            del contenders["rouge-score (evaluate)"]
            for run in contenders.values():
                run()  # warm-up
            times = interleaved(contenders, repeats)
            print(f"  use_aggregator={use_aggregator} (--tiny: kurenai only)")
            for name, seconds in times.items():
                print(f"    {name:28s} {seconds * 1000:9.1f} ms")
            continue
        results = {name: run() for name, run in contenders.items()}  # also warms up
        same = results["rouge-score (evaluate)"] == results["kurenai (rouge-score tok)"]
        times = interleaved(contenders, repeats)
        base = times["rouge-score (evaluate)"]
        print(f"  use_aggregator={use_aggregator} (same numbers as evaluate: {same})")
        for name, seconds in times.items():
            print(f"    {name:28s} {seconds * 1000:9.1f} ms  {base / seconds:7.1f}x")


def bench_arrow(predictions: list[str], references: list[str], size: int, repeats: int) -> None:
    targets = [references[i % len(references)] for i in range(size)]
    preds = [predictions[i % len(predictions)] for i in range(size)]
    scorer = RougeScorer(TYPES, tokenizer="unicode")
    contenders = {
        "score_batch(columnar=True)": lambda: scorer.score_batch(targets, preds, columnar=True),
        "score_arrow": lambda: scorer.score_arrow(targets, preds),
    }
    for run in contenders.values():
        run()  # imports pyarrow, builds the code-point table
    times = interleaved(contenders, repeats)
    base = times["score_batch(columnar=True)"]
    print(f"score_arrow on {size} pairs, {', '.join(TYPES)}")
    for name, seconds in times.items():
        print(f"    {name:28s} {seconds * 1000:9.1f} ms  {seconds / base:7.2f}x the time")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--arrow-pairs", type=int, default=100_000)
    add_common_options(parser)
    args = parser.parse_args()
    header(args)
    if args.tiny:
        args.repeats, args.arrow_pairs = 1, 32
        rows = [{"target": t, "prediction": p} for t, p in synthetic_pairs(8, 70)]
    else:
        rows = read_jsonl(find_data_dir(args.data_dir) / "en_scitldr_test.jsonl")
    predictions = [row["prediction"] for row in rows]
    references = [row["target"] for row in rows]
    bench_compute(predictions, references, args.repeats, args.tiny)
    bench_arrow(predictions, references, args.arrow_pairs, args.repeats)


if __name__ == "__main__":
    main()

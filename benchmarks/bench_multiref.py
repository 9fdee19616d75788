"""Several references: each ``score_multi`` mode and ``metrics.compute``'s
``accumulate``, against scoring the same pairs one by one.

    python benchmarks/bench_multiref.py [--data-dir DIR] [--records 300] [--repeats 7]
                                        [--implementation python] [--tiny]

Each SciTLDR prediction gets three references (its TLDR and the next two
records'), four types (rouge1, rouge2, rougeL, rougeLsum).  Per plan (the
fused compiled plan of the ``unicode`` tokenizer; the Python plan of a
tokenizer object), the contenders are ``score`` of every (reference,
prediction) pair, the baseline, and ``score_multi`` in each mode; then
``metrics.compute`` with each ``accumulate`` against ``score_batch`` of the
flattened pairs.  Round-robin; the table gives the median per record and the
ratio to the baseline, which is what combining the references costs.
``--tiny`` runs a few generated records once.
"""

from __future__ import annotations

import argparse
from typing import Any, Callable

from _common import (
    add_common_options,
    find_data_dir,
    header,
    interleaved,
    read_jsonl,
    synthetic_pairs,
)

from kurenai import metrics
from kurenai.rouge_scorer import RougeScorer
from kurenai.tokenizers import get_tokenizer

# Not fresh text (benchmarks/_text.py): said in the header of every run.
REPEATS_TEXTS = (
    "each repeat scores the same texts again (a corpus of a few hundred pairs, "
    "or generated pairs reused): warm figures, not a first run's"
)

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
MODES = ["best", "best-recall", "average", "mean"]
Records = list[tuple[list[str], str]]


def records(data_dir: str | None, count: int) -> Records:
    """Each prediction with its own TLDR and the next two records' as references."""
    rows = read_jsonl(find_data_dir(data_dir) / "en_scitldr_test.jsonl")[: count + 2]
    return [
        ([a["target"], b["target"], c["target"]], a["prediction"])
        for a, b, c in zip(rows, rows[1:], rows[2:])
    ]


def tiny_records() -> Records:
    pairs = synthetic_pairs(6, 40)
    return [([pairs[i][0], pairs[i + 1][0], pairs[i + 2][0]], pairs[i][1]) for i in range(4)]


class PythonPlanTokenizer:
    """The ``unicode`` tokenizer as an object of another class: its scorer runs
    the Python plan (the compiled scan serves only the classes that declare it)."""

    def __init__(self) -> None:
        self._tokenizer = get_tokenizer("unicode")

    def tokenize(self, text: str) -> list[str]:
        return self._tokenizer.tokenize(text)


def report(title: str, times: dict[str, float], base: str, count: int) -> None:
    print(title)
    for name, seconds in times.items():
        ratio = seconds / times[base]
        print(f"    {name:32s} {seconds / count * 1e6:9.1f} us/record  {ratio:5.2f}x")


def bench_modes(data: Records, repeats: int) -> None:
    for label, tokenizer in (("fused plan", "unicode"), ("Python plan", PythonPlanTokenizer())):
        scorer = RougeScorer(TYPES, tokenizer=tokenizer)  # type: ignore[arg-type]
        contenders = mode_contenders(scorer, data)
        for run in contenders.values():
            run()  # warm-up
        report(f"{label}, {len(data)} records x 3 references", interleaved(contenders, repeats),
               "score per pair (baseline)", len(data))  # fmt: skip


def mode_contenders(scorer: RougeScorer, data: Records) -> dict[str, Callable[[], Any]]:
    """``score`` of every pair (the baseline), then ``score_multi`` per mode."""

    def each_pair() -> None:
        for references, prediction in data:
            for reference in references:
                scorer.score(reference, prediction)

    def multi(mode: str) -> Callable[[], Any]:
        return lambda: [scorer.score_multi(refs, pred, mode) for refs, pred in data]

    contenders: dict[str, Callable[[], Any]] = {"score per pair (baseline)": each_pair}
    contenders.update({f"score_multi({mode})": multi(mode) for mode in MODES})
    return contenders


def bench_metrics(data: Records, repeats: int) -> None:
    predictions = [prediction for _, prediction in data]
    references = [refs for refs, _ in data]
    flat_targets = [reference for refs in references for reference in refs]
    flat_predictions = [prediction for refs, p in data for prediction in [p] * len(refs)]
    scorer = RougeScorer(TYPES, tokenizer="unicode")
    contenders: dict[str, Callable[[], Any]] = {
        "score_batch of the pairs (baseline)": lambda: scorer.score_batch(
            flat_targets, flat_predictions, columnar=True
        ),
        **{
            f"compute(accumulate={mode!r})": (
                lambda mode=mode: metrics.compute(
                    predictions, references, TYPES, use_aggregator=False, accumulate=mode
                )
            )
            for mode in ("best", "avg")
        },
    }
    for run in contenders.values():
        run()
    report("kurenai.metrics.compute, use_aggregator=False", interleaved(contenders, repeats),
           "score_batch of the pairs (baseline)", len(data))  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir")
    parser.add_argument("--records", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=7)
    add_common_options(parser)
    args = parser.parse_args()
    header(args)
    data = tiny_records() if args.tiny else records(args.data_dir, args.records)
    repeats = 1 if args.tiny else args.repeats
    bench_modes(data, repeats)
    bench_metrics(data, repeats)


if __name__ == "__main__":
    main()

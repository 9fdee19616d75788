"""Several references: each ``score_multi`` mode and ``metrics.compute``'s
``accumulate``, against scoring the same pairs one by one.

    python benchmarks/bench_multiref.py [--records 100] [--repeats 7]
                                        [--implementation python] [--tiny]

Each prediction gets three references, four types (rouge1, rouge2, rougeL,
rougeLsum).  A round is ``--records`` records of new text (Faker's English
with the ``bench`` extra, ~65 words a text, shaped as SciTLDR's:
``benchmarks/_text.py``), no text in two rounds or twice in one; every
contender is a first run on it, with a scorer made anew for it, untimed (no
interning table or sentence cache outlives a round or passes from one
contender to the next).  Per plan (the fused compiled plan of the ``unicode``
tokenizer; the Python plan of a tokenizer object), the contenders are
``score`` of every (reference, prediction) pair, the baseline, and
``score_multi`` in each mode; then ``metrics.compute`` with each
``accumulate`` against ``score_batch`` of the flattened pairs.  Contenders
take turns going first; the table gives the median over ``--repeats`` rounds
per record and the ratio to the baseline, which is what combining the
references costs.  ``--tiny`` runs a few records once.
"""

from __future__ import annotations

import argparse
from typing import Any, Callable

from _common import add_common_options, first_runs, header
from _text import fresh_pairs, fresh_texts, text_source

from kurenai import metrics
from kurenai.rouge_scorer import RougeScorer
from kurenai.tokenizers import get_tokenizer

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
MODES = ["best", "best-recall", "average", "mean"]
Records = list[tuple[list[str], str]]


def pairs(count: int, seed: int) -> tuple[list[str], list[str]]:
    """Round ``seed``'s ``count`` predictions and their first references, new
    texts no other round has (the benchmarks' fresh-text hook, which
    tests/shipping/test_benchmark_texts.py checks); :func:`records` adds two
    more references each."""
    return fresh_pairs(count, seed=1_000 * seed)


def records(count: int, seed: int) -> Records:
    """Round ``seed``'s ``count`` records: three references and a prediction."""
    predictions, first = pairs(count, seed)
    others = fresh_texts(2 * count, 1_000 * seed + 503, sentences=(3, 4))
    return [
        ([ref, others[2 * k], others[2 * k + 1]], prediction)
        for k, (ref, prediction) in enumerate(zip(first, predictions))
    ]


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


def bench_modes(rounds: list[Records]) -> None:
    for label, tokenizer in (("fused plan", "unicode"), ("Python plan", PythonPlanTokenizer)):

        def make(data: Records, tokenizer: Any = tokenizer) -> dict[str, Callable[[], Any]]:
            def scorer() -> RougeScorer:
                made = tokenizer if isinstance(tokenizer, str) else tokenizer()
                return RougeScorer(TYPES, tokenizer=made)  # type: ignore[arg-type]

            return mode_contenders(scorer, data)

        title = f"{label}, {len(rounds[0])} records x 3 references"
        report(title, first_runs(rounds, make), "score per pair (baseline)", len(rounds[0]))


def mode_contenders(
    scorer: Callable[[], RougeScorer], data: Records
) -> dict[str, Callable[[], Any]]:
    """``score`` of every pair (the baseline), then ``score_multi`` per mode,
    each on a scorer of its own."""
    base = scorer()

    def each_pair() -> None:
        for references, prediction in data:
            for reference in references:
                base.score(reference, prediction)

    def multi(mode: str) -> Callable[[], Any]:
        own = scorer()
        return lambda: [own.score_multi(refs, pred, mode) for refs, pred in data]

    contenders: dict[str, Callable[[], Any]] = {"score per pair (baseline)": each_pair}
    contenders.update({f"score_multi({mode})": multi(mode) for mode in MODES})
    return contenders


def metrics_contenders(data: Records) -> dict[str, Callable[[], Any]]:
    """``score_batch`` of the flattened pairs (a new scorer) and
    ``metrics.compute`` per ``accumulate`` (which makes its scorer per call)."""
    predictions = [prediction for _, prediction in data]
    references = [refs for refs, _ in data]
    flat_targets = [reference for refs in references for reference in refs]
    flat_predictions = [prediction for refs, p in data for prediction in [p] * len(refs)]
    scorer = RougeScorer(TYPES, tokenizer="unicode")
    return {
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


def warm_up() -> None:
    """Lazy imports paid here, on a record in no round."""
    data: Records = [(["A warm-up text.", "In no round.", "At all."], "A warm-up, in no round.")]
    for tokenizer in ("unicode", PythonPlanTokenizer()):
        for run in mode_contenders(
            lambda t=tokenizer: RougeScorer(TYPES, tokenizer=t), data
        ).values():
            run()
    for run in metrics_contenders(data).values():
        run()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100, help="records a round")
    parser.add_argument("--repeats", type=int, default=7, help="timed rounds")
    add_common_options(parser)
    args = parser.parse_args()
    header(args)
    if args.tiny:
        args.records, args.repeats = 4, 1
    rounds = [records(args.records, seed) for seed in range(args.repeats)]
    print(f"{args.repeats} rounds of {args.records} new records ({text_source()})")
    warm_up()
    bench_modes(rounds)
    title = "kurenai.metrics.compute, use_aggregator=False"
    base = "score_batch of the pairs (baseline)"
    report(title, first_runs(rounds, metrics_contenders), base, args.records)


if __name__ == "__main__":
    main()

"""rouge-score's consumers with and without ``kurenai.compat.patch_rouge_score()``,
in one run: the same code, the same numbers, the time each takes.

    python benchmarks/bench_patch.py [--data-dir DIR] [--repeats 5] [--pairs 100]
                                     [--implementation python] [--tiny]

On English pairs (lead-3 prediction, the TLDRs as reference: SciTLDR cut
into disjoint rounds of ``--pairs``, else generated: ``benchmarks/_text.py``),
each contender once patched and once not:

- ``lm-eval truthfulqa``: ``lm_eval.tasks.truthfulqa.utils.rouge`` (rouge1,
  rouge2, rougeLsum and a rouge-score ``BootstrapAggregator``; its cached
  scorer is reset per run, NumPy's global generator seeded);
- ``lm-eval cnn_dailymail``: ``calculate_rouge_scores`` (stemmed rouge1,
  rouge2, rougeL, a scorer per call);
- ``score loop``: ``rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL",
  "rougeLsum"], use_stemmer=True).score`` over the pairs, the loop of most
  evaluation scripts.

Every round is a first run: pairs no other round has, scored by consumers
made anew for it (each makes its own scorer), the two sides taking turns to
go first.  Each result is checked identical, patched and not, on a round
never timed (which also pays the imports).  Medians over ``--repeats``
rounds.  ``--tiny``: a few generated pairs, the check only.
"""

from __future__ import annotations

import argparse
import contextlib
import io
from typing import Any, Callable

import numpy as np
from _common import add_common_options, first_runs, header
from _text import english_rounds, fresh_pairs

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def pairs(count: int, seed: int) -> tuple[list[str], list[str]]:
    """Round ``seed``'s ``count`` generated English pairs (hypotheses,
    references): texts no other round has (the benchmarks' fresh-text hook,
    which tests/shipping/test_benchmark_texts.py checks)."""
    return fresh_pairs(count, seed=1_000 * seed)


def _consumers(hyps: list[str], refs: list[str]) -> dict[str, Callable[[], Any]]:
    from rouge_score import rouge_scorer

    def loop() -> Any:
        scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=True)
        return [scorer.score(ref, hyp) for hyp, ref in zip(hyps, refs)]

    runs: dict[str, Callable[[], Any]] = {"score loop": loop}
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # its warning about bert_score
            from lm_eval.tasks.cnn_dailymail import utils as cnn
            from lm_eval.tasks.truthfulqa import utils as truthfulqa
    except ImportError as error:
        print(f"lm-eval not importable ({error}): its consumers are left out")
        return runs

    def truthful() -> Any:
        truthfulqa.ROUGE_SCORER = None  # it caches the scorer it builds
        np.random.seed(0)  # the bootstrap draws from NumPy's global generator
        return truthfulqa.rouge(refs, hyps)

    return {
        "lm-eval truthfulqa": truthful,
        "lm-eval cnn_dailymail": lambda: cnn.calculate_rouge_scores(hyps, refs),
        **runs,
    }


def _patched(run: Callable[[], Any]) -> Callable[[], Any]:
    from kurenai.compat import rouge_score_patched

    def patched() -> Any:
        with rouge_score_patched():
            return run()

    return patched


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir")
    parser.add_argument("--repeats", type=int, default=5, help="rounds of first runs")
    parser.add_argument("--pairs", type=int, default=100, help="pairs a round")
    add_common_options(parser)
    args = parser.parse_args(argv)
    header(args)
    if args.tiny:
        found, source = [pairs(4, 0)], "4 generated pairs"
    else:
        found, source = english_rounds(args.data_dir, args.pairs, args.repeats + 1)
    check, rounds = found[-1], found[:-1]
    if not args.tiny:
        print(f"{source}; the last only checks the numbers: medians of {len(rounds)} rounds")
    print(f"{'consumer':24} {'rouge-score s':>14} {'patched s':>10} {'ratio':>8}  identical")
    for name, run in _consumers(*check).items():
        identical = run() == _patched(run)()
        if args.tiny:
            print(f"{name:24} {'-':>14} {'-':>10} {'-':>8}  {identical}")
            continue

        def make(texts: tuple[list[str], list[str]], name: str = name) -> dict[str, Any]:
            run = _consumers(*texts)[name]
            return {"plain": run, "patched": _patched(run)}

        times = first_runs(rounds, make)
        ratio = times["plain"] / times["patched"]
        print(
            f"{name:24} {times['plain']:14.4f} {times['patched']:10.4f} {ratio:7.1f}x  {identical}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

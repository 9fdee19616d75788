"""rouge-score's consumers with and without ``kurenai.compat.patch_rouge_score()``,
in one run: the same code, the same numbers, the time each takes.

    python benchmarks/bench_patch.py [--data-dir DIR] [--repeats 5] [--implementation python]
                                     [--tiny]

On the SciTLDR pairs (618; lead-3 prediction, the TLDRs as reference),
round-robin, each contender once patched and once not:

- ``lm-eval truthfulqa``: ``lm_eval.tasks.truthfulqa.utils.rouge`` (rouge1,
  rouge2, rougeLsum and a rouge-score ``BootstrapAggregator``; its cached
  scorer is reset per run, NumPy's global generator seeded);
- ``lm-eval cnn_dailymail``: ``calculate_rouge_scores`` (stemmed rouge1,
  rouge2, rougeL, a scorer per call);
- ``score loop``: ``rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL",
  "rougeLsum"], use_stemmer=True).score`` over the pairs, the loop of most
  evaluation scripts.

Each result is checked identical, patched and not, before timing.  Medians
over ``--repeats``.  ``--tiny``: a few generated pairs, the check only.
"""

from __future__ import annotations

import argparse
import contextlib
import io
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

# Not fresh text (benchmarks/_text.py): said in the header of every run.
REPEATS_TEXTS = (
    "each repeat scores the same texts again (a corpus of a few hundred pairs, "
    "or generated pairs reused): warm figures, not a first run's"
)

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


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
    parser.add_argument("--repeats", type=int, default=5)
    add_common_options(parser)
    args = parser.parse_args(argv)
    header(args)
    if args.tiny:
        pairs = synthetic_pairs(4, 50)
        hyps, refs = [p for _, p in pairs], [t for t, _ in pairs]
    else:
        rows = read_jsonl(find_data_dir(args.data_dir) / "en_scitldr_test.jsonl")
        hyps, refs = [r["prediction"] for r in rows], [r["target"] for r in rows]
    consumers = _consumers(hyps, refs)
    print(f"{len(hyps)} pairs; medians of {args.repeats} interleaved repeats")
    print(f"{'consumer':24} {'rouge-score s':>14} {'patched s':>10} {'ratio':>8}  identical")
    for name, run in consumers.items():
        identical = run() == _patched(run)()
        if args.tiny:
            print(f"{name:24} {'-':>14} {'-':>10} {'-':>8}  {identical}")
            continue
        times = interleaved({"plain": run, "patched": _patched(run)}, args.repeats)
        ratio = times["plain"] / times["patched"]
        print(
            f"{name:24} {times['plain']:14.4f} {times['patched']:10.4f} {ratio:7.1f}x  {identical}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

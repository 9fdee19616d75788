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

Every timed round is a first run: its pairs are new to the process (no
round repeats a text of another) and every contender is built anew for it,
untimed, so no interning table, stem or sentence cache outlives a round.  The
pairs are SciTLDR's, cut into disjoint rounds (``--data-dir``, or found as
the other scripts find it), else generated (``benchmarks/_text.py``; Faker's
English with the ``bench`` extra).  Loading (imports, the first scorer) is
timed apart, in fresh processes.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any, Callable

from _common import add_common_options, find_data_dir, first_runs, header, read_jsonl, run_child
from _text import fresh_pairs, fresh_texts, text_source
from rouge_score import rouge_scorer as rs
from rouge_score import tokenizers as rs_tokenizers

from kurenai.rouge_scorer import RougeScorer

try:
    import rouge_score_rs
except ImportError:
    rouge_score_rs = None

FOUR = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
Pairs = list[tuple[str, str]]


def pairs(count: int, seed: int) -> tuple[list[str], list[str]]:
    """Round ``seed``'s ``count`` generated pairs (predictions, references),
    ~65 words a side: texts no other round has (the benchmarks' fresh-text
    hook, which tests/shipping/test_benchmark_texts.py checks)."""
    return fresh_pairs(count, seed=1_000 * seed)


def long_pairs(count: int, seed: int) -> tuple[list[str], list[str]]:
    """Round ``seed``'s ``count`` generated pairs of ~400 words a side."""
    predictions = fresh_texts(count, 1_000 * seed + 500, sentences=(20, 26))
    references = fresh_texts(count, 1_000 * seed + 501, sentences=(20, 26))
    return predictions, references


def _as_pairs(columns: tuple[list[str], list[str]]) -> Pairs:
    predictions, references = columns
    return list(zip(references, predictions))  # (target, prediction), as score() takes them


def generated_rounds(count: int, rounds: int) -> tuple[list[Pairs], list[Pairs]]:
    """``rounds`` rounds of ``count`` ~70-token and ``count // 4`` ~400-token
    generated pairs, no text in two rounds."""
    short = [_as_pairs(pairs(count, seed)) for seed in range(rounds)]
    long = [_as_pairs(long_pairs(max(count // 4, 1), seed)) for seed in range(rounds)]
    return short, long


def scitldr_rounds(
    data_dir: str | None, count: int, rounds: int
) -> tuple[list[Pairs], list[Pairs]]:
    """SciTLDR's pairs (TLDRs against lead-3, ~70 tokens) cut into ``rounds``
    disjoint rounds of ``count`` (fewer when the 618 pairs do not go round),
    and ~400-token pairs each built from two rows no other long pair uses."""
    rows = read_jsonl(find_data_dir(data_dir) / "en_scitldr_test.jsonl")
    count = min(count, len(rows) // rounds)
    short = [
        [(r["target"], r["prediction"]) for r in rows[k * count : (k + 1) * count]]
        for k in range(rounds)
    ]
    joined = [
        (
            f"{a['abstract']}\n{a['target']}",
            f"{a['prediction']}\n{b['abstract']}\n{b['prediction']}",
        )
        for a, b in zip(rows[0::2], rows[1::2])
    ]
    per_round = len(joined) // rounds
    long = [joined[k * per_round : (k + 1) * per_round] for k in range(rounds)]
    return short, long


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
    print(f"\n{case}  ({pairs} pairs a round, median of interleaved first runs)")
    for name, seconds in medians.items():
        per_pair = seconds / pairs * 1e6
        ratio = f"{base / seconds:>9.1f}x" if base else ""
        print(f"  {name:<40}{per_pair:>10.1f} us/pair {ratio}")


def run_case(case: str, types: list[str], stem: bool, rounds: list[Pairs]) -> None:
    def make(pairs: Pairs) -> dict[str, Callable[[], object]]:
        return {name: loop(scorer, pairs) for name, scorer in contenders(types, stem).items()}

    report(case, len(rounds[0]), first_runs(rounds, make, CLOCK))


def run_batch(rounds: list[Pairs], jobs: int) -> None:
    def make(pairs: Pairs) -> dict[str, Callable[[], object]]:
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
        return runs

    report(f"batch, 4 types, {jobs} cores", len(rounds[0]), first_runs(rounds, make, CLOCK))


LOADING_SNIPPET = """
import json, time
start = time.perf_counter()
if {lib!r} == "rouge-score":
    from rouge_score.rouge_scorer import RougeScorer
else:
    from kurenai.rouge_scorer import RougeScorer
scorer = RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer={stem!r})
scorer.score("the first pair", "a first pair")
print(json.dumps({{"seconds": time.perf_counter() - start}}))
"""


def loading(stem: bool) -> dict[str, float]:
    """Wall seconds of import + first scorer + first pair, in a fresh process each."""
    found = {}
    for lib in ("kurenai", "rouge-score"):
        result = run_child(LOADING_SNIPPET.format(lib=lib, stem=stem))
        found[lib] = result.get("seconds", float("nan"))
    return found


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
    parser.add_argument(
        "--pairs",
        type=int,
        default=120,
        help="~70-token pairs a round (SciTLDR: 618 / rounds at most)",
    )
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
        short, long = generated_rounds(8, 1)
    else:
        print(f"rouge-score-rs {'present' if rouge_score_rs else 'not installed'}")
        for stem in (False, True):
            load = loading(stem)
            print(
                f"loading (import, first scorer and pair; use_stemmer={stem}; wall, fresh "
                f"process): kurenai {load['kurenai']:.3f} s, "
                f"rouge-score {load['rouge-score']:.3f} s"
            )
        try:
            short, long = scitldr_rounds(args.data_dir, args.pairs, args.repeats)
            print(f"SciTLDR's pairs in {args.repeats} disjoint rounds")
        except SystemExit:
            short, long = generated_rounds(args.pairs, args.repeats)
            print(f"SciTLDR not found: {args.repeats} rounds of new pairs ({text_source()})")
    for stem in (False, True):  # lazy imports out of the first round (the scorers are new there)
        for scorer in contenders(FOUR, stem).values():
            scorer.score("The warm-up text.", "A warm-up pair, in no round.")
    run_case("4 types (rouge1, rouge2, rougeL, rougeLsum), ~70 tokens", FOUR, False, short)
    run_case("4 types, ~400 tokens", FOUR, False, long)
    run_case("rougeL alone, ~70 tokens", ["rougeL"], False, short)
    run_case("4 types, use_stemmer=True, ~70 tokens", FOUR, True, short)
    run_batch(short, args.jobs)
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

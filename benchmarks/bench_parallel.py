"""One long pair on several cores: ROUGE-L with ``threads=1`` against ``threads=N``.

    python benchmarks/bench_parallel.py [--threads 2] [--repeats 5] [--million]
                                        [--sizes 50000,100000,300000]
                                        [--min-tokens N] [--implementation python] [--tiny]

Each pair is ``_common.zipf_pair`` of the given number of target tokens (the
prediction keeps ~71% of them): the LCS of one such pair is the whole cost of
its ROUGE-L score.  The settings take turns going first; the script prints the
medians of WALL time (what threads shorten) and their ratio, with the load
average before and after (other processes on the cores depress the ratio),
and the medians of process CPU time (all threads: what the split costs).
``--million`` adds a 1M-token pair.  ``--min-tokens`` moves the length from
which a pair's LCS may use threads (default: the built-in one), to measure
where threads start to pay: e.g. ``--sizes 2000,5000,10000,20000 --min-tokens 0``.
Every round (``--repeats`` of them) is a first run: a new pair of each size
(no text in two rounds, none in the check that the kernels agree) on scorers
made anew for it.
``--tiny`` scores 500-token pairs once, the threaded kernel forced on them.
"strip-major" is the same pair on the serial kernel that shorter pairs take
(``_lcs_length``): one thread of the wavefront kernel already beats it.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable

from _common import add_common_options, first_runs_wall_and_cpu, header, zipf_pair

import kurenai
from kurenai.rouge_scorer import RougeScorer

# A round's pair is zipf_pair(size, seed=round_seed(size, round)); round 0
# only checks that the kernels agree.
ROUND_SEED = 1_000_003


def round_seed(size: int, index: int) -> int:
    return size + ROUND_SEED * index


def pairs(count: int, seed: int) -> tuple[list[str], list[str]]:
    """Round ``seed``'s targets and predictions: ``count`` new 2,000-token
    pairs (the benchmarks' fresh-text hook, which
    tests/shipping/test_benchmark_texts.py checks; a run times one pair of
    each size a round)."""
    found = [zipf_pair(2_000, seed=round_seed(2_000 + k, seed + 1)) for k in range(count)]
    return [target for target, _ in found], [prediction for _, prediction in found]


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def set_min_tokens(tokens: int | None) -> None:
    """The length from which the compiled LCS may use threads (None: keep it)."""
    if tokens is None:
        return
    try:
        from kurenai import _lcs
    except ImportError:  # the pure twin: one thread whatever the setting
        return
    _lcs._set_parallel_min_tokens(tokens)


def strip_major(score: Callable[[], object]) -> Callable[[], object]:
    """``score`` on the serial strip-major kernel, whatever the pair's length."""

    def run() -> object:
        from kurenai import _lcs

        previous = _lcs._set_parallel_min_tokens(1 << 62)
        try:
            return score()
        finally:
            _lcs._set_parallel_min_tokens(previous)

    return run


def contenders(
    target: str, prediction: str, threads: int, compiled: bool
) -> dict[str, Callable[[], object]]:
    """Each setting scoring the pair, on scorers made anew (untimed)."""
    scorers = {n: RougeScorer(["rougeL"], threads=n) for n in (1, threads)}
    runs: dict[str, Callable[[], object]] = {
        f"{n} thread{'s' * (n > 1)}": (lambda s=scorer: s.score(target, prediction)["rougeL"])
        for n, scorer in scorers.items()
    }
    if compiled:
        runs["strip-major"] = strip_major(runs["1 thread"])
    return runs


def compare(size: int, threads: int, repeats: int, compiled: bool) -> None:
    check = contenders(*zipf_pair(size, seed=round_seed(size, 0)), threads, compiled)
    results = {name: run() for name, run in check.items()}
    if len(set(results.values())) != 1:
        raise SystemExit(f"{size} tokens: the kernels disagree: {results}")
    rounds = [zipf_pair(size, seed=round_seed(size, k + 1)) for k in range(repeats)]
    times = first_runs_wall_and_cpu(rounds, lambda pair: contenders(*pair, threads, compiled))
    wall = {name: seconds[0] for name, seconds in times.items()}
    cpu = {name: seconds[1] for name, seconds in times.items()}
    cells = f"{size:,} target tokens, a new pair each round"
    print(f"\n{cells} (medians of {repeats} rounds of first runs)")
    print(f"  {'':<12}{'wall s':>10}{'CPU s':>10}  (CPU: all threads)")
    for name in times:
        print(f"  {name:<12}{wall[name]:>10.3f}{cpu[name]:>10.3f}")
    one, many = wall["1 thread"], wall[f"{threads} threads"]
    print(f"  speedup (wall): {one / many:.2f}x   (load average now {load()})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2, help="the count set against 1")
    parser.add_argument("--repeats", type=int, default=5, help="rounds, each a new pair")
    parser.add_argument("--sizes", default="50000,100000,300000", help="target tokens a pair")
    parser.add_argument("--million", action="store_true", help="add a 1,000,000-token pair")
    parser.add_argument("--min-tokens", type=int, default=None)
    add_common_options(parser)
    args = parser.parse_args()
    header(args)
    sizes = [int(size) for size in args.sizes.split(",")] + [1_000_000] * args.million
    if args.tiny:
        sizes, args.repeats, args.min_tokens = [500], 1, 0
    set_min_tokens(args.min_tokens)
    print(f"{os.cpu_count()} cores; load average (1, 5, 15 min) {load()}")
    compiled = kurenai.IMPLEMENTATION == "compiled"
    for size in sizes:
        compare(size, args.threads, args.repeats, compiled)


if __name__ == "__main__":
    main()

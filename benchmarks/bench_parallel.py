"""One long pair on several cores: ROUGE-L with ``threads=1`` against ``threads=N``.

    python benchmarks/bench_parallel.py [--threads 2] [--repeats 5] [--million]
                                        [--sizes 50000,100000,300000]
                                        [--min-tokens N] [--implementation python] [--tiny]

Each pair is ``_common.zipf_pair`` of the given number of target tokens (the
prediction keeps ~71% of them): the LCS of one such pair is the whole cost of
its ROUGE-L score.  The two settings run interleaved; the script prints the
medians of WALL time (what threads shorten) and their ratio, with the load
average before and after (other processes on the cores depress the ratio),
and the medians of process CPU time (all threads: what the split costs).
``--million`` adds a 1M-token pair.  ``--min-tokens`` moves the length from
which a pair's LCS may use threads (default: the built-in one), to measure
where threads start to pay: e.g. ``--sizes 2000,5000,10000,20000 --min-tokens 0``.
``--tiny`` scores 500-token pairs once, the threaded kernel forced on them.
"strip-major" is the same pair on the serial kernel that shorter pairs take
(``_lcs_length``): one thread of the wavefront kernel already beats it.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable

from _common import add_common_options, header, interleaved_wall_and_cpu, zipf_pair

import kurenai
from kurenai.rouge_scorer import RougeScorer

# Not fresh text (benchmarks/_text.py): said in the header of every run.
REPEATS_TEXTS = (
    "each repeat scores the same texts again (a corpus of a few hundred pairs, "
    "or generated pairs reused): warm figures, not a first run's"
)


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


def compare(size: int, threads: int, repeats: int, compiled: bool) -> None:
    target, prediction = zipf_pair(size, seed=size)
    scorers = {n: RougeScorer(["rougeL"], threads=n) for n in (1, threads)}
    runs: dict[str, Callable[[], object]] = {
        f"{n} thread{'s' * (n > 1)}": (lambda s=scorer: s.score(target, prediction)["rougeL"])
        for n, scorer in scorers.items()
    }
    if compiled:
        runs["strip-major"] = strip_major(runs["1 thread"])
    results = {name: run() for name, run in runs.items()}
    if len(set(results.values())) != 1:
        raise SystemExit(f"{size} tokens: the kernels disagree: {results}")
    times = interleaved_wall_and_cpu(runs, repeats)
    wall = {name: seconds[0] for name, seconds in times.items()}
    cpu = {name: seconds[1] for name, seconds in times.items()}
    cells = f"{size:,} x {len(prediction.split()):,} tokens"
    print(f"\n{cells} (medians of {repeats} interleaved repeats)")
    print(f"  {'':<12}{'wall s':>10}{'CPU s':>10}  (CPU: all threads)")
    for name in runs:
        print(f"  {name:<12}{wall[name]:>10.3f}{cpu[name]:>10.3f}")
    one, many = wall["1 thread"], wall[f"{threads} threads"]
    print(f"  speedup (wall): {one / many:.2f}x   (load average now {load()})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2, help="the count set against 1")
    parser.add_argument("--repeats", type=int, default=5)
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

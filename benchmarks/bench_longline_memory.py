"""Peak memory and CPU time of ROUGE-Lsum on one very long line, against another build.

    python benchmarks/bench_longline_memory.py [--base TREE] [--sizes 100000,300000,1000000]
                                               [--repeats 3] [--implementation python] [--tiny]

One line per side is one sentence pair, so ROUGE-Lsum's union is one LCS path
of n x n tokens: the bit-vector rows it walks back through are what costs
memory.  Each measurement is one ``RougeScorer(["rougeLsum"]).score`` call in
a fresh child process (the kernels allocate with C malloc, which tracemalloc
does not see): its CPU time (``time.process_time``) and its extra peak
resident memory.  On Linux that is the peak during the call (``VmHWM``, reset
through ``/proc/self/clear_refs`` just before it) less the resident memory
before it; elsewhere the child's ``ru_maxrss`` less that of a child that
builds the same texts and scorer but does not score (this can hide what fits
under the texts' own building peak).  The *rouge1* column is the same for
``rouge1`` (this tree): the scan's own memory, which ROUGE-Lsum's includes.
``--base TREE`` runs the same children on another built kurenai tree
(``PYTHONPATH=TREE``, e.g. a worktree of ``main`` built in place),
interleaved with this one, and checks that both give the same score.

Shapes, words ``w<k>``:

* *random*: uniform over 5,000 words; the prediction keeps ~75% of the
  target's words in order and replaces the rest, then drops ~5% (a long LCS);
* *repetitive*: a 10-word phrase repeated; the prediction drops ~5% of the
  words (ties everywhere);
* *along the top*: a target of n/2 random words; the prediction is the target
  then n/2 words it lacks, so the walk back crosses half the rows at the
  target's last word (every block recomputed in full: the slowest walk).

``--tiny`` runs 2,000 and 6,000 tokens once, without ``--base``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from _common import add_common_options, header, kurenai_identity

# Said in the header of every run: the texts are crafted shapes, the same
# each repeat, but every measurement is a new process's first call.
REPEATS_TEXTS = (
    "a memory probe: each repeat scores the same crafted one-line pair of a shape and size "
    "(random, repetitive, along the top) again, each time in a new child process with a new "
    "scorer, so no cache is warm; the shape is what is measured"
)

BENCHMARKS = Path(__file__).resolve().parent
SHAPES = ("random", "repetitive", "along the top")


def texts(shape: str, n: int) -> tuple[str, str]:
    """The (target, prediction) of one line each, deterministic."""
    rng = random.Random(n)
    if shape == "random":
        target = [f"w{rng.randrange(5_000)}" for _ in range(n)]
        kept = [w if rng.random() < 0.75 else f"w{rng.randrange(5_000)}" for w in target]
        prediction = [w for w in kept if rng.random() < 0.95]
    elif shape == "repetitive":
        target = [f"w{k % 10}" for k in range(n)]
        prediction = [w for w in target if rng.random() < 0.95]
    elif shape == "along the top":
        target = [f"w{rng.randrange(5_000)}" for _ in range(n // 2)]
        prediction = target + [f"x{rng.randrange(5_000)}" for _ in range(n - n // 2)]
    else:
        raise ValueError(shape)
    return " ".join(target), " ".join(prediction)


CHILD = """
import json, sys, time
sys.path.insert(0, {benchmarks!r})
from bench_longline_memory import peak_reset, status_kib, texts
from _common import kurenai_identity, peak_rss_bytes
from kurenai.rouge_scorer import RougeScorer
target, prediction = texts({shape!r}, {n!r})
scorer = RougeScorer([{kind!r}])
scorer.score("a b", "b a")
out = {{"kurenai": kurenai_identity()}}
if {score!r}:
    before = status_kib("VmRSS") if peak_reset() else None
    start = time.process_time()
    out["f"] = scorer.score(target, prediction)[{kind!r}].fmeasure
    out["cpu"] = time.process_time() - start
    if before is not None:
        out["extra_kib"] = status_kib("VmHWM") - before
out["maxrss_kib"] = peak_rss_bytes() // 1024
print(json.dumps(out))
"""


def peak_reset() -> bool:
    """Reset this process's peak resident memory (Linux); False where it cannot."""
    try:
        with open("/proc/self/clear_refs", "w") as clear:
            clear.write("5")
    except OSError:
        return False
    return True


def status_kib(field: str) -> int:
    """A memory field of /proc/self/status, in KiB."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise LookupError(field)


def child(tree: Path, shape: str, n: int, score: bool, kind: str = "rougeLsum") -> dict[str, Any]:
    """One fresh interpreter importing kurenai from ``tree`` only."""
    code = CHILD.format(benchmarks=str(BENCHMARKS), shape=shape, n=n, score=score, kind=kind)
    env = {**os.environ, "PYTHONPATH": str(tree)}
    with tempfile.TemporaryDirectory() as neutral:
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, cwd=neutral, env=env
        )
    if out.returncode:
        lines = out.stderr.strip().splitlines() or ["no output"]
        raise SystemExit(f"child on {tree} failed: {lines[-1]}")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    if Path(result["kurenai"]["file"]).parent != tree.resolve():
        raise SystemExit(f"a child meant for {tree} imported {result['kurenai']['file']}")
    return result


def measure(trees: dict[str, Path], shape: str, n: int, repeats: int) -> dict[str, Any]:
    """Extra peak MiB and median CPU seconds per tree, children interleaved."""
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
    for k in range(repeats):
        order = list(trees) if k % 2 == 0 else list(reversed(trees))
        for name in order:
            runs[name].append(child(trees[name], shape, n, score=True))
    out: dict[str, Any] = {}
    for name, tree in trees.items():
        if all("extra_kib" in run for run in runs[name]):
            extra = [run["extra_kib"] for run in runs[name]]
        else:
            floor = child(tree, shape, n, score=False)["maxrss_kib"]
            extra = [run["maxrss_kib"] - floor for run in runs[name]]
        scores = {run["f"] for run in runs[name]}
        out[name] = {
            "mib": statistics.median(extra) / 1024,
            "cpu": statistics.median(run["cpu"] for run in runs[name]),
            "f": scores.pop() if len(scores) == 1 else None,
        }
    floor = child(trees["this"], shape, n, score=True, kind="rouge1")
    out["floor"] = floor.get("extra_kib", floor["maxrss_kib"]) / 1024
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_options(parser)
    parser.add_argument("--base", type=Path, help="another built kurenai tree to compare with")
    parser.add_argument("--sizes", default="100000,300000,1000000", help="tokens per line")
    parser.add_argument("--shapes", default=",".join(SHAPES), help="a comma-separated subset")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    header(args)
    here = Path(kurenai_identity()["file"]).parent
    trees = {"this": here}
    sizes = [int(size) for size in args.sizes.split(",")]
    repeats = args.repeats
    if args.tiny:
        sizes, repeats, args.base = [2_000, 6_000], 1, None
    if args.base is not None:
        trees = {"base": args.base.resolve(), "this": here}
    print(f"trees: {', '.join(f'{name} = {tree}' for name, tree in trees.items())}")
    names = list(trees)
    columns = " | ".join(f"{name} MiB | {name} CPU" for name in names)
    ratios = " | this / base MiB | this / base CPU" if "base" in trees else ""
    print(f"\n| shape | tokens per side | rouge1 MiB | {columns}{ratios} |")
    print("|---" * (3 + 2 * len(names) + (2 if ratios else 0)) + "|")
    for shape in args.shapes.split(","):
        for n in sizes:
            result = measure(trees, shape, n, repeats)
            cells = " | ".join(f"{result[t]['mib']:.1f} | {result[t]['cpu']:.2f} s" for t in names)
            if ratios:
                base, this = result["base"]["f"], result["this"]["f"]
                same = base is not None and base == this
                cells += (
                    f" | {result['this']['mib'] / max(result['base']['mib'], 0.1):.2f}×"
                    f" | {result['this']['cpu'] / max(result['base']['cpu'], 1e-6):.2f}×"
                )
                if not same:
                    cells += " | scores differ: failed"
            print(f"| {shape} | {n:,} | {result['floor']:.1f} | {cells} |", flush=True)


if __name__ == "__main__":
    main()

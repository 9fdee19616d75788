"""Two builds of kurenai side by side: every row of other benchmark scripts, before vs after.

    python benchmarks/bench_builds.py --before DIR [--after DIR] [--rounds 5]
                                      [--script "bench_rouge.py --clock cpu" ...]
                                      [--implementation python] [--tiny]

``DIR`` is a source tree with its extension built in place (``python setup.py
build_ext --inplace``), e.g. a ``git worktree`` of the commit to compare with;
``--after`` defaults to the tree this script imports.  Each round runs every
script once per tree, the trees in alternating order (so a drift of the load
hits both), each run in a fresh process with ``PYTHONPATH`` set to its tree and
a neutral working directory; the header each run prints must name that tree.
A ``--script`` value is a script of this folder and its own options (default:
``bench_floor.py`` and ``bench_rouge.py --clock cpu``).
Every timed row the scripts print (``us/pair`` or ``s``) is collected per tree;
a row of the report gives the median over rounds before and after, and the
median over rounds of after / before within the round.  Rows of other
libraries (rouge-score, the RapidFuzz floor) time the same code in both trees:
their ratios show how much the machine's noise moves a ratio.
``--tiny`` compares this tree with itself on ``bench_floor.py --tiny``, once.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import add_common_options, header

# Not fresh text (benchmarks/_text.py): said in the header of every run.
REPEATS_TEXTS = "times kurenai's builds and installs, not scoring"

HERE = Path(__file__).resolve().parent
ROW = re.compile(r"^  (?P<name>\S.*?)\s{2,}(?P<value>[0-9.]+) (?P<unit>us/pair|s)\b")
Rows = dict[tuple[str, str, str], float]  # (script, case, row) -> value


def parse_rows(script: str, output: str) -> Rows:
    """The timed rows of one run's output, keyed by the case heading above them."""
    rows: Rows = {}
    case = ""
    for line in output.splitlines():
        if line.startswith("times:"):  # a note of the script, not a case
            continue
        if line and not line.startswith(" "):
            case = re.sub(r"\s{2,}\(.*$", "", line.strip())
            continue
        match = ROW.match(line)
        if match:
            name = f"{match['name'].strip()} [{match['unit']}]"
            rows[(script, case, name)] = float(match["value"])
    return rows


def run_script(tree: Path, command: str, extra: list[str]) -> Rows:
    """One run of ``benchmarks/<script> [options]`` importing the kurenai of ``tree``."""
    script, *options = shlex.split(command)
    env = {**os.environ, "PYTHONPATH": str(tree)}
    with tempfile.TemporaryDirectory() as neutral:
        out = subprocess.run(
            [sys.executable, str(HERE / script), *options, *extra],
            capture_output=True,
            text=True,
            cwd=neutral,
            env=env,
        )
    if out.returncode:
        raise SystemExit(f"{script} failed on {tree}:\n{out.stderr}")
    first = out.stdout.splitlines()[0] if out.stdout else ""
    if f"at {tree / 'kurenai'}:" not in first:
        raise SystemExit(f"{script} on {tree} timed another kurenai: {first}")
    return parse_rows(script, out.stdout)


def compare(trees: dict[str, Path], scripts: list[str], extra: list[str], rounds: int) -> None:
    runs: dict[str, list[Rows]] = {name: [] for name in trees}
    for k in range(rounds):
        order = list(trees) if k % 2 == 0 else list(trees)[::-1]
        for name in order:
            merged: Rows = {}
            for script in scripts:
                merged.update(run_script(trees[name], script, extra))
            runs[name].append(merged)
        print(f"round {k + 1}/{rounds} done", file=sys.stderr, flush=True)
    report(runs["before"], runs["after"])


def report(before: list[Rows], after: list[Rows]) -> None:
    keys = [key for key in before[0] if all(key in run for run in before + after)]
    print(f"\n{len(before)} rounds; medians over rounds, ratio = median of after/before")
    print(f"  {'row':<62}{'before':>11}{'after':>11}{'ratio':>8}")
    case = None
    for key in keys:
        script, heading, row = key
        if (script, heading) != case:
            case = (script, heading)
            print(f"{script}: {heading}")
        old = statistics.median(run[key] for run in before)
        new = statistics.median(run[key] for run in after)
        ratios = [a[key] / b[key] if b[key] else float("nan") for b, a in zip(before, after)]
        print(f"  {row:<62}{old:>11.4g}{new:>11.4g}{statistics.median(ratios):>8.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="the tree to compare with")
    parser.add_argument("--after", type=Path, help="default: the tree this script imports")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--script", action="append", help="a script and its options (repeat)")
    add_common_options(parser)
    args = parser.parse_args()
    identity = header(args)
    here = Path(identity["file"]).parent
    extra = ["--implementation", args.implementation]
    scripts = args.script or ["bench_floor.py", "bench_rouge.py --clock cpu"]
    if args.tiny:
        args.before = args.after = here
        args.rounds, scripts, extra = 1, ["bench_floor.py"], [*extra, "--tiny"]
    if args.before is None:
        parser.error("--before is required (or --tiny)")
    trees = {"before": args.before.resolve(), "after": (args.after or here).resolve()}
    print(f"before: {trees['before']}\nafter:  {trees['after']}")
    compare(trees, scripts, extra, args.rounds)


if __name__ == "__main__":
    main()

"""The command line's throughput on many short records, against score_batch.

Generates short synthetic pairs (5 to 20 Zipf-distributed words; the
prediction keeps about 75% of its target's words), new ones each round,
writes them as two line files and as one JSONL file, and runs in fresh
processes, round-robin (every run a first run: a new process, new texts):

- ``RougeScorer.score_batch(columnar=True)`` on the same lists, read before
  its clock starts;
- the command line (``kurenai.cli.main``, its import excluded: timed inside
  the child) from each input form (two line files, JSONL) to CSV and JSONL.

For each size it prints the median wall seconds, records/s, the share of
score_batch's throughput (wall, and CPU time: steadier on shared cores) and
each child's peak RSS (its own ``VmHWM``, read as it ends; ``os.wait4``'s
where there is no ``/proc``: on Linux that one starts from the parent's size
at the fork), so that memory can be seen flat in the record count.  Types rouge1, rouge2, rougeL;
one core (``--jobs 1``, score_batch's ``n_jobs=1``).  ``--tiny`` runs a few
thousand records once.

    python benchmarks/bench_cli_throughput.py [--records 100000,1000000]
                                              [--repeats N] [--implementation python] [--tiny]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from _common import add_common_options, header, kurenai_identity, maxrss_bytes

TYPES = "rouge1,rouge2,rougeL"
INPUTS = {"two line files": "text", "JSONL": "jsonl"}
OUTPUTS = ("csv", "jsonl")
SCORE_BATCH = "score_batch(columnar=True), in memory"

_CLI_CHILD = """
import json, time
start = time.perf_counter()
from kurenai import cli
imported, cpu = time.perf_counter(), time.process_time()
code = cli.main(ARGV)
done, cpu = time.perf_counter(), time.process_time() - cpu
from _common import kurenai_identity, own_peak_kb
print(json.dumps({"seconds": done - imported, "cpu": cpu, "import": imported - start,
                  "code": code, "kurenai": kurenai_identity(), "peak_kb": own_peak_kb()}))
"""
_BATCH_CHILD = """
import json, time
from kurenai.rouge_scorer import RougeScorer
with open(TARGETS, encoding="utf-8") as t, open(PREDICTIONS, encoding="utf-8") as p:
    targets, predictions = t.read().split("\\n")[:-1], p.read().split("\\n")[:-1]
scorer = RougeScorer(TYPES.split(","))
start, cpu = time.perf_counter(), time.process_time()
scorer.score_batch(targets, predictions, columnar=True)
seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
from _common import kurenai_identity, own_peak_kb
print(json.dumps({"seconds": seconds, "cpu": cpu, "code": 0, "kurenai": kurenai_identity(),
                  "peak_kb": own_peak_kb()}))
"""


def main() -> None:
    options = _options()
    header(options)
    sizes = [2_000, 20_000] if options.tiny else [int(n) for n in options.records.split(",")]
    repeats = 1 if options.tiny else options.repeats
    print(f"short synthetic records, new each round, types {TYPES}, one core, {repeats} rounds")
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            rounds = []
            for seed in range(repeats):
                folder = Path(tmp) / f"{size}-{seed}"
                folder.mkdir()
                _write_records(folder, *pairs(size, seed))
                rounds.append(folder)
            _measure(rounds, size)


def pairs(count: int, seed: int) -> tuple[list[str], list[str]]:
    """Round ``seed``'s ``count`` short pairs (predictions, targets), new to
    the round (the benchmarks' fresh-text hook, which
    tests/shipping/test_benchmark_texts.py checks at a small size; at a
    million records short texts of a small vocabulary do recur, as in data)."""
    rng = random.Random(1_000_003 * seed + 17)
    vocabulary = [f"w{rank}" for rank in range(2_000)]
    weights = list(itertools.accumulate(1 / rank**1.1 for rank in range(1, 2_001)))
    predictions, targets = [], []
    for _ in range(count):
        words = rng.choices(vocabulary, cum_weights=weights, k=rng.randint(5, 20))
        kept = [w if rng.random() < 0.75 else rng.choice(vocabulary) for w in words]
        if kept == words:  # a prediction is never its target word for word
            kept[rng.randrange(len(kept))] = f"x{rng.randrange(10**9)}"
        targets.append(" ".join(words))
        predictions.append(" ".join(kept))
    return predictions, targets


def _options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", default="100000,1000000", help="sizes, comma-separated")
    parser.add_argument("--repeats", type=int, default=3, help="interleaved repeats (median)")
    add_common_options(parser)
    return parser.parse_args()


def _write_records(folder: Path, predictions: list[str], targets: list[str]) -> None:
    """targets.txt, predictions.txt and records.jsonl in ``folder``."""
    with (
        (folder / "targets.txt").open("w", encoding="utf-8") as target_file,
        (folder / "predictions.txt").open("w", encoding="utf-8") as prediction_file,
        (folder / "records.jsonl").open("w", encoding="utf-8") as records,
    ):
        for target, prediction in zip(targets, predictions):
            target_file.write(target + "\n")
            prediction_file.write(prediction + "\n")
            records.write(json.dumps({"target": target, "prediction": prediction}) + "\n")


def _runs(folder: Path) -> dict[str, str]:
    """Each contender's child code on the records in ``folder``."""
    inputs = {
        "text": ["--target-file", "targets.txt", "--prediction-file", "predictions.txt"],
        "jsonl": ["--target-file", "records.jsonl", "--prediction-file", "records.jsonl"],
    }
    runs: dict[str, str] = {
        SCORE_BATCH: _BATCH_CHILD.replace("TARGETS", repr(str(folder / "targets.txt")))
        .replace("PREDICTIONS", repr(str(folder / "predictions.txt")))
        .replace("TYPES", repr(TYPES))
    }
    for label, fmt in INPUTS.items():
        for output in OUTPUTS:
            files = [str(folder / name) if "." in name else name for name in inputs[fmt]]
            argv = [*files, "--rouge-types", TYPES, "--quiet", "--output-format", output]
            argv += ["--output", str(folder / f"out.{output}")]
            runs[f"CLI, {label} -> {output.upper()}"] = _CLI_CHILD.replace("ARGV", repr(argv))
    return runs


def _measure(rounds: list[Path], size: int) -> None:
    names = list(_runs(rounds[0]))
    seconds: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in names}
    peaks: dict[str, int] = dict.fromkeys(names, 0)
    for folder in rounds:
        for name, code in _runs(folder).items():
            result, peak_kb = _child(code)
            seconds[name].append(result["seconds"])
            cpu[name].append(result["cpu"])
            peaks[name] = max(peaks[name], peak_kb)
    base = statistics.median(seconds[SCORE_BATCH])
    base_cpu = statistics.median(cpu[SCORE_BATCH])
    print(f"\n{size:,} records: median wall seconds (CLI: main() only), records/s, share of")
    print("score_batch's throughput (wall; CPU time), peak RSS of the process")
    for name, values in seconds.items():
        median = statistics.median(values)
        share, cpu_share = 100 * base / median, 100 * base_cpu / statistics.median(cpu[name])
        print(
            f"  {name:<40} {median:7.2f} s {size / median:10,.0f}/s {share:5.0f}%"
            f" (CPU {cpu_share:3.0f}%) {peaks[name] / 1024:7.1f} MB"
        )


def _child(code: str) -> tuple[dict[str, Any], int]:
    """Run ``code`` in a fresh interpreter importing what this one imports,
    from a neutral directory; its last line of JSON and its peak RSS in kB."""
    prelude = f"import sys\nsys.path[:] = {sys.path!r}\n"
    with tempfile.TemporaryDirectory() as neutral:
        out_path, err_path = Path(neutral) / "out", Path(neutral) / "err"
        with out_path.open("wb") as out, err_path.open("wb") as err:
            child = subprocess.Popen([sys.executable, "-c", prelude + code], cwd=neutral,
                                     stdout=out, stderr=err)  # fmt: skip
            _, status, usage = os.wait4(child.pid, 0)  # this child's own peak RSS
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode:
            raise SystemExit(f"a child failed: {err_path.read_text(errors='replace').strip()}")
        result: dict[str, Any] = json.loads(out_path.read_text().strip().splitlines()[-1])
    if result["code"] != 0 or result["kurenai"] != kurenai_identity():
        raise SystemExit(f"a child failed or timed another kurenai: {result}")
    # The child's own peak where it can read it; else wait4's, which on Linux
    # starts from this process's size at the fork.
    peak = result.get("peak_kb")
    return result, peak if peak is not None else maxrss_bytes(usage.ru_maxrss) // 1024


if __name__ == "__main__":
    main()

"""Morphological tokenizers on every core: who releases the GIL, and processes.

For each tokenizer (MeCab, Sudachi, jieba, Kiwi; the compiled ``char`` path
as the reference), on raw Japanese pairs (JSTS; KorSTS for Kiwi) repeated to
``--pairs`` pairs, interleaved in one run:

- **the GIL probe**: every text tokenized by ``tokenizer.tokenize`` on one
  thread, then split over two threads.  "cores busy" is process CPU time /
  wall time of the two-thread run: about 1.0 when the tokenizer holds the
  GIL, up to 2.0 when it releases it (less on a machine shared with other
  work: the load average is printed);
- **score_batch** (rouge1, rouge2, rougeL) with ``n_jobs=1``, ``n_jobs=2`` on
  threads (``kurenai._core.processes`` switched off: the code path before
  processes) and ``n_jobs=2`` on worker processes; the scores are checked
  identical first.  The processes' first call, which starts the workers and
  loads each one's dictionary, is timed apart ("cold"); a last row sends the
  chunks to the workers one at a time, so that its CPU seconds show what
  the processes cost beyond the work itself.

Medians of ``--repeats``: wall seconds, the speedups against ``n_jobs=1``,
and the CPU seconds of this process and of each worker (read from /proc on
Linux): on cores shared with other work the wall times stretch, and the CPU
split shows what two free cores would do (a run takes about as long as its
busiest process).
``--tiny`` runs 40 generated pairs once with ``char``, MeCab and jieba (the
quickest to load; any that is not installed is skipped), the workers forced
on.

    python benchmarks/bench_tokenizer_processes.py [--data-dir DIR] [--pairs N]
                                                   [--repeats N] [--tokenizers a,b]
                                                   [--implementation python] [--tiny]
"""

from __future__ import annotations

import argparse
import os
import pickle
import statistics
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable

from _common import (
    add_common_options,
    find_data_dir,
    header,
    interleaved_wall_and_cpu,
    read_jsonl,
)

from kurenai._core import batch as _batch
from kurenai._core import processes
from kurenai.rouge_scorer import RougeScorer
from kurenai.tokenizers import get_tokenizer

# Not fresh text (benchmarks/_text.py): said in the header of every run.
REPEATS_TEXTS = (
    "each repeat scores the same texts again (a corpus of a few hundred pairs, "
    "or generated pairs reused): warm figures, not a first run's"
)

NAMES = ["char", "mecab", "sudachi", "jieba", "kiwi"]
TINY_NAMES = ["char", "mecab", "jieba"]
TYPES = ["rouge1", "rouge2", "rougeL"]
CORPUS = {"kiwi": "ko_korsts_test.jsonl"}  # the others: ja_jsts_valid.jsonl
TINY_JAPANESE = ["猫が寝ている。", "東京都に住んでいます。", "乳母車を押した女性"]
TINY_KOREAN = ["한국어 문장을 분석합니다.", "나는 학교에 간다.", "소녀가 머리를 빗고 있다."]


@contextmanager
def threads_only() -> Iterator[None]:
    """score_batch on threads whatever the tokenizer: the path before processes."""
    spread = processes.spread
    processes.spread = lambda plan, *args: plan  # type: ignore[assignment]
    try:
        yield
    finally:
        processes.spread = spread


@contextmanager
def small_batches() -> Iterator[None]:
    """Processes even for ``--tiny``'s few pairs."""
    cold, warm = processes.COLD_MIN_PAIRS, processes.WARM_MIN_PAIRS
    processes.COLD_MIN_PAIRS = processes.WARM_MIN_PAIRS = 1
    try:
        yield
    finally:
        processes.COLD_MIN_PAIRS, processes.WARM_MIN_PAIRS = cold, warm


def pairs_of(name: str, options: argparse.Namespace) -> tuple[list[str], list[str]]:
    if options.tiny:
        words = TINY_KOREAN if name == "kiwi" else TINY_JAPANESE
        texts = [f"{words[k % len(words)]} {k}" for k in range(80)]
        return texts[::2], texts[1::2]
    rows = read_jsonl(find_data_dir(options.data_dir) / CORPUS.get(name, "ja_jsts_valid.jsonl"))
    rows = (rows * (options.pairs // len(rows) + 1))[: options.pairs]
    return [str(r["target"]) for r in rows], [str(r["prediction"]) for r in rows]


def probe(name: str, texts: list[str], repeats: int) -> None:
    tokenizer = get_tokenizer(name)
    tokenizer.tokenize(texts[0])  # load the dictionary outside the timing
    halves = [texts[: len(texts) // 2], texts[len(texts) // 2 :]]
    pool = ThreadPoolExecutor(2)

    def one() -> None:
        for text in texts:
            tokenizer.tokenize(text)

    def two() -> None:
        list(pool.map(lambda half: [tokenizer.tokenize(t) for t in half], halves))

    times = interleaved_wall_and_cpu({"1 thread": one, "2 threads": two}, repeats)
    pool.shutdown()
    (wall1, cpu1), (wall2, cpu2) = times["1 thread"], times["2 threads"]
    print(
        f"  GIL probe, tokenize x {len(texts):,}: 1 thread {wall1:.3f} s, 2 threads "
        f"{wall2:.3f} s ({wall1 / wall2:.2f}x); cores busy {cpu1 / wall1:.2f} -> "
        f"{cpu2 / wall2:.2f} ({cpu2 / wall2 / (cpu1 / wall1):.2f}x)"
    )


def compare(name: str, options: argparse.Namespace) -> None:
    targets, predictions = pairs_of(name, options)
    print(f"\n{name}: {len(targets):,} pairs (load average {_load()})")
    probe(name, targets + predictions, options.repeats)
    scorer = RougeScorer(TYPES, tokenizer=name)

    def batch(jobs: int) -> Any:
        return scorer.score_batch(targets, predictions, n_jobs=jobs)

    serial = batch(1)
    with threads_only():
        threaded = batch(2)
    start = time.perf_counter()
    in_processes = batch(2)  # starts the workers, each loads its dictionary
    cold = time.perf_counter() - start
    if not serial == threaded == in_processes:
        raise SystemExit(f"{name}: the scores differ between n_jobs=1, threads and processes")
    runs: dict[str, Callable[[], object]] = {
        "n_jobs=1": lambda: batch(1),
        "n_jobs=2, threads": lambda: _threaded(batch),
    }
    if getattr(type(scorer.tokenizer), "holds_gil", False):
        runs["n_jobs=2, processes"] = lambda: batch(2)
        # The workers' cost without their overlap: one chunk at a time.
        recipe = pickle.dumps((scorer.plan.spec, scorer.tokenizer, None, scorer.plan.threads))
        one_at_a_time = processes.ProcessPlan(scorer.plan, recipe)
        runs["processes, one at a time"] = lambda: _batch.score_pairs(
            one_at_a_time, targets, predictions, 1, -1
        )
    else:
        cold = 0.0  # never sent to processes: n_jobs=2 is the threads' row
    times = with_workers_cpu(runs, options.repeats)
    base = times["n_jobs=1"][0]
    print(f"  score_batch, scores identical; the processes' first call {cold:.2f} s")
    print(f"    {'':<26}{'wall s':>8}{'pairs/s':>10}{'speedup':>9}   CPU s: here + each worker")
    for run_name, (wall, here, workers) in times.items():
        cpu = " + ".join(f"{seconds:.2f}" for seconds in [here, *workers])
        rate = len(targets) / wall
        print(f"    {run_name:<26}{wall:8.3f}{rate:10.0f}{base / wall:8.2f}x   {cpu}")


def with_workers_cpu(
    runs: dict[str, Callable[[], object]], repeats: int
) -> dict[str, tuple[float, float, list[float]]]:
    """Per run, medians of wall seconds, this process's CPU seconds and each
    worker process's (Linux only: read from /proc; none elsewhere).  On
    free cores a run's wall time is about its busiest process's CPU time."""
    found: dict[str, list[tuple[float, float, list[float]]]] = {name: [] for name in runs}
    for _ in range(repeats):
        for name, run in runs.items():
            workers = worker_cpu()
            start, start_cpu = time.perf_counter(), time.process_time()
            run()
            wall, here = time.perf_counter() - start, time.process_time() - start_cpu
            spent = [after - before for before, after in zip(workers, worker_cpu())]
            found[name].append((wall, here, spent if any(spent) else []))
    return {
        name: (
            statistics.median(r[0] for r in rows),
            statistics.median(r[1] for r in rows),
            [statistics.median(column) for column in zip(*(r[2] for r in rows))],
        )
        for name, rows in found.items()
    }


def worker_cpu() -> list[float]:
    """CPU seconds so far of each worker process, from /proc ([] without it)."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    seconds = []
    for worker in processes._POOL._workers:
        try:
            stat = Path(f"/proc/{worker.process.pid}/stat").read_text()
        except OSError:
            return []
        fields = stat.rsplit(")", 1)[1].split()  # after the command's name
        seconds.append((int(fields[11]) + int(fields[12])) / ticks)  # utime + stime
    return seconds


def _threaded(batch: Callable[[int], Any]) -> Any:
    with threads_only():
        return batch(2)


def _load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", help="folder of the benchmark corpora")
    parser.add_argument("--pairs", type=int, default=6000, help="pairs per tokenizer")
    parser.add_argument("--repeats", type=int, default=3, help="interleaved repeats (median)")
    parser.add_argument("--tokenizers", help="comma-separated names (default: all of them)")
    add_common_options(parser)
    options = parser.parse_args()
    header(options)
    if options.tiny:
        options.repeats = 1
    print(f"{os.cpu_count()} cores")
    names = options.tokenizers.split(",") if options.tokenizers else NAMES
    for name in TINY_NAMES if options.tiny and not options.tokenizers else names:
        try:
            get_tokenizer(name)
        except ImportError as missing:
            print(f"\n{name}: skipped ({missing})")
            continue
        if options.tiny:
            with small_batches():
                compare(name, options)
        else:
            compare(name, options)
    processes.close()


if __name__ == "__main__":
    main()

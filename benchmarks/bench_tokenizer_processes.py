"""Morphological tokenizers on every core: who releases the GIL, and processes.

For each tokenizer (MeCab, Sudachi, jieba, Kiwi; the compiled ``char`` path
as the reference), on ``--pairs`` new pairs a round of raw one-sentence texts
of about 45-50 characters, twice JSTS's (Japanese: Faker's ja_JP words,
unspaced; Korean for Kiwi: sentences of Faker's ko_KR companies, jobs and
phrases), in one run:

- **the GIL probe**: every text tokenized by ``tokenizer.tokenize`` on one
  thread, then split over two threads.  "cores busy" is process CPU time /
  wall time of the two-thread run: about 1.0 when the tokenizer holds the
  GIL, up to 2.0 when it releases it (less on a machine shared with other
  work: the load average is printed);
- **score_batch** (rouge1, rouge2, rougeL) with ``n_jobs=1``, ``n_jobs=2`` on
  threads (``kurenai._core.processes`` switched off: the code path before
  processes) and ``n_jobs=2`` on worker processes; the scores are checked
  identical first.  The processes' first call, which starts the workers and
  loads each one's dictionary, is timed apart ("cold", on a round of its own
  that also checks the scores); a last row sends the chunks to the workers
  one at a time, so that its CPU seconds show what the processes cost beyond
  the work itself.

Every round is a first run: texts no other round has (the probe's rounds and
score_batch's are distinct too), on tokenizers and scorers made anew for it
(loaded untimed on a throwaway text), the contenders taking turns to go
first.  The workers, once started, stay up across rounds, as they do across
a user's batches.  Medians of ``--repeats`` rounds: wall seconds, the
speedups against ``n_jobs=1``,
and the CPU seconds of this process and of each worker (read from /proc on
Linux): on cores shared with other work the wall times stretch, and the CPU
split shows what two free cores would do (a run takes about as long as its
busiest process).
``--tiny`` runs 40 new pairs once with ``char``, MeCab and jieba (the
quickest to load; any that is not installed is skipped), the workers forced
on.

    python benchmarks/bench_tokenizer_processes.py [--pairs N]
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
    first_run_samples,
    first_runs_wall_and_cpu,
    header,
    wall_and_cpu,
)
from _text import fresh_texts, text_source

from kurenai._core import batch as _batch
from kurenai._core import processes
from kurenai.rouge_scorer import RougeScorer
from kurenai.tokenizers import get_tokenizer

NAMES = ["char", "mecab", "sudachi", "jieba", "kiwi"]
TINY_NAMES = ["char", "mecab", "jieba"]
TYPES = ["rouge1", "rouge2", "rougeL"]
KOREAN = {"kiwi"}  # the others tokenize Japanese
THROWAWAY = {"ja": "準備の文です。", "ko": "준비 문장입니다."}  # loads a dictionary, in no round


def korean_texts(count: int, seed: int) -> list[str]:
    """``count`` distinct Korean sentences of Faker's ko_KR companies, jobs
    and phrases (Faker's ko_KR lorem is Latin)."""
    from faker import Faker

    fake = Faker("ko_KR")
    fake.seed_instance(seed)
    found: dict[str, None] = {}
    while len(found) < count:
        text = f"{fake.company()}의 {fake.job()}이 {fake.catch_phrase()}을 발표했다."
        found[text] = None
    return list(found)


def texts_of(name: str, count: int, seed: int) -> list[str]:
    """``count`` new one-sentence texts in the language ``name`` tokenizes."""
    if name in KOREAN:
        return korean_texts(count, seed)
    return fresh_texts(count, seed, "ja_JP", (1, 1))


def pairs(count: int, seed: int, name: str = "mecab") -> tuple[list[str], list[str]]:
    """Round ``seed``'s ``count`` targets and predictions for tokenizer
    ``name``, texts no other round has (the benchmarks' fresh-text hook,
    which tests/shipping/test_benchmark_texts.py checks)."""
    return texts_of(name, count, 1_000 * seed), texts_of(name, count, 1_000 * seed + 7919)


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


def probe(name: str, rounds: list[list[str]]) -> None:
    pools: list[ThreadPoolExecutor] = []

    def make(texts: list[str]) -> dict[str, Callable[[], object]]:
        one_thread, two_threads = get_tokenizer(name), get_tokenizer(name)
        for tokenizer in (one_thread, two_threads):
            tokenizer.tokenize(THROWAWAY["ko" if name in KOREAN else "ja"])  # its dictionary
        halves = [texts[: len(texts) // 2], texts[len(texts) // 2 :]]
        pools.append(ThreadPoolExecutor(2))
        pool = pools[-1]
        return {
            "1 thread": lambda: [one_thread.tokenize(text) for text in texts],
            "2 threads": lambda: list(
                pool.map(lambda half: [two_threads.tokenize(t) for t in half], halves)
            ),
        }

    times = first_runs_wall_and_cpu(rounds, make)
    for pool in pools:
        pool.shutdown()
    (wall1, cpu1), (wall2, cpu2) = times["1 thread"], times["2 threads"]
    print(
        f"  GIL probe, tokenize x {len(rounds[0]):,}: 1 thread {wall1:.3f} s, 2 threads "
        f"{wall2:.3f} s ({wall1 / wall2:.2f}x); cores busy {cpu1 / wall1:.2f} -> "
        f"{cpu2 / wall2:.2f} ({cpu2 / wall2 / (cpu1 / wall1):.2f}x)"
    )


def scorer_of(name: str) -> RougeScorer:
    """A new scorer for ``name``, its dictionary loaded on a throwaway text."""
    scorer = RougeScorer(TYPES, tokenizer=name)
    scorer.score(*[THROWAWAY["ko" if name in KOREAN else "ja"]] * 2)
    return scorer


def check_and_cold(name: str, targets: list[str], predictions: list[str]) -> tuple[float, bool]:
    """The processes' first call (the workers start, each loads its
    dictionary) timed, and the scores of n_jobs=1, threads and processes
    checked identical; on a round never timed otherwise."""
    in_processes = scorer_of(name)
    start = time.perf_counter()
    found = in_processes.score_batch(targets, predictions, n_jobs=2)
    cold = time.perf_counter() - start
    serial = scorer_of(name).score_batch(targets, predictions, n_jobs=1)
    with threads_only():
        threaded = scorer_of(name).score_batch(targets, predictions, n_jobs=2)
    if not serial == threaded == found:
        raise SystemExit(f"{name}: the scores differ between n_jobs=1, threads and processes")
    return cold, bool(getattr(type(in_processes.tokenizer), "holds_gil", False))


def batch_runs(name: str, texts: tuple[list[str], list[str]]) -> dict[str, Callable[[], object]]:
    """score_batch's contenders for one round, each on a scorer made anew."""
    targets, predictions = texts
    serial, threaded, in_processes, apart = (scorer_of(name) for _ in range(4))
    runs: dict[str, Callable[[], object]] = {
        "n_jobs=1": lambda: serial.score_batch(targets, predictions, n_jobs=1),
        "n_jobs=2, threads": lambda: _threaded(threaded, targets, predictions),
    }
    if getattr(type(serial.tokenizer), "holds_gil", False):
        runs["n_jobs=2, processes"] = lambda: in_processes.score_batch(
            targets, predictions, n_jobs=2
        )
        # The workers' cost without their overlap: one chunk at a time.
        recipe = pickle.dumps((apart.plan.spec, apart.tokenizer, None, apart.plan.threads))
        one_at_a_time = processes.ProcessPlan(apart.plan, recipe)
        runs["processes, one at a time"] = lambda: _batch.score_pairs(
            one_at_a_time, targets, predictions, 1, -1
        )
    return runs


def compare(name: str, options: argparse.Namespace) -> None:
    count, repeats = options.pairs, options.repeats
    print(f"\n{name}: {count:,} new pairs a round (load average {_load()})")
    cold, holds_gil = check_and_cold(name, *pairs(count, 0, name))
    probe(name, [t + p for t, p in (pairs(count, k, name) for k in range(1, repeats + 1))])
    rounds = [pairs(count, k, name) for k in range(repeats + 1, 2 * repeats + 1)]
    times = with_workers_cpu(rounds, lambda texts: batch_runs(name, texts))
    if not holds_gil:
        cold = 0.0  # never sent to processes: n_jobs=2 is the threads' row
    base = times["n_jobs=1"][0]
    print(f"  score_batch, scores identical; the processes' first call {cold:.2f} s")
    print(f"    {'':<26}{'wall s':>8}{'pairs/s':>10}{'speedup':>9}   CPU s: here + each worker")
    for run_name, (wall, here, workers) in times.items():
        cpu = " + ".join(f"{seconds:.2f}" for seconds in [here, *workers])
        rate = count / wall
        print(f"    {run_name:<26}{wall:8.3f}{rate:10.0f}{base / wall:8.2f}x   {cpu}")


def with_workers_cpu(
    rounds: list[tuple[list[str], list[str]]],
    make: Callable[[tuple[list[str], list[str]]], dict[str, Callable[[], object]]],
) -> dict[str, tuple[float, float, list[float]]]:
    """Per run, medians over ``rounds`` (each made anew by ``make``, the
    order turning each round) of wall seconds, this process's CPU seconds
    and each worker process's (Linux only: read from /proc; none elsewhere).
    On free cores a run's wall time is about its busiest process's CPU time."""

    def measure(run: Callable[[], object]) -> tuple[float, float, list[float]]:
        workers = worker_cpu()
        wall, here = wall_and_cpu(run)
        spent = [after - before for before, after in zip(workers, worker_cpu())]
        return wall, here, spent if any(spent) else []

    found = first_run_samples(rounds, make, measure)
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


def _threaded(scorer: RougeScorer, targets: list[str], predictions: list[str]) -> Any:
    with threads_only():
        return scorer.score_batch(targets, predictions, n_jobs=2)


def _load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=6000, help="new pairs a round")
    parser.add_argument("--repeats", type=int, default=3, help="rounds of first runs (median)")
    parser.add_argument("--tokenizers", help="comma-separated names (default: all of them)")
    add_common_options(parser)
    options = parser.parse_args()
    header(options)
    if options.tiny:
        options.repeats, options.pairs = 1, 40
    print(f"{os.cpu_count()} cores; texts: {text_source()}")
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

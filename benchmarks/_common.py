"""Shared helpers of the benchmark scripts: what is measured, corpora, timing.

Every script prints :func:`header` first: the kurenai file it imported, its
implementation and how it counts bits, and it refuses to time an
implementation other than the one asked for (``--implementation``, default
``compiled``).  Child processes get the parent's ``sys.path`` and a neutral
working directory (:func:`run_child`), so they import the same kurenai.

Corpora are read from ``--data-dir``, ``$KURENAI_BENCH_DATA`` or a
``shared/data`` folder beside or above the repository or the working
directory; they are never copied into the repository.  ``--tiny`` runs a few
generated pairs instead, without timing rouge-score: a smoke test of the script.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable, TypeVar

REPO = Path(__file__).resolve().parents[1]
IMPLEMENTATION_VAR = "KURENAI_IMPLEMENTATION"

MIB = 1 << 20
T = TypeVar("T")


def maxrss_bytes(ru_maxrss: int, platform: str = sys.platform) -> int:
    """``ru_maxrss`` as ``getrusage`` gave it on ``platform``, in bytes (KiB on
    Linux and the BSDs, bytes on macOS).  The benchmarks import nothing from
    tests/: a user runs them with the package and its extra installed."""
    return ru_maxrss if platform == "darwin" else ru_maxrss * 1024


def peak_rss_bytes() -> int:
    """This process's peak resident memory so far, in bytes."""
    import resource

    return maxrss_bytes(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def add_common_options(parser: argparse.ArgumentParser) -> None:
    """``--implementation`` and ``--tiny``, shared by every benchmark script."""
    parser.add_argument(
        "--implementation",
        choices=("compiled", "python"),
        default="compiled",
        help="the kurenai implementation to time (default: compiled; any other refuses to run)",
    )
    parser.add_argument(
        "--tiny",
        action="store_true",
        help="a few generated pairs, no rouge-score timing: checks that the script still runs",
    )


def add_clock_option(parser: argparse.ArgumentParser, default: str = "wall") -> None:
    """``--clock wall|cpu``: wall-clock seconds, or this thread's CPU seconds
    (steadier on a shared machine); :func:`chosen_clock` reads it."""
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default=default,
        help="wall-clock seconds, or this thread's CPU seconds (steadier on a shared machine)"
        f" (default: {default})",
    )


def chosen_clock(args: argparse.Namespace) -> Callable[[], float]:
    """The clock ``--clock`` asks for (:func:`add_clock_option`)."""
    return time.thread_time if args.clock == "cpu" else time.perf_counter


def kurenai_identity() -> dict[str, str]:
    """The imported kurenai: version, file, implementation and bit counting."""
    import kurenai

    popcount = "n/a (pure Python)"
    if kurenai.IMPLEMENTATION == "compiled":
        from kurenai import _lcs

        popcount = getattr(_lcs, "POPCOUNT", "unknown (built before run-time POPCNT selection)")
    return {
        "version": kurenai.__version__,
        "file": str(Path(kurenai.__file__).resolve().parent),
        "implementation": kurenai.IMPLEMENTATION,
        "popcount": popcount,
    }


def header(args: argparse.Namespace) -> dict[str, str]:
    """Print what this run measures; refuse a run of the wrong implementation.

    ``--implementation python`` re-runs the script with the pure twin forced.
    """
    wanted = args.implementation
    if wanted == "python" and os.environ.get(IMPLEMENTATION_VAR) != "python":
        env = {**os.environ, IMPLEMENTATION_VAR: "python"}
        sys.stdout.flush()
        os.execve(sys.executable, [sys.executable, *sys.argv], env)
    identity = kurenai_identity()
    print(
        f"kurenai {identity['version']} at {identity['file']}: "
        f"{identity['implementation']} implementation, popcount {identity['popcount']}"
    )
    print(environment())
    repeats = getattr(sys.modules.get("__main__"), "REPEATS_TEXTS", None)
    if repeats:
        print(f"not a first run: {repeats}")
    if identity["implementation"] != wanted:
        forced = os.environ.get(IMPLEMENTATION_VAR, "")
        why = (
            f"{IMPLEMENTATION_VAR}={forced} is set"
            if forced.strip().lower() == "python"
            else "its extension does not import (build it: python setup.py build_ext --inplace)"
        )
        raise SystemExit(
            f"refusing to time kurenai's {identity['implementation']} implementation ({why}); "
            "pass --implementation python to time the pure twin on purpose"
        )
    return identity


# The packages whose versions a benchmark's figures depend on, when installed.
VERSIONED = (
    "rouge-score", "nltk", "numpy", "torch", "torchmetrics", "pytorch-ignite",
    "multilingual-rouge", "pyonmttok", "faker", "rapidfuzz", "pyspark", "Cython",
)  # fmt: skip


def environment() -> str:
    """Where this run happens: Python, platform, CPU count, load average
    (1, 5, 15 min) and the versions of the packages installed among
    :data:`VERSIONED`, on one line."""
    import platform
    from importlib.metadata import PackageNotFoundError, version

    versions = []
    for name in VERSIONED:
        try:
            versions.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            continue
    load = " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"
    return (
        f"environment: Python {platform.python_version()} on {platform.platform()}, "
        f"{os.cpu_count()} CPUs, load average {load}; {', '.join(versions)}"
    )


def run_child(code: str) -> dict[str, Any]:
    """Run ``code`` in a fresh interpreter that imports what this one imports.

    The child gets this process's ``sys.path`` and environment, and runs in a
    neutral directory, so a ``kurenai/`` folder in the working directory
    cannot shadow the one measured here.  ``code`` prints one JSON object
    last; if the child imported kurenai it must add ``kurenai_identity()``
    under "kurenai", and a different kurenai than the parent's is refused.
    """
    prelude = f"import sys\nsys.path[:] = {sys.path!r}\n"
    with tempfile.TemporaryDirectory() as neutral:
        out = subprocess.run(
            [sys.executable, "-c", prelude + code], capture_output=True, text=True, cwd=neutral
        )
    if out.returncode:
        lines = out.stderr.strip().splitlines() or ["no output"]
        return {"error": lines[-1]}
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    if "kurenai" in result and result["kurenai"] != kurenai_identity():
        raise SystemExit(f"a child process timed another kurenai: {result['kurenai']}")
    return result


def find_data_dir(explicit: str | None = None) -> Path:
    """The folder holding the benchmark corpora (JSONL files)."""
    candidates = [explicit, os.environ.get("KURENAI_BENCH_DATA")]
    for base in (REPO, Path.cwd()):
        candidates += [str(parent / "shared" / "data") for parent in (base, *base.parents)]
    for candidate in candidates:
        if candidate and (Path(candidate) / "en_scitldr_test.jsonl").is_file():
            return Path(candidate)
    raise SystemExit(
        "benchmark corpora not found: pass --data-dir or set KURENAI_BENCH_DATA "
        "to the folder holding en_scitldr_test.jsonl"
    )


def synthetic_pairs(n_pairs: int, n_tokens: int, seed: int = 0) -> list[tuple[str, str]]:
    """``n_pairs`` generated pairs of about ``n_tokens`` words (for ``--tiny``)."""
    return [zipf_pair(n_tokens, seed=seed + k, vocab=2_000) for k in range(n_pairs)]


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def zipf_pair(n_tokens: int, seed: int = 0, vocab: int = 50_000) -> tuple[str, str]:
    """A deterministic long pair: Zipf(1.1) words, ~25-word lines, and a
    prediction keeping ~75% of the target's words in order (a long LCS)."""
    rng = random.Random(seed)
    weights = [1 / (rank**1.1) for rank in range(1, vocab + 1)]
    words = rng.choices(range(vocab), weights=weights, k=n_tokens)
    target = [f"w{w}" for w in words]
    prediction = [w if rng.random() < 0.75 else f"w{rng.randrange(vocab)}" for w in target]
    prediction = [w for w in prediction if rng.random() < 0.95]
    return _lines(target, rng), _lines(prediction, rng)


def _lines(words: list[str], rng: random.Random) -> str:
    out: list[str] = []
    for i, word in enumerate(words):
        out.append(word)
        out.append("\n" if i % 25 == 24 or rng.random() < 0.01 else " ")
    return "".join(out).strip()


def interleaved(
    contenders: dict[str, Callable[[], object]],
    repeats: int,
    clock: Callable[[], float] = time.perf_counter,
    before: Callable[[], object] | None = None,
) -> dict[str, float]:
    """Median seconds of each contender, run round-robin so load drifts hit all
    (``clock``, ``before``: see :func:`interleaved_times`)."""
    times = interleaved_times(contenders, repeats, clock, before)
    return {name: statistics.median(values) for name, values in times.items()}


def interleaved_times(
    contenders: dict[str, Callable[[], object]],
    repeats: int,
    clock: Callable[[], float] = time.perf_counter,
    before: Callable[[], object] | None = None,
) -> dict[str, list[float]]:
    """Seconds of each run of each contender, round-robin: entry k of every
    list comes from round k, so rounds can be compared pair by pair.

    ``clock`` is wall-clock by default; ``time.thread_time`` counts only this
    thread's CPU time, steadier on a machine shared with other work.
    ``before`` runs before each run, untimed (``gc.collect``: one contender's
    garbage is not collected on another's time).
    """
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(repeats):
        for name, run in contenders.items():
            if before is not None:
                before()
            start = clock()
            run()
            times[name].append(clock() - start)
    return times


def first_run_samples(
    rounds: list[Any],
    make: Callable[[Any], dict[str, Callable[[], object]]],
    measure: Callable[[Callable[[], object]], T],
) -> dict[str, list[T]]:
    """Per contender, ``measure(run)`` in each of ``rounds`` of first runs
    (entry k from round k): per round, ``make`` builds every contender anew
    for that round's texts (untimed: no scorer, stem or sentence cache
    outlives a round), then each runs once, the order turning each round so
    that none always goes first; gc.collect before each run, untimed."""
    samples: dict[str, list[T]] = {}
    for index, texts in enumerate(rounds):
        runs = list(make(texts).items())
        turn = index % len(runs)
        for name, run in runs[turn:] + runs[:turn]:
            gc.collect()
            samples.setdefault(name, []).append(measure(run))
    return samples


def timed(clock: Callable[[], float]) -> Callable[[Callable[[], object]], float]:
    """A ``measure`` for :func:`first_run_samples`: the run's seconds on ``clock``."""

    def measure(run: Callable[[], object]) -> float:
        start = clock()
        run()
        return clock() - start

    return measure


def wall_and_cpu(run: Callable[[], object]) -> tuple[float, float]:
    """A ``measure`` for :func:`first_run_samples`: the run's wall and process
    CPU seconds (all threads)."""
    start, start_cpu = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - start, time.process_time() - start_cpu


def first_runs(
    rounds: list[Any],
    make: Callable[[Any], dict[str, Callable[[], object]]],
    clock: Callable[[], float] = time.perf_counter,
) -> dict[str, float]:
    """Median seconds of each contender over ``rounds`` of first runs
    (:func:`first_run_samples`)."""
    samples = first_run_samples(rounds, make, timed(clock))
    return {name: statistics.median(found) for name, found in samples.items()}


def first_runs_wall_and_cpu(
    rounds: list[Any], make: Callable[[Any], dict[str, Callable[[], object]]]
) -> dict[str, tuple[float, float]]:
    """:func:`first_runs` on two clocks: per contender, the medians of wall
    and of process CPU seconds (all threads) over ``rounds``."""
    samples = first_run_samples(rounds, make, wall_and_cpu)
    return {
        name: (statistics.median(w for w, _ in found), statistics.median(c for _, c in found))
        for name, found in samples.items()
    }


def own_peak_kb() -> int | None:
    """This process's own peak RSS in KiB (``VmHWM``: it belongs to the
    address space exec made, unlike ``ru_maxrss``, which on Linux starts
    from the forking parent's size); None without /proc."""
    try:
        with open("/proc/self/status") as lines:
            return next(int(line.split()[1]) for line in lines if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        return None


def interleaved_wall_and_cpu(
    contenders: dict[str, Callable[[], object]], repeats: int
) -> dict[str, tuple[float, float]]:
    """Per contender, the medians of wall and of process CPU seconds (all
    threads), round-robin: on cores shared with other work the wall times
    stretch, the CPU times much less; for a single-threaded contender they
    are its cost."""
    wall: dict[str, list[float]] = {name: [] for name in contenders}
    cpu: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(repeats):
        for name, run in contenders.items():
            seconds, cpu_seconds = wall_and_cpu(run)
            wall[name].append(seconds)
            cpu[name].append(cpu_seconds)
    return {n: (statistics.median(wall[n]), statistics.median(cpu[n])) for n in contenders}


def chunks(items: list[Any], size: int) -> Iterator[list[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]

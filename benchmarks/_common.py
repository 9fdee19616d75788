"""Shared helpers of the benchmark scripts: corpora, synthetic text, timing.

Corpora are read from ``--data-dir``, ``$KURENAI_BENCH_DATA`` or a
``shared/data`` folder beside or above the repository or the working
directory; they are never copied into the repository.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[1]


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


def interleaved(contenders: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """Median seconds of each contender, run round-robin so load drifts hit all."""
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(repeats):
        for name, run in contenders.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def chunks(items: list[Any], size: int) -> Iterator[list[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]

"""The shared benchmark corpora, for the tests that use them when present.

They live outside the repository (``shared/data`` beside or above it, or
``$KURENAI_BENCH_DATA``).  Where a corpus is absent (a fresh clone, an
unpacked sdist), the tests read the sample the repository ships in its place,
if it has one (``tests/data/corpora/<name>`` with ``.sample`` before the
suffix: made-up sentences of the same shape, a few dozen records), and skip
otherwise, so the suite runs anywhere.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "tests" / "data" / "corpora"


def shared_file(name: str) -> Path | None:
    """The corpus file ``name``, or its shipped sample, or None."""
    candidates = [parent / "shared" / "data" / name for parent in ROOT.parents]
    if os.environ.get("KURENAI_BENCH_DATA"):
        candidates.insert(0, Path(os.environ["KURENAI_BENCH_DATA"]) / name)
    candidates.append(sample(name))
    return next((path for path in candidates if path.is_file()), None)


def sample(name: str) -> Path:
    """Where the repository's sample of corpus ``name`` is (if it has one)."""
    stem, dot, suffix = name.rpartition(".")
    return SAMPLES / f"{stem}.sample{dot}{suffix}"


def records_or_skip(name: str) -> list[dict[str, Any]]:
    """The JSONL records of corpus ``name`` (or of its sample); skips the test
    if neither is there."""
    path = shared_file(name)
    if path is None:
        pytest.skip(f"{name} is not available (set KURENAI_BENCH_DATA)")
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]

"""The shared benchmark corpora, for the tests that use them when present.

They live outside the repository (``shared/data`` beside or above it, or
``$KURENAI_BENCH_DATA``); a test that needs one skips when it is absent, so
the suite runs anywhere.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def shared_file(name: str) -> Path | None:
    """The corpus file ``name``, or None if this machine does not have it."""
    candidates = [parent / "shared" / "data" / name for parent in ROOT.parents]
    if os.environ.get("KURENAI_BENCH_DATA"):
        candidates.insert(0, Path(os.environ["KURENAI_BENCH_DATA"]) / name)
    return next((path for path in candidates if path.is_file()), None)


def records_or_skip(name: str) -> list[dict[str, Any]]:
    """The JSONL records of corpus ``name``; skips the test if it is absent."""
    path = shared_file(name)
    if path is None:
        pytest.skip(f"{name} is not available (set KURENAI_BENCH_DATA)")
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]

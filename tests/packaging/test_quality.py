"""Linters and the type checker, run as part of the suite so CI enforces them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CHECKS = {
    "ruff": [sys.executable, "-m", "ruff", "check", "."],
    "ruff-format": [sys.executable, "-m", "ruff", "format", "--check", "."],
    "mypy": [sys.executable, "-m", "mypy"],
    "cython-lint": [
        sys.executable,
        "-m",
        "cython_lint.cython_lint",
        "kurenai/_lcs.pyx",
        "kurenai/_lcs.pxd",
        "kurenai/_fastpath.pyx",
        "kurenai/_resample.pyx",
        "kurenai/_variants.pyx",
    ],
}


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_clean(name: str) -> None:
    result = subprocess.run(CHECKS[name], cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr

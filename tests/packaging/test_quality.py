"""Linters and the type checker, run as part of the suite so CI enforces them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KURENAI = ROOT / "kurenai"

CHECKS = {
    "ruff": [sys.executable, "-m", "ruff", "check", "."],
    "ruff-format": [sys.executable, "-m", "ruff", "format", "--check", "."],
    "mypy": [sys.executable, "-m", "mypy"],
    # Every Cython source: the modules and the inline parts they cimport.
    "cython-lint": [
        sys.executable,
        "-m",
        "cython_lint.cython_lint",
        *sorted(
            str(p.relative_to(ROOT)) for ext in ("pyx", "pxd") for p in KURENAI.glob(f"*.{ext}")
        ),
    ],
}


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_clean(name: str) -> None:
    result = subprocess.run(CHECKS[name], cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr

"""Linters and the type checker, run as part of the suite so CI enforces them."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import kurenai

ROOT = Path(__file__).resolve().parents[2]
KURENAI = ROOT / "kurenai"

CHECKS = {
    "ruff": [sys.executable, "-m", "ruff", "check", "."],
    "ruff-format": [sys.executable, "-m", "ruff", "format", "--check", "."],
    "mypy": [sys.executable, "-m", "mypy"],
    # Every Cython source: the modules, their surfaces and the inline parts they cimport.
    "cython-lint": [
        sys.executable,
        "-m",
        "cython_lint.cython_lint",
        *sorted(
            str(p.relative_to(ROOT))
            for pattern in ("*.pyx", "*.pxd", "_kernels/*.pxd")
            for p in KURENAI.glob(pattern)
        ),
    ],
}


def _tool_environment() -> dict[str, str]:
    """This environment with the running interpreter's scripts first on PATH.

    cython-lint runs ``pycodestyle`` by name: under ``venv/bin/python -m pytest``
    without an activated venv, PATH would find another one, or none.
    """
    scripts = sysconfig.get_path("scripts")
    return {**os.environ, "PATH": os.pathsep.join([scripts, os.environ.get("PATH", "")])}


@pytest.mark.skipif(
    kurenai.IMPLEMENTATION != "compiled",
    reason="the sources are the same in both runs: the compiled run checks them",
)
@pytest.mark.parametrize("name", sorted(CHECKS))
def test_clean(name: str) -> None:
    environment = _tool_environment()
    result = subprocess.run(
        CHECKS[name], cwd=ROOT, env=environment, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr

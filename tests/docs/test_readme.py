"""README.md is a five-minute read whose Quick start is exactly what CI runs."""

from __future__ import annotations

import shlex
from pathlib import Path
from types import ModuleType

from ci_scripts import ci_script

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _quick_start() -> ModuleType:
    """``.ci/quick_start.py``, the script .ci/run reads the commands with."""
    return ci_script("quick_start")


def test_quick_start_is_two_commands_ci_can_run() -> None:
    first, second = _quick_start().commands(README)
    install, run = (shlex.split(part) for part in first.split(" && "))
    assert install == ["pip", "install", "-e", "."]
    assert run[:3] == ["python", "-m", "kurenai"]
    files = [run[i + 1] for i, word in enumerate(run) if word.endswith("-file")]
    assert files and all(f.startswith("examples/") and (ROOT / f).is_file() for f in files)
    assert [shlex.split(part) for part in second.split(" && ")] == [
        ["pip", "install", "-e", ".[test]"],
        ["pytest", "-n", "auto"],
    ]


def test_the_ci_script_runs_the_quick_start() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "quick_start.py" in ci and "-m venv" in ci and "git clone" in ci

"""README.md is a five-minute read whose Quick start is exactly what CI runs."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from types import ModuleType

import pytest
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
        ["pytest", "-n", "auto", "-rs"],
    ]


def test_the_ci_script_runs_the_quick_start() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "quick_start.py" in ci and "-m venv" in ci and "git clone" in ci


def test_ci_runs_the_quick_start_first_then_installs_everything() -> None:
    """CI meets the README as a newcomer does: its two commands in a bare venv
    with CI unset, before anything else is installed; then PyTorch's CPU
    build and ``test-all``, and under CI=true the tests the Quick start did
    not pass (a missing package fails them there)."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    quick_start = ci.index("python .ci/quick_start.py README.md")
    run = ci.index('bash -euo pipefail -c ". .venv/bin/activate && $command"')
    assert -1 < quick_start < run
    assert "env -u CI " in ci[quick_start:run] and "KURENAI_RECORD_PASSED=" in ci[quick_start:run]
    assert "pip install" not in ci[:run]
    assert run < ci.index('pip install -q "torch==2.13.0"') < ci.index("export CI=true")
    assert run < ci.index("python .ci/requirements.py test-all")
    assert 'KURENAI_SKIP_PASSED="$passed" pytest -n auto -rs -m ""' in ci
    everything = ci_script("requirements").requirements(_extras(), "test-all")
    assert not any(r.startswith("kurenai") for r in everything)
    assert {"pytorch-ignite>=0.5", "pyspark>=3.5", "selenium>=4.11"} <= set(everything)
    extras = _extras()
    assert any(r.startswith("kurenai[test,") for r in extras["test-all"])
    assert not any(re.match(r"(torch|pyspark|lm-eval)\b", r) for r in extras["test"])
    assert not any(re.search(r"[\[,](spark|torch|ignite)[\],]", r) for r in extras["test"])


def _extras() -> dict[str, list[str]]:
    """pyproject.toml's extras."""
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        tomllib = pytest.importorskip("tomli")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras: dict[str, list[str]] = project["optional-dependencies"]
    return extras

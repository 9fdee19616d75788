"""The record that lets CI run the README's test command first, then the rest.

``KURENAI_RECORD_PASSED=<file>`` (root conftest.py) writes the ids of the
tests that passed; ``KURENAI_SKIP_PASSED=<file>`` leaves them out of a later
run, which then runs only what the first one skipped or did not collect.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # pytest in processes

ROOT = Path(__file__).resolve().parents[1]
# A module with a test that passes and one that skips when asked.
MODULE = "tests/support/passed_record_sample.py"
_RECORD_VARIABLES = ("KURENAI_RECORD_PASSED", "KURENAI_SKIP_PASSED", "KURENAI_SAMPLE_SKIP")


def _pytest(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    # Only this record's own variables are dropped: the run keeps the rest of
    # the caller's environment (KURENAI_IMPLEMENTATION=python in the
    # pure-Python CI step, where the compiled kernels are absent on purpose).
    environment = {k: v for k, v in os.environ.items() if k not in _RECORD_VARIABLES}
    environment.pop("CI", None)
    environment["KURENAI_SAMPLE_SKIP"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:xdist", "-q", "-rs", "-m", "", *args],
        cwd=ROOT,
        env={**environment, **env},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_second_run_runs_only_what_the_first_did_not_pass(tmp_path: Path) -> None:
    record = tmp_path / "passed.txt"
    first = _pytest(MODULE, KURENAI_RECORD_PASSED=str(record))
    assert first.returncode == 0, first.stdout + first.stderr
    assert "1 passed, 1 skipped" in first.stdout
    assert record.read_text(encoding="utf-8") == f"{MODULE}::test_passes\n"
    second = _pytest(MODULE, KURENAI_SKIP_PASSED=str(record))
    assert "1 skipped, 1 deselected" in second.stdout, second.stdout
    # Negative control: without the record, both run again.
    assert "1 passed, 1 skipped" in _pytest(MODULE).stdout

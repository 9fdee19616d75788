"""Hypothesis over the public API in a ``python -X faulthandler`` process.

A segfault in the compiled path would kill pytest itself; in a child process
it is a failed test showing the fault's traceback.  The properties are in
``robustness_fuzz.py``; under ``CI`` every morphological tokenizer takes part
(their packages come with the ``test`` extra).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from robustness_fuzz import PROPERTIES
from robustness_support import NAMES, require

FUZZ = Path(__file__).resolve().parents[1] / "support" / "robustness_fuzz.py"
EXAMPLES = 200


def test_the_public_api_never_crashes_and_agrees_with_itself() -> None:
    for name in NAMES:
        require(name)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    run = subprocess.run(
        [sys.executable, "-X", "faulthandler", str(FUZZ), str(EXAMPLES)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    report = f"exit {run.returncode}\n{run.stdout}\n{run.stderr[-6000:]}"
    assert run.returncode == 0, report
    # Every property ran, each to the end.
    ran = [f"{name}: {EXAMPLES} examples passed" for name in PROPERTIES]
    assert run.stdout.splitlines() == ran, report


def test_a_crash_in_the_child_is_a_failure_with_a_traceback() -> None:
    # The harness itself: faulthandler reports a fatal signal, exit is non-zero.
    code = "import ctypes; ctypes.string_at(0)"
    run = subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", code], capture_output=True, text=True
    )
    assert run.returncode != 0
    assert "Fatal Python error" in run.stderr

"""What a test needs but the machine may lack (an extra's package, a
reference package from the package index).

Missing, the test skips, except under ``CI=true``, where it fails: CI
installs everything, so a missing package there is a broken setup.
"""

from __future__ import annotations

import os

import pytest


def missing(reason: str) -> None:
    """Skip, or fail under CI=true, for something that is not there."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason} (CI=true: this must be installed)")
    pytest.skip(reason)

"""Fixtures of the ROUGE-1.5.5 tests: the real script, when it can run.

Tests that run ROUGE-1.5.5.pl take the ``perl`` fixture: it skips them where
the script cannot run, and fails them under ``CI=true``, where the check
must happen.
"""

from __future__ import annotations

import os

import perl_rouge
import pytest


@pytest.fixture(scope="session")
def perl() -> None:
    """The real script can run here (else skip, or fail under CI)."""
    reason = perl_rouge.unavailable()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"the Perl check must run in CI: {reason}")
        pytest.skip(reason)

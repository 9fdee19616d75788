"""Two tests for tests/test_passed_record.py, which runs this file by name
(pytest collects no test from tests/support otherwise): one passes, the other
skips when that test asks (``KURENAI_SAMPLE_SKIP=1``)."""

from __future__ import annotations

import os

import pytest


def test_passes() -> None:
    # The variables are the session's: a pytest a test starts must not inherit them.
    assert "KURENAI_RECORD_PASSED" not in os.environ
    assert "KURENAI_SKIP_PASSED" not in os.environ


def test_skips_when_asked() -> None:
    assert "KURENAI_SKIP_PASSED" not in os.environ
    if os.environ.get("KURENAI_SAMPLE_SKIP") == "1":
        pytest.skip("asked to skip")

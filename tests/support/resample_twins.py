"""The bootstrap's two twins, for the tests of everything drawn through them."""

from __future__ import annotations

import pytest

from kurenai.stats import _bootstrap as _bootstrap


@pytest.fixture(
    autouse=True, params=[pytest.param("compiled", marks=pytest.mark.compiled_only), "numpy"]
)
def summing(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test of a module that imports this runs on the compiled kernel
    and on its NumPy twin."""
    if request.param == "compiled":
        from kurenai._resample import LegacyStream  # built with kurenai: never skipped

        monkeypatch.setattr(_bootstrap, "_KERNEL", LegacyStream)
    else:
        monkeypatch.setattr(_bootstrap, "_KERNEL", None)
    return str(request.param)

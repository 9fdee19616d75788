"""Shared fixtures: the suite's scorer tests run once per kernel implementation."""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType

import pytest

from kurenai import _lcs_py, rouge_scorer

try:
    from kurenai import _lcs
except ImportError:  # the compiled module is checked by test_backend
    _lcs = None  # type: ignore[assignment]

IMPLEMENTATIONS = {"compiled": _lcs, "python": _lcs_py}


@pytest.fixture(scope="module", params=sorted(IMPLEMENTATIONS), ids=lambda name: f"kernels={name}")
def kernels(request: pytest.FixtureRequest) -> Iterator[ModuleType]:
    """Each kernel implementation in turn, also wired into ``RougeScorer``."""
    module = IMPLEMENTATIONS[request.param]
    if module is None:
        pytest.skip("compiled kernels are not built")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rouge_scorer, "kernels", module)
        yield module

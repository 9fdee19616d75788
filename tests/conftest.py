"""Shared fixtures: the suite runs once per implementation of the hot path."""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType

import pytest

from kurenai import _backend, _lcs_py

try:
    from kurenai import _fastpath, _lcs
except ImportError:  # test_backend proves they are built where they must be
    _lcs = _fastpath = None  # type: ignore[assignment]

# name -> (kernels, fused text path)
BACKENDS: dict[str, tuple[ModuleType | None, ModuleType | None]] = {
    "fused": (_lcs, _fastpath),
    "compiled": (_lcs, None),
    "python": (_lcs_py, None),
}


def _use(name: str) -> Iterator[str]:
    kernels, fastpath = BACKENDS[name]
    if kernels is None:
        pytest.skip("compiled kernels are not built")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_backend, "kernels", kernels)
        patch.setattr(_backend, "fastpath", fastpath)
        yield name


@pytest.fixture(scope="module", params=["compiled", "python"], ids=lambda n: f"kernels={n}")
def kernels(request: pytest.FixtureRequest) -> Iterator[ModuleType]:
    """Each kernel module in turn (compiled ``_lcs``, pure ``_lcs_py``)."""
    for _ in _use(request.param):
        yield BACKENDS[request.param][0]  # type: ignore[misc]


@pytest.fixture(scope="module", params=sorted(BACKENDS), ids=lambda n: f"path={n}")
def backend(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each way RougeScorer can compute: fused compiled path, compiled kernels
    behind Python tokenization, pure Python."""
    yield from _use(request.param)

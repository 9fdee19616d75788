"""What a test needs but the machine may lack (an extra's package, a
reference package from the package index).

Missing, the test skips (a whole module, when called at its top level),
except under ``CI=true``, where it fails: CI installs everything, so a
missing package there is a broken setup.
"""

from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType

import pytest


def missing(reason: str) -> None:
    """Skip, or fail under CI=true, for something that is not there.

    Called at a module's top level it skips (or fails) the whole module.
    """
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason} (CI=true: this must be installed)")
    pytest.skip(reason, allow_module_level=True)


def require(*names: str, reason: str) -> tuple[ModuleType, ...]:
    """The modules ``names``, imported in order, or :func:`missing`.

    A name that imports as a namespace package (a folder on ``sys.path``
    without ``__init__.py`` that happens to share the name, not the package)
    counts as missing.  Whatever a failed attempt left in ``sys.modules`` under
    the names asked for (a shadowing folder, the submodules of a package whose
    ``__init__`` failed half-way) is removed, so that a later import elsewhere
    (SciPy looks for ``sys.modules["torch"]``) never meets half a package.
    """
    modules = []
    for name in names:
        try:
            module = importlib.import_module(name)
        except ImportError as error:
            _forget(name)
            missing(f"{reason}: {error}")
        if getattr(module, "__file__", None) is None:  # a namespace package
            _forget(name)
            missing(f"{reason}: {name!r} is only a folder {list(module.__path__)}")
        modules.append(module)
    return tuple(modules)


def _forget(name: str) -> None:
    """Drop ``name`` and its submodules from ``sys.modules``."""
    for loaded in [m for m in sys.modules if m == name or m.startswith(f"{name}.")]:
        del sys.modules[loaded]

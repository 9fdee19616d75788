"""Collection of the package's own modules, which pyproject.toml's
``--doctest-modules`` imports for their doctests, and of the docs' examples:
a module built on an extra that is not installed (``kurenai/ignite`` needs
pytorch-ignite and torch), and a page whose examples import it, are left out,
except under ``CI=true``, where CI installs every extra and a failed
import must fail the run.  (The tests' own fixtures: ``tests/conftest.py``.)
"""

from __future__ import annotations

import importlib.util
import os

# A package of kurenai (or a page whose examples import one) -> the top-level
# modules it imports when it loads.
NEEDS = {
    "kurenai/ignite": ("torch", "ignite"),
    "docs/migrate/ignite.md": ("torch", "ignite"),
}


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a broken or half-removed install
        return False


collect_ignore = [
    path
    for path, modules in NEEDS.items()
    if os.environ.get("CI", "").lower() != "true" and not all(map(_installed, modules))
]

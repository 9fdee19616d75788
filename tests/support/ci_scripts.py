"""The Python scripts of ``.ci/`` (not a package), loaded as modules by the tests."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

CI = Path(__file__).resolve().parents[2] / ".ci"


def ci_script(name: str) -> ModuleType:
    """``.ci/<name>.py`` as a module."""
    spec = importlib.util.spec_from_file_location(name, CI / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

"""No folder of the tests is named like a module that could be imported.

pytest (its default import mode) puts ``tests/`` and every folder holding a
test module on ``sys.path``, so each folder under them imports as a namespace
package of its name.  Where the real package is missing, the folder takes its
place: ``tests/torch`` once made ``import torch`` succeed without PyTorch, and
SciPy, finding that ``torch`` in ``sys.modules``, failed every correlation.
Checked here against every module this environment (the CI one has every
extra) could import, the standard library's included.
"""

from __future__ import annotations

import importlib.machinery
import importlib.metadata
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"


def importable_folders() -> list[Path]:
    """The folders that a test run makes importable by their name: those
    whose parent is ``tests/`` or holds a Python file (on ``sys.path`` then)."""
    found = []
    for folder in sorted(TESTS.rglob("*")):
        if not folder.is_dir() or folder.name.startswith((".", "__")):
            continue
        parent = folder.parent
        if parent == TESTS or any(parent.glob("*.py")):
            found.append(folder)
    return found


def _outside_repo_path() -> list[str]:
    return [
        p
        for p in sys.path
        if p and ROOT not in Path(p).resolve().parents and Path(p).resolve() != ROOT
    ]


def shadowed(names: Iterable[str]) -> dict[str, str]:
    """Each name that is also a module importable from outside the repository
    (installed, or the standard library's), with where it comes from."""
    distributions = importlib.metadata.packages_distributions()
    path = _outside_repo_path()
    standard = {*getattr(sys, "stdlib_module_names", ()), *sys.builtin_module_names}  # 3.10+
    clashes = {}
    for name in names:
        if name in standard:
            clashes[name] = "the standard library"
        elif name in distributions:
            clashes[name] = f"the distribution {', '.join(distributions[name])}"
        else:
            # A module or regular package; a bare folder (a namespace portion,
            # such as another checkout's docs/ on an editable install's path)
            # is not one: an installed namespace package has a distribution.
            spec = importlib.machinery.PathFinder.find_spec(name, path)
            if spec is not None and spec.origin is not None:
                clashes[name] = spec.origin
    return clashes


def test_no_test_folder_is_named_like_an_importable_module() -> None:
    folders = importable_folders()
    clashes = shadowed(folder.name for folder in folders)
    assert not clashes, (
        "rename these folders under tests/ (where the module is missing, the folder "
        f"imports in its place): {clashes}"
    )


def test_the_check_finds_a_clash() -> None:
    """Negative control: a standard module, an installed one (pytest's own
    dependency, ``packaging``), and a folder this suite has, are seen."""
    assert TESTS / "torch_frontends" in importable_folders()
    assert TESTS / "data" / "pickles" not in importable_folders()  # data: no module beside it
    assert set(shadowed(["json", "packaging", "pytest", "torch_frontends"])) == {
        "json",
        "packaging",
        "pytest",
    }

"""Which kurenai a run tests, and what it collects.

- In an unpacked sdist whose ``kurenai/`` is not built, with kurenai
  installed (as packagers test it), the installed package, doctests included.
- The package's own modules, which pyproject.toml's ``--doctest-modules``
  imports for their doctests, and the docs' examples: a module built on an
  extra that is not installed (``kurenai/ignite`` needs pytorch-ignite and
  torch), and a page whose examples import it, are left out, except under
  ``CI=true``, where CI installs every extra and a failed import must fail.
- The record of passed tests that lets CI run the README's test command
  first and then only the rest.

(The tests' own fixtures: ``tests/conftest.py``.)
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent


def _installed_elsewhere() -> Path | None:
    """The folder of a kurenai installed outside this tree, where the tree's
    own ``kurenai/`` is not built (an unpacked sdist, as packagers test it:
    ``pip install`` the sdist, then ``pytest`` in the unpacked tree)."""
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    if any((ROOT / "kurenai" / f"_lcs{suffix}").is_file() for suffix in suffixes):
        return None  # built in place (an editable install, build_ext --inplace): under test
    others = [p for p in sys.path if p and Path(p).resolve() != ROOT]
    spec = importlib.machinery.PathFinder.find_spec("kurenai", others)
    if spec is None or not spec.submodule_search_locations:
        return None
    found = Path(next(iter(spec.submodule_search_locations))).resolve()
    return None if found == ROOT / "kurenai" else found


def _test_the_installed_copy(installed: Path) -> None:
    """Make the run test ``installed``, not the tree's unbuilt sources.

    pytest put this folder first on ``sys.path`` (for this conftest): taken
    off, ``import kurenai`` finds the installed package, imported now so that
    it is the one every test and doctest gets.  The doctests of ``kurenai/``
    then import the installed twin of each file, which pytest would refuse as
    another file ("import file mismatch") unless told, as here, when the
    installed sources are the tree's.
    """
    sys.path[:] = [p for p in sys.path if not p or Path(p).resolve() != ROOT]
    if "" in sys.path and Path.cwd().resolve() == ROOT:  # python -m pytest
        sys.path.remove("")
    import kurenai

    assert Path(kurenai.__file__).resolve().parent == installed, kurenai.__file__
    tree = {p.relative_to(ROOT / "kurenai"): p for p in (ROOT / "kurenai").rglob("*.py")}
    same = all(
        (installed / name).is_file() and (installed / name).read_bytes() == path.read_bytes()
        for name, path in tree.items()
    )
    if same:
        os.environ["PY_IGNORE_IMPORTMISMATCH"] = "1"


INSTALLED = _installed_elsewhere()
if INSTALLED is not None:
    _test_the_installed_copy(INSTALLED)

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


# Two runs as one (.ci/run): the README's test command runs first, as a
# newcomer runs it, with KURENAI_RECORD_PASSED=<file> (a variable, so the
# command stays the README's), which writes the ids of the tests that passed;
# after CI installs every extra, the run with KURENAI_SKIP_PASSED=<that file>
# leaves those out and runs the rest: what the first run skipped, and what it
# could not collect.  With pytest-xdist the controller writes the file (it
# receives every worker's reports); each worker leaves out the same tests.
# Each variable is taken out of the environment once read: a test that runs
# pytest again (the sdist's and the build's tests) must not record into the
# file or leave out its own tests by it.
RECORD_PASSED = "KURENAI_RECORD_PASSED"
SKIP_PASSED = "KURENAI_SKIP_PASSED"


class _PassedRecorder:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.passed: list[str] = []

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "call" and report.passed and not hasattr(report, "wasxfail"):
            self.passed.append(report.nodeid)

    def pytest_sessionfinish(self) -> None:
        self.path.write_text("".join(f"{nodeid}\n" for nodeid in self.passed), encoding="utf-8")


def pytest_configure(config: pytest.Config) -> None:
    record = os.environ.pop(RECORD_PASSED, None)
    if record and not hasattr(config, "workerinput"):  # the controller, or a run without -n
        config.pluginmanager.register(_PassedRecorder(Path(record)), "kurenai-record-passed")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    skip = os.environ.pop(SKIP_PASSED, None)
    if not skip:
        return
    passed = set(Path(skip).read_text(encoding="utf-8").splitlines())
    left_out = [item for item in items if item.nodeid in passed]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if item.nodeid not in passed]

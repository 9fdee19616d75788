"""Every test that starts a process carries a marker: ``slow`` (the everyday
``pytest -m "not slow"`` leaves it to CI) and, when it installs from the
package index, ``index`` too.

Found by reading the test modules: a test starts a process when its body, a
function of its module it calls or takes as a fixture (to any depth), or a
fixture of ``PROCESS_FIXTURES`` reaches one of ``STARTS``.  A test is marked
by a decorator, its module's ``pytestmark``, or ``tests/conftest.py``'s
``SLOW_MODULES``/``SLOW_TESTS``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import conftest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
# What starts a process (or a JVM, a browser, Perl, a C compiler) in tests.
STARTS = re.compile(
    r"subprocess\.|\bPopen\b|ProcessPoolExecutor|multiprocessing|sys\.executable"
    r"|\brun_script\(|\bperl_words\(|\bstarted\(|\bsdist_data\("
    r"|\bchromium\(|webdriver\.|\.getOrCreate\("  # a browser, a Spark JVM
)
# What installs from the package index (tests/compat/compat_references.py).
INSTALLS = re.compile(r"\bstarted\(|\bsdist_data\(")
# Fixtures defined outside the module that start processes.
PROCESS_FIXTURES = {"perl": "runs ROUGE-1.5.5.pl", "spark": "starts a Spark JVM"}


def _marks(decorators: list[ast.expr]) -> set[str]:
    """The ``pytest.mark.<name>`` names among ``decorators`` (or a list of them)."""
    found = set()
    for node in decorators:
        for sub in ast.walk(node):
            if (
                isinstance(sub, ast.Attribute)
                and isinstance(sub.value, ast.Attribute)
                and sub.value.attr == "mark"
            ):
                found.add(sub.attr)
    return found


def _module_marks(tree: ast.Module) -> set[str]:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets
        ):
            return _marks([node.value])
    return set()


def _fixtures_used(function: ast.FunctionDef) -> set[str]:
    used = {a.arg for a in function.args.args}
    for decorator in function.decorator_list:
        if isinstance(decorator, ast.Call) and getattr(decorator.func, "attr", "") == "usefixtures":
            used |= {a.value for a in decorator.args if isinstance(a, ast.Constant)}
    return used


class _NoText(ast.NodeTransformer):
    def visit_Constant(self, node: ast.Constant) -> ast.Constant:
        return ast.Constant("") if isinstance(node.value, str) else node


def _code(function: ast.FunctionDef) -> str:
    """``function``'s code without its comments and string literals (a
    docstring or a message may name a process without starting one)."""
    return ast.unparse(_NoText().visit(ast.parse(ast.unparse(function))))


def _reaches(tree: ast.Module, pattern: re.Pattern[str]) -> dict[str, bool]:
    """Per function of the module: whether it, or what it calls or takes as
    a fixture from the module, matches ``pattern``."""
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    own = {name: bool(pattern.search(_code(f))) for name, f in functions.items()}
    calls = {
        name: {n.id for n in ast.walk(f) if isinstance(n, ast.Name) and n.id in functions}
        | (_fixtures_used(f) & set(functions))
        for name, f in functions.items()
    }
    reaching = {name for name, hit in own.items() if hit}
    grown = True
    while grown:
        before = len(reaching)
        reaching |= {name for name, called in calls.items() if called & reaching}
        grown = len(reaching) != before
    return {name: name in reaching for name in functions}


def unmarked(relative: str, source: str) -> list[str]:
    """The tests of module ``relative`` that start a process without ``slow``
    (or ``index``), and those that install from the index without ``index``."""
    tree = ast.parse(source)
    starts = _reaches(tree, STARTS)
    installs = _reaches(tree, INSTALLS)
    module_marks = _module_marks(tree)
    found = []
    for node in tree.body:
        if not (isinstance(node, ast.FunctionDef) and node.name.startswith("test")):
            continue
        marks = module_marks | _marks(node.decorator_list)
        if relative in conftest.SLOW_MODULES or f"{relative}::{node.name}" in conftest.SLOW_TESTS:
            marks.add("slow")
        process = starts[node.name] or bool(_fixtures_used(node) & set(PROCESS_FIXTURES))
        if process and not marks & {"slow", "index"}:
            found.append(f"{relative}::{node.name} starts a process: mark it slow")
        if installs[node.name] and "index" not in marks:
            found.append(f"{relative}::{node.name} installs from the package index: mark it index")
    return found


def test_every_test_that_starts_a_process_is_marked() -> None:
    found = []
    for path in sorted(TESTS.rglob("test_*.py")):
        relative = path.relative_to(ROOT).as_posix()
        found += unmarked(relative, path.read_text(encoding="utf-8"))
    assert not found, "\n".join(found)


def test_the_listed_tests_exist() -> None:
    # A renamed test would silently lose its marker.
    for module in conftest.SLOW_MODULES:
        assert (ROOT / module).is_file(), module
    for test in conftest.SLOW_TESTS:
        module, name = test.split("::")
        assert f"def {name}(" in (ROOT / module).read_text(encoding="utf-8"), test


def test_the_finder_sees_a_process_through_a_helper_and_a_fixture() -> None:
    # The negative control: unmarked process starters are reported.
    source = (
        "import subprocess, pytest\n"
        "def _run():\n    return subprocess.run(['true'])\n"
        "def helper():\n    return _run()\n"
        "@pytest.fixture\ndef served():\n    return started('rouge_101')\n"
        "def test_direct():\n    helper()\n"
        "def test_fixture(served):\n    pass\n"
        "@pytest.mark.usefixtures('perl')\ndef test_perl():\n    pass\n"
        "@pytest.mark.slow\ndef test_marked():\n    helper()\n"
        "def test_pure():\n    assert 1\n"
    )
    assert unmarked("tests/x.py", source) == [
        "tests/x.py::test_direct starts a process: mark it slow",
        "tests/x.py::test_fixture starts a process: mark it slow",
        "tests/x.py::test_fixture installs from the package index: mark it index",
        "tests/x.py::test_perl starts a process: mark it slow",
    ]

"""The package's layers: every import follows CONTRIBUTING.md's layer table, no
import cycles anywhere in the tree, and pickles made by kurenai 0.2.0 (the flat
layout) load and score as fresh objects do."""

from __future__ import annotations

import ast
import pickle
import pickletools
import re
from pathlib import Path

import pytest

import kurenai
from kurenai.metrics import Rouge
from kurenai.rouge_scorer import RougeScorer

PACKAGE = Path(kurenai.__file__).resolve().parent
ROOT = PACKAGE.parent  # where kurenai is imported from: a checkout, or an install
CHECKOUT = Path(__file__).resolve().parents[1]  # where the tests and the guide are
PICKLES = CHECKOUT / "tests" / "data" / "pickles"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


# The compiled modules' sources too: their Python-level imports run when they load.
MODULES = {_module_name(p): p for pattern in ("*.py", "*.pyx") for p in PACKAGE.rglob(pattern)}


def _target(module: str, name: str) -> str:
    """What ``from module import name`` depends on: the submodule if ``name``
    is one, else the module."""
    return f"{module}.{name}" if f"{module}.{name}" in MODULES else module


def _python_imports(text: str) -> set[str]:
    """Every kurenai module a Python source imports, at any depth (an import
    inside a function knots the layers as much as one at the top), and every
    ``import_module("kurenai...")`` of a literal name."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] == "kurenai":
                found.update(_target(node.module, alias.name) for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "kurenai")
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", None)) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and str(node.args[0].value).startswith("kurenai.")
        ):
            found.add(str(node.args[0].value))
    return found


def _cython_imports(text: str) -> set[str]:
    """The Python-level imports of a Cython source (``cimport`` is compile
    time: the inline parts, not modules)."""
    found: set[str] = set()
    for module, names in re.findall(r"^\s*from\s+(kurenai[\w.]*)\s+import\s+(.+)$", text, re.M):
        found.update(_target(module, n.split()[0]) for n in names.strip("()").split(","))
    found.update(re.findall(r"^\s*import\s+(kurenai[\w.]*)", text, re.M))
    return found


def _imports(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    found = _cython_imports(text) if path.suffix == ".pyx" else _python_imports(text)
    return {name for name in found if name in MODULES}


GRAPH = {name: _imports(path) - {name} for name, path in MODULES.items()}


def test_the_tree_is_walked() -> None:
    assert {"kurenai.cli._args", "kurenai._core.plan", "kurenai.spark._worker"} <= set(GRAPH)
    assert "kurenai._core.names" in GRAPH["kurenai.spark._worker"]
    # A function-level import, a compiled module's import, an import_module of a literal.
    assert "kurenai._core.python_plan" in GRAPH["kurenai._core.choice"]
    assert {"kurenai._data.codes", "kurenai.tokenizers._unicode"} <= GRAPH["kurenai._fused"]
    assert "kurenai._lcs_py" in GRAPH["kurenai._backend"]


def test_no_import_cycle_in_the_package() -> None:
    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, " -> ".join([*path, module])
        for imported in sorted(GRAPH.get(module, ())):
            if imported != "kurenai":  # the root re-exports; nothing below may need it
                visit(imported, (*path, module))

    for module in sorted(GRAPH):
        visit(module, ())


def _layer_table() -> list[list[str]]:
    """CONTRIBUTING.md's layer table, top row first: each row's paths."""
    text = (CHECKOUT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text.split("## The layers", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `kurenai/")]
    return [re.findall(r"`(kurenai/[^`]*)`", row.split(" | ")[0]) for row in rows]


LAYERS = _layer_table()


def _place(module: str) -> tuple[int, str]:
    """The row of ``module`` in the table (0 the top), and its unit there: its
    folder, or the row's single files together.  The most specific entry wins
    (``kurenai/_data/codes.py`` over ``kurenai/_core/``)."""
    path = module.replace(".", "/")
    best: tuple[int, int, str] | None = None
    for row, entries in enumerate(LAYERS):
        for entry in entries:
            folder = entry.endswith("/")
            stem = entry.rstrip("/") if folder else entry.rsplit(".", 1)[0]
            if path == stem or (folder and path.startswith(stem + "/")):
                unit = stem if folder else f"files of row {row}"
                if best is None or len(stem) > best[0]:
                    best = (len(stem), row, unit)
    assert best is not None, f"{module} is in no row of CONTRIBUTING.md's layer table"
    return best[1], best[2]


def forbidden(graph: dict[str, set[str]]) -> list[str]:
    """The edges of ``graph`` the table does not allow: to a layer below, or
    within one unit, only.  ``kurenai`` itself (the root: the version, and the
    facade served on first use) is outside the table."""
    wrong = []
    for module, imported in sorted(graph.items()):
        if module == "kurenai":
            continue
        row, unit = _place(module)
        for target in sorted(imported - {"kurenai"}):
            to_row, to_unit = _place(target)
            if not (to_row > row or to_unit == unit):
                wrong.append(f"{module} -> {target}")
    return wrong


def test_the_layer_check_sees_edges_up_and_sideways() -> None:
    assert forbidden(
        {
            "kurenai.report._cli": {"kurenai.cli._io"},  # sideways, between front-end rows
            "kurenai.frames.polars": {"kurenai.spark._names"},  # sideways, one row
            "kurenai.tokenizers._unicode": {"kurenai._core.plan"},  # up
            "kurenai._data.codes": {"kurenai._core.kinds"},  # data reaching into _core
            "kurenai._backend": {"kurenai._core.python_plan"},
        }
    ) == [
        "kurenai._backend -> kurenai._core.python_plan",
        "kurenai._data.codes -> kurenai._core.kinds",
        "kurenai.frames.polars -> kurenai.spark._names",
        "kurenai.report._cli -> kurenai.cli._io",
        "kurenai.tokenizers._unicode -> kurenai._core.plan",
    ]
    assert forbidden({"kurenai.cli._args": {"kurenai.cli._sources", "kurenai._core.names"}}) == []


def test_every_import_follows_the_layer_table() -> None:
    wrong = forbidden(GRAPH)
    assert not wrong, "\n".join(wrong)


def test_the_layer_table_names_every_module_once() -> None:
    for module in MODULES:
        if module != "kurenai":
            _place(module)
    entries = [entry for row in LAYERS for entry in row]
    assert len(entries) == len(set(entries))
    for entry in entries:
        assert (ROOT / entry).exists(), entry


def _load(name: str) -> object:
    return pickle.loads((PICKLES / f"{name}.pickle").read_bytes())


PAIR = (
    "The quick brown foxes jumped. 犬が走る。\nSecond line here",
    "the quick fox jumps\nline two",
)


@pytest.mark.parametrize(
    ("name", "fresh"),
    [
        (
            "scorer_default",
            lambda: RougeScorer(["rouge1", "rougeL", "rougeLsum"], use_stemmer=True),
        ),
        ("scorer_char", lambda: RougeScorer(["rouge2", "rougeL"], tokenizer="char")),
        (
            "scorer_unicode_nfkc",
            lambda: RougeScorer(["rouge1", "rougeW", "rougeSU4"], tokenizer="unicode"),
        ),
    ],
)
def test_scorers_pickled_by_the_flat_layout_load(name: str, fresh: object) -> None:
    old = _load(name)
    assert isinstance(old, RougeScorer)
    assert old.score(*PAIR) == fresh().score(*PAIR)  # type: ignore[operator]


def test_a_metrics_rouge_pickled_by_the_flat_layout_loads() -> None:
    old = _load("metrics_rouge")
    assert isinstance(old, Rouge)
    fresh = Rouge(rouge_types=["rouge1", "rougeL"], tokenizer="char")
    assert old.compute(predictions=["犬が走る"], references=["犬は走った"]) == fresh.compute(
        predictions=["犬が走る"], references=["犬は走った"]
    )


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("tokenizer_char", {}),
        ("tokenizer_unicode", {"use_stemmer": True}),
        ("tokenizer_jieba", {}),
        ("tokenizer_mecab", {}),
    ],
)
def test_tokenizers_pickled_by_the_flat_layout_load(name: str, options: dict[str, bool]) -> None:
    from kurenai.tokenizers import get_tokenizer

    old = _load(name)
    fresh = get_tokenizer(name.split("_", 1)[1], **options)
    assert type(old) is type(fresh)
    text = "Running dogs ran; 犬が走っていた。我们在北京。"
    assert old.tokenize(text) == fresh.tokenize(text)  # type: ignore[attr-defined]


def test_the_slow_table_names_real_tests() -> None:
    """A renamed module or test must not silently leave the everyday loop slow."""
    from conftest import ROOT, SLOW_MODULES, SLOW_TESTS

    for module in SLOW_MODULES:
        assert (ROOT / module).is_file(), module
    for test in SLOW_TESTS:
        module, function = test.split("::")
        assert f"def {function}(" in (ROOT / module).read_text(encoding="utf-8"), test


def _pickled_modules(data: bytes) -> set[str]:
    """The kurenai modules a pickle names (protocol 4's STACK_GLOBAL takes the
    module as a string pushed before it; older protocols' GLOBAL as its argument)."""
    names = set()
    for opcode, argument, _ in pickletools.genops(data):
        if opcode.name == "GLOBAL":
            names.add(str(argument).split(" ")[0])
        elif isinstance(argument, str) and argument.startswith("kurenai"):
            names.add(argument)
    return {name for name in names if re.fullmatch(r"kurenai(\.\w+)*", name)}


def test_the_old_paths_are_exactly_those_the_pickles_name() -> None:
    """An alias no pickle needs keeps a dead layout importable; one missing
    breaks a pickle (the load tests above say which)."""
    from kurenai._moved import MOVED

    named = set().union(*(_pickled_modules(p.read_bytes()) for p in PICKLES.glob("*.pickle")))
    assert named - set(MODULES) == set(MOVED)
    assert set(MOVED.values()) <= set(MODULES)

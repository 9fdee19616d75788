"""The package's layers: no import cycles anywhere in the tree, and pickles
made by kurenai 0.2.0 (the flat layout) load and score as fresh objects do."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

import pytest

import kurenai
from kurenai.metrics import Rouge
from kurenai.rouge_scorer import RougeScorer

PACKAGE = Path(kurenai.__file__).resolve().parent
PICKLES = Path(__file__).resolve().parent / "data" / "pickles"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _target(module: str, name: str) -> str:
    """What ``from module import name`` depends on: the submodule if ``name``
    is one, else the module."""
    return f"{module}.{name}" if f"{module}.{name}" in MODULES else module


def _imports(path: Path) -> set[str]:
    """Every kurenai module ``path`` imports, at any depth (an import inside
    a function knots the layers as much as one at the top)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] == "kurenai":
                found.update(_target(node.module, alias.name) for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "kurenai")
    return {name for name in found if name in MODULES}


GRAPH = {name: _imports(path) - {name} for name, path in MODULES.items()}


def test_the_tree_is_walked() -> None:
    assert {"kurenai.cli._args", "kurenai._core.plan", "kurenai.spark._worker"} <= set(GRAPH)
    assert "kurenai._core.names" in GRAPH["kurenai.spark._worker"]


def test_no_import_cycle_in_the_package() -> None:
    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, " -> ".join([*path, module])
        for imported in sorted(GRAPH.get(module, ())):
            if imported != "kurenai":  # the root re-exports; nothing below may need it
                visit(imported, (*path, module))

    for module in sorted(GRAPH):
        visit(module, ())


def test_the_core_does_not_reach_up() -> None:
    """kurenai._core is below the facade and the front ends."""
    for module in (m for m in GRAPH if m.startswith("kurenai._core")):
        above = {
            m
            for m in GRAPH[module]
            if m.split(".")[1] in ("rouge_scorer", "cli", "metrics", "spark")
        }
        assert not above, f"{module} imports {above}"


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

"""Every benchmark measures a first run on fresh text, or says it does not.

A script of ``benchmarks/`` either exposes ``pairs(count, seed)`` (its
pairs of round ``seed``: predictions and references) or declares
``REPEATS_TEXTS`` (a str: why its texts repeat, printed in its header).  For
each script with ``pairs``, two rounds at a small size must hold no text
twice: within a round or across the two.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
SCRIPTS = sorted(BENCHMARKS.glob("bench_*.py"))


def declaration(source: str) -> str | None:
    """``"pairs"`` or ``"repeats"``: what the script's source declares at top
    level (a ``pairs`` function wins), or None."""
    found = None
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name == "pairs":
            return "pairs"
        targets = node.targets if isinstance(node, ast.Assign) else []
        if any(isinstance(t, ast.Name) and t.id == "REPEATS_TEXTS" for t in targets):
            assert isinstance(node, ast.Assign)
            if isinstance(node.value, ast.Constant) and str(node.value.value).strip():
                found = "repeats"
    return found


def repeated(*columns: list[str]) -> list[str]:
    """The texts of ``columns`` (taken together) seen before, in order."""
    seen: set[str] = set()
    again = []
    for text in (text for column in columns for text in column):
        if text in seen:
            again.append(text)
        seen.add(text)
    return again


def _module(script: Path) -> ModuleType:
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location(f"_bench_{script.stem}", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda script: script.stem)
def test_each_benchmark_draws_fresh_pairs_or_says_it_repeats_texts(script: Path) -> None:
    assert declaration(script.read_text(encoding="utf-8")) is not None, (
        f"{script.name} neither exposes pairs(count, seed) nor declares REPEATS_TEXTS"
    )


FRESH = [s for s in SCRIPTS if declaration(s.read_text(encoding="utf-8")) == "pairs"]


@pytest.mark.parametrize("script", FRESH, ids=lambda script: script.stem)
def test_fresh_pairs_never_repeat_a_text(script: Path) -> None:
    pairs = _module(script).pairs
    first, second = pairs(40, 0), pairs(40, 1)
    assert all(len(column) == 40 for column in (*first, *second))
    assert repeated(*first, *second) == []


def test_the_fresh_benchmarks_include_the_published_first_epochs() -> None:
    published = {"bench_torchmetrics.py", "bench_xlsum.py", "bench_ignite.py", "bench_rouge.py"}
    assert published <= {s.name for s in FRESH}


def test_the_checks_catch_a_corpus_cycled_and_a_script_declaring_nothing() -> None:
    # Negative controls: pairs drawn as the old torchmetrics benchmark drew
    # them (a small corpus taken in turn) repeat texts; a script with neither
    # declaration (or an empty reason) is caught.
    corpus = [f"text {k}" for k in range(10)]
    cycled = [corpus[k % len(corpus)] for k in range(40)]
    assert repeated(cycled, [f"other {k}" for k in range(40)]) != []
    assert declaration("import time\n\ndef main():\n    pass\n") is None
    assert declaration('REPEATS_TEXTS = ""\n') is None
    assert declaration('REPEATS_TEXTS = "a reason"\n') == "repeats"

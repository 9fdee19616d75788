"""Symbol parity: each compiled module, its ``.pyi`` and its pure twin name the same things.

A kernel family is a compiled module (``kurenai/_lcs.pyx``), its typed
surface (``_lcs.pyi``) and its pure twin (``_lcs_py.py``): the twin is the
spec, and ``kurenai._backend`` swaps one module for the other, so a function
present in one and missing in the other, or taking other arguments, breaks
only the implementation that lacks it.  Here the names and the parameters
are compared directly: the ``.pyi`` against the twin in every run, and the
compiled module against its ``.pyi`` where it is built.  The few deliberate
differences are listed with their reason, and each listed name must exist.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "kurenai"
NO_DEFAULT = "<no default>"
Parameters = tuple[tuple[str, Any], ...]  # (name, default) per parameter


@dataclass(frozen=True)
class Family:
    compiled: str
    twin: str
    # name -> why only the compiled module has it
    compiled_only: dict[str, str] = field(default_factory=dict)
    # name -> why only the twin has it
    twin_only: dict[str, str] = field(default_factory=dict)


FAMILIES = {
    "lcs": Family(
        "_lcs",
        "_lcs_py",
        compiled_only={
            "POPCOUNT": "how this build counts bits: a fact of the compiled code",
            "THREADS": "whether this build has POSIX threads: a fact of the compiled code",
            "Interned": "the C-level Docs of the kernels' Python surface (cimported by _variants)",
        },
        twin_only={
            "lcs_table": "the spec's full DP table, which bit-parallel kernels never build",
            "shared_form": "the spec's reduction of a pair; the compiled Lsum applies it by shapes",
            "project": "the spec's view of a line through a reference line's tokens",
            "BLOCKER": "shared_form's token for a run of tokens absent from the other side",
            "lcs_pairs": "the spec's LCS with both sides' positions, for kurenai.explain",
            "union_lcs": "the spec's Lsum hits as positions, for explain and ROUGE-1.5.5 -b",
        },
    ),
    "variants": Family(
        "_variants",
        "_variants_py",
        twin_only={
            "wlcs_indices": "the spec's backtrack, internal to the compiled ROUGE-W",
            "wlcs_pairs": "the same backtrack with both sides' positions, for kurenai.explain",
            "wlcs_runs": "the spec's credited runs as positions, for explain and ROUGE-1.5.5 -b",
            "wlcs_credit": "the spec's sum of the runs, for explain and ROUGE-1.5.5 -b",
            "skip_units": "the spec's skip-bigrams with their positions, for kurenai.explain",
        },
    ),
    "records": Family("_records", "_records_py"),
}
# Compiled modules without a twin still describe their surface in a .pyi.
COMPILED = ["_lcs", "_variants", "_fused", "_resample", "_perl", "_records"]


def _pyi(name: str) -> dict[str, Parameters | None]:
    """Top-level names of ``kurenai/<name>.pyi``: a function's parameters,
    None for a class or a constant."""
    tree = ast.parse((PACKAGE / f"{name}.pyi").read_text(encoding="utf-8"))
    names: dict[str, Parameters | None] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            names[node.name] = _pyi_parameters(node.args)
        elif isinstance(node, ast.ClassDef):
            names[node.name] = None
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = None
    return names


def _pyi_parameters(args: ast.arguments) -> Parameters:
    positional = [*args.posonlyargs, *args.args]
    defaults = [NO_DEFAULT] * (len(positional) - len(args.defaults))
    defaults += [ast.literal_eval(d) for d in args.defaults]
    return tuple((a.arg, d) for a, d in zip(positional, defaults))


def _parameters(function: Any) -> Parameters:
    return tuple(
        (p.name, NO_DEFAULT if p.default is inspect.Parameter.empty else p.default)
        for p in inspect.signature(function).parameters.values()
    )


def _compiled_names(module: ModuleType) -> set[str]:
    """What a compiled module defines for Python: not its dunders (Cython's
    own), nor the modules it imports."""
    return {
        name
        for name, value in vars(module).items()
        if not name.startswith("__") and not isinstance(value, ModuleType)
    }


def _twin_names(module: ModuleType) -> set[str]:
    """The public functions and classes a twin defines, and its constants
    (not what it imports, nor its type aliases)."""
    return {
        name
        for name, value in vars(module).items()
        if not name.startswith("_")
        and (
            (callable(value) and getattr(value, "__module__", None) == module.__name__)
            or name.isupper()
        )
    }


def _public(names: set[str] | dict[str, Any]) -> set[str]:
    return {name for name in names if not name.startswith("_")}


@pytest.mark.parametrize("family", sorted(FAMILIES), ids=lambda f: f)
def test_the_pyi_and_the_twin_name_the_same_things(family: str) -> None:
    spec = FAMILIES[family]
    twin = importlib.import_module(f"kurenai.{spec.twin}")
    surface, names = _pyi(spec.compiled), _twin_names(twin)
    assert set(spec.compiled_only) <= _public(surface), "a listed difference is gone"
    assert set(spec.twin_only) <= names, "a listed difference is gone"
    assert _public(surface) - set(spec.compiled_only) == names - set(spec.twin_only)


@pytest.mark.parametrize("family", sorted(FAMILIES), ids=lambda f: f)
def test_the_twin_takes_the_parameters_of_the_pyi(family: str) -> None:
    spec = FAMILIES[family]
    twin = importlib.import_module(f"kurenai.{spec.twin}")
    surface = _pyi(spec.compiled)
    shared = sorted(_public(surface) - set(spec.compiled_only))
    functions = [name for name in shared if surface[name] is not None]
    assert functions, "no function to compare"
    for name in functions:
        assert _parameters(getattr(twin, name)) == surface[name], name


@pytest.mark.compiled_only
@pytest.mark.parametrize("name", COMPILED)
def test_the_pyi_names_what_the_compiled_module_exports(name: str) -> None:
    module = importlib.import_module(f"kurenai.{name}")
    surface = _pyi(name)
    assert _compiled_names(module) == set(surface)
    for function, parameters in surface.items():
        if parameters is not None:
            assert _parameters(getattr(module, function)) == parameters, function

"""Symbol parity: each compiled module, its ``.pyi`` and its pure twin name the same things.

A kernel family is a compiled module (``kurenai/_lcs.pyx``), its typed
surface (``_lcs.pyi``) and its pure twin (``_lcs_py.py``): the twin is the
spec, and ``kurenai._backend`` swaps one module for the other, so a function
present in one and missing in the other, or taking other arguments, breaks
only the implementation that lacks it.  Here the names and the parameters
are compared directly: the ``.pyi`` against the twin in every run, and the
compiled module against its ``.pyi`` where it is built.  The few deliberate
differences are listed with their reason, and each listed name must exist.
A twin may also declare ``SPEC_HELPERS``, the names of the pure-only
functions of the spec that other surfaces (explain, rouge155) call.

Two compiled classes have a twin class (``FusedPlan``/``PythonPlan``,
``LegacyStream``/the bootstrap's ``NumpyStream``): their public methods and
attributes are held the same way (each is built from what it reads, so the
constructors are not compared).  ``_perl`` has no twin module: its spec is
``kurenai.rouge155``'s pure Python, whose functions of the same meaning take
the same parameters (``PERL``).
"""

from __future__ import annotations

import ast
import importlib
import inspect
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Optional

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "kurenai"
NO_DEFAULT = "<no default>"
Parameters = tuple[tuple[str, Any], ...]  # (name, default) per parameter


@dataclass(frozen=True)
class Twins:
    """A compiled module and its twin (``_lcs``, ``_lcs_py``), or a compiled
    class and its twin class (``module:Class``), and what each alone has."""

    compiled: str
    twin: str
    # name -> why only the compiled module has it
    compiled_only: dict[str, str] = field(default_factory=dict)
    # name -> why only the twin has it
    twin_only: dict[str, str] = field(default_factory=dict)


FAMILIES = {
    "lcs": Twins(
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
        },
    ),
    "variants": Twins(
        "_variants",
        "_variants_py",
        twin_only={"wlcs_indices": "the spec's backtrack, internal to the compiled ROUGE-W"},
    ),
    "records": Twins("_records", "_records_py"),
    "pairs": Twins(
        "_pairs",
        "_pairs_py",
        twin_only={"MAX_ORDERS": "the most n-gram orders, a C enum in the compiled module"},
    ),
    "punkt": Twins(
        "_punkt",
        "_punkt_py",
        twin_only={
            "TokenFacts": "a token's facts, which _punkt takes from the twin (once per token)",
            "token_facts": "computes them; _punkt calls the twin's",
            "tables_of": "the copy of a parameters object's tables; _punkt calls the twin's",
        },
    ),
}
# Compiled modules without a twin still describe their surface in a .pyi.
COMPILED = ["_lcs", "_variants", "_fused", "_resample", "_perl", "_records", "_punkt", "_pairs"]


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
    (not what it imports, nor its type aliases), less its ``SPEC_HELPERS``."""
    helpers = set(getattr(module, "SPEC_HELPERS", ()))
    assert helpers <= set(vars(module)), "a declared spec helper is gone"
    return {
        name
        for name, value in vars(module).items()
        if not name.startswith("_")
        and name != "SPEC_HELPERS"
        and name not in helpers
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


# ------------------------------------------------------------ twin classes


CLASSES = {
    "plan": Twins(
        "kurenai._fused:FusedPlan",
        "kurenai._core.python_plan:PythonPlan",
        compiled_only={
            "mode": "the scan's code; the Python plan calls the tokenizer itself",
            "stem": "the stemmer the scan applies; the Python plan's tokenizer applies its own",
            "score_class": "the tuple the C code fills; the Python plan's kinds make Scores",
        },
        twin_only={
            "tokenized": "the spec's text -> token lists, which the compiled scan does in C",
            "tokenized_within": "the same under a size limit, which the compiled scan checks in C",
            "score_tokenized": "scores of tokens found once (score_matrix's other kinds)",
        },
    ),
    "resample": Twins(
        "kurenai._resample:LegacyStream",
        "kurenai.stats._bootstrap:NumpyStream",
        twin_only={"rng": "the generator it draws with; the kernel copies its MT19937 state"},
    ),
}
# A class's member: its parameters (without self) for a method, None otherwise.
Members = dict[str, Optional[Parameters]]  # (an alias: evaluated, so no | on 3.9)


def _pyi_class(module: str, name: str) -> Members:
    tree = ast.parse((PACKAGE / f"{module}.pyi").read_text(encoding="utf-8"))
    (node,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name]
    members: Members = {}
    for item in node.body:
        if isinstance(item, ast.FunctionDef):
            is_property = any(getattr(d, "id", "") == "property" for d in item.decorator_list)
            members[item.name] = None if is_property else _pyi_parameters(item.args)[1:]
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            members[item.target.id] = None
    return members


def _resolve(path: str) -> Any:
    module, name = path.split(":")
    return getattr(importlib.import_module(module), name)


def _twin_members(cls: type) -> Members:
    """A Python class's public methods and properties, and the public
    attributes its ``__init__`` sets."""
    members: Members = {}
    for name, value in vars(cls).items():
        if not name.startswith("_"):
            members[name] = _parameters(value)[1:] if inspect.isfunction(value) else None
    init = ast.parse(inspect.getsource(cls)).body[0]
    for node in ast.walk(init):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store)
            and getattr(node.value, "id", "") == "self"
            and not node.attr.startswith("_")
        ):
            members.setdefault(node.attr, None)
    return members


def _modules_of(spec: Twins) -> tuple[str, str]:
    return spec.compiled.split(":")[0].rsplit(".", 1)[1], spec.compiled.split(":")[1]


@pytest.mark.parametrize("pair", sorted(CLASSES))
def test_the_twin_class_has_the_members_of_the_pyi(pair: str) -> None:
    spec = CLASSES[pair]
    surface = {k: v for k, v in _pyi_class(*_modules_of(spec)).items() if not k.startswith("_")}
    twin = _twin_members(_resolve(spec.twin))
    assert set(spec.compiled_only) <= set(surface), "a listed difference is gone"
    assert set(spec.twin_only) <= set(twin), "a listed difference is gone"
    shared = set(surface) - set(spec.compiled_only)
    assert shared == set(twin) - set(spec.twin_only)
    for name in sorted(shared):
        assert twin[name] == surface[name], name


def test_the_plan_protocol_is_what_the_plans_share() -> None:
    from kurenai._core.plan import Plan

    spec = CLASSES["plan"]
    surface = _pyi_class(*_modules_of(spec))
    shared = {name for name in surface if not name.startswith("_")} - set(spec.compiled_only)
    assert {name for name in vars(Plan) if not name.startswith("_")} == shared


@pytest.mark.compiled_only
@pytest.mark.parametrize("pair", sorted(CLASSES))
def test_the_pyi_describes_the_compiled_class(pair: str) -> None:
    spec = CLASSES[pair]
    surface = {k: v for k, v in _pyi_class(*_modules_of(spec)).items() if not k.startswith("_")}
    cls = _resolve(spec.compiled)
    assert {name for name in dir(cls) if not name.startswith("_")} == set(surface)
    for name, parameters in surface.items():
        if parameters is not None:
            assert _parameters(getattr(cls, name))[1:] == parameters, name


# ------------------------------------------------------------ _perl and rouge155

# _perl's name -> the pure function of kurenai.rouge155 computing the same.
PERL = {
    "rounded": "kurenai.rouge155._counts:perl_rounded",
    "peer_values": "kurenai.rouge155._counts:evaluation_values",
    "corpus_values": "kurenai.rouge155._corpus:corpus_averages",
}
PERL_ONLY = {
    "spl_values": "reads SPL bytes itself; the pure path reads them (summary_of), "
    "then calls evaluation_values",
    "ZERO_BASE": "the division by zero's message; the pure path raises Perl155ZeroDivision "
    "with the same words (tests/kernel_modules/test_perl_kernels.py)",
}
# pure name -> its parameters the kernel does not take, and why
PERL_PURE_PARAMETERS = {
    "evaluation_values": {"joined": "whether the kernel may be called at all"},
}


def test_perl_and_rouge155_share_every_name() -> None:
    assert _public(_pyi("_perl")) == set(PERL) | set(PERL_ONLY)


@pytest.mark.parametrize("name", sorted(PERL))
def test_rouge155_takes_the_parameters_of_perl(name: str) -> None:
    surface = _pyi("_perl")[name]
    pure = _resolve(PERL[name])
    extra = PERL_PURE_PARAMETERS.get(pure.__name__, {})
    parameters = tuple(p for p in _parameters(pure) if p[0] not in extra)
    assert set(extra) <= {p[0] for p in _parameters(pure)}, "a listed difference is gone"
    assert parameters == surface

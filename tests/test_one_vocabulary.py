"""One name, one thing: the vocabulary the code shares is defined once.

The measures of a Score are ``SCORE_FIELDS`` (rouge-score's field order);
torchmetrics' own output order is its adapter's ``OUTPUT_MEASURES``; the
multi-reference ``Mode`` and the compiled scan's ``ScanMode`` are told apart;
the kernels name a pair's sides ``t`` and ``p``; and every test file the
code or the docs cite exists.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import kurenai
from kurenai._core.plan import SCORE_FIELDS
from kurenai.scoring import Score

PACKAGE = Path(kurenai.__file__).resolve().parent
ROOT = PACKAGE.parent
MEASURE_NAMES = {"precision", "recall", "fmeasure"}


def _python_files() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _tuples_of_the_measures() -> dict[str, list[str]]:
    """Per module, the names assigned a literal tuple or list of exactly the
    three measure names."""
    found: dict[str, list[str]] = {}
    for path in _python_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Assign, ast.AnnAssign)) or node.value is None:
                continue
            value = node.value
            if (
                isinstance(value, (ast.Tuple, ast.List))
                and {e.value for e in value.elts if isinstance(e, ast.Constant)} == MEASURE_NAMES
            ):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                name = str(path.relative_to(ROOT))
                found.setdefault(name, []).extend(ast.unparse(t) for t in targets)
    return found


def test_the_measures_are_spelt_once() -> None:
    assert tuple(Score._fields) == SCORE_FIELDS == ("precision", "recall", "fmeasure")
    # The one literal left is torchmetrics' output order, which is not Score's.
    assert _tuples_of_the_measures() == {
        str(Path("kurenai/torchmetrics/_scores.py")): ["OUTPUT_MEASURES"]
    }


def test_one_definition_per_name() -> None:
    sources = {path: path.read_text(encoding="utf-8") for path in _python_files()}
    compiled = {
        path: path.read_text(encoding="utf-8")
        for path in sorted(PACKAGE.rglob("*"))
        if path.suffix in (".pyx", ".pxd")
    }
    classes_named_mode = [
        p for p, text in sources.items() if re.search(r"^class Mode\b", text, re.M)
    ]
    assert [p.name for p in classes_named_mode] == ["multiref.py"]
    enums = [
        p.name for p, text in compiled.items() if re.search(r"^cdef enum (\w+)Mode\b", text, re.M)
    ]
    assert enums == ["_fused_scan.pxd"]
    assert not [p for p, text in compiled.items() if re.search(r"^cdef enum Mode\b", text, re.M)]
    references = [p for p, text in sources.items() if re.search(r"^def references\(", text, re.M)]
    assert references == []  # reference_group (one prediction's) and reference_column


def test_the_kernels_name_the_sides_t_and_p() -> None:
    kernels = [*PACKAGE.glob("_*.pyi"), PACKAGE / "_lcs_py.py", PACKAGE / "_variants_py.py"]
    for path in kernels:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names = {a.arg for a in node.args.args}
                assert not names & {"ref", "can", "ref_sents", "can_sents"}, (path, node.name)
    c_parts = [PACKAGE / "_lcs.pyx", PACKAGE / "_variants.pyx", *PACKAGE.glob("_kernels/_lcs_*")]
    for path in c_parts:
        code = "\n".join(
            line.split("#")[0] for line in path.read_text(encoding="utf-8").splitlines()
        )
        assert not re.search(r"\*\s*(ref|can)\b", code), path  # a Doc or ID pointer parameter


def test_every_cited_test_file_exists() -> None:
    cited = set()
    for path in [*PACKAGE.rglob("*"), *(ROOT / "docs").rglob("*.md"), ROOT / "CONTRIBUTING.md"]:
        if path.is_file() and path.suffix in (".py", ".pyx", ".pxd", ".pyi", ".h", ".md"):
            text = path.read_text(encoding="utf-8", errors="replace")
            cited |= {(m, path) for m in re.findall(r"tests/[\w/]+\.py", text)}
    missing = sorted(
        (name, str(path.relative_to(ROOT))) for name, path in cited if not (ROOT / name).exists()
    )
    assert not missing

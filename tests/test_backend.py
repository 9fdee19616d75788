"""Which kernel implementation is live, and how it is chosen."""

from __future__ import annotations

import ast
import importlib.machinery
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import kurenai

PACKAGE = Path(kurenai.__file__).resolve().parent


def run_python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-W", "error::RuntimeWarning", "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        check=False,
    )


@pytest.fixture(scope="module")
def without_extension(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the package with no compiled module: an install made
    without a C compiler."""
    root = tmp_path_factory.mktemp("pure")
    ignored = shutil.ignore_patterns(
        *(f"*{suffix}" for suffix in importlib.machinery.EXTENSION_SUFFIXES), "__pycache__"
    )
    shutil.copytree(PACKAGE, root / "kurenai", ignore=ignored)
    return root


def import_from(root: Path, choice: str) -> subprocess.CompletedProcess[str]:
    """``import kurenai`` from ``root`` with every warning shown, in a new process."""
    code = "import kurenai; print(kurenai.IMPLEMENTATION, kurenai.__file__)"
    env = {**os.environ, "PYTHONPATH": str(root), "KURENAI_IMPLEMENTATION": choice}
    return subprocess.run(
        [sys.executable, "-W", "always", "-c", code],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        cwd=root,
    )


def test_pure_python_by_choice_is_quiet_without_the_extension(without_extension: Path) -> None:
    result = import_from(without_extension, "python")
    assert result.stdout.split()[0] == "python", result.stderr
    assert result.stdout.split()[1].startswith(str(without_extension))
    assert result.stderr == ""


def test_a_missing_extension_warns_once_with_the_real_cause(without_extension: Path) -> None:
    result = import_from(without_extension, "auto")
    assert result.stdout.split()[0] == "python"
    assert result.stderr.count("RuntimeWarning") == 1, result.stderr
    assert (
        "kurenai._lcs is missing: kurenai was installed without its compiled extension "
        "(built without a C compiler?)" in result.stderr
    )
    assert "circular import" not in result.stderr


def test_a_broken_extension_warns_with_the_loaders_message(
    without_extension: Path, tmp_path: Path
) -> None:
    root = tmp_path / "broken"
    shutil.copytree(without_extension, root)
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (root / "kurenai" / f"_lcs{suffix}").write_bytes(b"not a shared object")
    result = import_from(root, "auto")
    assert result.stdout.split()[0] == "python"
    assert result.stderr.count("RuntimeWarning") == 1, result.stderr
    assert "kurenai._lcs is there but cannot be loaded (" in result.stderr
    assert f"_lcs{suffix}" in result.stderr  # the loader names the file it refused


@pytest.mark.compiled_only
@pytest.mark.skipif(not os.environ.get("CI"), reason="only CI must have the extension built")
def test_ci_runs_the_compiled_kernels() -> None:
    assert kurenai.IMPLEMENTATION == "compiled"


@pytest.mark.skipif(
    kurenai.IMPLEMENTATION != "python" or not os.environ.get("CI"),
    reason="only CI's pure-Python run must have no extension",
)
def test_ci_pure_run_has_no_extension_to_import() -> None:
    # Else the pure run would quietly test compiled code again.
    for name in ("kurenai._lcs", "kurenai._fused"):
        with pytest.raises(ImportError):
            __import__(name)


def test_explicit_pure_python_does_not_warn() -> None:
    code = "import sys; sys.modules['kurenai._lcs'] = None; import kurenai\n"
    code += "print(kurenai.IMPLEMENTATION)"
    result = run_python(code, KURENAI_IMPLEMENTATION="python")
    assert result.stdout.strip() == "python" and not result.stderr, result.stderr


@pytest.mark.compiled_only
def test_compiled_kernels_are_importable_here() -> None:
    # A checkout built with `pip install -e .` must never silently fall back.
    from kurenai import _lcs

    assert kurenai._backend.kernels is _lcs


def test_environment_forces_the_pure_twin() -> None:
    result = run_python(
        "import kurenai; print(kurenai.IMPLEMENTATION)", KURENAI_IMPLEMENTATION="python"
    )
    assert result.stdout.strip() == "python", result.stderr


def test_invalid_choice_is_an_import_error() -> None:
    result = run_python("import kurenai", KURENAI_IMPLEMENTATION="fortran")
    assert result.returncode != 0
    assert "is not one of auto, compiled, python" in result.stderr


def test_missing_extension_warns_once_in_auto_mode() -> None:
    code = (
        "import sys, warnings; sys.modules['kurenai._lcs'] = None\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    import kurenai\n"
        "print(kurenai.IMPLEMENTATION, len(caught), caught[0].message)"
    )
    result = run_python(code, KURENAI_IMPLEMENTATION="auto")
    assert result.stdout.startswith("python 1 kurenai's compiled kernels are unavailable")


def test_missing_extension_is_fatal_when_compiled_is_required() -> None:
    code = "import sys; sys.modules['kurenai._lcs'] = None; import kurenai"
    result = run_python(code, KURENAI_IMPLEMENTATION="compiled")
    assert result.returncode != 0
    assert "kurenai._lcs cannot be imported" in result.stderr


@pytest.mark.compiled_only
def test_missing_fast_path_falls_back_to_python_tokenization() -> None:
    code = (
        "import sys, warnings; sys.modules['kurenai._fused'] = None\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    import kurenai\n"
        "from kurenai import _backend\n"
        "from kurenai.rouge_scorer import RougeScorer\n"
        "score = RougeScorer(['rouge1']).score('a b', 'a')['rouge1'].recall\n"
        "print(kurenai.IMPLEMENTATION, _backend.fastpath, len(caught), score)"
    )
    result = run_python(code, KURENAI_IMPLEMENTATION="auto")
    assert result.stdout.split() == ["compiled", "None", "1", "0.5"], result.stderr


# A compiled plan whose C switch numbers a kind the registry does not know.
FOREIGN_KINDS = (
    "import sys, types, warnings\n"
    "sys.modules['kurenai._fused'] = types.SimpleNamespace(KINDS=frozenset({0, 99}), MODES={})\n"
)


@pytest.mark.compiled_only
def test_a_fast_path_with_foreign_kinds_is_refused() -> None:
    code = FOREIGN_KINDS + (
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    import kurenai\n"
        "from kurenai import _backend\n"
        "from kurenai.rouge_scorer import RougeScorer\n"
        "score = RougeScorer(['rouge1']).score('a b', 'a')['rouge1'].recall\n"
        "print(_backend.fastpath, score, caught[0].message)"
    )
    result = run_python(code, KURENAI_IMPLEMENTATION="auto")
    assert result.stdout.startswith("None 0.5 kurenai's compiled text path is unavailable"), (
        result.stderr
    )
    assert "declares the kinds frozenset({0, 99})" in result.stdout
    strict = run_python(FOREIGN_KINDS + "import kurenai", KURENAI_IMPLEMENTATION="compiled")
    assert strict.returncode != 0
    assert "not a subset of kurenai._core.kinds.CODES" in strict.stderr


def _called(node: ast.Call) -> str | None:
    func = node.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


def test_only_make_plan_chooses_a_plan() -> None:
    # A module building a twin itself, or counting through a plan's private
    # methods, would be a second place that chooses the implementation.
    twins, private = {"PythonPlan", "FusedPlan"}, {"_count", "_scores"}
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name, func = _called(node), node.func
            on_other = isinstance(func, ast.Attribute) and ast.unparse(func.value) != "self"
            if (name in twins and path.name != "_backend.py") or (name in private and on_other):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} calls {name}")
    assert found == []

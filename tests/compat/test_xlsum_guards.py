"""The XL-Sum dialect's guards: what the main path's analysers already have.

- jieba's dictionary cache lives in kurenai's private folder: nothing is
  written to or read from the shared temporary directory, where another
  user could plant a cache that ``marshal`` would load as the dictionary.
"""

from __future__ import annotations

import importlib.util
import marshal
import os
import subprocess
import sys
from pathlib import Path

from optional import missing

REPO = Path(__file__).resolve().parents[2]

# A dictionary under which 今天天气很好 is one word (each prefix present, as
# jieba's own cache holds them).
_PLANTED = "今天天气很好"
_SEGMENT = (
    "from kurenai.compat._xlsum_tokens import segmenter;"
    "print('|'.join(segmenter('chinese')('今天天气很好')))"
)


def _isolated(tmp_path: Path) -> dict[str, str]:
    """An environment whose temporary directory and cache home are fresh."""
    shared = tmp_path / "shared-tmp"
    home = tmp_path / "home"
    shared.mkdir()
    home.mkdir(mode=0o700)
    env = dict(os.environ, TMPDIR=str(shared), HOME=str(home), XDG_CACHE_HOME=str(home / "c"))
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    return env


def _segment(env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-c", _SEGMENT], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _require(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        missing(f"{module} is not installed")


def test_xlsum_jieba_neither_reads_nor_writes_the_shared_temp_dir(tmp_path: Path) -> None:
    _require("jieba")
    env = _isolated(tmp_path)
    shared = Path(env["TMPDIR"])
    assert _segment(env) == "今天天气|很|好"
    assert list(shared.iterdir()) == []  # nothing written there
    assert list((Path(env["XDG_CACHE_HOME"]) / "kurenai").glob("jieba*.cache"))
    # A planted cache in the shared folder changes nothing.
    freq = {_PLANTED[:k]: 0 for k in range(1, len(_PLANTED))} | {_PLANTED: 1}
    planted = shared / "jieba.cache"
    planted.write_bytes(marshal.dumps((freq, 1)))
    assert _segment(env) == "今天天气|很|好"
    # Negative control: jieba's own default reads the planted cache.
    control = f"import jieba, logging; jieba.setLogLevel(30); print(jieba.lcut({_PLANTED!r}))"
    done = subprocess.run(
        [sys.executable, "-c", control], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.stdout.strip() == str([_PLANTED])

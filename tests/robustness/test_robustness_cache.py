"""jieba's dictionary cache lives in a directory only its user can write.

jieba reads the cache back with ``marshal``: in the shared temporary
directory (jieba's default) another local user could plant it.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from robustness_support import require

from kurenai.tokenizers import JiebaTokenizer, _private_cache

posix_only = pytest.mark.skipif(os.name == "nt", reason="POSIX permissions")


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """$XDG_CACHE_HOME in a temporary folder, with a fresh private_cache_dir()."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    _private_cache.private_cache_dir.cache_clear()
    yield tmp_path
    _private_cache.private_cache_dir.cache_clear()


@posix_only
def test_the_cache_is_created_private_under_xdg_cache_home(cache_home: Path) -> None:
    path = Path(_private_cache.private_cache_dir())
    assert path == cache_home / "kurenai"
    assert stat.S_IMODE(path.stat().st_mode) == 0o700
    assert path.stat().st_uid == os.getuid()


@posix_only
@pytest.mark.parametrize("kind", ["group-writable", "symlink", "file"])
def test_an_unsafe_cache_path_is_not_used(cache_home: Path, kind: str) -> None:
    planted = cache_home / "kurenai"
    if kind == "group-writable":
        planted.mkdir(mode=0o700)
        planted.chmod(0o770)
    elif kind == "symlink":
        (cache_home / "elsewhere").mkdir(mode=0o700)
        planted.symlink_to(cache_home / "elsewhere")
    else:
        planted.write_text("")
    path = Path(_private_cache.private_cache_dir())
    assert path != planted and cache_home not in path.parents
    assert _private_cache.is_private(str(path))  # a fresh mkdtemp folder instead
    assert stat.S_IMODE(path.stat().st_mode) == 0o700


def test_a_relative_xdg_cache_home_is_ignored(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    assert _private_cache._cache_home() == os.path.join(str(tmp_path), ".cache")


def test_jieba_keeps_its_cache_in_the_private_directory(cache_home: Path) -> None:
    require("jieba")
    tokenizer = JiebaTokenizer()
    assert tokenizer.tokenize("今天天气很好") == ["今天天气", "很", "好"]
    assert tokenizer._resource.tmp_dir == str(cache_home / "kurenai")
    assert list((cache_home / "kurenai").glob("jieba*.cache"))


def test_an_explicit_jieba_cache_dir_is_honoured(tmp_path: Path) -> None:
    require("jieba")
    tokenizer = JiebaTokenizer(cache_dir=str(tmp_path))
    tokenizer.tokenize("今天")
    assert list(tmp_path.glob("jieba*.cache"))

"""A cache directory no other local user can write to.

jieba reads its dictionary cache back with ``marshal``: a cache file planted by
another user (jieba's default is a fixed name in the shared temporary
directory) would be loaded as the dictionary.  kurenai keeps such caches in
``$XDG_CACHE_HOME/kurenai`` (default ``~/.cache/kurenai``), created with mode
0700, and uses it only if it is a real directory owned by the user with no
group or other access; otherwise in a fresh ``tempfile.mkdtemp`` directory,
removed when the process exits.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import os
import shutil
import stat
import tempfile

__all__ = ["is_private", "private_cache_dir"]


@functools.cache
def private_cache_dir() -> str:
    """The user's private kurenai cache directory, created if needed."""
    path = os.path.join(_cache_home(), "kurenai")
    with contextlib.suppress(OSError):  # unwritable home: is_private says no
        os.makedirs(path, mode=0o700, exist_ok=True)
    if is_private(path):
        return path
    fallback = tempfile.mkdtemp(prefix="kurenai-cache-")  # mode 0700, a fresh name
    atexit.register(shutil.rmtree, fallback, ignore_errors=True)
    return fallback


def _cache_home() -> str:
    # The XDG spec: a relative $XDG_CACHE_HOME is invalid and ignored.
    configured = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(configured):
        return configured
    return os.path.join(os.path.expanduser("~"), ".cache")


def is_private(path: str) -> bool:
    """Whether ``path`` is a directory (not a symlink) only its owner, this
    user, can read or write."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode):
        return False
    if os.name == "nt":  # no POSIX modes; the user's profile is private by ACL
        return True
    return info.st_mode & 0o077 == 0 and info.st_uid == os.getuid()

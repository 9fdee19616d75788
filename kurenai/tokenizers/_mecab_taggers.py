"""MeCab taggers shared by the whole process, keyed by their options.

Every ``fugashi.Tagger`` maps MeCab's dictionary anew (UniDic-lite: ~250 MB
of address space) and never unmaps it.  A scorer is pickled into every
worker, closure and DataLoader copy, and each copy used to make its own
taggers: 30 unpickled copies held 30 mappings.  Here one pool per option
string serves every copy: at most ``POOL_MAX`` taggers (each lent to one
call at a time, as a tagger keeps its lattice between calls) per distinct
options, whatever the number of scorers or threads.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

from kurenai.tokenizers._analyser_pool import POOL_MAX, AnalyserPool

__all__ = ["shared_taggers"]

_POOLS: dict[tuple[str, str], AnalyserPool] = {}
_LOCK = threading.Lock()


def shared_taggers(kind: str, options: str, make: Callable[[], Any]) -> AnalyserPool:
    """The process's pool of taggers made by ``make`` for ``options``; the
    first tagger is made now (a tagger that cannot start fails here).  ``kind``
    tells apart two makers given the same options (kurenai's ``mecab``
    tokenizer names UniDic-lite itself; XL-Sum's lets fugashi choose)."""
    key = (kind, options)
    with _LOCK:
        pool = _POOLS.get(key)
        if pool is None:
            pool = AnalyserPool(make, POOL_MAX)
            pool.put(pool.make())
            _POOLS[key] = pool
        return pool

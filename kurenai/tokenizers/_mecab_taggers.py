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

import os
import threading
from typing import Any, Callable

from kurenai.tokenizers._analyser_pool import POOL_MAX, AnalyserPool

__all__ = ["mecab_base_form", "mecab_surface", "mecab_tagger", "shared_taggers"]

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


def mecab_tagger(fugashi: Any, tagger_args: str) -> Any:
    """A ``fugashi.Tagger`` on UniDic-lite, the dictionary the ``ja`` extra
    installs and the signature names, unless ``tagger_args`` names one
    (``-d``).  fugashi alone prefers the ``unidic`` package wherever it is
    installed, even with its dictionary never downloaded (then MeCab cannot
    start), and full UniDic splits words otherwise than the signature says."""
    if "-d" in tagger_args.split():
        return fugashi.Tagger(tagger_args)
    import unidic_lite

    dicdir = unidic_lite.DICDIR
    mecabrc = os.path.join(dicdir, "mecabrc")
    return fugashi.Tagger(f'-d "{dicdir}" -r "{mecabrc}" {tagger_args}'.rstrip())


def mecab_surface(word: Any) -> str:
    return str(word.surface)


def mecab_base_form(word: Any) -> str:
    base = getattr(word.feature, "orthBase", None)
    return base if isinstance(base, str) and base not in ("", "*") else str(word.surface)

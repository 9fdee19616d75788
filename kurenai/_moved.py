"""Old private module paths, kept importable so that pickles made before the
package was split into subpackages still load.

A pickle names each object's class by module and qualified name; kurenai
0.2.0's tokenizers, stemmers and rules lived in flat private modules
(``kurenai._unicode_tokenizers`` and so on).  This finder makes each old name
an alias of the module that holds the code now, created only when something
imports it.  It is installed by ``import kurenai`` and serves only the names
below; no code in kurenai imports them.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType

__all__ = ["MOVED", "install"]

# old dotted name -> where the code lives now: only the modules the pickles of
# kurenai 0.2.0 name (its scorers and tokenizers hold these classes and
# functions; tests/test_layout.py reads the names out of tests/data/pickles).
MOVED = {
    "kurenai._morphological": "kurenai.tokenizers._morphological",
    "kurenai._rules": "kurenai._data.rules",
    "kurenai._stemming": "kurenai.tokenizers._stemming",
    "kurenai._unicode_tokenizers": "kurenai.tokenizers._unicode",
}


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self) -> None:
        self._specs: dict[str, importlib.machinery.ModuleSpec | None] = {}

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(MOVED[spec.name])
        self._specs[module.__name__] = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The real module ran when it was imported under its own name; the
        # import system has just set its __spec__ to the alias's: put it back.
        module.__spec__ = self._specs[module.__name__]


def install() -> None:
    """Put the alias finder on ``sys.meta_path`` (once)."""
    if not any(isinstance(finder, _Alias) for finder in sys.meta_path):
        sys.meta_path.append(_Alias())

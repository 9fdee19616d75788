"""kurenai (紅): rouge-score's ROUGE, exact and fast, for text in any language.

>>> from kurenai.rouge_scorer import RougeScorer
>>> RougeScorer(["rouge1"]).score("いぬ ねこ", "いぬ ねこ")
{'rouge1': Score(precision=1.0, recall=1.0, fmeasure=1.0)}
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# _startup first (before NumPy and the compiled modules): a Ctrl-C while
# the command line starts; _moved imports nothing heavy.
from kurenai import _moved, _startup  # noqa: F401
from kurenai._backend import IMPLEMENTATION

if TYPE_CHECKING:
    from kurenai.rouge_scorer import ROUGE_TYPES, RougeScorer

__version__ = "0.2.0"

_moved.install()

__all__ = ["IMPLEMENTATION", "ROUGE_TYPES", "RougeScorer", "__version__"]


def __getattr__(name: str) -> Any:
    # The facade (and with it rouge-score and NumPy) loads on first use, so
    # that command lines which never score through it (``python -m
    # kurenai.rouge155``) start without it; a submodule named as an attribute
    # loads the same way.
    if name in ("ROUGE_TYPES", "RougeScorer"):
        return getattr(importlib.import_module("kurenai.rouge_scorer"), name)
    if not name.startswith("__"):
        try:
            return importlib.import_module(f"kurenai.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"kurenai.{name}":
                raise
    raise AttributeError(f"module 'kurenai' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])

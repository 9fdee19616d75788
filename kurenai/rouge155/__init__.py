"""ROUGE-1.5.5, the official Perl script, byte for byte in Python.

- :func:`report` / :func:`evaluate`: the script's command line (options, XML
  configuration or ``-z`` file list, system ID) -> its printed report, or the
  numbers as a dict (per system, per metric, R/P/F with their intervals).
- :func:`score_corpus`: the same for summaries held in memory.
- ``python -m kurenai.rouge155`` / ``kurenai rouge155``: the drop-in command.
- :class:`~kurenai.rouge155.pyrouge.Rouge155` (pyrouge's class) and
  :func:`~kurenai.rouge155._files2rouge.files2rouge` (files2rouge's two files).
- ``tokenizer="rouge155"``: the script's words on every kurenai surface.

The names load lazily, so ``import kurenai`` stays light.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what type checkers and the API reference read; loaded lazily below
    from kurenai.rouge155._api import evaluate, report, score_corpus
    from kurenai.rouge155._files2rouge import files2rouge
    from kurenai.rouge155._tokenizer import Rouge155Tokenizer
    from kurenai.rouge155.pyrouge import Rouge155

__all__ = [
    "Rouge155",
    "Rouge155Tokenizer",
    "evaluate",
    "files2rouge",
    "report",
    "score_corpus",
]

_WHERE = {
    "Rouge155": "kurenai.rouge155.pyrouge",
    "Rouge155Tokenizer": "kurenai.rouge155._tokenizer",
    "evaluate": "kurenai.rouge155._api",
    "files2rouge": "kurenai.rouge155._files2rouge",
    "report": "kurenai.rouge155._api",
    "score_corpus": "kurenai.rouge155._api",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'kurenai.rouge155' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])

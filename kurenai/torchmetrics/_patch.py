"""Opt-in acceleration of code that builds torchmetrics' ROUGE, as
``kurenai.compat.patch_rouge_score()`` does for rouge-score's.

``patch_torchmetrics()`` puts kurenai's :class:`~kurenai.torchmetrics.ROUGEScore`
and ``rouge_score`` where torchmetrics keeps its own
(``torchmetrics.text.ROUGEScore``, ``torchmetrics.text.rouge.ROUGEScore``,
``torchmetrics.functional.text.rouge_score`` and the modules that import
them), so code that looks them up there when it builds its metric gets
kurenai's, with torchmetrics' numbers.  ``unpatch_torchmetrics()`` puts
torchmetrics' back.  Patch before the metric is built: metrics built
earlier, and names bound with ``from torchmetrics.text import ROUGEScore``
before the patch, stay torchmetrics'.

For code you cannot edit, set ``KURENAI_PATCH_TORCHMETRICS=1`` and call
:func:`patch_from_env` from a ``sitecustomize.py`` (it imports nothing of
torch when the variable is unset).

This module imports neither torch nor torchmetrics until a patch is made.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kurenai._core.checks import env_switch

__all__ = [
    "ENV_VAR",
    "is_patched",
    "patch_from_env",
    "patch_torchmetrics",
    "torchmetrics_patched",
    "unpatch_torchmetrics",
]

ENV_VAR = "KURENAI_PATCH_TORCHMETRICS"

# Where torchmetrics binds each name: (module, attribute, kurenai's name).
_SITES = (
    ("torchmetrics.text.rouge", "ROUGEScore", "ROUGEScore"),
    ("torchmetrics.text", "ROUGEScore", "ROUGEScore"),
    ("torchmetrics.functional.text.rouge", "rouge_score", "rouge_score"),
    ("torchmetrics.functional.text", "rouge_score", "rouge_score"),
    # torchmetrics.functional.rouge_score (deprecated) calls this module's name.
    ("torchmetrics.functional.text._deprecated", "rouge_score", "rouge_score"),
)
# torchmetrics' own objects, kept by the first patch: name -> object.
_ORIGINALS: dict[str, Any] = {}


def patch_torchmetrics() -> None:
    """Make torchmetrics' ``ROUGEScore`` and ``rouge_score`` kurenai's.

    Idempotent; every number stays torchmetrics'.  Afterwards
    ``type(torchmetrics.text.ROUGEScore())`` is kurenai's class until
    :func:`unpatch_torchmetrics` (docs/migrate/torchmetrics.md runs this).
    """
    from kurenai.torchmetrics import _metric

    for module_name, attribute, ours in _SITES:
        module = _module(module_name)
        if module is None:
            continue
        current = getattr(module, attribute, None)
        replacement = getattr(_metric, ours)
        if current is None or current is replacement:
            continue
        _ORIGINALS.setdefault(ours, current)
        if current is _ORIGINALS[ours]:
            setattr(module, attribute, replacement)


def unpatch_torchmetrics() -> None:
    """Put torchmetrics' own ``ROUGEScore`` and ``rouge_score`` back (nothing
    to do if unpatched)."""
    metric = sys.modules.get("kurenai.torchmetrics._metric")
    if metric is None:
        return
    for module_name, attribute, ours in _SITES:
        module = sys.modules.get(module_name)
        if module is not None and getattr(module, attribute, None) is getattr(metric, ours):
            setattr(module, attribute, _ORIGINALS[ours])


def is_patched() -> bool:
    """Whether ``torchmetrics.text.ROUGEScore`` is kurenai's now."""
    module = sys.modules.get("torchmetrics.text")
    metric = sys.modules.get("kurenai.torchmetrics._metric")
    return (
        module is not None
        and metric is not None
        and getattr(module, "ROUGEScore", None) is getattr(metric, "ROUGEScore", None)
    )


@contextmanager
def torchmetrics_patched() -> Iterator[None]:
    """Patched inside the ``with`` block; as it was before, after it."""
    was_patched = is_patched()
    patch_torchmetrics()
    try:
        yield
    finally:
        if not was_patched:
            unpatch_torchmetrics()


def patch_from_env() -> bool:
    """Patch if ``KURENAI_PATCH_TORCHMETRICS`` says so (1/true/yes/on); return
    whether it did.  Unset, empty or 0/false/no/off: no patch, and nothing
    imported.  Raises ValueError for any other value, so a typo is not
    silently ignored."""
    if not env_switch(ENV_VAR):
        return False
    patch_torchmetrics()
    return True


def _module(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:  # a torchmetrics release without this module
        return None

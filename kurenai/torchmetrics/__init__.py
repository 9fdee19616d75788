"""torchmetrics' ROUGE (``ROUGEScore``, ``rouge_score``) computed by kurenai.

``from kurenai.torchmetrics import ROUGEScore`` in place of
``from torchmetrics.text import ROUGEScore``: the same metric, faster.

:class:`ROUGEScore` is a ``torchmetrics.Metric`` with torchmetrics'
constructor, methods, keys and float32 numbers (its state, the scores of
each prediction, syncs across processes through torchmetrics' own
machinery); :func:`rouge_score` is the functional form.
:func:`patch_torchmetrics` makes code that builds torchmetrics' own get
kurenai's (``KURENAI_PATCH_TORCHMETRICS=1`` with :func:`patch_from_env`).

Needs the ``torch`` extra (torchmetrics, and NLTK's punkt for
``rougeLsum``); importing this package imports torch only when
``ROUGEScore`` or ``rouge_score`` is first used, so the patch functions
load without it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from kurenai._data.extras import pip_install
from kurenai.torchmetrics._patch import (
    ENV_VAR,
    is_patched,
    patch_from_env,
    patch_torchmetrics,
    torchmetrics_patched,
    unpatch_torchmetrics,
)

if TYPE_CHECKING:
    from kurenai.torchmetrics._metric import ROUGEScore, rouge_score

__all__ = [
    "ENV_VAR",
    "ROUGEScore",
    "is_patched",
    "patch_from_env",
    "patch_torchmetrics",
    "rouge_score",
    "torchmetrics_patched",
    "unpatch_torchmetrics",
]


def __getattr__(name: str) -> Any:
    if name in ("ROUGEScore", "rouge_score"):
        module = importlib.import_module("kurenai.torchmetrics._metric")
        if module.Metric is object:  # torch or torchmetrics did not import
            raise ImportError(
                f"kurenai.torchmetrics.{name} needs torchmetrics (and torch): "
                f"{pip_install('torch')}"
            )
        return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])

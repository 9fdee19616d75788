"""Several systems' predictions scored against the same references.

:func:`score_systems` scores every system's predictions against the same
references, by the scorer's plan (``Plan.score_shared``: each plan knows
its fastest way).  With a tokenizer that runs in Python (the morphological
ones, a normalising or custom one) the pure plan tokenizes each reference
once and reuses its tokens for every system: with MeCab, four systems score
in about half the time of four ``score_batch`` calls.  The fused compiled
plan reads a reference in C faster than Python can hand over its tokens
(two systems on SciTLDR: 4x faster by ``score_batch`` per system), so it
scans it again per system.  Either way each score equals
``scorer.score``'s.  Records with several references go through
``score_multi_batch`` per system.  The leaderboard (:mod:`kurenai.report`)
and the correlations with human judgments (:mod:`kurenai.stats`) score
through it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Union

import numpy as np
import numpy.typing as npt

from kurenai._core import checks as _checks

__all__ = ["score_systems"]

Target = Union[str, Sequence[str]]
Matrix = npt.NDArray[np.float64]  # (types x P/R/F x records)


def score_systems(
    scorer: Any, targets: Sequence[Target], systems: Mapping[str, Sequence[str]], mode: str = "best"
) -> dict[str, Matrix]:
    """Per system, the (types x P/R/F x records) scores of its predictions."""
    sizes = {name: len(predictions) for name, predictions in systems.items()}
    if any(size != len(targets) for size in sizes.values()):
        raise ValueError(f"each system needs {len(targets)} predictions, got {sizes}")
    types = scorer.rouge_types
    found = {name: np.empty((len(types), 3, len(targets))) for name in systems}
    multi = [i for i, t in enumerate(targets) if not isinstance(t, str)]
    single = [i for i, t in enumerate(targets) if isinstance(t, str)]
    if single:
        _score_shared(scorer, [targets[i] for i in single], systems, single, found)
    if multi:
        chosen = [targets[i] for i in multi]
        for name, predictions in systems.items():
            rows = scorer.score_multi_batch(chosen, [predictions[i] for i in multi], mode=mode)
            for i, scores in zip(multi, rows):
                found[name][:, :, i] = [list(scores[t]) for t in types]
    return found


def _score_shared(
    scorer: Any,
    texts: Sequence[Target],
    systems: Mapping[str, Sequence[str]],
    rows: list[int],
    found: dict[str, Matrix],
) -> None:
    """Score ``rows`` (of single references ``texts``) of every system at once."""
    targets: list[str] = []
    predictions = []
    for system in systems.values():  # plain str, or score_batch's TypeError
        _, _, targets, checked = _checks.checked_pairs(texts, [system[i] for i in rows], False)
        predictions.append(checked)
    tables = [np.empty((len(scorer.rouge_types), 3, len(rows))) for _ in systems]
    scorer.plan.score_shared(targets, predictions, tables)
    for name, table in zip(systems, tables):
        found[name][:, :, rows] = table

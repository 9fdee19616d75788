"""The matched spans the report's aligned view highlights, from ``kurenai.explain``.

Explaining a pair costs a few hundred microseconds, far more than scoring
it, so a report explains at most ``limit`` records (all of them when there
are no more): first the most improved and most regressed ones, then the
lowest and highest scored, then the rest in input order.  The aligned view
of any other record shows both texts without highlights and says so; so
does a chosen record whose explanation is over ``kurenai.explain``'s budget
(:class:`~kurenai.explain.ExplainLimitError`): its highlights are None.

A record's highlights are, per system and type, ``[target spans,
prediction spans]``, each a flat list ``[start, end, start, end, ...]`` of
UTF-16 offsets (what JavaScript strings index) into the texts as shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Optional, Union

import numpy as np
import numpy.typing as npt

from kurenai.explain import ExplainLimitError, explain, explain_multi

__all__ = ["REFERENCE_SEPARATOR", "chosen_records", "highlights", "shown_target"]

Target = Union[str, Sequence[str]]
# system -> type -> [t spans, p spans]; None: too costly to explain
Highlight = Optional[dict[str, dict[str, list[list[int]]]]]
# Between the references of a record that has several, in the aligned view.
REFERENCE_SEPARATOR = "\n\n"


def shown_target(target: Target) -> str:
    """A record's reference as the report shows it (several: one after another)."""
    return target if isinstance(target, str) else REFERENCE_SEPARATOR.join(target)


def chosen_records(
    primary: npt.NDArray[np.float64], delta: npt.NDArray[np.float64] | None, limit: int
) -> list[int]:
    """Which records to explain: all, or ``limit`` of them (see the module)."""
    size = len(primary)
    if limit < 0 or size <= limit:
        return list(range(size))
    chosen: dict[int, None] = {}
    orders = []
    if delta is not None:
        by_delta = np.argsort(delta, kind="stable")
        orders += [by_delta[::-1], by_delta]
    by_score = np.argsort(primary, kind="stable")
    orders += [by_score, by_score[::-1]]
    share = limit // (len(orders) + 1)
    for order in orders:
        chosen.update(dict.fromkeys(int(i) for i in order[:share]))
    for i in range(size):
        if len(chosen) >= limit:
            break
        chosen.setdefault(i, None)
    return sorted(chosen)


def highlights(
    scorer: Any,
    targets: Sequence[Target],
    systems: Mapping[str, Sequence[str]],
    records: Sequence[int],
) -> dict[int, Highlight]:
    """Per chosen record, per system and type, the matched spans of both
    texts; None for a record too costly to explain."""
    found: dict[int, Highlight] = {}
    for i in records:
        target = targets[i]
        try:
            found[i] = {
                name: _spans_of(scorer, target, predictions[i])
                for name, predictions in systems.items()
            }
        except ExplainLimitError:
            found[i] = None
    return found


def _spans_of(scorer: Any, target: Target, prediction: str) -> dict[str, list[list[int]]]:
    if isinstance(target, str):
        explained = explain(scorer, target, prediction)
        shifts = dict.fromkeys(explained.types, 0)
        units = _units(target)
        by_type = explained.types
    else:
        multi = explain_multi(scorer, target, prediction)
        starts, at = [], 0
        for reference in target:
            starts.append(at)
            at += len(reference) + len(REFERENCE_SEPARATOR)
        by_type = {}
        shifts = {}
        for name in scorer.rouge_types:
            k = multi.chosen[name] or 0  # the best reference; the first when combined
            by_type[name] = multi.references[k].types[name]
            shifts[name] = starts[k]
        units = _units(shown_target(target))
    p_units = _units(prediction)
    return {
        name: [
            _flat(typed.spans("target"), shifts[name], units),
            _flat(typed.spans("prediction"), 0, p_units),
        ]
        for name, typed in by_type.items()
    }


def _units(text: str) -> list[int] | None:
    """UTF-16 offset of each code point boundary, or None where they coincide."""
    if text.isascii() or all(ord(c) < 0x10000 for c in text):
        return None
    offsets = [0]
    for char in text:
        offsets.append(offsets[-1] + (2 if ord(char) >= 0x10000 else 1))
    return offsets


def _flat(spans: list[tuple[int, int]], shift: int, units: list[int] | None) -> list[int]:
    flat: list[int] = []
    for start, end in spans:
        start, end = start + shift, end + shift
        if units is not None:
            start, end = units[start], units[end]
        flat += (start, end)
    return flat

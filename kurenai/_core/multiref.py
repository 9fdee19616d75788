"""The multi-reference modes: how the scores against several references combine.

One :class:`Mode` entry per mode in :data:`MODES`, the one definition each
surface reads: ``score_multi`` and ``score_multi_batch`` (``mode``),
``kurenai.metrics`` (``accumulate``) and the command line
(``--multi-ref-mode``, its choices and its help).  A new mode is one entry
here.

- ``best``: rouge-score's rule, per type the reference with the highest F
  (the first on ties).
- ``best-recall``: ROUGE-1.5.5's ``-f B``, per type the reference with the
  strictly highest score as the Perl script compares it (each kind's
  ``recall_key`` in :mod:`kurenai._core.kinds`), the first on ties.
- ``average``: ROUGE-1.5.5's ``-f A``, which pools the counts over the
  references (each kind's ``pool``).
- ``mean`` (alias ``avg``, torchmetrics' ``accumulate="avg"``): the
  arithmetic mean of precision, recall and F over the references.
- ``jackknife``: the jackknife over references (Lin 2004; the GEM
  benchmark): with M >= 2 references, the mean over the M leave-one-out
  subsets of the ``best`` scores against the M - 1 references left; with one
  reference, its own scores (no subset to leave out).
- ``jackknife-best-recall`` and ``jackknife-average``: the same over
  ``best-recall`` or ``average``: ROUGE-1.5.5's jackknifing (its
  RELEASE-NOTE: one run per leave-one-out set of models, averaged) with
  ``-f B`` or ``-f A``.

A mode sees a batch of :class:`Groups` (one prediction against its
references per group; ``score_multi`` is a batch of one) and either *picks*
one reference's scores per type and group (``best``, ``best-recall``) or
*computes* new scores.  The counts come from the scorer's plan
(``Plan.tallies``), so every type is counted by the same twin, tokenizer and
sentences as its plain score.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from kurenai._core.groups import FMEASURE, Combined, Groups, bounds
from kurenai._core.jackknife import jackknife, jackknife_picking
from kurenai._core.kinds import kind_of
from kurenai._core.plan import SCORE_FIELDS, Plan, ScoreDict
from kurenai._data.spelling import did_you_mean
from kurenai.scoring import Score

__all__ = [
    "MODES",
    "Combined",
    "Groups",
    "Mode",
    "check_mode",
    "chosen",
    "combine",
    "combine_groups",
    "combine_table",
    "help_text",
    "uses_scores",
]


@dataclass(frozen=True)
class Mode:
    """One way of combining a prediction's scores against several references
    (a multi-reference mode; not the compiled scan's ``ScanMode``, the way a
    tokenizer's ``scan_mode`` turns text into tokens)."""

    name: str
    summary: str  # what it does, for --help
    combine: Callable[[Groups], Combined]
    uses_scores: bool = True  # False: it reads only the tallies (nothing to score first)
    aliases: tuple[str, ...] = ()


def _f_keys(groups: Groups, i: int) -> list[float]:
    """What ``best`` compares: each pair's F of type ``i``."""
    return groups.column(i, FMEASURE)


def _recall_keys(groups: Groups, i: int) -> list[float]:
    """What ``best-recall`` compares: each pair's ``-f B`` recall of type ``i``."""
    spec = groups.spec
    key = kind_of(spec.kinds[i]).recall_key
    return [key(found[i], spec.w_weight) for found in groups.tallies]


def _picking(keys: Callable[[Groups, int], list[float]]) -> Callable[[Groups], Combined]:
    """The mode that picks, per type and group, the first pair of highest ``keys``."""

    def combine(groups: Groups) -> Combined:
        types = range(len(groups.spec.rouge_types))
        return Combined(picks=[groups.first_highest(keys(groups, i)) for i in types])

    return combine


_best = _picking(_f_keys)
_best_recall = _picking(_recall_keys)


def _average(groups: Groups) -> Combined:
    spec, tallies = groups.spec, groups.tallies
    scores = []
    for i, code in enumerate(spec.kinds):
        pool = kind_of(code).pool
        column = [found[i] for found in tallies]
        scores.append([pool(column[start:stop], spec.w_weight) for start, stop in groups.bounds])
    return Combined(scores=scores)


def _mean(groups: Groups) -> Combined:
    scores = []
    for i in range(len(groups.spec.rouge_types)):
        precision, recall, fmeasure = (groups.column(i, field) for field in range(3))
        scores.append(
            [
                Score(
                    sum(precision[start:stop]) / (stop - start),
                    sum(recall[start:stop]) / (stop - start),
                    sum(fmeasure[start:stop]) / (stop - start),
                )
                for start, stop in groups.bounds
            ]
        )
    return Combined(scores=scores)


MODES = (
    Mode("best", "rouge-score's rule: per type the reference with the highest F", _best),
    Mode(
        "best-recall",
        "ROUGE-1.5.5's -f B: per type the reference with the highest recall",
        _best_recall,
    ),
    Mode(
        "average",
        "ROUGE-1.5.5's -f A: the counts pooled over the references",
        _average,
        uses_scores=False,
    ),
    Mode(
        "mean",
        "the mean of P, R and F over the references; also named avg, as in torchmetrics",
        _mean,
        aliases=("avg",),
    ),
    Mode(
        "jackknife",
        "the mean over each leave-one-out set of references of the best scores (by F) "
        "against the rest, as ROUGE's paper and GEM",
        jackknife_picking(_f_keys),
    ),
    Mode(
        "jackknife-best-recall",
        "the jackknife of best-recall: ROUGE-1.5.5's jackknifing with -f B",
        jackknife_picking(_recall_keys),
    ),
    Mode(
        "jackknife-average",
        "the jackknife of average: ROUGE-1.5.5's jackknifing with -f A",
        jackknife(_average, scored=False),
        uses_scores=False,
    ),
)
_BY_NAME = {name: mode for mode in MODES for name in (mode.name, *mode.aliases)}


def check_mode(mode: object) -> str:
    """The mode ``mode`` names (an alias gives its mode's name), else one
    ValueError listing the choices."""
    found = _BY_NAME.get(mode) if isinstance(mode, str) else None
    if found is None:
        choices = ", ".join(map(_listed, MODES))
        meant = did_you_mean(mode, _BY_NAME)
        raise ValueError(f"invalid multi-reference mode {mode!r}{meant}; choose from {choices}")
    return found.name


def _listed(mode: Mode) -> str:
    return f"{mode.name} (or {', '.join(mode.aliases)})" if mode.aliases else mode.name


def uses_scores(mode: str) -> bool:
    """Whether ``mode`` reads the references' scores (else only their tallies)."""
    return _BY_NAME[mode].uses_scores


def help_text() -> str:
    """The modes, one clause each, for ``--help``."""
    return "; ".join(f"{mode.name} ({mode.summary})" for mode in MODES)


def combine(plan: Plan, targets: Sequence[str], prediction: str, mode: str) -> ScoreDict:
    """The scores of ``prediction`` against all ``targets``, combined by
    ``mode`` (checked): ``score_multi``."""
    predictions = [prediction] * len(targets)
    found = combine_groups(plan, [len(targets)], targets, predictions, None, mode)[0]
    return found  # type: ignore[return-value]  # no size limit: never None


def chosen(
    plan: Plan, targets: Sequence[str], prediction: str, mode: str
) -> tuple[ScoreDict, list[int] | None]:
    """:func:`combine`'s scores, and per type the index of the reference in
    ``targets`` whose scores ``mode`` took (None for a mode that computes new
    scores), from the one combination: ``explain_multi``'s ``chosen``."""
    predictions = [prediction] * len(targets)
    found, result = _combined(plan, [len(targets)], targets, predictions, None, mode)
    picks = None if result.picks is None else [row[0] for row in result.picks]  # one group
    return found[0], picks  # type: ignore[return-value]  # no size limit: never None


def combine_groups(
    plan: Plan,
    counts: Sequence[int],
    targets: Sequence[str],
    predictions: Sequence[str],
    flat: Sequence[ScoreDict | None] | None,
    mode: str,
) -> list[ScoreDict | None]:
    """Per group of ``counts[g]`` consecutive (reference, prediction) pairs,
    its combined scores, given the pairs' scores ``flat`` (None: none computed,
    and no pair can be over a size limit); None for a group with a pair over
    the limit."""
    return _combined(plan, counts, targets, predictions, flat, mode)[0]


def _combined(
    plan: Plan,
    counts: Sequence[int],
    targets: Sequence[str],
    predictions: Sequence[str],
    flat: Sequence[ScoreDict | None] | None,
    mode: str,
) -> tuple[list[ScoreDict | None], Combined]:
    """:func:`combine_groups`'s result, and the mode's own (its picks)."""
    kept, pairs = _kept(counts, None if flat is None else [found is not None for found in flat])
    scores = None if flat is None else _picked(flat, pairs)
    groups = Groups(
        plan,
        [counts[g] for g in kept],
        _picked(targets, pairs),
        _picked(predictions, pairs),
        scores,  # the kept pairs: never None
    )
    result = _BY_NAME[mode].combine(groups)
    names = plan.spec.rouge_types
    combined: list[ScoreDict | None] = [None] * len(counts)
    if result.picks is not None:
        chosen = groups.dicts()
        for position, g in enumerate(kept):
            combined[g] = {
                name: chosen[row[position]][name] for name, row in zip(names, result.picks)
            }
    else:
        for position, g in enumerate(kept):
            combined[g] = {name: row[position] for name, row in zip(names, result.scores or [])}
    return combined, result


def combine_table(
    plan: Plan,
    counts: Sequence[int],
    targets: Sequence[str],
    predictions: Sequence[str],
    table: np.ndarray | None,
    mode: str,
) -> np.ndarray:
    """:func:`combine_groups` on the pairs' scores as a table (types x 3 x
    pairs, NaN for a pair over the size limit; None: not computed, for a mode
    that uses no scores when no pair can be over a limit), as a table of
    groups (NaN for a group with such a pair)."""
    kept, pairs = _kept(counts, None if table is None else (~np.isnan(table[0, 0])).tolist())
    scored = table if table is None or pairs is None else table[:, :, pairs]
    groups = Groups(
        plan,
        [counts[g] for g in kept],
        _picked(targets, pairs),
        _picked(predictions, pairs),
        scored,
    )
    result = _BY_NAME[mode].combine(groups)
    types = len(plan.spec.rouge_types)
    out = np.full((types, len(SCORE_FIELDS), len(counts)), math.nan)
    if not kept:  # every group over the limit (picks would be an empty float array)
        return out
    if result.picks is not None:
        assert scored is not None, "a mode that picks a reference uses its scores"
        picks = np.array(result.picks, dtype=np.intp)
        out[:, :, kept] = np.take_along_axis(scored, picks[:, None, :], axis=2)
    else:
        out[:, :, kept] = np.array(result.scores).transpose(0, 2, 1)
    return out


def _kept(counts: Sequence[int], scored: list[bool] | None) -> tuple[list[int], list[int] | None]:
    """The groups whose every pair was scored (all, when ``scored`` is None),
    and their pairs (None: all of them)."""
    if scored is None or all(scored):
        return list(range(len(counts))), None
    spans = bounds(counts)
    kept = [g for g, (start, stop) in enumerate(spans) if all(scored[start:stop])]
    return kept, [k for g in kept for k in range(*spans[g])]


def _picked(items: Sequence[Any], pairs: list[int] | None) -> Sequence[Any]:
    return items if pairs is None else [items[k] for k in pairs]

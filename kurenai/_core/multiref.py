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
from itertools import accumulate
from typing import Any, Callable, NamedTuple, Union

import numpy as np

from kurenai._core import plan as _plan
from kurenai._core.kinds import kind_of
from kurenai._core.plan import SCORE_FIELDS, Plan, ScoreDict, Tallies, TypeSpec
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

FMEASURE = SCORE_FIELDS.index("fmeasure")
# The pairs' scores: one dict per pair, or a float64 table (types x 3 x pairs).
PairScores = Union[Sequence[ScoreDict], np.ndarray, None]


class Groups:
    """Predictions, each against its group of references: ``counts[g]``
    consecutive (reference, prediction) pairs per group.

    A mode reads the pairs' scores (``column``: given, or computed on first
    use) and their tallies (computed on first use).
    """

    def __init__(
        self,
        plan: Plan,
        counts: Sequence[int],
        targets: Sequence[str],
        predictions: Sequence[str],
        scores: PairScores = None,
    ) -> None:
        self.plan, self.targets, self.predictions = plan, targets, predictions
        self.bounds = _bounds(counts)
        self._scores = scores
        self._tallies: list[Tallies] | None = None

    @property
    def spec(self) -> TypeSpec:
        return self.plan.spec

    def column(self, i: int, field: int) -> list[float]:
        """Per pair, the ``SCORE_FIELDS[field]`` of type ``i``."""
        if isinstance(self._scores, np.ndarray):
            found: list[float] = self._scores[i, field].tolist()
            return found
        name = self.spec.rouge_types[i]
        return [scores[name][field] for scores in self.dicts()]

    def dicts(self) -> Sequence[ScoreDict]:
        """Per pair, its scores as a dict (not for a table of scores)."""
        if self._scores is None:
            targets, predictions = list(self.targets), list(self.predictions)
            self._scores = self.plan.score_many(targets, predictions)  # type: ignore[assignment]
        assert not isinstance(self._scores, np.ndarray)
        return self._scores  # type: ignore[return-value]  # no size limit: never None

    @property
    def tallies(self) -> list[Tallies]:
        """Per pair, the counts behind each type's score."""
        if self._tallies is None:
            pairs = zip(self.targets, self.predictions)
            self._tallies = [
                _plan.tallies(self.plan, target, prediction) for target, prediction in pairs
            ]
        return self._tallies

    def first_highest(self, keys: Sequence[float]) -> list[int]:
        """Per group, the pair of its first highest key: the one rule by which
        every mode picks a reference (the first wins ties)."""
        picked = []
        for start, stop in self.bounds:
            winner = start
            for index in range(start + 1, stop):
                if keys[index] > keys[winner]:
                    winner = index
            picked.append(winner)
        return picked


class Combined(NamedTuple):
    """A mode's result: per type and group, the pair it picked, or a new Score."""

    picks: list[list[int]] | None = None
    scores: list[list[Score]] | None = None


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


#: The most references per prediction ``jackknife-average`` pools: it pools
#: every leave-one-out subset, M * (M - 1) tallies for M references.
MAX_POOLED_REFERENCES = 1_000


def _jackknife_picking(keys: Callable[[Groups, int], list[float]]) -> Callable[[Groups], Combined]:
    """The jackknife of a picking mode in linear time: leaving out any pair
    but the group's first highest keeps that one; leaving it out picks the
    first highest of the rest.  Per group, the mean P, R and F of the
    picks, leaving out each pair in order (a group of one: its own)."""

    def combine(groups: Groups) -> Combined:
        scores = []
        for i in range(len(groups.spec.rouge_types)):
            key = keys(groups, i)
            columns = [groups.column(i, field) for field in range(len(SCORE_FIELDS))]
            per_group = []
            for start, stop in groups.bounds:
                first = _first_highest(key, start, stop, None)
                second = _first_highest(key, start, stop, first) if stop - start > 1 else first
                picks = [second if k == first else first for k in range(start, stop)]
                per_group.append(_mean_score([Score(*(c[k] for c in columns)) for k in picks]))
            scores.append(per_group)
        return Combined(scores=scores)

    return combine


def _first_highest(keys: Sequence[float], start: int, stop: int, skip: int | None) -> int:
    winner = -1
    for index in range(start, stop):
        if index != skip and (winner < 0 or keys[index] > keys[winner]):
            winner = index
    return winner


def _jackknife(
    inner: Callable[[Groups], Combined], scored: bool = True
) -> Callable[[Groups], Combined]:
    """The jackknife over ``inner`` (which reads the pairs' scores, if
    ``scored``, else only their tallies): per group, the mean P, R and F of
    ``inner``'s scores over the group's leave-one-out subsets (a group of one
    reference is its own subset)."""

    def combine(groups: Groups) -> Combined:
        # Each pair's scores or tallies once, not once per subset holding it.
        if scored:
            if groups._scores is None:
                groups.dicts()
        elif groups._tallies is None:
            groups._tallies = groups.tallies
        most = max((stop - start for start, stop in groups.bounds), default=0)
        if most > MAX_POOLED_REFERENCES:
            raise ValueError(
                f"jackknife-average pools every leave-one-out subset of the references: at "
                f"most {MAX_POOLED_REFERENCES:,} references per prediction, got {most:,} "
                "(the jackknife and jackknife-best-recall modes take any number)"
            )
        subsets, owners = _leave_one_out(groups)
        found = inner(subsets)
        scores = []
        for i in range(len(groups.spec.rouge_types)):
            per_subset = _scores_of(subsets, found, i)
            merged: list[list[Score]] = [[] for _ in groups.bounds]
            for owner, score in zip(owners, per_subset):
                merged[owner].append(score)
            scores.append([_mean_score(found_scores) for found_scores in merged])
        return Combined(scores=scores)

    return combine


def _leave_one_out(groups: Groups) -> tuple[Groups, list[int]]:
    """Every leave-one-out subset of each group, as groups of their own, and
    the group each came from; the pairs keep the scores and tallies already
    computed (a group of one pair is one subset: itself)."""
    pairs: list[int] = []
    counts: list[int] = []
    owners: list[int] = []
    for g, (start, stop) in enumerate(groups.bounds):
        members = list(range(start, stop))
        for left in members if len(members) > 1 else [None]:
            subset = [k for k in members if k != left]
            pairs += subset
            counts.append(len(subset))
            owners.append(g)
    scores: PairScores = None
    found = groups._scores
    if isinstance(found, np.ndarray):
        scores = found[:, :, pairs]
    elif found is not None:
        scores = [found[k] for k in pairs]
    targets = [groups.targets[k] for k in pairs]
    predictions = [groups.predictions[k] for k in pairs]
    subsets = Groups(groups.plan, counts, targets, predictions, scores)
    if groups._tallies is not None:
        subsets._tallies = [groups._tallies[k] for k in pairs]
    return subsets, owners


def _scores_of(groups: Groups, found: Combined, i: int) -> list[Score]:
    """Per group, type ``i``'s Score in a mode's result (picked or computed)."""
    if found.scores is not None:
        return found.scores[i]
    assert found.picks is not None
    columns = [groups.column(i, field) for field in range(len(SCORE_FIELDS))]
    return [Score(*(column[k] for column in columns)) for k in found.picks[i]]


def _mean_score(scores: Sequence[Score]) -> Score:
    """The mean of each of P, R and F, added in order."""
    return Score(*(sum(field) / len(scores) for field in zip(*scores)))


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
        _jackknife_picking(_f_keys),
    ),
    Mode(
        "jackknife-best-recall",
        "the jackknife of best-recall: ROUGE-1.5.5's jackknifing with -f B",
        _jackknife_picking(_recall_keys),
    ),
    Mode(
        "jackknife-average",
        "the jackknife of average: ROUGE-1.5.5's jackknifing with -f A",
        _jackknife(_average, scored=False),
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


def _bounds(counts: Sequence[int]) -> list[tuple[int, int]]:
    starts = [0, *accumulate(counts)]
    return list(zip(starts, starts[1:]))


def _kept(counts: Sequence[int], scored: list[bool] | None) -> tuple[list[int], list[int] | None]:
    """The groups whose every pair was scored (all, when ``scored`` is None),
    and their pairs (None: all of them)."""
    if scored is None or all(scored):
        return list(range(len(counts))), None
    bounds = _bounds(counts)
    kept = [g for g, (start, stop) in enumerate(bounds) if all(scored[start:stop])]
    return kept, [k for g in kept for k in range(*bounds[g])]


def _picked(items: Sequence[Any], pairs: list[int] | None) -> Sequence[Any]:
    return items if pairs is None else [items[k] for k in pairs]

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

The counts come from the scorer's plan (``Plan.tallies``), so every type is
counted by the same twin, tokenizer and sentences as its plain score.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Callable

from kurenai._core import plan as _plan
from kurenai._core.kinds import kind_of
from kurenai._core.plan import Plan, ScoreDict, Tallies, TypeSpec
from kurenai.scoring import Score

__all__ = [
    "MODES",
    "Mode",
    "References",
    "check_mode",
    "combine",
    "combine_groups",
    "first_highest",
    "help_text",
    "uses_scores",
]


class References:
    """One prediction against its references: what a mode combines.

    Each reference's scores and tallies are computed on first use (``scores``
    may be given, when they are already known).
    """

    def __init__(
        self,
        plan: Plan,
        targets: Sequence[str],
        prediction: str,
        scores: Sequence[ScoreDict | None] | None = None,
    ) -> None:
        self.plan, self.targets, self.prediction = plan, targets, prediction
        self._scores = None if scores is None else list(scores)
        self._tallies: list[Tallies] | None = None

    @property
    def spec(self) -> TypeSpec:
        return self.plan.spec

    @property
    def scores(self) -> list[ScoreDict]:
        """Per reference, the prediction's scores."""
        if self._scores is None:
            count = len(self.targets)
            self._scores = self.plan.score_many(list(self.targets), [self.prediction] * count)
        return self._scores  # type: ignore[return-value]  # no size limit: never None

    @property
    def tallies(self) -> list[Tallies]:
        """Per reference, the counts behind each type's score."""
        if self._tallies is None:
            self._tallies = [
                _plan.tallies(self.plan, target, self.prediction) for target in self.targets
            ]
        return self._tallies


@dataclass(frozen=True)
class Mode:
    """One way of combining a prediction's scores against several references."""

    name: str
    summary: str  # what it does, for --help
    combine: Callable[[References], ScoreDict]
    uses_scores: bool = True  # False: it reads only the tallies (nothing to score first)
    aliases: tuple[str, ...] = ()


def first_highest(keys: Sequence[float]) -> int:
    """The index of the first of the highest ``keys``: every mode that picks a
    reference picks it so (the first one wins ties)."""
    winner = 0
    for index in range(1, len(keys)):
        if keys[index] > keys[winner]:
            winner = index
    return winner


def _best(references: References) -> ScoreDict:
    scores = references.scores
    return {
        name: scores[first_highest([found[name].fmeasure for found in scores])][name]
        for name in references.spec.rouge_types
    }


def _best_recall(references: References) -> ScoreDict:
    spec, scores, tallies = references.spec, references.scores, references.tallies
    result: ScoreDict = {}
    for i, (name, code) in enumerate(zip(spec.rouge_types, spec.kinds)):
        key = kind_of(code).recall_key
        winner = first_highest([key(found[i], spec.w_weight) for found in tallies])
        result[name] = scores[winner][name]
    return result


def _average(references: References) -> ScoreDict:
    spec, tallies = references.spec, references.tallies
    return {
        name: kind_of(code).pool([found[i] for found in tallies], spec.w_weight)
        for i, (name, code) in enumerate(zip(spec.rouge_types, spec.kinds))
    }


def _mean(references: References) -> ScoreDict:
    scores, count = references.scores, len(references.targets)
    return {
        name: Score(*(sum(field) / count for field in zip(*(found[name] for found in scores))))
        for name in references.spec.rouge_types
    }


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
)
_BY_NAME = {name: mode for mode in MODES for name in (mode.name, *mode.aliases)}


def check_mode(mode: object) -> str:
    """The mode ``mode`` names (an alias gives its mode's name), else one
    ValueError listing the choices."""
    found = _BY_NAME.get(mode) if isinstance(mode, str) else None
    if found is None:
        choices = ", ".join(map(_listed, MODES))
        raise ValueError(f"invalid multi-reference mode {mode!r}; choose from {choices}")
    return found.name


def _listed(mode: Mode) -> str:
    return f"{mode.name} (or {', '.join(mode.aliases)})" if mode.aliases else mode.name


def uses_scores(mode: str) -> bool:
    """Whether ``mode`` reads the references' scores (else only their tallies)."""
    return _BY_NAME[mode].uses_scores


def help_text() -> str:
    """The modes, one clause each, for ``--help``."""
    return "; ".join(f"{mode.name} ({mode.summary})" for mode in MODES)


def combine(
    plan: Plan,
    targets: Sequence[str],
    prediction: str,
    mode: str,
    scores: Sequence[ScoreDict | None] | None = None,
) -> ScoreDict:
    """The scores of ``prediction`` against all ``targets``, combined by
    ``mode`` (checked); ``scores``: each target's scores, if already computed."""
    return _BY_NAME[mode].combine(References(plan, targets, prediction, scores))


def combine_groups(
    plan: Plan,
    groups: Sequence[int],
    targets: Sequence[str],
    predictions: Sequence[str],
    flat: Sequence[ScoreDict | None] | None,
    mode: str,
) -> list[ScoreDict | None]:
    """:func:`combine` for each group of consecutive (reference, prediction)
    pairs, given their scores ``flat`` (None: not computed, as no pair can be
    over a size limit); None for a group with a pair over the limit."""
    combined: list[ScoreDict | None] = []
    start = 0
    for count in groups:
        stop = start + count
        scores = None if flat is None else flat[start:stop]
        if scores is not None and any(found is None for found in scores):
            combined.append(None)
        else:
            combined.append(combine(plan, targets[start:stop], predictions[start], mode, scores))
        start = stop
    return combined

"""The pairs a multi-reference mode reads: each prediction against its
group of references (:class:`Groups`), and what a mode returns
(:class:`Combined`).  The modes themselves are in :mod:`kurenai._core.multiref`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate
from typing import NamedTuple, Union

import numpy as np

from kurenai._core import plan as _plan
from kurenai._core.plan import SCORE_FIELDS, Plan, ScoreDict, Tallies, TypeSpec
from kurenai.scoring import Score

__all__ = ["FMEASURE", "Combined", "Groups", "PairScores", "bounds", "mean_score", "scores_of"]

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
        self.bounds = bounds(counts)
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

    def computed(self, scores: bool) -> None:
        """Compute each pair's scores (``scores``) or tallies now, once, so
        that subsets made by :meth:`subset` share them."""
        if not scores:
            _ = self.tallies  # a property that computes them on first use
        elif self._scores is None:
            self.dicts()

    def subset(self, pairs: Sequence[int], counts: Sequence[int]) -> Groups:
        """The groups of ``counts[g]`` consecutive pairs taken from ``pairs``
        (indices into these pairs), keeping the scores and tallies already
        computed."""
        scores: PairScores = None
        if isinstance(self._scores, np.ndarray):
            scores = self._scores[:, :, list(pairs)]
        elif self._scores is not None:
            scores = [self._scores[k] for k in pairs]
        targets = [self.targets[k] for k in pairs]
        predictions = [self.predictions[k] for k in pairs]
        found = Groups(self.plan, counts, targets, predictions, scores)
        if self._tallies is not None:
            found._tallies = [self._tallies[k] for k in pairs]
        return found

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


def scores_of(groups: Groups, found: Combined, i: int) -> list[Score]:
    """Per group, type ``i``'s Score in a mode's result (picked or computed)."""
    if found.scores is not None:
        return found.scores[i]
    assert found.picks is not None
    columns = [groups.column(i, field) for field in range(len(SCORE_FIELDS))]
    return [Score(*(column[k] for column in columns)) for k in found.picks[i]]


def mean_score(scores: Sequence[Score]) -> Score:
    """The mean of each of P, R and F, added in order."""
    return Score(*(sum(field) / len(scores) for field in zip(*scores)))


def bounds(counts: Sequence[int]) -> list[tuple[int, int]]:
    starts = [0, *accumulate(counts)]
    return list(zip(starts, starts[1:]))

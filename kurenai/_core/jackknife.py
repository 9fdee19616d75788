"""The jackknife over references (Lin 2004; ROUGE-1.5.5's jackknifing; the
GEM benchmark): per prediction, the mean of a mode's scores over the
leave-one-out subsets of its references.  The modes that use it are in
:mod:`kurenai._core.multiref`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Callable

from kurenai._core.groups import Combined, Groups, mean_score, scores_of
from kurenai._core.plan import SCORE_FIELDS
from kurenai.scoring import Score

__all__ = ["MAX_POOLED_REFERENCES", "jackknife", "jackknife_picking"]

#: The most references per prediction ``jackknife-average`` pools: it pools
#: every leave-one-out subset, M * (M - 1) tallies for M references.
MAX_POOLED_REFERENCES = 1_000


def jackknife_picking(keys: Callable[[Groups, int], list[float]]) -> Callable[[Groups], Combined]:
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
                per_group.append(mean_score([Score(*(c[k] for c in columns)) for k in picks]))
            scores.append(per_group)
        return Combined(scores=scores)

    return combine


def _first_highest(keys: Sequence[float], start: int, stop: int, skip: int | None) -> int:
    winner = -1
    for index in range(start, stop):
        if index != skip and (winner < 0 or keys[index] > keys[winner]):
            winner = index
    return winner


def jackknife(
    inner: Callable[[Groups], Combined], scored: bool = True
) -> Callable[[Groups], Combined]:
    """The jackknife over ``inner`` (which reads the pairs' scores, if
    ``scored``, else only their tallies): per group, the mean P, R and F of
    ``inner``'s scores over the group's leave-one-out subsets (a group of one
    reference is its own subset)."""

    def combine(groups: Groups) -> Combined:
        groups.computed(scores=scored)  # once, not once per subset holding a pair
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
            per_subset = scores_of(subsets, found, i)
            merged: list[list[Score]] = [[] for _ in groups.bounds]
            for owner, score in zip(owners, per_subset):
                merged[owner].append(score)
            scores.append([mean_score(found_scores) for found_scores in merged])
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
    return groups.subset(pairs, counts), owners

"""How stable a ranking of systems is when the references are resampled.

With several references per document, which ones were collected changes the
scores, and can change the order of a leaderboard ("Evaluation Should Not
Ignore Variation", 2025, on SummEval, GUMSum and DUC 2004).
:func:`rank_stability` scores every system against each reference alone
once, then draws ``n_samples`` reference sets: per document, as many
references as it has, with replacement (and, with ``documents=True``, the
documents too).  Under ``mode="best"`` (rouge-score's rule) a system's
score on a document against a drawn set is the highest F of its references
in it (exactly what ``score_multi(drawn, prediction, mode="best")`` gives);
under ``mode="mean"`` their mean.  Each sample ranks the systems by their
mean over documents; the result gives each system's rank distribution and,
for each pair, how often their order differs from the order against all
the references.  Draws come from ``numpy.random.default_rng(seed)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from kurenai.stats._bootstrap import check_draws
from kurenai.stats._correlation import check_choice

__all__ = ["RankStability", "rank_stability"]

MODES = ("best", "mean")
Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True)
class RankStability:
    """Ranks of ``systems`` over resampled reference sets.

    ``scores``: each system's mean F against all the references (the
    observed ranking is by it, ties in input order); ``ranks[s][k]``: how
    many samples put system ``s`` at rank ``k + 1``; ``swaps[(a, b)]``: the
    share of samples where a and b (a ranked above b against all the
    references) change order."""

    rouge_type: str
    mode: str
    samples: int
    documents: bool
    seed: int | None
    systems: tuple[str, ...]
    scores: dict[str, float]
    ranks: dict[str, list[int]]
    swaps: dict[tuple[str, str], float]

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: the settings, the observed order, ranks and swaps."""
        return {
            "rouge_type": self.rouge_type,
            "mode": self.mode,
            "samples": self.samples,
            "resample_documents": self.documents,
            "seed": self.seed,
            "systems": [
                {"system": s, "score": self.scores[s], "ranks": self.ranks[s]} for s in self.systems
            ],
            "swaps": [{"above": a, "below": b, "share": v} for (a, b), v in self.swaps.items()],
        }

    def text(self) -> str:
        """An aligned table: each system's score, its most frequent rank and
        how often it keeps its observed rank; then the pairs that ever swap."""
        lines = [
            f"rank stability of {self.rouge_type} F ({self.mode} reference) over "
            f"{self.samples} resampled reference sets"
            + (" and documents" if self.documents else "")
            + ":",
        ]
        rows = [["rank", "system", "F", "same rank", "rank range"]]
        for k, system in enumerate(self.systems):
            counts = self.ranks[system]
            seen = [r + 1 for r, c in enumerate(counts) if c]
            rows.append([
                str(k + 1), system, f"{self.scores[system]:.4f}",
                f"{counts[k] / self.samples:.1%}", f"{min(seen)}-{max(seen)}",
            ])  # fmt: skip
        lines.append(_aligned(rows))
        swapping = [(pair, v) for pair, v in self.swaps.items() if v > 0]
        if swapping:
            lines += ["", "pairs that swap (share of samples):"]
            lines += [f"  {a} / {b}: {v:.1%}" for (a, b), v in swapping]
        else:
            lines += ["", "no pair of systems ever swaps"]
        return "\n".join(lines)


def rank_stability(
    scorer: Any,
    references: Sequence[Sequence[str]],
    systems: Mapping[str, Sequence[str]],
    n_samples: int = 1000,
    *,
    mode: str = "best",
    documents: bool = False,
    seed: int | None = None,
    rouge_type: str | None = None,
) -> RankStability:
    """Resample each document's references (see the module).

    ``references``: per document, its references (a str is one reference);
    ``systems``: name -> one prediction per document; ``scorer``: a
    :class:`~kurenai.rouge_scorer.RougeScorer`, whose first type ranks
    unless ``rouge_type`` names another of its types.

    >>> from kurenai.rouge_scorer import RougeScorer
    >>> refs = [["a b c", "a b d", "x y z"], ["d e f", "d e", "q"]]
    >>> systems = {"one": ["a b c", "d e f"], "two": ["a b d", "d e"]}
    >>> found = rank_stability(RougeScorer(["rouge1"]), refs, systems, 200, seed=0)
    >>> found.systems, 0 < found.swaps[("one", "two")] < 1
    (('one', 'two'), True)
    """
    check_choice(mode, MODES, "mode")
    check_draws(n_samples, "n_samples")
    if n_samples <= 0:
        raise ValueError(f"n_samples must be positive, got {n_samples}")
    names = list(systems)
    if len(names) < 2:
        raise ValueError("rank stability compares at least 2 systems")
    groups = [[r] if isinstance(r, str) else list(r) for r in references]
    if not groups or any(not refs for refs in groups):
        raise ValueError("every document needs at least one reference")
    for name in names:
        if len(systems[name]) != len(groups):
            raise ValueError(f"system {name!r} has {len(systems[name])} predictions for "
                             f"{len(groups)} documents")  # fmt: skip
    type_index = _type_index(scorer, rouge_type)
    single = _single_scores(scorer, groups, systems, names, type_index)
    combine = np.max if mode == "best" else np.mean
    observed = np.array([[combine(f) for f in per_system] for per_system in single]).mean(axis=1)
    order = np.argsort(-observed, kind="stable")
    rng = np.random.default_rng(seed)
    # With documents: each sample counts each document as often as it was drawn.
    weights = None
    if documents:
        weights = rng.multinomial(len(groups), [1 / len(groups)] * len(groups), size=n_samples)
    totals = np.zeros((n_samples, len(names)))
    for d, refs in enumerate(groups):  # per document: (samples x drawn references)
        drawn = rng.integers(0, len(refs), size=(n_samples, len(refs)))
        for s in range(len(names)):
            found = combine(single[s][d][drawn], axis=1)
            totals[:, s] += found if weights is None else weights[:, d] * found
    means = totals / len(groups)
    ranks = np.argsort(np.argsort(-means, axis=1, kind="stable"), axis=1, kind="stable")
    counts = {names[s]: np.bincount(ranks[:, s], minlength=len(names)).tolist() for s in order}
    swaps = {}
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            swaps[(names[a], names[b])] = float(np.mean(ranks[:, a] > ranks[:, b]))
    return RankStability(
        scorer.rouge_types[type_index], mode, n_samples, documents, seed,
        tuple(names[s] for s in order), {names[s]: float(observed[s]) for s in order},
        counts, swaps,
    )  # fmt: skip


def _type_index(scorer: Any, rouge_type: str | None) -> int:
    types = list(scorer.rouge_types)
    if rouge_type is None:
        return 0
    return types.index(check_choice(rouge_type, tuple(types), "rouge type"))


def _single_scores(
    scorer: Any,
    groups: list[list[str]],
    systems: Mapping[str, Sequence[str]],
    names: list[str],
    type_index: int,
) -> list[list[Matrix]]:
    """Per system and document, the F against each of its references alone."""
    flat_refs = [ref for refs in groups for ref in refs]
    bounds = np.cumsum([0] + [len(refs) for refs in groups])
    found = []
    for name in names:
        predictions = [p for d, p in enumerate(systems[name]) for _ in groups[d]]
        table = scorer.score_batch(flat_refs, predictions, columnar=True)
        column = np.asarray(table[scorer.rouge_types[type_index]].fmeasure, np.float64)
        found.append([column[bounds[d] : bounds[d + 1]] for d in range(len(groups))])
    return found


def _aligned(rows: list[list[str]]) -> str:
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)

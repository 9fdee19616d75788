"""Several systems against the same references: scores and a leaderboard.

:func:`score_systems` (:mod:`kurenai._core.shared`) scores every system's
predictions against the same references.

:func:`leaderboard` gives each system's bootstrap interval per type and the
paired test (the paired bootstrap, or approximate randomization) of each
system against the one ranked first (by the mean F of the first type), or of
every pair.  "best" is said of a system per type, where its mean F is the
highest of that type (every system tied for it): the system ranked first
need not be the best of another type.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

import numpy as np
import numpy.typing as npt

from kurenai._core.shared import score_systems
from kurenai.stats._bootstrap import PairedResult, bootstrap
from kurenai.stats._paired import check_test, paired_test
from kurenai.tokenizers import AllCharacterSupportTokenizer

__all__ = ["Leaderboard", "Standing", "leaderboard", "score_systems", "token_counts"]

Target = Union[str, Sequence[str]]
Matrix = npt.NDArray[np.float64]  # (types x P/R/F x records)


def token_counts(tokenizer: Any, texts: Sequence[Target]) -> npt.NDArray[np.int64]:
    """The number of tokens of each text (of its first reference, for a list)."""
    tokenize = tokenizer.tokenize
    if type(tokenizer) is AllCharacterSupportTokenizer:
        # Its tokens are the whitespace-separated words (lowercasing moves no
        # space, its stemmer drops no word): counted without making them.
        tokenize = str.split
    return np.fromiter(
        (len(tokenize(t if isinstance(t, str) else t[0])) for t in texts),
        np.int64,
        count=len(texts),
    )


@dataclass(frozen=True)
class Standing:
    """One system's row: per type the bootstrap (low, mid, high) of the mean F,
    its paired comparison with the system it is compared to, and per type
    its mean F (``means``, what the rank and "best" read)."""

    system: str
    rank: int
    intervals: dict[str, tuple[float, float, float]]
    compared_to: str | None
    comparison: dict[str, PairedResult]
    means: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Leaderboard:
    """Systems in order of the first type's mean F, best first; ``pairs``: every
    pair's comparison (``(a, b)`` -> results of a - b) when asked for."""

    rouge_types: tuple[str, ...]
    standings: tuple[Standing, ...]
    pairs: dict[tuple[str, str], dict[str, PairedResult]]
    confidence: float
    # The rank stability under resampled references, when asked for
    # (:func:`kurenai.stats.rank_stability`), else None.
    stability: Any = None

    @property
    def ranked_by(self) -> str:
        """The type the rank is by: the first one."""
        return self.rouge_types[0]

    def best(self, rouge_type: str) -> tuple[str, ...]:
        """The systems whose mean F of ``rouge_type`` is the highest (all of
        them when tied; none when every mean is NaN)."""
        means = {s.system: s.means.get(rouge_type, np.nan) for s in self.standings}
        known = [m for m in means.values() if not np.isnan(m)]
        if not known or len(self.standings) < 2:
            return ()
        top = max(known)
        return tuple(name for name, m in means.items() if m == top)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: the type ranked by, the standings and the pairs."""
        best = {t: set(self.best(t)) for t in self.rouge_types}
        return {
            "rouge_types": list(self.rouge_types),
            "ranked_by": self.ranked_by,
            "confidence": self.confidence,
            "standings": [
                {
                    "system": s.system,
                    "rank": s.rank,
                    "intervals": {t: list(v) for t, v in s.intervals.items()},
                    "means": dict(s.means),
                    "best": [t for t in self.rouge_types if s.system in best[t]],
                    "compared_to": s.compared_to,
                    "comparison": {t: r.as_dict() for t, r in s.comparison.items()},
                }
                for s in self.standings
            ],
            "pairs": [
                {"system": a, "baseline": b, "comparison": {t: r.as_dict() for t, r in c.items()}}
                for (a, b), c in self.pairs.items()
            ],
            **({} if self.stability is None else {"rank_stability": self.stability.as_dict()}),
        }

    def text(self) -> str:
        """An aligned table: rank, system, per type mean F [low, high]
        ("best" where it is the type's highest) and the difference from the
        system ranked first with its p-value; then what the rank is by."""
        header = ["rank", "system"]
        for t in self.rouge_types:
            header += [f"{t} F [{self.confidence:.0%} CI]", "Δ rank 1 (p)"]
        best = {t: set(self.best(t)) for t in self.rouge_types}
        rows = [header]
        for s in self.standings:
            row = [str(s.rank), s.system]
            for t in self.rouge_types:
                low, mid, high = s.intervals[t]
                marked = " best" if s.system in best[t] else ""
                row.append(f"{mid:.4f} [{low:.4f}, {high:.4f}]{marked}")
                c = s.comparison.get(t)
                row.append("—" if c is None else f"{c.difference:+.4f} ({c.p_value:.3f})")
            rows.append(row)
        widths = [max(len(r[k]) for r in rows) for k in range(len(header))]
        lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
        if len(self.standings) > 1:
            lines.append(self.legend())
        if self.stability is not None:
            lines += ["", self.stability.text()]
        return "\n".join(lines)

    def legend(self) -> str:
        """What the table's rank, Δ and "best" mean, in one sentence (the
        text table's last line and the report's caption)."""
        return (
            f"Ranked by the mean {self.ranked_by} F (the first type); "
            "Δ: the difference from rank 1, with the paired test's p; "
            "best: the highest mean F of its type."
        )


# The multi-reference modes a rank stability can follow, and its name for each.
STABILITY_MODES = {"best": "best", "mean": "mean", "avg": "mean"}


def leaderboard(
    scores: Mapping[str, Matrix],
    rouge_types: Sequence[str],
    n_samples: int = 1000,
    confidence: float = 0.95,
    seed: int | None = None,
    all_pairs: bool = False,
    test: str = "bootstrap",
    n_trials: int | None = None,
) -> Leaderboard:
    """Rank ``scores`` (per system, as :func:`score_systems` gives them).

    Each bootstrap and paired test starts from ``seed`` afresh, so a system's
    interval does not depend on which other systems are on the board.
    ``test`` names the paired test (:mod:`kurenai.stats._paired`: ``bootstrap``
    and ``sacrebleu-bs`` draw ``n_samples`` resamples; ``ar`` and
    ``sacrebleu-ar``, approximate randomization, draw ``n_trials``, None: the
    test's default); each result's ``test`` names it.
    """
    chosen = check_test(test)
    draws = chosen.draws(n_samples, n_trials)

    def compare(a: str, b: str) -> dict[str, PairedResult]:
        # An int seed: each test starts afresh from it.
        return paired_test(f[a], f[b], chosen.name, draws, confidence, seed)

    if not scores:
        raise ValueError("a leaderboard needs at least one system")
    means = {
        name: {t: float(np.mean(m[k, 2])) for k, t in enumerate(rouge_types)}
        for name, m in scores.items()
    }
    first = rouge_types[0]
    order = sorted(scores, key=lambda name: -means[name][first])  # stable: input order on ties
    best = order[0]
    f = {name: {t: m[k, 2] for k, t in enumerate(rouge_types)} for name, m in scores.items()}
    standings = []
    for rank, name in enumerate(order, 1):
        matrices = {t: scores[name][k].T for k, t in enumerate(rouge_types)}
        aggregate = bootstrap(matrices, n_samples, confidence, _seed(seed))
        intervals = {
            t: (
                float(aggregate[t].low.fmeasure),
                float(aggregate[t].mid.fmeasure),
                float(aggregate[t].high.fmeasure),
            )
            for t in rouge_types
        }
        comparison = {} if name == best else compare(name, best)
        compared = None if name == best else best
        standings.append(Standing(name, rank, intervals, compared, comparison, means[name]))
    pairs = {}
    if all_pairs:
        for i, a in enumerate(order):
            for b in order[i + 1 :]:
                pairs[(a, b)] = compare(a, b)
    return Leaderboard(tuple(rouge_types), tuple(standings), pairs, confidence)


def _seed(seed: int | None) -> Any:
    # None draws from NumPy's global generator, as rouge-score's aggregator does.
    return None if seed is None else np.random.RandomState(seed)


def reference_stability(
    scorer: Any,
    targets: Sequence[Target],
    systems: Mapping[str, Sequence[str]],
    n_samples: int,
    mode: str = "best",
    seed: int | None = None,
) -> Any:
    """The systems' :func:`~kurenai.stats.rank_stability` over ``n_samples``
    resampled reference sets of each record (``mode``: ``best``, or ``mean``/
    ``avg``: how a drawn set's scores combine, as the multi-reference modes).

    Raises ValueError when no record has several references, or under
    another mode."""
    from kurenai.stats import rank_stability

    if mode not in STABILITY_MODES:
        raise ValueError(f"rank stability under the references combines them by best or mean "
                         f"(the multi-reference modes), not {mode!r}")  # fmt: skip
    if not any(not isinstance(t, str) and len(t) > 1 for t in targets):
        raise ValueError("rank stability under the references needs records with several "
                         "references: every record has one")  # fmt: skip
    return rank_stability(
        scorer, targets, systems, n_samples, mode=STABILITY_MODES[mode], seed=seed
    )

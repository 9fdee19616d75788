"""What :func:`kurenai.report.correlate` returns: correlations, intervals, tests.

Plain data, JSON-ready through :meth:`Correlations.as_dict` and printed as
an aligned table by :meth:`Correlations.text`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from kurenai.stats._correlation_resampling import Comparison, Interval

__all__ = ["Correlation", "Correlations", "MetricTest"]

Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Correlation:
    """One metric's correlation with one criterion at one level.

    ``vectors``: the documents whose correlation is defined (summary level;
    ``value`` is their mean) or 1 (system level; 0 when undefined).
    ``interval``: the bootstrap interval, None when not asked for."""

    criterion: str
    level: str
    metric: str
    coefficient: str
    value: float
    vectors: int
    interval: Interval | None


@dataclass(frozen=True)
class MetricTest:
    """A test of two metrics' correlations with one criterion at one level."""

    criterion: str
    level: str
    coefficient: str
    test: Comparison


@dataclass(frozen=True)
class Correlations:
    """Every correlation and test of a :func:`~kurenai.report.correlate` run.

    ``metric_scores`` / ``human_scores``: the (systems x documents) matrices
    they were computed from (NaN: a summary with no judgment), per metric
    and per criterion, in the order of ``systems`` and ``documents``;
    ``stability``: a :class:`~kurenai.stats.RankStability`, or None."""

    systems: tuple[str, ...]
    documents: tuple[str, ...]
    metrics: tuple[str, ...]
    criteria: tuple[str, ...]
    correlations: tuple[Correlation, ...]
    tests: tuple[MetricTest, ...]
    settings: dict[str, Any]
    metric_scores: Mapping[str, Matrix] = field(repr=False)
    human_scores: Mapping[str, Matrix] = field(repr=False)
    # The judged systems' rank stability under resampled references, when
    # asked for (:func:`kurenai.stats.rank_stability`).
    stability: Any = None

    def get(self, criterion: str, level: str, metric: str, coefficient: str) -> Correlation:
        """The one correlation of these four, or a KeyError naming them."""
        for found in self.correlations:
            if (found.criterion, found.level, found.metric, found.coefficient) == (
                criterion,
                level,
                metric,
                coefficient,
            ):
                return found
        raise KeyError(f"no {coefficient} {level}-level correlation of {metric} with {criterion}")

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready (NaN as None): the settings, the correlations, the tests."""
        return {
            "systems": list(self.systems),
            "documents": len(self.documents),
            "metrics": list(self.metrics),
            "criteria": list(self.criteria),
            "settings": dict(self.settings),
            "correlations": [_finite(asdict(c)) for c in self.correlations],
            "tests": [
                _finite(
                    {
                        **asdict(t.test),
                        "criterion": t.criterion,
                        "level": t.level,
                        "coefficient": t.coefficient,
                    }
                )
                for t in self.tests
            ],
            **({} if self.stability is None else {"rank_stability": self.stability.as_dict()}),
        }

    def text(self) -> str:
        """Aligned tables: per criterion and level, each metric's coefficients
        with their intervals; then the tests."""
        coefficients = list(dict.fromkeys(c.coefficient for c in self.correlations))
        confidence = self.settings.get("confidence", 0.95)
        rows = [["criterion", "level", "metric", *coefficients]]
        for c in self.correlations:
            if c.coefficient != coefficients[0]:
                continue
            row = [c.criterion, c.level, c.metric]
            for name in coefficients:
                row.append(_shown(self.get(c.criterion, c.level, c.metric, name)))
            rows.append(row)
        lines = [
            f"correlations ({confidence:.0%} bootstrap intervals, "
            f"resampling {self.settings.get('resample')}):",
            _aligned(rows),
        ]
        if self.tests:
            tests = [["criterion", "level", "coefficient", "a", "b", "a - b", "test", "p"]]
            for t in self.tests:
                tests.append(
                    [
                        t.criterion,
                        t.level,
                        t.coefficient,
                        t.test.a,
                        t.test.b,
                        _number(t.test.difference, "+.4f"),
                        t.test.method,
                        _number(t.test.p_value, ".4f"),
                    ]
                )
            williams = self.settings.get("williams", "signed")
            lines += ["", f"tests (two-sided; Williams' test {williams}):", _aligned(tests)]
        if self.stability is not None:
            lines += ["", self.stability.text()]
        return "\n".join(lines)


def _shown(c: Correlation) -> str:
    if c.interval is None:
        return _number(c.value, ".4f")
    low, high = _number(c.interval.low, ".4f"), _number(c.interval.high, ".4f")
    return f"{_number(c.value, '.4f')} [{low}, {high}]"


def _number(value: float, fmt: str) -> str:
    return "nan" if math.isnan(value) else format(value, fmt)


def _aligned(rows: list[list[str]]) -> str:
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)


def _finite(value: Any) -> Any:
    """``value`` with every NaN float as None (NaN is no JSON)."""
    if isinstance(value, float):
        return None if math.isnan(value) else value
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    return value

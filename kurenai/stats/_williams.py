"""Williams' test of two dependent correlations, both ways the field applies it.

Two metrics ``a`` and ``b`` correlate with the same human scores; their
correlations are dependent (they share the human side, and the metrics
correlate with each other).  Williams (1959), as Graham & Baldwin (2014)
brought it to metric evaluation and R's ``psych::r.test`` computes it, with
r12 = corr(a, human), r13 = corr(b, human), r23 = corr(a, b) at the chosen
level and n observations::

    K = 1 - r12² - r13² - r23² + 2 r12 r13 r23
    t = (r12 - r13) √((n - 1)(1 + r23) / (2 K (n - 1)/(n - 3) + ((r12 + r13)/2)² (1 - r23)³))

with n - 3 degrees of freedom.  SacreROUGE (``sacrerouge/stats.py``,
``williams_diff_test``) and the WMT metrics task take the **absolute
values** of r12, r13 and r23 first ("it does not matter whether they are
positively or negatively correlated"): ``absolute=True``.  The default
keeps their signs, so a metric that anti-correlates with people is not
credited for it.  One-tailed tests ask whether a correlates better than b
(p = P(T > t)), as SacreROUGE's do in either order; two-tailed ones
``2 P(T > |t|)``.

n is what SacreROUGE counts: at the system level the systems with a score,
at the global level the scored summaries, at the summary level (where the
test is only a heuristic) the most systems scored on one document.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from kurenai.stats._correlation import (
    COEFFICIENTS,
    LEVELS,
    check_choice,
    level_correlation,
    scipy_stats,
)

__all__ = ["WilliamsTest", "williams_test"]

Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True)
class WilliamsTest:
    """Williams' test of corr(a, human) against corr(b, human).

    ``r12``, ``r13``, ``r23``: the correlations the formula took (absolute
    values under ``absolute``); ``difference``: r12 - r13; ``n``: the
    observations; ``t``: the statistic; ``p_value``: NaN when the test is
    undefined (n ≤ 3, a correlation undefined, a negative variance term)."""

    level: str
    coefficient: str
    absolute: bool
    tails: int
    r12: float
    r13: float
    r23: float
    n: int
    difference: float
    t: float
    p_value: float

    @property
    def convention(self) -> str:
        """``absolute (SacreROUGE, WMT)`` or ``signed``."""
        return "absolute (SacreROUGE, WMT)" if self.absolute else "signed"


def williams_test(
    a: npt.ArrayLike,
    b: npt.ArrayLike,
    human: npt.ArrayLike,
    level: str = "system",
    coefficient: str = "pearson",
    *,
    absolute: bool = False,
    tails: int = 2,
) -> WilliamsTest:
    """Williams' test of whether metric ``a`` correlates with ``human``
    better than metric ``b`` does (see the module).

    ``a``, ``b``, ``human``: (systems x documents) scores, NaN where a
    summary is not scored (a cell unscored in any of the three is left out
    of all three).  ``level``: ``system``, ``summary`` or ``global``;
    ``coefficient``: ``pearson``, ``spearman`` or ``kendall``;
    ``absolute=True``: SacreROUGE's and WMT's convention; ``tails``: 1 (a
    better than b) or 2.

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> human = rng.random((8, 4))
    >>> result = williams_test(human + rng.random((8, 4)) * 0.1, rng.random((8, 4)), human)
    >>> result.difference > 0, result.p_value < 0.05
    (True, True)
    """
    check_choice(level, LEVELS, "level")
    check_choice(coefficient, COEFFICIENTS, "coefficient")
    if tails not in (1, 2) or isinstance(tails, bool):
        raise ValueError(f"tails must be 1 or 2, got {tails!r}")
    x, y, z = (np.array(m, dtype=np.float64) for m in (a, b, human))
    if not x.shape == y.shape == z.shape or x.ndim != 2:
        raise ValueError(
            f"a, b and human must be (systems x documents) matrices of one shape, "
            f"got {x.shape}, {y.shape}, {z.shape}"
        )
    unscored = np.isnan(x) | np.isnan(y) | np.isnan(z)
    for m in (x, y, z):
        m[unscored] = np.nan
    r12 = level_correlation(coefficient, level, x, z)[0]
    r13 = level_correlation(coefficient, level, y, z)[0]
    r23 = level_correlation(coefficient, level, x, y)[0]
    if absolute:
        r12, r13, r23 = abs(r12), abs(r13), abs(r23)
    n = _observations(level, ~unscored)
    t, p_value = _statistic(r12, r13, r23, n, tails)
    return WilliamsTest(
        level, coefficient, bool(absolute), tails, r12, r13, r23, n, r12 - r13, t, p_value
    )


def _observations(level: str, scored: npt.NDArray[np.bool_]) -> int:
    if level == "system":
        return int(scored.any(axis=1).sum())
    if level == "global":
        return int(scored.sum())
    return int(scored.sum(axis=0).max(initial=0))


def _statistic(r12: float, r13: float, r23: float, n: int, tails: int) -> tuple[float, float]:
    """(t, p): psych::r.test's formula for dependent correlations."""
    nan = float("nan")
    if n <= 3 or np.isnan([r12, r13, r23]).any():
        return nan, nan
    det = 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r13 * r23
    denominator = 2 * (n - 1) / (n - 3) * det + ((r12 + r13) / 2) ** 2 * (1 - r23) ** 3
    if denominator <= 0:
        # Equal correlations of identical metrics: no difference, nothing to test.
        return (0.0, 1.0 if tails == 2 else 0.5) if r12 == r13 else (nan, nan)
    t = (r12 - r13) * np.sqrt((n - 1) * (1 + r23) / denominator)
    distribution = scipy_stats().t
    if tails == 1:
        return float(t), float(distribution.sf(t, n - 3))
    return float(t), float(min(1.0, 2 * distribution.sf(abs(t), n - 3)))

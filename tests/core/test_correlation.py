"""Correlations with human judgments (kurenai.stats._correlation and
correlation_resampling) against SciPy and against plain implementations of
Deutsch, Dror & Roth's (2021) resampling, written here loop by loop."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from optional import missing

try:
    import scipy.stats as stats
except ImportError:  # pragma: no cover - the correlate extra is in the test extra
    stats = None

from kurenai.stats._correlation import (
    COEFFICIENTS,
    batch_correlation,
    correlation,
    level_correlation,
)
from kurenai.stats._correlation_resampling import (
    bootstrap_intervals,
    permutation_test,
    williams_comparison,
)


@pytest.fixture(autouse=True)
def _scipy() -> None:
    if stats is None:
        missing("scipy (the correlate extra) is not installed")


def _scipy_value(coefficient: str, x: Any, y: Any) -> float:
    function = {
        "pearson": stats.pearsonr,
        "spearman": stats.spearmanr,
        "kendall": stats.kendalltau,
    }[coefficient]
    return float(function(x, y)[0])


def _tied(rng: np.random.Generator, shape: tuple[int, ...]) -> Any:
    """Scores with many ties (few distinct values), as ROUGE and Likert scores have."""
    return rng.integers(0, 6, size=shape) / 5


# ------------------------------------------------------------ point estimates


@pytest.mark.parametrize("coefficient", COEFFICIENTS)
@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.floats(-1, 1)), min_size=3, max_size=12))
def test_a_correlation_is_scipys_own(coefficient: str, pairs: list[tuple[int, float]]) -> None:
    x = [float(a) for a, _ in pairs]
    y = [b for _, b in pairs]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        defined = len(set(x)) > 1 and len(set(y)) > 1
        expected = _scipy_value(coefficient, x, y) if defined else float("nan")
    found = correlation(coefficient, x, y)
    assert found == expected or (np.isnan(found) and np.isnan(expected))


@pytest.mark.parametrize("coefficient", COEFFICIENTS)
def test_undefined_correlations_are_nan_without_a_warning(coefficient: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isnan(correlation(coefficient, [1, 1, 1, 1], [1, 2, 3, 4]))  # constant
        assert np.isnan(correlation(coefficient, [1, 2], [2, 1]))  # too few pairs
        assert np.isnan(correlation(coefficient, [1, 2, np.nan, 4], [1, np.nan, 3, 5]))
        assert not np.isnan(correlation(coefficient, [1, 2, 3, np.nan], [1, 3, 2, 9]))


def test_an_unknown_coefficient_is_named() -> None:
    with pytest.raises(ValueError, match=r"unknown coefficient 'tau'.*pearson, spearman, kendall"):
        correlation("tau", [1, 2, 3], [1, 2, 3])
    with pytest.raises(ValueError, match=r"'Kendal' \(did you mean 'kendall'\?\): choose from"):
        correlation("Kendal", [1, 2, 3], [1, 2, 3])


@pytest.mark.parametrize("coefficient", COEFFICIENTS)
def test_the_vectorised_twin_agrees_with_scipy_row_by_row(coefficient: str) -> None:
    rng = np.random.default_rng(7)
    x = _tied(rng, (300, 9))
    y = np.round(x + rng.normal(0, 0.3, x.shape), 1)
    x[rng.random(x.shape) < 0.15] = np.nan
    x[0] = 0.4  # a constant row: undefined
    expected = np.array([correlation(coefficient, a, b) for a, b in zip(x, y)])
    found = batch_correlation(coefficient, x, y)
    assert np.array_equal(np.isnan(found), np.isnan(expected))
    assert np.nanmax(np.abs(found - expected)) < 1e-12
    # Negative control: the harness sees a row that is off.
    y[5, :3] = y[5, 2::-1]
    assert np.nanmax(np.abs(batch_correlation(coefficient, x, y) - expected)) > 1e-6


@pytest.mark.parametrize("coefficient", COEFFICIENTS)
def test_levels_follow_their_definitions(coefficient: str) -> None:
    rng = np.random.default_rng(3)
    human = _tied(rng, (6, 8))
    metric = human + rng.normal(0, 0.4, human.shape)
    metric[2, 3] = human[2, 3] = np.nan
    human[:, 5] = 0.6  # a document every system got the same judgment: undefined
    per_document = []
    for j in range(8):
        kept = ~np.isnan(human[:, j])
        if np.ptp(human[kept, j]) > 0:
            per_document.append(_scipy_value(coefficient, metric[kept, j], human[kept, j]))
    assert level_correlation(coefficient, "summary", metric, human) == (
        float(np.mean(per_document)),
        7,
    )
    expected = _scipy_value(coefficient, np.nanmean(metric, axis=1), np.nanmean(human, axis=1))
    assert level_correlation(coefficient, "system", metric, human) == (expected, 1)


# ------------------------------------------------------------ the bootstrap


def _plain_bootstrap(
    x: Any,
    z: Any,
    level: str,
    coefficient: str,
    resample: str,
    n: int,
    confidence: float,
    seed: int,
) -> tuple[float, float]:
    """Deutsch et al.'s bootstrap, one resample at a time, with SciPy."""
    rng = np.random.default_rng(seed)
    systems, documents = z.shape
    rows = np.tile(np.arange(systems), (n, 1))
    cols = np.tile(np.arange(documents), (n, 1))
    if resample in ("systems", "both"):
        rows = rng.integers(0, systems, size=(n, systems))
    if resample in ("documents", "both"):
        cols = rng.integers(0, documents, size=(n, documents))
    values = []
    for r, c in zip(rows, cols):
        sample_x, sample_z = x[r][:, c], z[r][:, c]
        value = level_correlation(coefficient, level, sample_x, sample_z)[0]
        if not np.isnan(value):
            values.append(value)
    tail = 100 * (1 - confidence) / 2
    low, high = np.percentile(values, [tail, 100 - tail])
    return float(low), float(high)


@pytest.mark.parametrize("resample", ["systems", "documents", "both"])
@pytest.mark.parametrize("level", ["summary", "system"])
def test_the_bootstrap_is_the_plain_one(resample: str, level: str) -> None:
    rng = np.random.default_rng(11)
    human = _tied(rng, (5, 5))
    human[1, 2] = np.nan  # a summary not judged
    metric = human + rng.normal(0, 0.3, human.shape)  # NaN there too, as correlate leaves it
    found = bootstrap_intervals({"m": metric}, human, level, COEFFICIENTS, resample, 40, 0.9, 5)
    for coefficient in COEFFICIENTS if resample == "both" else ["spearman"]:
        low, high = _plain_bootstrap(metric, human, level, coefficient, resample, 40, 0.9, 5)
        interval = found[("m", coefficient)]
        assert abs(interval.low - low) < 1e-12 and abs(interval.high - high) < 1e-12
        assert low <= level_correlation(coefficient, level, metric, human)[0] + 0.5
    other = bootstrap_intervals({"m": metric}, human, level, ["kendall"], resample, 40, 0.9, 6)
    assert other[("m", "kendall")] != found[("m", "kendall")]  # the seed matters


def test_a_seed_gives_one_answer_and_metrics_share_the_draws() -> None:
    rng = np.random.default_rng(0)
    human = rng.random((4, 30))
    a, b = human + rng.normal(0, 0.2, human.shape), rng.random(human.shape)
    first = bootstrap_intervals(
        {"a": a, "b": b}, human, "summary", ["pearson"], "both", 200, 0.95, 9
    )
    alone = bootstrap_intervals({"a": a}, human, "summary", ["pearson"], "both", 200, 0.95, 9)
    assert first[("a", "pearson")] == alone[("a", "pearson")]
    assert first == bootstrap_intervals(
        {"a": a, "b": b}, human, "summary", ["pearson"], "both", 200, 0.95, 9
    )


# ------------------------------------------------------------ tests of two metrics


def _plain_permutation(
    x: Any, y: Any, z: Any, level: str, coefficient: str, resample: str, n: int, seed: int
) -> float:
    """Deutsch et al.'s permutation test, one trial at a time, with SciPy."""

    def standard(m: Any) -> Any:
        return (m - np.nanmean(m)) / np.nanstd(m)

    def delta(a: Any, b: Any) -> float:
        return float(
            level_correlation(coefficient, level, a, z)[0]
            - level_correlation(coefficient, level, b, z)[0]
        )

    x, y = standard(x), standard(y)
    observed = abs(delta(x, y))
    rng = np.random.default_rng(seed)
    shape = {"systems": (z.shape[0], 1), "documents": (1, z.shape[1]), "both": z.shape}[resample]
    count = 0
    for _ in range(n):
        swap = rng.random(shape) < 0.5
        if abs(delta(np.where(swap, y, x), np.where(swap, x, y))) >= observed * (1 - 1e-12):
            count += 1
    return (count + 1) / (n + 1)


@pytest.mark.parametrize("resample", ["systems", "documents", "both"])
@pytest.mark.parametrize("level", ["summary", "system"])
def test_the_permutation_test_is_the_plain_one(resample: str, level: str) -> None:
    rng = np.random.default_rng(2)
    human = rng.random((5, 4))
    a = human + rng.normal(0, 0.3, human.shape)
    b = human + rng.normal(0, 0.9, human.shape)
    # Every coefficient on one resampling: SciPy's Kendall is the slow one here.
    for coefficient in COEFFICIENTS if resample == "both" else ["pearson"]:
        found = permutation_test(("a", a), ("b", b), human, level, coefficient, resample, 40, 4)
        expected = _plain_permutation(a, b, human, level, coefficient, resample, 40, 4)
        assert found.p_value == expected
        assert found.difference == pytest.approx(
            level_correlation(coefficient, level, a, human)[0]
            - level_correlation(coefficient, level, b, human)[0],
            abs=1e-12,
        )


def test_a_metric_against_itself_is_no_difference() -> None:
    rng = np.random.default_rng(1)
    human = rng.random((6, 10))
    a = human + rng.normal(0, 0.3, human.shape)
    assert (
        permutation_test(("a", a), ("b", a), human, "summary", "kendall", "both", 50, 0).p_value
        == 1
    )
    assert williams_comparison(("a", a), ("b", a), human, "system", "pearson").p_value == 1


def _plain_williams(r12: float, r13: float, r23: float, n: int) -> float:
    """Williams' t (Steiger 1980's equation 7), two-sided, written from the formula."""
    k = 1 - r12 * r12 - r13 * r13 - r23 * r23 + 2 * r12 * r13 * r23
    mean = (r12 + r13) / 2
    t = (r12 - r13) * np.sqrt(
        (n - 1) * (1 + r23) / (2 * k * (n - 1) / (n - 3) + mean * mean * (1 - r23) ** 3)
    )
    return float(2 * stats.t.sf(abs(t), n - 3))


def test_williams_is_the_formula_on_the_levels_correlations() -> None:
    rng = np.random.default_rng(4)
    human = rng.random((12, 20))
    a = human + rng.normal(0, 0.2, human.shape)
    b = human + rng.normal(0, 0.5, human.shape)
    found = williams_comparison(("a", a), ("b", b), human, "system", "pearson")
    r12 = stats.pearsonr(a.mean(axis=1), human.mean(axis=1))[0]
    r13 = stats.pearsonr(b.mean(axis=1), human.mean(axis=1))[0]
    r23 = stats.pearsonr(a.mean(axis=1), b.mean(axis=1))[0]
    assert found.p_value == pytest.approx(_plain_williams(r12, r13, r23, 12), rel=1e-12)
    assert found.difference == pytest.approx(r12 - r13, abs=1e-15)
    swapped = williams_comparison(("b", b), ("a", a), human, "system", "pearson")
    assert swapped.p_value == pytest.approx(found.p_value, rel=1e-12)
    assert swapped.difference == pytest.approx(-found.difference, abs=1e-15)
    # Negative control: another n is another p.
    assert found.p_value != pytest.approx(_plain_williams(r12, r13, r23, 30), rel=1e-6)


def test_williams_needs_more_than_three_systems() -> None:
    rng = np.random.default_rng(5)
    human = rng.random((3, 4))
    assert np.isnan(
        williams_comparison(("a", human), ("b", human[::-1]), human, "system", "pearson").p_value
    )

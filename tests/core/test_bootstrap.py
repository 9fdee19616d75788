"""kurenai.stats._bootstrap: rouge-score's BootstrapAggregator numbers, and the paired test."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from resample_twins import summing  # noqa: F401 - every test on both twins
from rouge_score.scoring import AggregateScore, BootstrapAggregator, Score

from kurenai.stats import _bootstrap as _bootstrap
from kurenai.stats._bootstrap import bootstrap, paired_bootstrap, random_state


def rouge_score_aggregate(
    matrices: dict[str, np.ndarray], n_samples: int, confidence: float, seed: int
) -> dict[str, object]:
    """What rouge-score's own aggregator gives after np.random.seed(seed)."""
    aggregator = BootstrapAggregator(confidence, n_samples)
    size = len(next(iter(matrices.values())))
    for i in range(size):
        aggregator.add_scores({t: Score(*map(float, m[i])) for t, m in matrices.items()})
    state = np.random.get_state()
    try:
        np.random.seed(seed)
        return aggregator.aggregate()  # type: ignore[no-any-return]
    finally:
        np.random.set_state(state)


def scores(rng: np.random.Generator, size: int, types: list[str]) -> dict[str, np.ndarray]:
    matrices = {}
    for rouge_type in types:
        matrix = rng.random((size, 3))
        matrix[rng.random(size) < 0.3] = 0.0  # ties and zeros, as real scores have
        matrix[rng.random(size) < 0.2] = 1.0
        matrices[rouge_type] = matrix
    return matrices


@pytest.mark.parametrize(
    ("size", "n_samples", "confidence"),
    [(1, 5, 0.95), (2, 1, 0.95), (3, 2, 0.5), (8, 10, 0.95), (9, 33, 0.9), (200, 100, 0.99),
     (2000, 21, 0.95), (20000, 3, 0.8)],
)  # fmt: skip
def test_equals_rouge_score_bit_for_bit(size: int, n_samples: int, confidence: float) -> None:
    rng = np.random.default_rng(size)
    matrices = scores(rng, size, ["rougeL", "rouge1", "rouge2"])
    expected = rouge_score_aggregate(matrices, n_samples, confidence, seed=size)
    got = bootstrap(matrices, n_samples, confidence, seed=size)
    assert list(got) == list(expected)
    for rouge_type, bounds in got.items():
        assert type(bounds) is type(expected[rouge_type])
        assert bounds == expected[rouge_type], rouge_type  # exact floats


@pytest.mark.parametrize("n_samples", [1, 4])
def test_sums_of_negative_zeros_are_rouge_scores_positive_zeros(n_samples: int) -> None:
    matrices = {"rouge1": np.full((5, 3), -0.0), "rouge2": np.full((1, 3), -0.0)}
    for rouge_type, matrix in matrices.items():
        expected = rouge_score_aggregate({rouge_type: matrix}, n_samples, 0.95, seed=3)
        got = bootstrap({rouge_type: matrix}, n_samples, seed=3)[rouge_type]
        assert np.copysign(1, got.mid.recall) == np.copysign(1, expected[rouge_type].mid.recall)
        assert got == expected[rouge_type]


def test_blocks_of_samples_draw_the_same_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    matrices = scores(np.random.default_rng(5), 50, ["rouge1", "rougeL"])
    whole = bootstrap(matrices, 101, seed=3)
    monkeypatch.setattr(_bootstrap, "_BLOCK_VALUES", 50 * 7)  # blocks of 7, then 3
    monkeypatch.setattr(_bootstrap, "_KERNEL_BLOCK_VALUES", 50 * 7)
    assert bootstrap(matrices, 101, seed=3) == whole


def test_global_generator_when_no_seed_as_rouge_score() -> None:
    matrices = scores(np.random.default_rng(2), 30, ["rouge1", "rouge2"])
    aggregator = BootstrapAggregator(n_samples=40)
    for i in range(30):
        aggregator.add_scores({t: Score(*m[i]) for t, m in matrices.items()})
    np.random.seed(11)
    expected, expected_next = aggregator.aggregate(), np.random.random()
    np.random.seed(11)
    got, got_next = bootstrap(matrices, 40), np.random.random()
    assert (got, got_next) == (expected, expected_next)  # the same draws, in the same order


def test_seed_does_not_touch_the_global_generator() -> None:
    np.random.seed(0)
    state = np.random.get_state()[1].copy()
    bootstrap({"rouge1": [[0.1, 0.2, 0.3], [0.3, 0.2, 0.1]]}, 10, seed=4)
    assert (np.random.get_state()[1] == state).all()
    assert isinstance(random_state(np.random.RandomState(1)), np.random.RandomState)


def test_the_kernel_is_chosen_with_the_implementation() -> None:
    from kurenai import _backend

    assert (_backend.resample is not None) == (_backend.IMPLEMENTATION == "compiled")


def test_the_global_generator_ends_where_rouge_score_leaves_it() -> None:
    """Its next draws, of every kind, are those after rouge-score's
    aggregate: the MT19937 key, its position and the cached Gaussian."""
    matrices = scores(np.random.default_rng(4), 1500, ["rouge1", "rougeL"])
    aggregator = BootstrapAggregator(n_samples=30)
    for i in range(1500):
        aggregator.add_scores({t: Score(*m[i]) for t, m in matrices.items()})
    after = []
    for run in (aggregator.aggregate, lambda: bootstrap(matrices, 30)):
        np.random.seed(21)
        np.random.standard_normal()  # leaves a second Gaussian cached
        result = run()
        after.append((result, np.random.standard_normal(), np.random.randint(0, 10**9, 5)))
    assert after[0][0] == after[1][0]
    assert after[0][1] == after[1][1]
    assert after[0][2].tolist() == after[1][2].tolist()


# The autouse fixture picks the twin once per test; every example runs on it.
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    size=st.integers(1, 1500),
    n_samples=st.integers(1, 12),
    seed=st.integers(0, 2**32 - 1),
    confidence=st.sampled_from([0.0, 0.5, 0.9, 0.95, 1.0]),
)
def test_any_size_and_seed_equals_rouge_score(
    size: int, n_samples: int, seed: int, confidence: float
) -> None:
    matrices = scores(np.random.default_rng(seed), size, ["rouge1", "rouge2"])
    expected = rouge_score_aggregate(matrices, n_samples, confidence, seed)
    assert bootstrap(matrices, n_samples, confidence, seed=seed) == expected


def test_another_bit_generator_is_drawn_by_numpy() -> None:
    """A RandomState over PCG64 has no MT19937 state to copy: NumPy draws it,
    with the same integers as choice() would."""
    matrices = scores(np.random.default_rng(6), 40, ["rouge1"])
    got = bootstrap(matrices, 25, seed=np.random.RandomState(np.random.PCG64(3)))
    rng = np.random.RandomState(np.random.PCG64(3))
    means = [np.mean(matrices["rouge1"][rng.choice(40, size=40)], axis=0) for _ in range(25)]
    delta = (1 - 0.95) / 2  # rouge-score's percentiles, to the last bit
    low, mid, high = np.percentile(means, [100 * delta, 50, 100 * (1 - delta)], axis=0)
    assert got["rouge1"] == AggregateScore(Score(*low), Score(*mid), Score(*high))


@pytest.mark.compiled_only
def test_the_twins_give_the_same_paired_results(monkeypatch: pytest.MonkeyPatch) -> None:
    from kurenai._resample import LegacyStream

    rng = np.random.default_rng(8)
    system = {t: rng.random(3000) for t in ("rouge1", "rouge2", "rougeL")}
    baseline = {t: rng.random(3000) for t in system}
    found = []
    for kernel in (LegacyStream, None):
        monkeypatch.setattr(_bootstrap, "_KERNEL", kernel)
        found.append(paired_bootstrap(system, baseline, 700, 0.9, seed=2))
    assert found[0] == found[1]


def test_progress_counts_the_samples() -> None:
    steps: list[int] = []
    bootstrap({"a": np.ones((4, 3)), "b": np.ones((4, 3))}, 7, seed=1, progress=steps.append)
    assert sum(steps) == 14


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"n_samples": 0}, "n_samples must be positive"),
        ({"confidence": 1.5}, "confidence_interval must be in range"),
        ({"scores": {"rouge1": np.zeros((0, 3))}}, "rouge1: expected a non-empty"),
        ({"scores": {"rouge1": [0.1, 0.2]}}, "rouge1: expected a non-empty"),
    ],
)
def test_bad_arguments(arguments: dict[str, object], message: str) -> None:
    call: dict[str, object] = {"scores": {"rouge1": np.ones((3, 3))}, **arguments}
    with pytest.raises(ValueError, match=message):
        bootstrap(**call)  # type: ignore[arg-type]


# ------------------------------------------------------------ paired


def test_paired_identical_systems_differ_by_zero_with_p_one() -> None:
    f = np.random.default_rng(0).random(100)
    result = paired_bootstrap({"rouge1": f}, {"rouge1": f.copy()}, 500, seed=1)["rouge1"]
    assert (result.difference, result.low, result.high, result.p_value) == (0.0, 0.0, 0.0, 1.0)
    assert result.system == result.baseline == float(np.mean(f))


def test_paired_clear_difference_is_significant_and_reproducible() -> None:
    rng = np.random.default_rng(1)
    base = rng.random(300) * 0.5
    better = base + 0.1 + rng.normal(0, 0.02, 300)
    result = paired_bootstrap({"rougeL": better}, {"rougeL": base}, 1000, 0.95, seed=7)
    again = paired_bootstrap({"rougeL": better}, {"rougeL": base}, 1000, 0.95, seed=7)
    other = paired_bootstrap({"rougeL": better}, {"rougeL": base}, 1000, 0.95, seed=8)
    r = result["rougeL"]
    assert result == again and result != other
    assert r.difference == pytest.approx(float(np.mean(better) - np.mean(base)))
    assert r.low < r.difference < r.high and r.low > 0
    assert r.p_value == 1 / 1001  # no resampled difference as far from 0 as the real one


def test_paired_noise_is_not_significant() -> None:
    rng = np.random.default_rng(2)
    a, b = rng.random(200), rng.random(200)
    result = paired_bootstrap({"rouge1": a}, {"rouge1": b}, 2000, seed=3)["rouge1"]
    assert result.low < 0 < result.high
    assert result.p_value > 0.05


def test_paired_reference_implementation() -> None:
    """The p-value and interval, computed the slow way from the same indices."""
    rng = np.random.default_rng(3)
    a, b = rng.random(40), rng.random(40)
    result = paired_bootstrap({"r": a}, {"r": b}, 300, 0.9, seed=5)["r"]
    indices = np.random.RandomState(5).randint(0, 40, size=(300, 40))
    diffs = np.array([np.mean(a[i] - b[i]) for i in indices])
    observed = np.mean(a) - np.mean(b)
    extreme = np.sum(np.abs(diffs - diffs.mean()) >= abs(observed) - 1e-12)
    assert result.p_value == pytest.approx((extreme + 1) / 301)
    low, high = np.percentile(diffs, [5, 95])
    assert (result.low, result.high) == pytest.approx((low, high))


def test_paired_needs_equal_columns() -> None:
    with pytest.raises(ValueError, match="same length"):
        paired_bootstrap({"r": [0.1, 0.2]}, {"r": [0.1]})
    with pytest.raises(ValueError, match="one non-empty column"):
        paired_bootstrap({}, {})


def test_the_numpy_twin_draws_with_any_bit_generator() -> None:
    from kurenai.stats._bootstrap import NumpyStream

    rng = np.random.RandomState(np.random.PCG64(3))
    twin, again = NumpyStream(rng), np.random.RandomState(np.random.PCG64(3))
    got = np.empty(5, np.int64)
    twin.randint(10, got)
    assert got.tolist() == again.randint(0, 10, size=5).tolist()
    with pytest.raises(ValueError, match="PCG64 has no MT19937 key"):
        twin.state()

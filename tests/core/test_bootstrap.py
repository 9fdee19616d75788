"""kurenai._core.bootstrap: rouge-score's BootstrapAggregator numbers, and the paired test."""

from __future__ import annotations

import numpy as np
import pytest
from rouge_score.scoring import BootstrapAggregator, Score

from kurenai._core import bootstrap as _bootstrap
from kurenai._core.bootstrap import bootstrap, paired_bootstrap, random_state


@pytest.fixture(
    autouse=True, params=[pytest.param("compiled", marks=pytest.mark.compiled_only), "numpy"]
)
def summing(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test runs on the compiled kernel and on its NumPy twin."""
    if request.param == "compiled":
        from kurenai._resample import resampled_sums  # built with kurenai: never skipped

        monkeypatch.setattr(_bootstrap, "_SUMS", resampled_sums)
    else:
        monkeypatch.setattr(_bootstrap, "_SUMS", None)
    return str(request.param)


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


def test_blocks_of_samples_draw_the_same_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    matrices = scores(np.random.default_rng(5), 50, ["rouge1", "rougeL"])
    whole = bootstrap(matrices, 101, seed=3)
    monkeypatch.setattr("kurenai._core.bootstrap._BLOCK_VALUES", 50 * 7)  # blocks of 7, then 3
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


@pytest.mark.compiled_only
def test_kernel_refuses_no_records() -> None:
    from kurenai._resample import resampled_sums

    out = np.zeros((1, 3))
    with pytest.raises(ValueError, match="no records"):
        resampled_sums(np.zeros((3, 0)), np.zeros((1, 0), np.int64), out, 0)


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

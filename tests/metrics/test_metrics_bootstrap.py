"""kurenai.metrics._aggregate.bootstrap equals rouge-score's BootstrapAggregator.

Same numbers bit for bit for the same NumPy global state, and the same state
afterwards, across sizes (one pair, blocks of one sample, many blocks),
confidence intervals, ties and integer zeros.
"""

from __future__ import annotations

import numpy as np
import pytest

from kurenai.metrics import _aggregate as _aggregate
from kurenai.scoring import BootstrapAggregator, Score


def reference(table: np.ndarray, n_samples: int, interval: float, seed: int) -> np.ndarray:
    aggregator = BootstrapAggregator(confidence_interval=interval, n_samples=n_samples)
    for pair in range(table.shape[2]):
        aggregator.add_scores({f"t{t}": Score(*table[t, :, pair]) for t in range(len(table))})
    np.random.seed(seed)
    result = aggregator.aggregate()
    return np.array(
        [[list(result[f"t{t}"][bound]) for bound in range(3)] for t in range(len(table))]
    )


@pytest.mark.parametrize(
    ("pairs", "n_samples", "interval"),
    [(1, 1000, 0.95), (2, 1, 0.95), (7, 3, 0.0), (60, 1000, 0.95), (300, 999, 1.0),
     (5000, 60, 0.9), (1, 1, 0.5)],
)  # fmt: skip
def test_equals_rouge_score(pairs: int, n_samples: int, interval: float) -> None:
    rng = np.random.default_rng(pairs + n_samples)
    table = rng.random((3, 3, pairs))
    table[:, :, rng.random(pairs) < 0.3] = 0.0  # ties, and rows of zeros
    table[1] = np.round(table[1], 1)
    expected = reference(table, n_samples, interval, seed=pairs)
    state = np.random.get_state()
    np.random.seed(pairs)
    got = _aggregate.bootstrap(table, n_samples, interval)
    after = np.random.get_state()
    np.random.seed(pairs)
    reference(table, n_samples, interval, seed=pairs)
    assert np.array_equal(got, expected)
    assert all(np.array_equal(a, b) for a, b in zip(after, np.random.get_state()))
    np.random.set_state(state)


@pytest.mark.parametrize(
    ("n_samples", "interval", "message"),
    [(0, 0.95, "n_samples must be positive"), (10, 1.5, r"range \[0, 1\]")],
)
def test_rouge_score_argument_checks(n_samples: int, interval: float, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        _aggregate.bootstrap(np.zeros((1, 3, 2)), n_samples, interval)

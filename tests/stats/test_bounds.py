"""Bounded work in the correlations: draws capped, drawn in blocks that leave
the numbers unchanged, progress reported."""

from __future__ import annotations

import numpy as np
import pytest

from kurenai.cli import main
from kurenai.stats import MAX_DRAWS, _correlation_resampling, bootstrap_intervals, permutation_test

pytest.importorskip("scipy")

RNG = np.random.default_rng(4)
METRIC, HUMAN = RNG.random((7, 6)), RNG.random((7, 6))


@pytest.mark.parametrize("resample", ["systems", "documents", "both"])
def test_blocks_of_resamples_give_the_same_intervals(
    resample: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = bootstrap_intervals({"m": METRIC}, HUMAN, "global", ["pearson"], resample, 300, 0.9, 3)
    monkeypatch.setattr(_correlation_resampling, "_BLOCK_CELLS", 42 * 7)  # blocks of 7 resamples
    counted: list[int] = []
    blocks = bootstrap_intervals(
        {"m": METRIC}, HUMAN, "global", ["pearson"], resample, 300, 0.9, 3, counted.append
    )
    assert blocks == whole and sum(counted) == 300 and len(counted) == 43


def test_the_permutation_test_reports_its_trials() -> None:
    counted: list[int] = []
    permutation_test(("a", METRIC), ("b", HUMAN), HUMAN, "system", "pearson", "both", 500, 1,
                     counted.append)  # fmt: skip
    assert sum(counted) == 500


def test_draws_are_capped_in_the_library_and_the_command_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(ValueError, match="at most 1,000,000"):
        bootstrap_intervals({"m": METRIC}, HUMAN, "system", ["pearson"], "both", MAX_DRAWS + 1)
    with pytest.raises(ValueError, match="at most 1,000,000"):
        permutation_test(("a", METRIC), ("b", HUMAN), HUMAN, "system", "pearson", "both",
                         MAX_DRAWS + 1)  # fmt: skip
    code = main(["correlate", "--judgments", "-", "--bootstrap-samples", str(10**9)])
    assert code == 2 and "from 0 to 1000000" in capsys.readouterr().err


def test_long_vectors_take_scipys_kendall_with_the_same_values() -> None:
    from kurenai.stats._correlation import KENDALL_PAIRWISE_UP_TO, batch_level

    rng = np.random.default_rng(6)
    human = rng.integers(0, 5, (12, 20)).astype(float)  # ties, as judgments have
    metric = human + rng.normal(0, 1, human.shape)
    metric[3, 4] = np.nan
    assert human.size > KENDALL_PAIRWISE_UP_TO
    from kurenai.stats import level_correlation

    stack = np.stack([metric, metric[::-1]])
    found = batch_level("kendall", "global", stack, np.stack([human, human]))
    expected = [level_correlation("kendall", "global", m, human)[0] for m in stack]
    assert found.tolist() == pytest.approx(expected, abs=1e-12)

"""sacrebleu's paired bootstrap and approximate randomization: kurenai's
``sacrebleu-bs`` and ``sacrebleu-ar`` give sacrebleu 2.6's own p-values.

sacrebleu's tests run on a metric's per-segment statistics; ROUGE's corpus
score is the mean of the records' scores, so the metric below holds a
record's score as its statistic and divides the sum by the number of
records.  sacrebleu's private functions run on it unchanged.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.optional import missing

from kurenai.stats import _sacrebleu, paired_test

try:
    from sacrebleu import significance as _sb
except ImportError:  # pragma: no cover - the test extra installs it
    _sb = None


class _Score:
    def __init__(self, score: float) -> None:
        self.score = score


class MeanMetric:
    """A sacrebleu metric whose corpus score is the mean of per-record scores."""

    def __init__(self, scores: dict[str, list[float]]) -> None:
        self._scores = scores
        self._n = len(next(iter(scores.values())))

    def _extract_corpus_statistics(self, hypotheses: list[str], references: object) -> list:
        # sacrebleu draws from len(hypotheses): one (named) hypothesis per record.
        return [[s] for s in self._scores[hypotheses[0]]]

    def _compute_score_from_stats(self, stats: np.ndarray) -> _Score:
        return _Score(float(stats[0]) / self._n)

    def _aggregate_and_compute(self, stats: object) -> _Score:
        return self._compute_score_from_stats(np.sum(stats, axis=0))


def sacrebleu_p(test: str, system: list[float], baseline: list[float], n: int, seed: int) -> float:
    """sacrebleu's own p-value of ``system`` against ``baseline``."""
    if _sb is None:
        missing("sacrebleu is not installed (the test extra)")
    metric = MeanMetric({"system": system, "baseline": baseline})
    bl_stats = metric._extract_corpus_statistics(["baseline"] * len(baseline), None)
    baseline_info = {"rouge1": (bl_stats, metric._aggregate_and_compute(bl_stats))}
    function = _sb._paired_bs_test if test == "bs" else _sb._paired_ar_test
    _, results = function(
        baseline_info,
        "system",
        ["system"] * len(system),
        None,
        {"rouge1": metric},
        n_samples=n,
        seed=seed,
    )
    return float(results["rouge1"].p_value)


def kurenai_p(test: str, system: list[float], baseline: list[float], n: int, seed: int) -> float:
    name = "sacrebleu-bs" if test == "bs" else "sacrebleu-ar"
    found = paired_test({"rouge1": system}, {"rouge1": baseline}, name, n, seed=seed)["rouge1"]
    assert found.test == name
    return found.p_value


S = [0.31, 0.45, 0.52, 0.28, 0.40, 0.61, 0.35, 0.47, 0.39, 0.50]
B = [0.29, 0.47, 0.44, 0.30, 0.35, 0.55, 0.37, 0.40, 0.41, 0.44]


def test_the_published_example_gives_sacrebleus_p_not_kurenais() -> None:
    expected = sacrebleu_p("bs", S, B, 10_000, 1)
    assert kurenai_p("bs", S, B, 10_000, 1) == expected
    assert round(expected, 4) == 0.0176
    # kurenai's own two-sided centred test gives about twice that.
    own = paired_test({"rouge1": S}, {"rouge1": B}, "bootstrap", 10_000, seed=1)["rouge1"]
    assert own.test == "bootstrap" and own.p_value > 2 * expected


scores = st.floats(0, 1, allow_nan=False, width=64)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(scores, scores), min_size=2, max_size=40),
    st.sampled_from(["bs", "ar"]),
    st.integers(1, 300),
    st.integers(0, 2**32 - 1),
)
def test_each_p_value_equals_sacrebleus(
    pairs: list[tuple[float, float]], test: str, n: int, seed: int
) -> None:
    system, baseline = [a for a, _ in pairs], [b for _, b in pairs]
    differences = np.subtract(system, baseline)
    if np.ptp(differences) <= 1e-12:  # no evidence: p = 1 with a note (tested below)
        return
    assert kurenai_p(test, system, baseline, n, seed) == sacrebleu_p(
        test, system, baseline, n, seed
    )


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_blocks_of_draws_keep_sacrebleus_stream(test: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(3)
    system, baseline = list(rng.random(37)), list(rng.random(37))
    expected = sacrebleu_p(test, system, baseline, 500, 7)
    monkeypatch.setattr(_sacrebleu, "_BLOCK_VALUES", 37 * 40)  # blocks of 32 or 40 draws
    assert kurenai_p(test, system, baseline, 500, 7) == expected


def test_a_seedless_run_uses_sacrebleus_default_seed() -> None:
    found = paired_test({"rouge1": S}, {"rouge1": B}, "sacrebleu-bs", 1000)["rouge1"]
    assert found.p_value == sacrebleu_p("bs", S, B, 1000, 12345)


def test_the_harness_can_fail() -> None:
    # Negative control: another seed, or kurenai's own rule, gives another p.
    expected = sacrebleu_p("bs", S, B, 2000, 5)
    assert kurenai_p("bs", S, B, 2000, 6) != expected
    own = paired_test({"rouge1": S}, {"rouge1": B}, "bootstrap", 2000, seed=5)["rouge1"]
    assert own.p_value != expected
    assert kurenai_p("ar", S, B, 2000, 5) != sacrebleu_p("bs", S, B, 2000, 5)


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_the_leaderboard_runs_sacrebleus_convention(test: str) -> None:
    from kurenai.report import leaderboard

    rng = np.random.default_rng(8)
    first, second = rng.random((1, 3, 30)), rng.random((1, 3, 30)) * 0.9
    name = f"sacrebleu-{test}"
    board = leaderboard({"a": first, "b": second}, ["rouge1"], 300, seed=4, test=name,
                        n_trials=300)  # fmt: skip
    (worse,) = [s for s in board.standings if s.compared_to]
    found = worse.comparison["rouge1"]
    better, lower = (first, second) if worse.system == "b" else (second, first)
    expected = sacrebleu_p(test, list(lower[0, 2]), list(better[0, 2]), 300, 4)
    assert (found.test, found.p_value) == (name, expected)

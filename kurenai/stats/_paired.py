"""The paired significance tests: one entry per test, read by every surface.

A paired test compares two systems scored on the same records, per ROUGE
type (their per-record F-measures), and gives a :class:`PairedResult`: both
means, the difference and a two-sided p-value.

- ``bootstrap``: the paired bootstrap (:func:`kurenai.stats._bootstrap.paired_bootstrap`),
  which also bounds the difference with a confidence interval.
- ``ar``: approximate randomization, the paired permutation test
  (:func:`kurenai.stats._randomization.paired_randomization`): a p-value, no
  interval.

The command line (``--paired-ar``, ``--ar-trials``), the leaderboard and
the HTML report call :func:`paired_test` with the test's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Callable

import numpy.typing as npt

from kurenai.stats._bootstrap import PairedResult, Seed, paired_bootstrap
from kurenai.stats._randomization import DEFAULT_TRIALS, paired_randomization

__all__ = ["TESTS", "PairedTest", "check_test", "paired_test"]


@dataclass(frozen=True)
class PairedTest:
    """One paired test: its name, what it gives, and its default draws."""

    name: str
    summary: str
    default_draws: int
    interval: bool  # whether its results bound the difference (low, high)
    aliases: tuple[str, ...] = ()


TESTS = (
    PairedTest("bootstrap", "paired bootstrap: p-value and interval", 1000, True, ("bs",)),
    PairedTest(
        "ar",
        "approximate randomization (paired permutation): p-value",
        DEFAULT_TRIALS,
        False,
        ("randomization", "permutation"),
    ),
)
_BY_NAME = {name: test for test in TESTS for name in (test.name, *test.aliases)}


def check_test(test: object) -> PairedTest:
    """The test ``test`` names, else one ValueError listing the choices."""
    found = _BY_NAME.get(test) if isinstance(test, str) else None
    if found is None:
        raise ValueError(
            f"invalid paired test {test!r}; choose from {', '.join(t.name for t in TESTS)}"
        )
    return found


def paired_test(
    system: Mapping[str, npt.ArrayLike],
    baseline: Mapping[str, npt.ArrayLike],
    test: str = "bootstrap",
    n_samples: int | None = None,
    confidence: float = 0.95,
    seed: Seed = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, PairedResult]:
    """Per type, the paired test ``test`` of ``system`` against ``baseline``
    (per-record F-measures, the records in the same order): ``n_samples``
    bootstrap resamples or randomization trials (None: the test's default);
    ``confidence`` is the bootstrap interval's (the randomization test has none).

    >>> paired_test({"rouge1": [0.2, 0.4]}, {"rouge1": [0.2, 0.4]}, "ar", seed=0)["rouge1"].p_value
    1.0
    """
    chosen = check_test(test)
    draws = chosen.default_draws if n_samples is None else n_samples
    if chosen.name == "ar":
        return paired_randomization(system, baseline, draws, seed, progress)
    return paired_bootstrap(system, baseline, draws, confidence, seed, progress)

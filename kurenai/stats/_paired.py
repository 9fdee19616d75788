"""The paired significance tests: one entry per test, read by every surface.

A paired test compares two systems scored on the same records, per ROUGE
type (their per-record F-measures), and gives a :class:`PairedResult`: both
means, the difference, a p-value and the name of the convention (``test``)
that produced it.

- ``bootstrap``: kurenai's paired bootstrap
  (:func:`kurenai.stats.paired_bootstrap`): two-sided, the resampled signed
  differences centred on their mean, at least as far from 0 as the
  observed one; also bounds the difference with a confidence interval.
- ``ar``: kurenai's approximate randomization, the paired permutation test
  (:func:`kurenai.stats.paired_randomization`): two-sided, a p-value, no interval.
- ``sacrebleu-bs`` and ``sacrebleu-ar``: sacrebleu 2.6's paired bootstrap and
  approximate randomization, its p-values exactly
  (:mod:`kurenai.stats._sacrebleu`); sacrebleu's bootstrap p is about half
  of kurenai's two-sided one.

Every test follows one rule for records that carry no evidence (one
record, differences that do not vary: p = 1 and a ``note``) and refuses a
NaN score.  The command line (``--paired-test``), the leaderboard and the
HTML report call :func:`paired_test` with the test's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Callable

import numpy as np
import numpy.typing as npt

from kurenai._data.spelling import did_you_mean
from kurenai.stats._bootstrap import PairedResult, Seed, paired_bootstrap
from kurenai.stats._randomization import DEFAULT_TRIALS, paired_randomization
from kurenai.stats._sacrebleu import sacrebleu_paired_bootstrap, sacrebleu_paired_randomization

__all__ = ["TESTS", "PairedTest", "check_test", "paired_test"]


@dataclass(frozen=True)
class PairedTest:
    """One paired test: its name, what it gives, and its default draws."""

    name: str
    summary: str
    default_draws: int
    interval: bool  # whether its results bound the difference (low, high)
    aliases: tuple[str, ...] = ()
    resamples: bool = True  # draws bootstrap resamples (n_samples), else trials (n_trials)

    def draws(self, n_samples: int, n_trials: int | None) -> int:
        """How many draws it makes: ``n_samples`` for a bootstrap, else
        ``n_trials`` (None: its default)."""
        if self.resamples:
            return n_samples
        return self.default_draws if n_trials is None else n_trials


TESTS = (
    PairedTest(
        "bootstrap",
        "kurenai's paired bootstrap, two-sided (signed differences centred)",
        1000,
        True,
        ("bs",),
    ),
    PairedTest(
        "ar",
        "approximate randomization (paired permutation), two-sided",
        DEFAULT_TRIALS,
        False,
        ("randomization", "permutation"),
        resamples=False,
    ),
    PairedTest(
        "sacrebleu-bs",
        "sacrebleu's paired bootstrap (absolute differences centred, strictly greater)",
        1000,
        False,
        ("paired-bs",),
    ),
    PairedTest(
        "sacrebleu-ar",
        "sacrebleu's approximate randomization (strictly greater)",
        DEFAULT_TRIALS,
        False,
        ("paired-ar",),
        resamples=False,
    ),
)
_BY_NAME = {name: test for test in TESTS for name in (test.name, *test.aliases)}


def check_test(test: object) -> PairedTest:
    """The test ``test`` names, else one ValueError listing the choices."""
    found = _BY_NAME.get(test) if isinstance(test, str) else None
    if found is None:
        raise ValueError(
            f"invalid paired test {test!r}{did_you_mean(test, _BY_NAME)}; "
            f"choose from {', '.join(t.name for t in TESTS)}"
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
    ``confidence`` is the bootstrap interval's (the other tests have none).
    ``seed``: an int, None (kurenai's tests: NumPy's global generator;
    sacrebleu's: its default seed, 12345) or a generator (a ``RandomState``
    for kurenai's tests, a ``Generator`` for sacrebleu's).

    >>> paired_test({"rouge1": [0.2, 0.4]}, {"rouge1": [0.2, 0.4]}, "ar", seed=0)["rouge1"].p_value
    1.0
    """
    chosen = check_test(test)
    draws = chosen.default_draws if n_samples is None else n_samples
    if chosen.name == "ar":
        return paired_randomization(system, baseline, draws, seed, progress)
    if chosen.name.startswith("sacrebleu-"):
        if isinstance(seed, np.random.RandomState):
            raise TypeError(
                f"{chosen.name} draws from numpy.random.default_rng: seed it with an int"
            )
        run = (
            sacrebleu_paired_bootstrap
            if chosen.name == "sacrebleu-bs"
            else (sacrebleu_paired_randomization)
        )
        return run(system, baseline, draws, seed, progress)
    return paired_bootstrap(system, baseline, draws, confidence, seed, progress)

"""Approximate randomization: the paired permutation test, beside the paired bootstrap.

Two systems scored on the same records differ, per record, by ``d[i]``
(system - baseline).  If the systems were interchangeable, each record's two
outputs could be swapped without changing what the difference means: a
swap negates ``d[i]``.  :func:`paired_randomization` runs ``n_trials``
trials, each swapping every record with probability 1/2, and counts the
trials whose mean difference is at least as far from 0 as the observed one
(Noreen 1989; Riezler & Maxwell 2005): the two-sided p-value is
``(count + 1) / (n_trials + 1)``.  It makes no assumption about how the
differences are distributed, and gives no interval: only the p-value.

The draws are NumPy's legacy ``RandomState`` (the bootstrap's): a trial
takes ``ceil(records / 32)`` words, as ``randint(0, 2**32, size=...)``
draws them, and swaps record ``i`` when bit ``i % 32`` of word ``i // 32``
is set.  A trial's sum adds the signed differences record after record
from +0.0, so every figure equals a plain loop's, bit for bit.  The sums
run on the bootstrap's twins: ``kurenai._resample.LegacyStream.flip_sums``
(C, sixteen trials side by side) or, without the compiled kernel or for a
generator over another bit generator, the NumPy twin
(:meth:`kurenai.stats._bootstrap.NumpyStream.flip_sums`).  Every type uses
the same trials (as the paired bootstrap shares its resamples).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Callable

import numpy as np
import numpy.typing as npt

from kurenai.stats._bootstrap import (
    NumpyStream,
    PairedResult,
    Seed,
    _drawing,
    check_draws,
    no_evidence,
    paired_differences,
    random_state,
)

__all__ = ["DEFAULT_TRIALS", "paired_randomization"]

#: sacrebleu's default number of trials for ``--paired-ar``.
DEFAULT_TRIALS = 10_000
# A trial's sums touch every record: blocks of about this many values
# bound the NumPy twin's arrays (and the compiled twin's calls, ~0.1 s),
# and report progress between them.  The compiled twin sums sixteen trials
# at a time: its blocks are multiples of sixteen.
_BLOCK_VALUES = 1 << 21
_KERNEL_BLOCK_VALUES = 1 << 25
_GROUP = 16
# A trial whose mean difference is within this of the observed one counts
# as "at least as far" (rounding; the paired bootstrap's tolerance).
_TOLERANCE = 1e-12


def paired_randomization(
    system: Mapping[str, npt.ArrayLike],
    baseline: Mapping[str, npt.ArrayLike],
    n_trials: int = DEFAULT_TRIALS,
    seed: Seed = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, PairedResult]:
    """Approximate randomization test of two systems' per-record F-measures, per type.

    ``system`` and ``baseline`` map each type to a column of per-record
    scores, the records in the same order.  Per type: both means, their
    difference (system - baseline), and the two-sided p-value (see the
    module); ``low``/``high`` are NaN (the test gives no interval).
    ``seed`` is as :func:`kurenai.stats._bootstrap.random_state` reads it
    (None: NumPy's global generator).  Records that carry no evidence (one
    record, identical systems, differences that do not vary:
    :func:`kurenai.stats._bootstrap.no_evidence`) give p = 1 with a note.

    >>> result = paired_randomization({"rouge1": [0.2, 0.4]}, {"rouge1": [0.2, 0.4]}, seed=0)
    >>> result["rouge1"].difference, result["rouge1"].p_value
    (0.0, 1.0)
    """
    check_trials(n_trials)
    differences = paired_differences(system, baseline)
    size = len(differences)
    with _drawing(random_state(seed)) as draws:
        trials = _flipped_sums(differences, n_trials, draws, progress) / size
    observed = _in_order(differences) / size
    results = {}
    for i, rouge_type in enumerate(system):
        far = np.abs(trials[:, i]) >= abs(observed[i]) - _TOLERANCE
        p_value = (int(np.count_nonzero(far)) + 1) / (n_trials + 1)
        system_mean = float(np.mean(np.asarray(system[rouge_type], np.float64)))
        baseline_mean = float(np.mean(np.asarray(baseline[rouge_type], np.float64)))
        note = no_evidence(differences[:, i])
        results[rouge_type] = PairedResult(
            system_mean, baseline_mean, system_mean - baseline_mean, math.nan, math.nan,
            1.0 if note else p_value, "ar", note,
        )  # fmt: skip
    return results


def check_trials(n_trials: int) -> None:
    """ValueError unless ``n_trials`` is a positive count."""
    if isinstance(n_trials, bool) or not isinstance(n_trials, (int, np.integer)) or n_trials <= 0:
        raise ValueError(f"n_trials must be a positive integer, got {n_trials!r}")
    check_draws(int(n_trials), "n_trials")


def _flipped_sums(
    differences: npt.NDArray[np.float64],
    n_trials: int,
    draws: Any,
    progress: Callable[[int], None] | None,
) -> npt.NDArray[np.float64]:
    """(trials x types): each trial's signed sums, block after block."""
    sums = np.empty((n_trials, differences.shape[1]))
    values = np.ascontiguousarray(differences)
    numpy = isinstance(draws, NumpyStream)
    per_block = (_BLOCK_VALUES if numpy else _KERNEL_BLOCK_VALUES) // len(values)
    per_block = max(_GROUP, per_block - per_block % _GROUP)
    for start in range(0, n_trials, per_block):
        stop = min(start + per_block, n_trials)
        draws.flip_sums(values, sums[start:stop])
        if progress is not None:
            progress(stop - start)
    return sums


def _in_order(differences: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Per type, the sum of the differences record after record from +0.0:
    the unswapped trial's, added as every trial's is."""
    found: npt.NDArray[np.float64] = np.cumsum(differences, axis=0)[-1] + 0.0
    return found

"""Paired significance tests of two systems scored on the same records
(re-exported from :mod:`kurenai.stats`, their home).

Two tests, one surface (:func:`paired_test`, or each by name):

- :func:`paired_bootstrap`: resample the records with replacement (shared
  by both systems); a confidence interval of the mean difference and a
  two-sided p-value.
- :func:`paired_randomization`: approximate randomization, the paired
  permutation test (swap each record's two outputs at random); a two-sided
  p-value, no interval.
- ``paired_test(..., "sacrebleu-bs")`` / ``"sacrebleu-ar"``: sacrebleu's
  own conventions, its p-values exactly (:mod:`kurenai.stats`).

Each takes, per ROUGE type, the per-record F-measures of the system and of
the baseline (the records in the same order, e.g. ``score_batch(...,
columnar=True)[t].fmeasure``) and returns per type a :class:`PairedResult`.
``seed``: an int (a fresh ``RandomState``), a ``RandomState``, or None
(NumPy's global generator).  See ``docs/guides/significance.md``.

>>> from kurenai.significance import paired_test
>>> result = paired_test({"rouge1": [0.5, 0.7, 0.9]}, {"rouge1": [0.5, 0.7, 0.9]}, "ar", seed=1)
>>> result["rouge1"].difference, result["rouge1"].p_value
(0.0, 1.0)
"""

from __future__ import annotations

from kurenai.stats import (
    DEFAULT_TRIALS,
    TESTS,
    PairedResult,
    PairedTest,
    paired_bootstrap,
    paired_randomization,
    paired_test,
)

__all__ = [
    "DEFAULT_TRIALS",
    "TESTS",
    "PairedResult",
    "PairedTest",
    "paired_bootstrap",
    "paired_randomization",
    "paired_test",
]

"""Every statistic kurenai computes, in one public home.

- Confidence intervals of corpus scores: :func:`bootstrap` (rouge-score's
  ``BootstrapAggregator`` numbers).
- Paired significance tests of two systems scored on the same records:
  :func:`paired_test` (or :func:`paired_bootstrap`,
  :func:`paired_randomization` by name), per ROUGE type; sacrebleu's
  conventions exactly (:func:`sacrebleu_paired_bootstrap`,
  :func:`sacrebleu_paired_randomization`, ``paired_test(..., "sacrebleu-bs")``).
  Each result names its convention (``.test``).
- Correlations with human judgments: :func:`correlate` (scores the judged
  texts with ROUGE), :func:`correlate_scores` (any metric's systems x
  documents scores) at the summary, system and global levels, their
  bootstrap intervals and the tests between two metrics (Williams' test both
  ways: :func:`williams_test`); :func:`judgment_matrices` lays judgment
  records out as matrices.
- How stable a ranking is when each document's references are resampled:
  :func:`rank_stability`.

``kurenai.significance`` and ``kurenai.report`` re-export what they held
before; the multi-reference jackknife is a mode of
:meth:`~kurenai.rouge_scorer.RougeScorer.score_multi` (``mode="jackknife"``).
The correlations need SciPy (the ``correlate`` extra).

>>> from kurenai.stats import paired_test
>>> same = {"rouge1": [0.5, 0.7, 0.9]}
>>> paired_test(same, same, "ar", seed=1)["rouge1"].p_value
1.0
"""

from __future__ import annotations

from kurenai.stats._bootstrap import MAX_DRAWS, PairedResult, bootstrap, paired_bootstrap
from kurenai.stats._correlate import correlate, correlate_scores, judgment_matrices
from kurenai.stats._correlation import (
    COEFFICIENTS,
    DEFAULT_LEVELS,
    LEVELS,
    RESAMPLING,
    correlation,
    level_correlation,
)
from kurenai.stats._correlation_resampling import (
    Comparison,
    Interval,
    bootstrap_intervals,
    permutation_test,
)
from kurenai.stats._correlations import Correlation, Correlations, MetricTest
from kurenai.stats._paired import TESTS, PairedTest, paired_test
from kurenai.stats._randomization import DEFAULT_TRIALS, paired_randomization
from kurenai.stats._sacrebleu import (
    SACREBLEU_SEED,
    sacrebleu_paired_bootstrap,
    sacrebleu_paired_randomization,
)
from kurenai.stats._stability import RankStability, rank_stability
from kurenai.stats._williams import WilliamsTest, williams_test

__all__ = [
    "COEFFICIENTS",
    "DEFAULT_LEVELS",
    "DEFAULT_TRIALS",
    "LEVELS",
    "MAX_DRAWS",
    "RESAMPLING",
    "SACREBLEU_SEED",
    "TESTS",
    "Comparison",
    "Correlation",
    "Correlations",
    "Interval",
    "MetricTest",
    "PairedResult",
    "PairedTest",
    "RankStability",
    "WilliamsTest",
    "bootstrap",
    "bootstrap_intervals",
    "correlate",
    "correlate_scores",
    "correlation",
    "judgment_matrices",
    "level_correlation",
    "paired_bootstrap",
    "paired_randomization",
    "paired_test",
    "permutation_test",
    "rank_stability",
    "sacrebleu_paired_bootstrap",
    "sacrebleu_paired_randomization",
    "williams_test",
]

"""The bootstrap of correlations: kurenai's vectorised resampling against one SciPy call per vector.

On a (systems x documents) matrix the size of REALSumm's (25 x 100, by
default) or SummEval's (16 x 100), generated with a known correlation with
the "human" matrix, times per resample (medians of interleaved repeats):

- ``kurenai``: ``bootstrap_intervals`` (kurenai.report.correlate's), the
  summary- and system-level Pearson, Spearman and Kendall of one metric,
  resampling both systems and documents;
- ``plain``: the same resamples one at a time, each level's correlation by
  ``scipy.stats`` per vector, as SacreROUGE's ``bootstrap_ci`` computes it
  (its loop, written here: SacreROUGE itself is not installed);

prints their ratio, and checks that both give the same intervals.  ``--tiny``
runs a 5 x 8 matrix and 10 resamples once.

    python benchmarks/bench_correlate.py [--systems N] [--documents N]
                                         [--samples N] [--repeats N] [--tiny]
"""

from __future__ import annotations

import argparse
import statistics

import numpy as np
from _common import add_common_options, header, interleaved_times

from kurenai.stats._correlation import COEFFICIENTS, level_correlation, scipy_stats
from kurenai.stats._correlation import DEFAULT_LEVELS as LEVELS
from kurenai.stats._correlation_resampling import bootstrap_intervals

# Not fresh text (benchmarks/_text.py): said in the header of every run.
REPEATS_TEXTS = "times the statistics on scores already made: no text is tokenized or stemmed"


def main() -> None:
    options = _options()
    header(options)
    if options.tiny:
        options.systems, options.documents, options.samples, options.repeats = 5, 8, 10, 1
    rng = np.random.default_rng(0)
    human = rng.random((options.systems, options.documents))
    metric = human + rng.normal(0, 0.5, human.shape)  # a correlation of about 0.5
    plain_samples = max(1, options.samples // 10)  # the loop is slow: a tenth, per resample
    results: dict[str, dict[tuple[str, str], tuple[float, float]]] = {}

    def ours() -> None:
        found = {}
        for level in LEVELS:
            intervals = bootstrap_intervals(
                {"m": metric}, human, level, COEFFICIENTS, "both", plain_samples, 0.95, 1
            )
            found.update({(level, c): (v.low, v.high) for (_, c), v in intervals.items()})
        results["kurenai"] = found

    def plain() -> None:
        results["plain"] = _plain(metric, human, plain_samples, seed=1)

    scipy_stats()  # imported before the clock starts
    times = interleaved_times({"kurenai": ours, "plain": plain}, options.repeats)
    same = all(
        np.allclose(results["kurenai"][k], results["plain"][k], atol=1e-12)
        for k in results["plain"]
    )
    print(
        f"{options.systems} systems x {options.documents} documents, "
        f"{plain_samples} resamples of both, 2 levels x 3 coefficients; "
        f"same intervals: {'yes' if same else 'NO (failed)'}"
    )
    per = {name: statistics.median(t) / plain_samples * 1000 for name, t in times.items()}
    for name, ms in per.items():
        print(
            f"  {name:8s} {ms:9.3f} ms per resample  ({ms * options.samples / 1000:.2f} s "
            f"for {options.samples})"
        )
    print(f"  plain / kurenai: {per['plain'] / per['kurenai']:.1f}x")


def _plain(metric: np.ndarray, human: np.ndarray, samples: int, seed: int) -> dict:
    systems, documents = human.shape
    found = {}
    for level in LEVELS:
        rng = np.random.default_rng(seed)  # each level's bootstrap starts afresh, as ours
        rows = rng.integers(0, systems, size=(samples, systems))
        cols = rng.integers(0, documents, size=(samples, documents))
        for coefficient in COEFFICIENTS:
            values = []
            for r, c in zip(rows, cols):
                value = level_correlation(coefficient, level, metric[r][:, c], human[r][:, c])[0]
                if not np.isnan(value):
                    values.append(value)
            low, high = np.percentile(values, [2.5, 97.5])
            found[(level, coefficient)] = (float(low), float(high))
    return found


def _options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", type=int, default=25)
    parser.add_argument("--documents", type=int, default=100)
    parser.add_argument("--samples", type=int, default=1000, help="resamples to report for")
    parser.add_argument("--repeats", type=int, default=3)
    add_common_options(parser)
    return parser.parse_args()


if __name__ == "__main__":
    main()

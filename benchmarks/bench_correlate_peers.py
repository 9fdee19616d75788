"""kurenai correlate's statistics at SummEval's size against SciPy's and nlpstats'.

SummEval-size data, generated (16 systems x 100 documents, 4 metrics, one
human criterion; the real scores are not needed for a timing): per
resampling scheme (systems, documents, both), the bootstrap intervals of
every metric's summary-, system- and global-level Pearson, Spearman and
Kendall correlations, and the permutation test of each metric against the
first; timed per resample (medians of interleaved repeats), kurenai on
``--samples`` resamples, the peers on ``--peer-samples`` (they loop in
Python, a resample costing the same whatever their number), reported for
``--samples``:

- ``kurenai``: ``kurenai.stats.correlate_scores`` (what ``kurenai correlate``
  runs once it has the scores);
- ``scipy``: ``scipy.stats.bootstrap`` (percentile method; the system and
  document indices as its samples, resampled independently for ``both``) and
  ``scipy.stats.permutation_test`` (paired samples: whole systems, documents
  or summaries swapped between the two metrics), one correlation per call;
- ``nlpstats`` (Deutsch's package, when installed: the ``bench`` extra):
  ``nlpstats.correlations.bootstrap`` and ``permutation_test``.

Prints each one's time and the ratios in one run.  ``--tiny``: 5 x 8, 2
metrics, 10 resamples, once.

    python benchmarks/bench_correlate_peers.py [--samples N] [--peer-samples N]
                                               [--repeats N] [--tiny]
"""

from __future__ import annotations

import argparse
import statistics

import numpy as np
from _common import add_common_options, header, interleaved_times

from kurenai.stats import COEFFICIENTS, LEVELS, RESAMPLING, correlate_scores, level_correlation

REPEATS_TEXTS = "no texts: it resamples generated score matrices, the same ones each repeat"

SCIPY_METHOD = {"systems": "systems", "documents": "inputs", "both": "both"}
NLPSTATS_LEVEL = {"summary": "input", "system": "system", "global": "global"}


def main() -> None:
    options = _options()
    header(options)
    if options.tiny:
        options.systems, options.documents, options.metrics = 5, 8, 2
        options.samples, options.repeats = 10, 1
    rng = np.random.default_rng(0)
    human = rng.random((options.systems, options.documents))
    metrics = {
        f"m{k}": human + rng.normal(0, 0.5 + k / 4, human.shape) for k in range(options.metrics)
    }
    peer_samples = max(2, min(options.peer_samples, options.samples))
    contenders = {
        "kurenai": lambda: _kurenai(metrics, human, options.samples),
        "scipy": lambda: _scipy(metrics, human, peer_samples),
    }
    try:
        import nlpstats.correlations  # noqa: F401

        contenders["nlpstats"] = lambda: _nlpstats(metrics, human, peer_samples)
    except ImportError:
        print("nlpstats is not installed (pip install nlpstats, the bench extra): left out")
    times = interleaved_times(contenders, options.repeats)
    print(
        f"{options.systems} systems x {options.documents} documents, {options.metrics} metrics, "
        f"{len(LEVELS)} levels x {len(COEFFICIENTS)} coefficients x {len(RESAMPLING)} "
        f"resampling schemes; bootstrap intervals and permutation tests, kurenai timed on "
        f"{options.samples} resamples, the peers on {peer_samples}"
    )
    drawn = {name: options.samples if name == "kurenai" else peer_samples for name in times}
    per = {name: statistics.median(t) / drawn[name] for name, t in times.items()}
    for name, seconds in per.items():
        print(
            f"  {name:9s} {seconds * 1000:10.3f} ms per resample  "
            f"({seconds * options.samples:.2f} s for {options.samples})"
        )
    for name in per:
        if name != "kurenai":
            print(f"  {name} / kurenai: {per[name] / per['kurenai']:.1f}x")


def _kurenai(metrics: dict[str, np.ndarray], human: np.ndarray, samples: int) -> None:
    systems = [f"s{i}" for i in range(human.shape[0])]
    documents = [f"d{j}" for j in range(human.shape[1])]
    for resample in RESAMPLING:
        correlate_scores(
            metrics, {"human": human}, systems, documents, levels=LEVELS, resample=resample,
            n_samples=samples, seed=1, tests=["permutation"],
        )  # fmt: skip


def _scipy(metrics: dict[str, np.ndarray], human: np.ndarray, samples: int) -> None:
    from scipy import stats

    rows, cols = np.arange(human.shape[0]), np.arange(human.shape[1])
    first = next(iter(metrics.values()))
    for resample in RESAMPLING:
        for level in LEVELS:
            for coefficient in COEFFICIENTS:
                for matrix in metrics.values():
                    _scipy_interval(stats, matrix, human, level, coefficient, resample,
                                    rows, cols, samples)  # fmt: skip
                for matrix in list(metrics.values())[1:]:
                    _scipy_permutation(stats, first, matrix, human, level, coefficient,
                                       resample, samples)  # fmt: skip


def _scipy_interval(stats, matrix, human, level, coefficient, resample, rows, cols, samples):
    def statistic(*indices: np.ndarray) -> float:
        r = indices[0] if resample != "documents" else rows
        c = indices[-1] if resample != "systems" else cols
        return level_correlation(coefficient, level, matrix[r][:, c], human[r][:, c])[0]

    data = {"systems": (rows,), "documents": (cols,), "both": (rows, cols)}[resample]
    stats.bootstrap(data, statistic, n_resamples=samples, vectorized=False, paired=False,
                    method="percentile", random_state=1)  # fmt: skip


def _scipy_permutation(stats, a, b, human, level, coefficient, resample, samples):
    # Paired samples of labels: observation i of a (label i) or of b (label i + k);
    # SciPy swaps labels between the two, the statistic rebuilds the matrices.
    shape = human.shape
    if resample == "systems":
        units = [a, b]
    elif resample == "documents":
        units = [a.T, b.T]
    else:
        units = [a.reshape(-1, 1), b.reshape(-1, 1)]
    pool = np.concatenate(units)
    k = len(units[0])

    def matrix(labels: np.ndarray) -> np.ndarray:
        rows = pool[labels.astype(int)]
        return {"systems": rows, "documents": rows.T}.get(resample, rows.reshape(shape))

    def statistic(p: np.ndarray, q: np.ndarray) -> float:
        return (
            level_correlation(coefficient, level, matrix(p), human)[0]
            - level_correlation(coefficient, level, matrix(q), human)[0]
        )

    labels = np.arange(k)
    stats.permutation_test((labels, labels + k), statistic, permutation_type="samples",
                           vectorized=False, n_resamples=samples, random_state=1)  # fmt: skip


def _nlpstats(metrics: dict[str, np.ndarray], human: np.ndarray, samples: int) -> None:
    from nlpstats.correlations import bootstrap, permutation_test

    np.random.seed(1)
    first = next(iter(metrics.values()))
    for resample in RESAMPLING:
        for level in LEVELS:
            for coefficient in COEFFICIENTS:
                for matrix in metrics.values():
                    bootstrap(matrix, human, NLPSTATS_LEVEL[level], coefficient,
                              SCIPY_METHOD[resample], n_resamples=samples)  # fmt: skip
                for matrix in list(metrics.values())[1:]:
                    permutation_test(first, matrix, human, NLPSTATS_LEVEL[level], coefficient,
                                     SCIPY_METHOD[resample], n_resamples=samples)  # fmt: skip


def _options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", type=int, default=16)
    parser.add_argument("--documents", type=int, default=100)
    parser.add_argument("--metrics", type=int, default=4)
    parser.add_argument("--samples", type=int, default=1000, help="resamples to report for")
    parser.add_argument("--peer-samples", type=int, default=10, help="the peers' resamples")
    parser.add_argument("--repeats", type=int, default=3)
    add_common_options(parser)
    return parser.parse_args()


if __name__ == "__main__":
    main()

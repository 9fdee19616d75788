"""An HTML report of a run: see why a score moved (needs the ``report`` extra).

>>> import os, tempfile
>>> from kurenai.rouge_scorer import RougeScorer
>>> path = os.path.join(tempfile.mkdtemp(), "report.html")
>>> board = write_report(path, RougeScorer(["rouge1"]), ["a b c", "d e"], {"mine": ["a b", "d"]},
...                      seed=0, n_samples=50)
>>> board.standings[0].system, os.path.getsize(path) > 0
('mine', True)

:func:`write_report` scores one or more systems' predictions against the
same references (each reference tokenized once, :mod:`kurenai.report._systems`),
ranks them with bootstrap intervals and paired tests, explains the records'
matches (:mod:`kurenai.report._highlights`) and writes one self-contained HTML
file (:mod:`kurenai.report._render`): corpus scores, score distributions,
scores by reference length and length ratio, a record table that sorts,
filters and pages, and an aligned view of each pair with its matched tokens
highlighted per type.  With ``baseline``, the page also compares the first
system with it: per-record deltas, wins/ties/losses, the paired bootstrap
and the most improved and regressed records.  :func:`correlate` measures
how well ROUGE agrees with human judgments (summary- and system-level
correlations, bootstrap intervals, tests between metrics; needs SciPy, the
``correlate`` extra) and :func:`write_correlation_report` shows it as a page
of its own.  ``import kurenai`` never
imports this package; it needs Jinja2 and Plotly only to render.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence
from typing import IO, Any, Union

import numpy as np
import numpy.typing as npt

from kurenai.report import _data, _highlights, _render
from kurenai.report._correlation_page import write_correlation_report
from kurenai.report._systems import (
    Leaderboard,
    Standing,
    leaderboard,
    reference_stability,
    score_systems,
    token_counts,
)

# The correlations live in kurenai.stats; re-exported here, where they were first.
from kurenai.stats import (
    Comparison,
    Correlation,
    Correlations,
    Interval,
    MetricTest,
    correlate,
    correlate_scores,
)

__all__ = [
    "DEFAULT_EXPLAINED",
    "Comparison",
    "Correlation",
    "Correlations",
    "Interval",
    "Leaderboard",
    "MetricTest",
    "Standing",
    "baseline_name",
    "correlate",
    "correlate_scores",
    "leaderboard",
    "reference_stability",
    "score_systems",
    "scored_records",
    "write_correlation_report",
    "write_report",
]

Target = Union[str, Sequence[str]]
Matrix = npt.NDArray[np.float64]
# Records explained by default: on 100,000 records of 65 words, what keeps the
# report within twice the time of scoring with the bootstrap (benchmarks/bench_report.py).
DEFAULT_EXPLAINED = 5_000


def write_report(
    path: str | os.PathLike[str] | IO[str],
    scorer: Any,
    targets: Sequence[Target],
    systems: Mapping[str, Sequence[str]] | Sequence[str],
    *,
    baseline: Mapping[str, Sequence[str]] | Sequence[str] | None = None,
    ids: Sequence[Any] | None = None,
    scores: Mapping[str, Matrix] | None = None,
    signature: str = "",
    n_samples: int = 1000,
    confidence: float = 0.95,
    seed: int | None = None,
    all_pairs: bool = False,
    explain_limit: int = DEFAULT_EXPLAINED,
    title: str | None = None,
    paired_test: str = "bootstrap",
    n_trials: int | None = None,
    reference_resamples: int = 0,
) -> Leaderboard:
    """Write the report of ``systems`` (name -> predictions; a plain list is one
    system named ``prediction``) against ``targets`` to ``path`` (a file name or
    a text stream); return the
    leaderboard.

    ``baseline``: a baseline system's predictions, compared with the first
    system: ``{name: predictions}`` (the page names it so, e.g. by its file),
    or a plain list, named ``baseline`` (``baseline-2``... beside a system of
    that name).  ``scores``: the systems' (types x P/R/F x records) scores when
    already computed (the command line's), else they are scored here.
    ``explain_limit``: how many records get highlighted matches (-1: all).
    ``seed`` makes every bootstrap reproducible.  ``paired_test`` names the
    paired tests' method: ``bootstrap`` (``n_samples`` resamples, with
    intervals), ``ar`` (approximate randomization, ``n_trials`` trials,
    None: 10,000; p-values only), or sacrebleu's conventions
    ``sacrebleu-bs`` / ``sacrebleu-ar`` (:data:`kurenai.stats.TESTS`); the
    page names the one used.  ``reference_resamples``: with records of several
    references, also rank the systems over that many resampled reference sets
    (:func:`reference_stability`, best reference, the same ``seed``); the
    leaderboard and the page show each system's rank distribution and the
    pairs' swap rates.

    Raises ValueError if the systems do not all have one prediction per
    target, a named baseline has a system's name or ``reference_resamples``
    is asked of records with one reference each, and ImportError without
    the ``report`` extra.
    """
    named = dict(systems) if isinstance(systems, Mapping) else {"prediction": list(systems)}
    base = None
    if isinstance(baseline, Mapping):
        if len(baseline) != 1:
            raise ValueError(f"baseline: one system's {{name: predictions}}, got {len(baseline)}")
        ((base, predictions),) = baseline.items()
        if base in named:
            raise ValueError(f"baseline: {base!r} is already a system's name")
        named[base] = list(predictions)
    elif baseline is not None:
        base = baseline_name(named)
        named[base] = list(baseline)
    if not targets:
        raise ValueError("a report needs at least one record")
    if scores is None:
        scores = score_systems(scorer, targets, named)
    types = tuple(scorer.rouge_types)
    # A record over a size limit (NaN scores, as the command line gives them)
    # is left out of every corpus number, for every system (the paired tests
    # compare the same records): the corpus mean of the command line.
    scored = scored_records(scores)
    if not scored.size:
        raise ValueError("no record to report: every record is over a size limit")
    corpus = {name: matrix[:, :, scored] for name, matrix in scores.items()}
    board = leaderboard(
        corpus, types, n_samples, confidence, seed, all_pairs, paired_test, n_trials
    )
    if reference_resamples:
        kept = [targets[i] for i in scored]
        texts = {name: [p[i] for i in scored] for name, p in named.items()}
        found = reference_stability(scorer, kept, texts, reference_resamples, seed=seed)
        board = dataclasses.replace(board, stability=found)
    first = next(iter(named))
    primary = corpus[first][0, 2]
    delta = None if base is None else primary - corpus[base][0, 2]
    chosen = [int(scored[i]) for i in _highlights.chosen_records(primary, delta, explain_limit)]
    data = _data.document(
        rouge_types=types,
        signature=signature,
        ids=list(range(len(targets))) if ids is None else ids,
        targets=targets,
        systems=named,
        scores=scores,
        scored=scored,
        target_lengths=token_counts(scorer.tokenizer, targets),
        prediction_lengths={n: token_counts(scorer.tokenizer, p) for n, p in named.items()},
        board=board,
        baseline=base,
        highlights=_highlights.highlights(scorer, targets, named, chosen),
        resampling=_data.Resampling(n_samples, confidence, seed, paired_test, n_trials),
    )
    if not isinstance(path, (str, os.PathLike)):
        _render.render(path, data, board, title or "kurenai report")
        return board
    with open(path, "w", encoding="utf-8", newline="\n") as stream:
        _render.render(stream, data, board, title or _render.default_title(path))
    return board


def scored_records(scores: Mapping[str, Matrix]) -> npt.NDArray[np.intp]:
    """The indices of the records every system scored (no NaN: none over a size limit)."""
    matrices = list(scores.values())
    finite = np.ones(matrices[0].shape[2] if matrices else 0, dtype=bool)
    for matrix in matrices:
        finite &= ~np.isnan(matrix).any(axis=(0, 1))
    return np.flatnonzero(finite)


def baseline_name(systems: Mapping[str, Any]) -> str:
    """The name the baseline gets beside ``systems``: ``baseline``, or
    ``baseline-2``... when a system has that name."""
    name = "baseline"
    candidate, k = name, 2
    taken = systems
    while candidate in taken:
        candidate, k = f"{name}-{k}", k + 1
    return candidate

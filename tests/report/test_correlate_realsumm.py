"""Real judgments: REALSumm's LitePyramid recall of 25 systems on 100
CNN/DailyMail documents (tests/data/realsumm, CC BY 4.0; README.md there).

The published number reproduced: ``analysis/analysis.ipynb`` of REALSumm
prints, for ROUGE-1/2/L recall against LitePyramid recall, the mean of the
per-document Kendall tau over all 25 systems, keeping only the documents
whose tau has a p-value of at most 0.05 (its own filter):
0.48913594431561247, 0.4859542610414608, 0.4870908341119741.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from optional import missing

from kurenai.report import correlate, correlate_scores
from kurenai.stats._correlate import judgment_matrices

try:
    import scipy.stats as stats
except ImportError:  # pragma: no cover - the correlate extra is in the test extra
    stats = None

DATA = Path(__file__).resolve().parents[1] / "data" / "realsumm"
PUBLISHED = {  # analysis/analysis.ipynb, cell 31's output
    "rouge_1_recall": 0.48913594431561247,
    "rouge_2_recall": 0.4859542610414608,
    "rouge_l_recall": 0.4870908341119741,
}


@pytest.fixture(scope="module")
def scores() -> tuple[list[str], list[str], dict[str, Any]]:
    if stats is None:
        missing("scipy (the correlate extra) is not installed")
    with gzip.open(DATA / "scores.jsonl.gz", "rt", encoding="utf-8") as lines:
        return judgment_matrices(json.loads(line) for line in lines)


def test_the_published_summary_level_kendall_row(scores: Any) -> None:
    systems, documents, matrices = scores
    assert (len(systems), len(documents)) == (25, 100)
    human = matrices["litepyramid_recall"]
    for metric, published in PUBLISHED.items():
        found = correlate_scores(
            {metric: matrices[metric]},
            {"lp": human},
            systems,
            documents,
            levels=["summary"],
            coefficients=["kendall"],
            n_samples=0,
        )
        kept = []
        for j in range(len(documents)):
            tau, p_value = stats.kendalltau(matrices[metric][:, j], human[:, j])
            if p_value <= 0.05:
                kept.append(tau)
                # Our per-document tau is the one REALSumm averaged.
                single = correlate_scores(
                    {metric: matrices[metric][:, [j]]},
                    {"lp": human[:, [j]]},
                    systems,
                    documents[j : j + 1],
                    levels=["summary"],
                    coefficients=["kendall"],
                    n_samples=0,
                )
                assert single.correlations[0].value == tau
        assert np.mean(kept) == published
        # Without the filter (kurenai's summary level, Deutsch et al.'s definition) it is lower.
        assert found.correlations[0].value < published - 0.05


def test_kurenais_rouge_on_the_sample_correlates_like_the_published_one(scores: Any) -> None:
    references = {r["document"]: r["reference"] for r in _jsonl("references.jsonl")}
    judgments = _jsonl("judgments.jsonl")
    predictions: dict[str, dict[str, str]] = {}
    for j in judgments:
        predictions.setdefault(j["system"], {})[j["document"]] = j["prediction"]
    found = correlate(
        references,
        predictions,
        judgments,
        ["rouge2"],
        measure="recall",
        levels=["summary"],
        coefficients=["kendall"],
        n_samples=200,
        seed=0,
        tests=[],
    )
    ours = found.get("litepyramid_recall", "summary", "rouge2", "kendall")
    systems, documents, matrices = scores
    columns = [documents.index(d) for d in found.documents]
    rows = [systems.index(s) for s in found.systems]
    published = (
        correlate_scores(
            {"r2": matrices["rouge_2_recall"][np.ix_(rows, columns)]},
            {"lp": matrices["litepyramid_recall"][np.ix_(rows, columns)]},
            found.systems,
            found.documents,
            levels=["summary"],
            coefficients=["kendall"],
            n_samples=0,
        )
        .correlations[0]
        .value
    )
    # Another ROUGE (py-rouge, each system against its own tokenization of the
    # reference), the same judgments: close, and inside our interval.
    assert ours.interval is not None and ours.interval.low < published < ours.interval.high
    assert abs(ours.value - published) < 0.1


def _jsonl(name: str) -> list[dict[str, Any]]:
    with open(DATA / name, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]

"""A published table reproduced: SacreROUGE's correlations of ROUGE with
SummEval's expert relevance judgments (tests/data/summeval; README.md there).

SacreROUGE's ``doc/metrics/rouge.md`` ("Fabbri2020", peers only) gives the
summary- and system-level Pearson (r), Spearman (p) and Kendall (k)
correlations, to two decimals, of ROUGE-1, -2, -L and -SU4 precision,
recall and F1 with the mean of the three experts' relevance scores, over
16 systems and 100 documents.  From the same ROUGE scores and judgments,
``correlate_scores`` gives every one of the 72 numbers.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from optional import missing

from kurenai.report import correlate_scores
from kurenai.stats._correlate import judgment_matrices

DATA = Path(__file__).resolve().parents[1] / "data" / "summeval" / "scores.jsonl.gz"
pytestmark = pytest.mark.slow  # 3,600 SciPy calls: about 5 s

TYPES = {"R1": "rouge-1", "R2": "rouge-2", "RL": "rouge-l", "RSU4": "rouge-su4"}
MEASURES = {"P": "precision", "R": "recall", "F1": "f1"}
# doc/metrics/rouge.md of danieldeutsch/sacrerouge (0ca5202), r / p / k per row.
PUBLISHED = {
    "summary": """
        R1-P 0.13 0.12 0.09  R1-R 0.31 0.28 0.23  R1-F1 0.28 0.26 0.20
        R2-P 0.15 0.13 0.09  R2-R 0.26 0.23 0.18  R2-F1 0.23 0.19 0.14
        RL-P 0.10 0.09 0.07  RL-R 0.27 0.26 0.21  RL-F1 0.21 0.18 0.14
        RSU4-P 0.13 0.12 0.09  RSU4-R 0.26 0.24 0.19  RSU4-F1 0.23 0.19 0.15""",
    "system": """
        R1-P 0.29 0.15 0.03  R1-R 0.55 0.56 0.42  R1-F1 0.61 0.62 0.50
        R2-P 0.49 0.41 0.25  R2-R 0.65 0.78 0.57  R2-F1 0.64 0.60 0.43
        RL-P 0.28 0.18 0.07  RL-R 0.70 0.83 0.65  RL-F1 0.61 0.48 0.32
        RSU4-P 0.43 0.37 0.18  RSU4-R 0.60 0.70 0.52  RSU4-F1 0.62 0.56 0.38""",
}


def _published(level: str) -> dict[str, tuple[float, float, float]]:
    words = PUBLISHED[level].split()
    rows = {}
    for k in range(0, len(words), 4):
        kind, measure = words[k].split("-")
        name = f"{TYPES[kind]}_{MEASURES[measure]}"
        rows[name] = (float(words[k + 1]), float(words[k + 2]), float(words[k + 3]))
    return rows


@pytest.fixture(scope="module")
def found() -> Any:
    try:
        import scipy.stats  # noqa: F401
    except ImportError:  # pragma: no cover - the correlate extra is in the test extra
        missing("scipy (the correlate extra) is not installed")
    with gzip.open(DATA, "rt", encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines]
    for record in records:  # SacreROUGE's judgment: the experts' mean
        record["relevance"] = float(np.mean(record.pop("expert")["relevance"]))
    systems, documents, matrices = judgment_matrices(records)
    human = matrices.pop("relevance")
    assert (len(systems), len(documents), len(matrices)) == (16, 100, 12)
    return correlate_scores(matrices, {"relevance": human}, systems, documents, n_samples=0,
                            tests=[])  # fmt: skip


def test_sacrerouges_table_of_summeval_relevance(found: Any) -> None:
    for level in ("summary", "system"):
        published = _published(level)
        assert len(published) == 12
        for metric, values in published.items():
            ours = [found.get("relevance", level, metric, c).value
                    for c in ("pearson", "spearman", "kendall")]  # fmt: skip
            assert [round(v, 2) for v in ours] == list(values), (level, metric)

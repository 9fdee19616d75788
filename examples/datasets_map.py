"""ROUGE columns for a HuggingFace ``datasets.Dataset`` with ``map(batched=True)``.

Needs ``pip install datasets`` (and ``kurenai[arrow]``).  With the dataset
formatted as Arrow, each batch arrives as a ``pyarrow.Table`` and
``RougeScorer.score_arrow`` returns the scores as one struct column: no
Python object per score.  Missing texts (None) get a null row.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa
from datasets import Dataset

from kurenai import metrics
from kurenai.rouge_scorer import RougeScorer

scorer = RougeScorer(["rouge1", "rouge2", "rougeL"], tokenizer="unicode")


def add_rouge(batch: pa.Table) -> pa.Table:
    scores = scorer.score_arrow(batch["target"], batch["prediction"])
    return batch.append_column("rouge", scores)


def main() -> Any:
    dataset = Dataset.from_dict(
        {
            "target": ["the cat sat on the mat", "今日 は 晴れ", None, "a b c"],
            "prediction": ["the cat sat", "今日 は 雨", "x", "a b c"],
        }
    )
    scored = dataset.with_format("arrow").map(add_rouge, batched=True, batch_size=2)
    rows = scored.with_format(None)
    for row in rows:
        print(row["target"], "|", row["prediction"], "->", row["rouge"])
    present = rows.filter(lambda row: row["target"] is not None)
    print(metrics.compute(present["prediction"], present["target"], seed=0))
    return rows


if __name__ == "__main__":
    main()

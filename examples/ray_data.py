"""ROUGE over a Ray Data dataset with ``map_batches``.

Needs ``pip install 'ray[data]'`` (and ``kurenai[arrow]``).  Batches arrive as
``pyarrow.Table``s; ``RougeScorer.score_arrow`` adds the scores as one struct
column, null where a text is missing.  The scorer is built once per worker
(a callable class), not once per batch.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa
import ray

from kurenai.rouge_scorer import RougeScorer


class AddRouge:
    def __init__(self) -> None:
        self.scorer = RougeScorer(["rouge1", "rougeL"], tokenizer="unicode")

    def __call__(self, batch: pa.Table) -> pa.Table:
        scores = self.scorer.score_arrow(batch["target"], batch["prediction"])
        return batch.append_column("rouge", scores)


def main() -> list[dict[str, Any]]:
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        dataset = ray.data.from_items(
            [
                {"target": "the cat sat on the mat", "prediction": "the cat sat"},
                {"target": "今日 は 晴れ", "prediction": "今日 は 雨"},
                {"target": None, "prediction": "x"},
            ]
        )
        scored = dataset.map_batches(AddRouge, batch_format="pyarrow", concurrency=1)
        rows = scored.take_all()
    finally:
        ray.shutdown()
    for row in rows:
        print(row["target"], "|", row["prediction"], "->", row["rouge"])
    return rows


if __name__ == "__main__":
    main()

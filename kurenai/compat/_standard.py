"""``mode="rouge-score"``: the scores of pltrdy's metric names computed by
kurenai's ``RougeScorer`` (rouge-score's definition, any kurenai tokenizer),
for a whole batch at once through ``score_batch(columnar=True)``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["StandardScores"]

_STATS = {"p": 0, "r": 1, "f": 2}  # the Score fields: precision, recall, fmeasure


def rouge_type(metric: str) -> str:
    """rouge-score's name for a pltrdy metric: ``rouge-2`` -> ``rouge2``,
    ``rouge-l`` -> ``rougeL`` (the LCS of the whole texts).

    >>> rouge_type("rouge-l"), rouge_type("rouge-3")
    ('rougeL', 'rouge3')
    """
    return "rougeL" if metric == "rouge-l" else "rouge" + metric[len("rouge-") :]


class StandardScores:
    """A ``RougeScorer`` for some pltrdy metric names."""

    def __init__(self, metrics: Sequence[str], tokenizer: Any, use_stemmer: bool, n_jobs: int):
        from kurenai.rouge_scorer import RougeScorer

        self._metrics = tuple(dict.fromkeys(metrics))
        types = [rouge_type(m) for m in self._metrics]
        self.scorer = RougeScorer(types, use_stemmer=use_stemmer, tokenizer=tokenizer)
        self._n_jobs = n_jobs

    def scores(self, hyps: Sequence[str], refs: Sequence[str]) -> list[dict[str, dict[str, float]]]:
        """Per pair, per metric, ``{"f", "p", "r"}`` as Python floats."""
        if not self._metrics or not hyps:
            return [{} for _ in hyps]
        columns = self.scorer.score_batch(list(refs), list(hyps), self._n_jobs, columnar=True)
        tables = {
            m: [np.asarray(a).tolist() for a in columns[rouge_type(m)]] for m in self._metrics
        }
        return [
            {m: {s: table[i][row] for s, i in _STATS.items()} for m, table in tables.items()}
            for row in range(len(hyps))
        ]

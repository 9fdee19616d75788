"""Per-pair scores of a batch as a table, for the metrics to summarise.

A table is a float64 array of shape (types, 3, records): precision, recall
and F-measure per ROUGE type and record.  A record with several references
gets, per type, the best reference's score (rouge-score's ``score_multi``:
highest F-measure, first on ties) or, with ``accumulate="avg"``, the mean
of precision, recall and F over its references (torchmetrics' rule).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from kurenai._core import inputs as _inputs
from kurenai.rouge_scorer import RougeScorer

__all__ = ["ACCUMULATE", "CallableTokenizer", "score_table"]

ACCUMULATE = ("best", "avg")


class CallableTokenizer:
    """A plain function ``text -> list[str]`` as a tokenizer object (evaluate
    accepts functions; the scorer wants ``tokenize``)."""

    def __init__(self, function: Callable[[str], list[str]]) -> None:
        self.function = function

    def tokenize(self, text: str) -> list[str]:
        """The function's tokens for ``text``."""
        return list(self.function(text))

    def __repr__(self) -> str:
        return f"CallableTokenizer({self.function!r})"


def score_table(
    scorer: RougeScorer,
    predictions: Any,
    references: Any,
    accumulate: str = "best",
    n_jobs: int = 1,
) -> np.ndarray:
    """Scores of each prediction against its reference(s): (types, 3, records)."""
    if isinstance(predictions, (str, bytes)):
        raise TypeError("predictions must be a list of str, not a single string")
    predictions = list(_inputs.texts(predictions))
    references = _inputs.references(references)
    for index, prediction in enumerate(predictions):
        if not isinstance(prediction, str):
            kind = "a null" if prediction is None else type(prediction).__name__
            raise TypeError(f"predictions[{index}] must be a str, got {kind}")
    if len(predictions) != len(references):
        raise ValueError(f"{len(predictions)} predictions but {len(references)} references")
    if all(isinstance(reference, str) for reference in references):
        return _table(scorer, scorer.score_batch(references, predictions, n_jobs, columnar=True))
    lists = [_reference_list(index, refs) for index, refs in enumerate(references)]
    counts = np.fromiter(map(len, lists), dtype=np.intp, count=len(lists))
    flat_t = [reference for refs in lists for reference in refs]
    flat_p = list(np.repeat(np.asarray(predictions, dtype=object), counts))
    flat = _table(scorer, scorer.score_batch(flat_t, flat_p, n_jobs, columnar=True))
    if len(flat_t) == len(lists):
        return flat
    starts = np.cumsum(counts) - counts
    if accumulate == "avg":
        return np.add.reduceat(flat, starts, axis=2) / counts
    return _best(flat, starts, counts)


def _table(scorer: RougeScorer, columns: dict[str, Any]) -> np.ndarray:
    return np.stack([np.stack(columns[rouge_type]) for rouge_type in scorer.rouge_types])


def _reference_list(index: int, references: Any) -> list[str]:
    if isinstance(references, str):
        return [references]
    if isinstance(references, bytes) or not hasattr(references, "__iter__"):
        raise TypeError(
            f"references[{index}] must be a str or a list of str, got {type(references).__name__}"
        )
    refs = list(references)
    if not refs:
        raise ValueError(f"references[{index}] is an empty list: each record needs a reference")
    for position, reference in enumerate(refs):
        if not isinstance(reference, str):
            raise TypeError(
                f"references[{index}][{position}] must be a str, got {type(reference).__name__}"
            )
    return refs


def _best(flat: np.ndarray, starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Per record and type, the scores of its first reference with the highest F."""
    group = np.repeat(np.arange(len(counts)), counts)
    positions = np.arange(flat.shape[2])
    table = np.empty((flat.shape[0], 3, len(counts)))
    for index, scores in enumerate(flat):
        best_f = np.maximum.reduceat(scores[2], starts)
        winners = np.where(scores[2] == best_f[group], positions, flat.shape[2])
        table[index] = scores[:, np.minimum.reduceat(winners, starts)]
    return table

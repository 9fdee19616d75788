"""Per-pair scores of a batch as a table, for the metrics to summarise.

A table is a float64 array of shape (types, 3, records): precision, recall
and F-measure per ROUGE type and record.  A record with several references
gets its references' scores combined by a multi-reference mode
(:mod:`kurenai._core.multiref`, through ``score_multi_batch``): by default
``best``, the best reference's score per type (rouge-score's
``score_multi``: highest F-measure, first on ties), or ``avg`` (= ``mean``),
the mean of precision, recall and F over its references (torchmetrics' rule).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from kurenai._core import checks as _checks
from kurenai._core import inputs as _inputs
from kurenai.rouge_scorer import RougeScorer

__all__ = ["CallableTokenizer", "score_table"]


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
    max_tokens: int | None = None,
    max_chars: int | None = None,
) -> np.ndarray:
    """Scores of each prediction against its reference(s): (types, 3, records);
    ``accumulate`` is the multi-reference mode of the records with several;
    NaN for a record with a text over ``max_tokens`` or ``max_chars``."""

    _checks.not_a_string(predictions, "predictions")
    predictions = list(_inputs.texts(predictions, "predictions"))
    references = _inputs.reference_column(references)
    for index, prediction in enumerate(predictions):
        if not isinstance(prediction, str):  # a null is None by now
            raise _checks.text_item("predictions", index, prediction)
    if len(predictions) != len(references):
        raise ValueError(f"{len(predictions)} predictions but {len(references)} references")
    if all(isinstance(reference, str) for reference in references):
        columns = scorer.score_batch(
            references,
            predictions,
            n_jobs,
            columnar=True,
            max_tokens=max_tokens,
            max_chars=max_chars,
        )
        return _table(scorer, columns)
    lists = [_reference_list(index, group) for index, group in enumerate(references)]
    combined = scorer.score_multi_batch(
        lists,
        predictions,
        n_jobs,
        columnar=True,
        mode=accumulate,
        max_tokens=max_tokens,
        max_chars=max_chars,
    )
    return _table(scorer, combined)


def _table(scorer: RougeScorer, columns: dict[str, Any]) -> np.ndarray:
    return np.stack([np.stack(columns[rouge_type]) for rouge_type in scorer.rouge_types])


def _reference_list(index: int, references: Any) -> list[str]:
    if isinstance(references, str):
        return [references]
    _inputs.check_reference_group(references, f"references[{index}]")
    if not hasattr(references, "__iter__"):
        raise TypeError(
            f"references[{index}] must be a str or a list of str, got {type(references).__name__}"
        )
    found = list(references)
    if not found:
        raise ValueError(f"references[{index}] is an empty list: each record needs a reference")
    for position, reference in enumerate(found):
        if not isinstance(reference, str):
            raise TypeError(
                f"references[{index}][{position}] must be a str, got {type(reference).__name__}"
            )
    return found

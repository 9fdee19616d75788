"""ROUGE between samples: minimum-Bayes-risk (consensus) selection,
self-ROUGE, and G predictions against one target, on
:meth:`RougeScorer.score_matrix <kurenai.rouge_scorer.RougeScorer.score_matrix>`
(each text tokenized once, the pairs counted in compiled code).

>>> samples = ["the cat sat on the mat", "a cat sat on the mat", "dogs bark loudly"]
>>> mbr_select(samples)
0
>>> round(self_rouge(samples), 4)
0.2778

Each function takes a ``scorer`` (a :class:`~kurenai.rouge_scorer.RougeScorer`)
or builds one from ``rouge_type`` and ``scorer_options`` (``use_stemmer``,
``tokenizer``, ``lang``, ...).  The utility of sample i against sample j is
``scorer.score(samples[j], samples[i])[rouge_type].<measure>``: i is the
prediction, j the reference (for the F-measure of ROUGE-N and ROUGE-L the
order does not matter).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from kurenai._core import checks as _checks
from kurenai._core.matrix import Progress, checked_texts
from kurenai.rouge_scorer import RougeScorer
from kurenai.scoring import Score

__all__ = ["expected_utilities", "mbr_select", "one_to_many", "self_rouge", "utility_matrix"]


def _scorer(
    scorer: RougeScorer | None, rouge_types: Sequence[str], options: dict[str, Any]
) -> RougeScorer:
    if scorer is None:
        return RougeScorer(rouge_types, **options)
    if not isinstance(scorer, RougeScorer):
        raise TypeError(f"scorer must be a RougeScorer, got {type(scorer).__name__}")
    if options:
        raise TypeError(f"pass options to the scorer, not with it: {', '.join(sorted(options))}")
    missing = [name for name in rouge_types if name not in scorer.rouge_types]
    if missing:
        raise ValueError(
            f"the scorer computes {', '.join(scorer.rouge_types)}, not {', '.join(missing)}"
        )
    return scorer


def utility_matrix(
    samples: Sequence[str],
    rouge_type: str = "rougeL",
    measure: str = "fmeasure",
    *,
    scorer: RougeScorer | None = None,
    n_jobs: int = 1,
    progress: Progress | None = None,
    **scorer_options: Any,
) -> np.ndarray:
    """The (N, N) matrix of one measure of one type: [i, j] is sample i
    scored against sample j as its reference (the diagonal included)."""
    if not isinstance(rouge_type, str):
        raise TypeError(f"rouge_type must be a str, got {type(rouge_type).__name__}")
    scorer = _scorer(scorer, [rouge_type], scorer_options)
    found = scorer.score_matrix(samples, None, n_jobs, progress=progress)[rouge_type]
    values: np.ndarray = getattr(found, _checks.measure(measure))
    return values


def _row_means(matrix: np.ndarray) -> np.ndarray:
    """Each row's mean off the diagonal, an exactly rounded sum (``math.fsum``):
    rows holding the same values in any order get the same mean."""
    n = len(matrix)
    if n == 1:
        return np.array([math.nan])
    sums = [math.fsum(row[:i] + row[i + 1 :]) for i, row in enumerate(matrix.tolist())]
    return np.array(sums) / (n - 1)


def expected_utilities(samples: Sequence[str], *args: Any, **kwargs: Any) -> np.ndarray:
    """Each sample's mean utility against the others (itself excluded):
    the minimum-Bayes-risk expected utility, with the other samples as the
    evidence.  Arguments as :func:`utility_matrix`.  One sample: [nan]."""
    return _row_means(utility_matrix(samples, *args, **kwargs))


def mbr_select(samples: Sequence[str], *args: Any, **kwargs: Any) -> int:
    """The index of the sample with the highest :func:`expected_utilities`
    (the consensus, or MBR, choice); of tied samples, the first.  Ties are
    exact: each mean is an exactly rounded sum divided by N - 1, so samples
    whose utilities are the same numbers in any order tie.  One sample: 0.

    Raises ValueError if ``samples`` is empty.
    """
    utilities = expected_utilities(_nonempty(samples), *args, **kwargs)
    return 0 if len(utilities) == 1 else int(np.argmax(utilities))


def self_rouge(
    texts: Sequence[str],
    rouge_type: str = "rougeL",
    measure: str = "fmeasure",
    **kwargs: Any,
) -> float:
    """The mean ``measure`` of ``rouge_type`` over every ordered pair of
    different positions (i != j): low when the texts are diverse.  Options
    as :func:`utility_matrix`.  Raises ValueError with fewer than two texts."""
    texts = checked_texts(texts, "texts")
    if len(texts) < 2:
        raise ValueError(f"self_rouge needs at least two texts, got {len(texts)}")
    matrix = utility_matrix(texts, rouge_type, measure, **kwargs)
    off = matrix[~np.eye(len(texts), dtype=bool)]
    return math.fsum(off.tolist()) / len(off)


def one_to_many(
    target: str,
    predictions: Sequence[str],
    rouge_types: Iterable[str] = ("rougeL",),
    *,
    scorer: RougeScorer | None = None,
    **scorer_options: Any,
) -> dict[str, Score]:
    """G predictions against one target, the target tokenized once: per type
    a ``Score`` of arrays of length G, [k] being ``score(target,
    predictions[k])`` to the bit."""
    types = _checks.rouge_types(rouge_types)
    scorer = _scorer(scorer, types, scorer_options)
    texts = [target, *checked_texts(predictions, "predictions")]
    found = scorer.score_indexed(texts, range(1, len(texts)), [0] * (len(texts) - 1))
    return {name: found[name] for name in types}


def _nonempty(samples: Sequence[str]) -> list[str]:
    found = checked_texts(samples, "samples")
    if not found:
        raise ValueError("samples must not be empty")
    return found

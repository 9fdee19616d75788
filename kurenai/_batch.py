"""Scoring many pairs: order kept, chunks spread over threads, nulls and limits.

The compiled path releases the GIL while it scans and counts a whole chunk,
so threads run those parts on separate cores; the Python-level parts of a
chunk (lowercasing, building ``Score``s) still take turns.
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from kurenai.scoring import Score

if TYPE_CHECKING:
    from kurenai.rouge_scorer import RougeScorer

ScoreDict = dict[str, Score]
# Pairs per task: enough to amortise the GIL hand-overs, few enough to stay in
# cache and to give every thread several tasks (an even finish).
MIN_CHUNK, MAX_CHUNK = 16, 64


def resolve_jobs(n_jobs: int) -> int:
    """``n_jobs`` as a thread count: -1 or 0 mean every core."""
    if not isinstance(n_jobs, int) or isinstance(n_jobs, bool):
        raise TypeError(f"n_jobs must be an int, got {type(n_jobs).__name__}")
    if n_jobs < -1:
        raise ValueError(f"n_jobs must be a positive count, 0 or -1, got {n_jobs}")
    return n_jobs if n_jobs > 0 else (os.cpu_count() or 1)


def checked_pairs(
    targets: Sequence[Any], predictions: Sequence[Any], allow_none: bool
) -> tuple[int, list[int], list[str], list[str]]:
    """The number of pairs, the indices of those to score (None pairs
    excluded), and their targets and predictions."""
    if isinstance(targets, (str, bytes)) or isinstance(predictions, (str, bytes)):
        raise TypeError("targets and predictions must be sequences of str, not strings")
    targets, predictions = list(targets), list(predictions)
    if len(targets) != len(predictions):
        raise ValueError(f"{len(targets)} targets but {len(predictions)} predictions")
    scored = []
    for index, pair in enumerate(zip(targets, predictions)):
        if allow_none and (pair[0] is None or pair[1] is None):
            continue
        for name, text in zip(("targets", "predictions"), pair):
            if not isinstance(text, str):
                hint = "" if text is not None else " (pass allow_none=True for null in, null out)"
                raise TypeError(f"{name}[{index}] must be a str, got {type(text).__name__}{hint}")
        scored.append(index)
    if len(scored) == len(targets):
        return len(targets), scored, targets, predictions
    chosen_t, chosen_p = [targets[i] for i in scored], [predictions[i] for i in scored]
    return len(targets), scored, chosen_t, chosen_p


def score_pairs(
    scorer: RougeScorer,
    targets: list[str],
    predictions: list[str],
    n_jobs: int,
    max_tokens: int | None,
    out: np.ndarray | None = None,
) -> list[ScoreDict | None]:
    """Scores of the pairs in order; None where a side exceeds ``max_tokens``.

    With ``out`` (float64, types x 3 x pairs), writes precision, recall and
    F-measure there (NaN for None) and returns an empty list.
    """
    limit = -1 if max_tokens is None else max_tokens
    plan = scorer._plan

    def run(start: int) -> list[ScoreDict | None]:
        stop = start + chunk
        chunk_t, chunk_p = targets[start:stop], predictions[start:stop]
        if plan is not None:
            view = None if out is None else out[:, :, start:stop]
            return plan.score_many(chunk_t, chunk_p, limit, view) or []
        scores = [scorer._score_limited(t, p, limit) for t, p in zip(chunk_t, chunk_p)]
        if out is not None:
            _fill(out[:, :, start:stop], scorer.rouge_types, scores)
            return []
        return scores

    results: list[ScoreDict | None] = []
    chunk = min(MAX_CHUNK, max(MIN_CHUNK, -(-len(targets) // (8 * n_jobs))))
    for scores in _map(run, range(0, len(targets), chunk), n_jobs):
        results.extend(scores)
    return results


def _fill(out: np.ndarray, rouge_types: list[str], scores: list[ScoreDict | None]) -> None:
    for row, pair in enumerate(scores):
        if pair is not None:
            out[:, :, row] = [pair[rouge_type] for rouge_type in rouge_types]


def columns(
    rouge_types: list[str], size: int, rows: list[int], scored: np.ndarray
) -> dict[str, Score]:
    """Per type, a ``Score`` of float64 arrays over all ``size`` pairs: the
    scored pairs' values at ``rows``, NaN elsewhere."""
    if len(rows) == size:
        table = scored
    else:
        table = np.full((len(rouge_types), 3, size), math.nan)
        table[:, :, rows] = scored
    return {t: Score(*table[i]) for i, t in enumerate(rouge_types)}


def best_per_type(rouge_types: list[str], candidates: list[ScoreDict]) -> ScoreDict:
    """score_multi's choice: per type the highest F-measure, first on ties."""
    best: ScoreDict = {}
    for rouge_type in rouge_types:
        winner = candidates[0][rouge_type]
        for scores in candidates[1:]:
            if scores[rouge_type].fmeasure > winner.fmeasure:
                winner = scores[rouge_type]
        best[rouge_type] = winner
    return best


def _map(run: Callable[[int], Any], starts: range, n_jobs: int) -> Any:
    if n_jobs == 1 or len(starts) < 2:
        return map(run, starts)
    return _pool(n_jobs).map(run, starts)


_POOLS: dict[tuple[int, int], ThreadPoolExecutor] = {}
_POOLS_LOCK = threading.Lock()


def _pool(n_jobs: int) -> ThreadPoolExecutor:
    # Kept for the process: starting threads on every call cost more than a
    # small batch, and idle workers cost nothing.  Keyed by process too: a
    # forked child inherits the pool but not its threads.
    key = (os.getpid(), n_jobs)
    with _POOLS_LOCK:
        if key not in _POOLS:
            _POOLS[key] = ThreadPoolExecutor(n_jobs, thread_name_prefix="kurenai")
        return _POOLS[key]

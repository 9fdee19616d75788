"""Scoring many pairs: order kept, chunks spread over threads.

The pairs arrive checked (:func:`kurenai._core.checks.checked_pairs`: nulls,
limits, plain str); this module only pools: inputs convert, checks check,
batch pools.

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
from typing import Any, Callable

import numpy as np

from kurenai._core.checks import available_cores
from kurenai._core.plan import Plan
from kurenai.scoring import Score

ScoreDict = dict[str, Score]
# Pairs per task: enough to amortise the GIL hand-overs, few enough to stay in
# cache and to give every thread several tasks (an even finish).
MIN_CHUNK, MAX_CHUNK = 16, 64


def placed(size: int, rows: list[int], results: list[Any]) -> list[Any]:
    """``results`` put at ``rows`` of a list of ``size`` Nones."""
    if len(rows) == size:
        return results
    full: list[Any] = [None] * size
    for row, result in zip(rows, results):
        full[row] = result
    return full


def score_pairs(
    plan: Plan,
    targets: list[str],
    predictions: list[str],
    n_jobs: int,
    limit: int,
    out: np.ndarray | None = None,
) -> list[ScoreDict | None]:
    """Scores of the pairs in order; None where a side has more than ``limit``
    tokens (if >= 0).

    With ``out`` (float64, types x 3 x pairs), writes precision, recall and
    F-measure there (NaN for None) and returns an empty list.
    """

    def run(start: int) -> list[ScoreDict | None]:
        stop = start + chunk
        view = None if out is None else out[:, :, start:stop]
        return plan.score_many(targets[start:stop], predictions[start:stop], limit, view) or []

    results: list[ScoreDict | None] = []
    # (smallest, largest, chunks per job): a plan may ask for other sizes.
    low, high, per_job = getattr(plan, "chunking", (MIN_CHUNK, MAX_CHUNK, 8))
    chunk = min(high, max(low, -(-len(targets) // (per_job * n_jobs))))
    for scores in _map(run, range(0, len(targets), chunk), n_jobs):
        results.extend(scores)
    return results


def columns(
    rouge_types: Sequence[str], size: int, rows: list[int], scored: np.ndarray
) -> dict[str, Score]:
    """Per type, a ``Score`` of float64 arrays over all ``size`` pairs: the
    scored pairs' values at ``rows``, NaN elsewhere."""
    if len(rows) == size:
        table = scored
    else:
        table = np.full((len(rouge_types), 3, size), math.nan)
        table[:, :, rows] = scored
    return {rouge_type: Score(*table[i]) for i, rouge_type in enumerate(rouge_types)}


def _map(run: Callable[[int], Any], starts: range, n_jobs: int) -> list[Any]:
    """``[run(start) for start in starts]`` on at most ``n_jobs`` threads: the
    caller's and ``n_jobs - 1`` workers of the shared pool, each taking the
    next start until none is left.  The first error is raised (the other
    workers stop taking starts)."""
    if n_jobs == 1 or len(starts) < 2:
        return list(map(run, starts))
    results: list[Any] = [None] * len(starts)
    pending = iter(enumerate(starts))
    lock = threading.Lock()
    failed = threading.Event()

    def work() -> None:
        while not failed.is_set():
            try:
                with lock:
                    item = next(pending, None)
                if item is None:
                    return
                results[item[0]] = run(item[1])
            except BaseException:  # an interrupt between two starts too
                failed.set()
                raise

    helpers = min(n_jobs, len(starts), POOL_SIZE + 1) - 1
    pool = _pool()
    futures: list[Any] = []
    errors: list[BaseException] = []
    try:
        futures.extend(pool.submit(work) for _ in range(helpers))
        # The caller works too: a call makes progress even when other callers
        # keep every pooled worker busy.
        work()
    except BaseException as error:
        # Also an interrupt while the workers were being started: those
        # already started must stop too, not run the rest of the batch.
        failed.set()
        errors.append(error)
        if len(futures) < helpers:
            # The interrupt came inside ``submit``, maybe while it waited for
            # a new thread to start: the pool records a thread only once
            # ``Thread.start`` returns, so that thread would be unknown to it
            # and the interpreter's exit would wait for it forever.
            _discard(pool)
    try:
        for future in futures:
            found = future.exception()
            if found is not None:
                errors.append(found)
    except BaseException:
        # Interrupted while waiting (Ctrl-C, or SIGTERM/SIGHUP raised by the
        # command line): the workers stop after their current start, so that
        # the process exits now rather than after the whole batch.
        failed.set()
        raise
    if errors:
        raise errors[0]
    return results


# One pool for the process, whatever the n_jobs of each call: its workers
# start when first needed and then wait idle, so the threads stay bounded by
# the available cores (n_jobs beyond them would only take turns).  A pool per
# n_jobs kept one set of threads per value ever used (2..65: ~2,000 threads).
POOL_SIZE = max(1, available_cores() - 1)
_POOLS: dict[int, ThreadPoolExecutor] = {}
_POOLS_LOCK = threading.Lock()


def _discard(pool: ThreadPoolExecutor) -> None:
    """Stop ``pool``'s threads once idle (every one of them, recorded or
    not: each passes the stop on to the next) and start a new pool next time."""
    with _POOLS_LOCK:
        for pid, known in list(_POOLS.items()):
            if known is pool:
                del _POOLS[pid]
    pool.shutdown(wait=False)


def _pool() -> ThreadPoolExecutor:
    # Keyed by process: a forked child inherits the pool but not its threads.
    pid = os.getpid()
    with _POOLS_LOCK:
        if pid not in _POOLS:
            _POOLS.clear()  # a parent's pool, dead in this child
            _POOLS[pid] = ThreadPoolExecutor(POOL_SIZE, thread_name_prefix="kurenai")
        return _POOLS[pid]

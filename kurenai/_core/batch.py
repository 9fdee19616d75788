"""Scoring many pairs: order kept, chunks spread over threads, nulls and limits.

The compiled path releases the GIL while it scans and counts a whole chunk,
so threads run those parts on separate cores; the Python-level parts of a
chunk (lowercasing, building ``Score``s) still take turns.
"""

from __future__ import annotations

import contextlib
import math
import os
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

import numpy as np

from kurenai._core import checks as _checks
from kurenai._core import inputs as _inputs
from kurenai._core.inputs import check_reference_group, is_null
from kurenai._core.plan import Plan
from kurenai.scoring import Score

ScoreDict = dict[str, Score]
# Pairs per task: enough to amortise the GIL hand-overs, few enough to stay in
# cache and to give every thread several tasks (an even finish).
MIN_CHUNK, MAX_CHUNK = 16, 64


def text(name: str, value: Any) -> str:
    """``value`` as a plain ``str``, or a TypeError naming it.

    A ``str`` subclass (``numpy.str_``...) becomes its plain value, read with
    ``str.__str__``: none of the subclass's own methods runs while scoring.
    """
    if type(value) is str:
        return value
    if isinstance(value, str):
        return str.__str__(value)
    raise TypeError(f"{name} must be a str, got {type(value).__name__}")


def reference_group(targets: Any, name: str) -> list[str]:
    """One prediction's ``targets`` as a non-empty list of str, or a
    TypeError/ValueError naming it (a column of records' references, each a
    str or a list: :func:`kurenai._core.inputs.reference_column`)."""
    if isinstance(targets, (str, bytes)):
        raise TypeError(f"{name} must be a list of str, not a single string")
    check_reference_group(targets, name, "a list of str")
    try:
        found = list(targets)
    except TypeError:
        raise TypeError(f"{name} must be a list of str, got {type(targets).__name__}") from None
    if not found:
        raise ValueError(f"{name} must be a non-empty list: score_multi needs at least one target")
    return [text(f"{name}[{index}]", reference) for index, reference in enumerate(found)]


def available_cores() -> int:
    """The cores this process may run on: its CPU affinity where the OS has
    one (a container or ``taskset`` limits it), else ``os.cpu_count()``."""
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        with contextlib.suppress(OSError):
            return max(1, len(affinity(0)))
    return os.cpu_count() or 1


def resolve_jobs(n_jobs: int) -> int:
    """``n_jobs`` as a thread count: -1 or 0 mean every available core."""
    if not isinstance(n_jobs, int) or isinstance(n_jobs, bool):
        raise TypeError(f"n_jobs must be an int, got {type(n_jobs).__name__}")
    if n_jobs < -1:
        raise ValueError(f"n_jobs must be a positive count, 0 or -1, got {n_jobs}")
    return n_jobs if n_jobs > 0 else available_cores()


def resolve_threads(threads: int) -> int:
    """``threads`` (one long pair's LCS) as a count: -1 means every available
    core, and more than those are not started (they would only take turns)."""
    if not isinstance(threads, int) or isinstance(threads, bool):
        raise TypeError(f"threads must be an int, got {type(threads).__name__}")
    if threads < 1 and threads != -1:
        raise ValueError(f"threads must be a positive count or -1 (every core), got {threads}")
    cores = available_cores()
    return min(threads, cores) if threads > 0 else cores


def too_long(text: str, max_chars: int) -> bool:
    """Whether ``text`` has more than ``max_chars`` code points (``len``; -1: no
    limit).  Read before any tokenizer runs: a text over it costs nothing."""
    return 0 <= max_chars < len(text)


def _column(values: Any, name: str) -> list[Any]:
    """One side of a batch as a list of its own (its items are replaced by
    their plain str): a list, or a pandas, NumPy or pyarrow column."""
    _checks.not_a_string(values, name)
    values = _inputs.column(values, name)
    try:
        return list(values)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of str, got {type(values).__name__}") from None


def checked_pairs(
    targets: Any, predictions: Any, allow_none: bool, max_chars: int = -1
) -> tuple[int, list[int], list[str], list[str]]:
    """The number of pairs, the indices of those to score (null pairs and
    pairs with a side over ``max_chars`` code points excluded), and their
    targets and predictions as plain str.

    Each side is a sequence or a pandas, NumPy or pyarrow column; its items
    are read once, here: a null (None, NaN, ``pd.NA``) is a null pair under
    ``allow_none`` and a TypeError naming its index otherwise, as is any
    other item that is not a str.
    """
    targets, predictions = _column(targets, "targets"), _column(predictions, "predictions")
    if len(targets) != len(predictions):
        raise ValueError(f"{len(targets)} targets but {len(predictions)} predictions")
    scored = []
    for index, pair in enumerate(zip(targets, predictions)):
        if type(pair[0]) is not str or type(pair[1]) is not str:
            if allow_none and (is_null(pair[0]) or is_null(pair[1])):
                continue
            targets[index] = _item("targets", index, pair[0])
            predictions[index] = _item("predictions", index, pair[1])
        if max_chars >= 0 and (
            too_long(targets[index], max_chars) or too_long(predictions[index], max_chars)
        ):
            continue
        scored.append(index)
    if len(scored) == len(targets):
        return len(targets), scored, targets, predictions
    chosen_targets = [targets[i] for i in scored]
    return len(targets), scored, chosen_targets, [predictions[i] for i in scored]


# How score_batch takes nulls, said where one is refused.
NULL_HINT = " (pass allow_none=True for null in, null out)"


def _item(name: str, index: int, value: Any) -> str:
    if is_null(value):
        raise _checks.text_item(name, index, None, NULL_HINT)
    if not isinstance(value, str):
        raise _checks.text_item(name, index, value)
    return text(f"{name}[{index}]", value)


def checked_groups(
    targets: Sequence[Any], predictions: Sequence[Any], allow_none: bool, max_chars: int = -1
) -> tuple[int, list[int], list[int], list[str], list[str]]:
    """score_multi_batch's input flattened: the number of rows, the indices of
    those to score (not those with a text over ``max_chars`` code points),
    each one's number of references, and every (reference, prediction) pair
    of them as plain str."""
    targets, predictions = list(targets), _column(predictions, "predictions")
    if len(targets) != len(predictions):
        raise ValueError(f"{len(targets)} target lists but {len(predictions)} predictions")
    rows: list[int] = []
    groups: list[int] = []
    flat_targets: list[str] = []
    flat_predictions: list[str] = []
    for index, (group, prediction) in enumerate(zip(targets, predictions)):
        if allow_none and (group is None or is_null(prediction)):
            continue
        if group is None:
            raise TypeError(f"targets[{index}] must be a list of str, got NoneType{NULL_HINT}")
        found = reference_group(group, f"targets[{index}]")
        prediction = _item("predictions", index, prediction)
        if max_chars >= 0 and (
            too_long(prediction, max_chars) or any(too_long(t, max_chars) for t in found)
        ):
            continue
        rows.append(index)
        groups.append(len(found))
        flat_targets.extend(found)
        flat_predictions.extend([prediction] * len(found))
    return len(targets), rows, groups, flat_targets, flat_predictions


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

"""Many pairs over few texts: ``RougeScorer.score_matrix`` and the scoring
of G predictions against one target (``kurenai.pairs``, ``kurenai.rewards``).

Each text is tokenized and interned once (``Plan.intern_texts``: the compiled
scan for kurenai's own tokenizers, the tokenizer otherwise), its n-gram
profiles are built once (NumPy), and the kernels ``kurenai._backend.pairs``
count ROUGE-N and ROUGE-L of every pair on the IDs, a block of rows per
task, threads side by side (the compiled kernel runs without the GIL).  The
other kinds (ROUGE-Lsum, -W, -S, -SU) are scored pair by pair by the Python
plan on the tokens found once: the same numbers, more slowly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

import numpy as np

from kurenai import _backend
from kurenai._core import checks as _checks
from kurenai._core.choice import python_plan
from kurenai._core.plan import SCORE_FIELDS, Plan
from kurenai._core.python_plan import PythonPlan, Splitter
from kurenai.scoring import Score

__all__ = [
    "Progress",
    "Texts",
    "checked_indices",
    "checked_texts",
    "score_indexed",
    "score_matrix",
]

# progress(rows done, rows in all), called after each block of rows.
Progress = Callable[[int, int], None]
# Rows per task: a few per thread at least (an even finish), and enough
# columns' work in each that a task's start costs nothing.
_PAIRS_PER_TASK = 1 << 16


def checked_texts(values: Any, name: str) -> list[str]:
    """``values`` as a list of plain str, or a TypeError naming the item."""
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{name} must be a sequence of str, not a single string")
    try:
        found = list(values)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of str, got {type(values).__name__}") from None
    return [_checks.text(f"{name}[{index}]", text) for index, text in enumerate(found)]


def checked_indices(values: Any, name: str, size: int) -> np.ndarray:
    """``values`` as an int64 array of indices into ``size`` texts, or a
    TypeError/ValueError naming it."""
    wrong = f"{name} must be a sequence of int indices into texts"
    try:
        items = values if isinstance(values, np.ndarray) else list(values)
    except TypeError:
        raise TypeError(wrong) from None
    if isinstance(items, np.ndarray):
        found = items
    elif all(type(item) is int or isinstance(item, np.integer) for item in items):
        found = np.asarray(items, dtype=np.int64)
    else:
        found = np.asarray(items, dtype=object)
    if found.ndim != 1 or found.dtype.kind not in "iu":
        raise TypeError(wrong)
    indices = found.astype(np.int64)
    if len(indices) and not (indices.min() >= 0 and indices.max() < size):
        raise ValueError(f"{name} holds an index outside texts (0 to {size - 1})")
    return indices


class Texts:
    """Texts interned once: their IDs and, per n-gram order, their profiles."""

    def __init__(self, plan: Plan, texts: list[str]) -> None:
        raw, starts, self.vocab = plan.intern_texts(texts)
        self.ids = np.frombuffer(raw, dtype=np.int32)
        self.starts = np.asarray(starts, dtype=np.int64)
        self.grams = tuple(self._profile(n) for n in plan.spec.orders)

    def _profile(self, n: int) -> tuple[np.ndarray, np.ndarray, int]:
        """Each text's n-grams, position by position, as IDs over all texts
        (a unigram's ID is its token's), each text's start, and a bound."""
        lengths = np.diff(self.starts)
        counts = np.maximum(lengths - n + 1, 0)
        bounds = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        if n == 1:
            return self.ids, bounds, max(self.vocab, 1)
        text_of = np.repeat(np.arange(len(lengths), dtype=np.int64), counts)
        positions = self.starts[:-1][text_of] + np.arange(int(bounds[-1])) - bounds[:-1][text_of]
        windows = np.stack([self.ids[positions + k] for k in range(n)], axis=1)
        found, grams = np.unique(windows, axis=0, return_inverse=True)
        return grams.reshape(-1).astype(np.int32), bounds, max(len(found), 1)


def _kernel_types(plan: Plan) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Each type's kind for the kernels (-1: another kind) and n-gram slot,
    and the indices of the types left to the Python plan."""
    spec = plan.spec
    kinds = [code if code in _backend.pairs.KINDS else -1 for code in spec.kinds]
    others = [i for i, code in enumerate(kinds) if code < 0]
    return np.asarray(kinds, np.int32), np.asarray(spec.slots, np.int32), others


def _run(
    work: Callable[[int, int], None], rows: int, columns: int, jobs: int, progress: Progress | None
) -> None:
    """``work(start, stop)`` over blocks of rows, on ``jobs`` threads."""
    block = max(1, min(_PAIRS_PER_TASK // max(columns, 1), math.ceil(rows / (4 * jobs))))
    blocks = [(start, min(start + block, rows)) for start in range(0, rows, block)]
    done = 0
    if jobs == 1:
        for start, stop in blocks:
            work(start, stop)
            done += stop - start
            if progress is not None:
                progress(done, rows)
        return
    with ThreadPoolExecutor(jobs) as pool:
        for (start, stop), future in zip(blocks, [pool.submit(work, *b) for b in blocks]):
            future.result()
            done += stop - start
            if progress is not None:
                progress(done, rows)


def _fill_others(
    plan: PythonPlan, others: list[int], texts: list[str], pairs: Any, out: np.ndarray
) -> None:
    """The types the kernels do not count, pair by pair on tokens found once.
    ``pairs``: (row, column, prediction text, target text) tuples."""
    tokenized = [plan.tokenized(text) for text in texts]
    for row, column, prediction, target in pairs:
        scores = plan.score_tokenized(tokenized[target], tokenized[prediction], others)
        for i, score in zip(others, scores):
            out[i, :, row, column] = score


def score_matrix(
    plan: Plan,
    tokenizer: Any,
    splitter: Splitter | None,
    predictions: Sequence[str],
    targets: Sequence[str] | None,
    n_jobs: int,
    progress: Progress | None,
) -> dict[str, Score]:
    """See ``RougeScorer.score_matrix``."""
    jobs = _checks.resolve_jobs(n_jobs)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be a callable (done, total), got {type(progress).__name__}")
    rows_texts = checked_texts(predictions, "predictions")
    symmetric = targets is None
    cols_texts = rows_texts if symmetric else checked_texts(targets, "targets")
    texts = rows_texts if symmetric else rows_texts + cols_texts
    n, m = len(rows_texts), len(cols_texts)
    out = np.zeros((len(plan.rouge_types), len(SCORE_FIELDS), n, m))
    kinds, slots, others = _kernel_types(plan)
    rows = np.arange(n, dtype=np.int64)
    cols = rows if symmetric else np.arange(n, n + m, dtype=np.int64)
    layout = _backend.pairs.MIRRORED if symmetric else _backend.pairs.EVERY
    if n and m and len(others) < len(kinds):
        found = Texts(plan, texts)
        orders = np.asarray(plan.spec.orders, np.int64)
        args = (found.ids, found.starts, found.vocab, found.grams, orders, kinds, slots)

        def work(start: int, stop: int) -> None:
            _backend.pairs.fill(*args, rows, cols, start, stop, layout, out)

        _run(work, n, m, jobs, progress)
    if n and m and others:
        pairs = ((r, c, r, int(cols[c])) for r in range(n) for c in range(m))
        _fill_others(python_plan(plan.spec, tokenizer, splitter), others, texts, pairs, out)
    return _scores(plan.rouge_types, out)


def score_indexed(
    plan: Plan,
    tokenizer: Any,
    splitter: Splitter | None,
    texts: Sequence[str],
    predictions: Sequence[int],
    targets: Sequence[int],
) -> dict[str, Score]:
    """Pair k is text ``predictions[k]`` against text ``targets[k]`` (indices
    into ``texts``, checked here): per type a Score of 1-D arrays.  Pairs
    sharing a target are taken together, its profile built once."""
    texts = checked_texts(texts, "texts")
    rows = checked_indices(predictions, "predictions", len(texts))
    cols = checked_indices(targets, "targets", len(texts))
    if len(rows) != len(cols):
        raise ValueError(f"{len(cols)} targets but {len(rows)} predictions")
    order = np.argsort(cols, kind="stable")
    rows, cols = np.ascontiguousarray(rows[order]), np.ascontiguousarray(cols[order])
    out = np.zeros((len(plan.rouge_types), len(SCORE_FIELDS), len(rows), 1))
    kinds, slots, others = _kernel_types(plan)
    if len(rows) and len(others) < len(kinds):
        found = Texts(plan, texts)
        orders = np.asarray(plan.spec.orders, np.int64)
        _backend.pairs.fill(
            found.ids, found.starts, found.vocab, found.grams, orders, kinds, slots,
            rows, cols, 0, len(rows), _backend.pairs.PAIRED, out,
        )  # fmt: skip
    if len(rows) and others:
        pairs = ((k, 0, int(rows[k]), int(cols[k])) for k in range(len(rows)))
        _fill_others(python_plan(plan.spec, tokenizer, splitter), others, texts, pairs, out)
    placed = np.empty_like(out[:, :, :, 0])
    placed[:, :, order] = out[:, :, :, 0]
    return _scores(plan.rouge_types, placed)


def _scores(names: tuple[str, ...], out: np.ndarray) -> dict[str, Score]:
    return {name: Score(*out[i]) for i, name in enumerate(names)}

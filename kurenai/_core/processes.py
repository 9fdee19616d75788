"""Tokenizers that hold the GIL, on every core: ``score_batch(n_jobs=k)`` in processes.

Threads share one interpreter: a tokenizer whose analysis runs under the GIL
(jieba is Python; MeCab through fugashi, Sudachi and Kiwi keep it while they
analyse, or spend most of a short text's time in Python around the analyser)
tokenizes on one core whatever ``n_jobs`` is.  Such a tokenizer's class says
so with ``holds_gil = True``, and :func:`spread` then gives a batch a
:class:`ProcessPlan`: ``kurenai._core.batch`` still cuts the pairs into chunks
and hands them to its threads, but each thread sends its chunk to a worker
process of its own and waits (without the GIL) for the scores.

The workers are fresh interpreters (``sys.executable -c ...``, this process's
``sys.path``), never forks, and they do not import the caller's ``__main__``:
a script without an ``if __name__ == "__main__"`` guard, a notebook, or a
thread-holding parent are all safe.  A worker builds each plan once from its
pickled recipe (types, tokenizer, sentence splitter, LCS threads) and keeps
the last few, so a tokenizer loads its dictionary once per worker and serves
every later call.  The pool holds at most one worker per core, starts them
when a batch first needs them, and closes them when the interpreter exits
(or when its pipe closes: a worker exits with its parent).  The scores are
the plan's own, computed by the same code in the worker.
"""

from __future__ import annotations

import atexit
import json
import os
import pickle
import queue
import signal
import subprocess
import sys
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import IO, Any

import numpy as np

from kurenai._core.plan import Plan, ScoreDict, TypeSpec

__all__ = ["ProcessPlan", "close", "score_in_workers", "spread"]

# A batch this large starts the workers (interpreter, imports, dictionary:
# about a second each, in parallel); once they run, smaller ones use them too.
COLD_MIN_PAIRS = 1000
WARM_MIN_PAIRS = 256
# Plans a worker keeps (each may hold a loaded dictionary).
PLANS_PER_WORKER = 4
# Set in a worker's environment: a worker never starts workers of its own.
WORKER_VAR = "KURENAI_WORKER_PROCESS"
_BOOT = "import sys, json; sys.path[:] = json.loads(sys.argv[1]); "
_BOOT += "from kurenai._core.processes import serve; serve()"


def spread(plan: Plan, tokenizer: Any, splitter: Any, n_jobs: int, pairs: int) -> Plan:
    """``plan``, or a :class:`ProcessPlan` running it in worker processes when
    ``tokenizer`` holds the GIL, ``n_jobs`` > 1, the batch is worth it and
    the recipe pickles (otherwise the threads run ``plan`` as before)."""
    if n_jobs < 2 or getattr(type(tokenizer), "holds_gil", False) is not True:
        return plan
    if os.environ.get(WORKER_VAR) or not sys.executable or (os.cpu_count() or 1) < 2:
        return plan
    if pairs < (WARM_MIN_PAIRS if _POOL.running() else COLD_MIN_PAIRS):
        return plan
    if type(tokenizer).__module__ == "__main__":  # a worker cannot import its class
        return plan
    try:
        recipe = pickle.dumps((plan.spec, tokenizer, splitter, plan.threads), protocol=4)
    except Exception:  # a user's tokenizer or splitter that does not pickle
        return plan
    try:
        _POOL.grow(min(n_jobs, os.cpu_count() or 1))
    except OSError:  # no process can start here: the threads it is
        return plan
    return ProcessPlan(plan, recipe)


def score_in_workers(
    recipe: bytes, chunks: Sequence[tuple[list[str], list[str]]], n_jobs: int
) -> list[Any] | None:
    """Each chunk's ``score_many`` in a worker process, ``n_jobs`` at a time,
    by the plan the worker makes from ``recipe`` (a pickled object whose
    ``plan()`` returns it, e.g. ``kurenai.compat.xlsum``'s scorer recipe);
    None where no worker can start (run them here then)."""
    if os.environ.get(WORKER_VAR) or not sys.executable:
        return None
    jobs = max(1, min(n_jobs, os.cpu_count() or 1, len(chunks)))
    try:
        _POOL.grow(jobs)
    except OSError:
        return None

    def run(chunk: tuple[list[str], list[str]]) -> Any:
        with _POOL.lease() as worker:
            return worker.call((recipe, chunk[0], chunk[1], -1, False))

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(jobs) as threads:
        return list(threads.map(run, chunks))


class ProcessPlan:
    """A plan whose ``score_many`` runs in a worker process; ``score``,
    ``tallies`` (one pair), ``score_shared``, ``tokens`` and ``intern_texts``
    run here, on the same plan."""

    # kurenai._core.batch's chunks for it (smallest, largest, chunks per
    # job): a round trip to a worker costs a few hundred microseconds, and
    # milliseconds on cores shared with other work, so chunks of hundreds.
    chunking = (64, 1024, 4)

    def __init__(self, local: Plan, recipe: bytes) -> None:
        self._local = local
        self._recipe = recipe

    @property
    def rouge_types(self) -> tuple[str, ...]:
        return self._local.rouge_types

    @property
    def spec(self) -> TypeSpec:
        return self._local.spec

    @property
    def threads(self) -> int:
        return self._local.threads

    def score(self, target: str, prediction: str) -> ScoreDict:
        return self._local.score(target, prediction)

    def tallies(self, target: str, prediction: str) -> Sequence[tuple[float, float, float]]:
        return self._local.tallies(target, prediction)

    def score_shared(self, targets: list[str], systems: list[list[str]], out: list[Any]) -> None:
        self._local.score_shared(targets, systems, out)

    def tokens(self, text: str, stemmed: bool = False) -> Sequence[str]:
        return self._local.tokens(text, stemmed)

    def intern_texts(self, texts: list[str]) -> tuple[bytes, list[int], int]:
        return self._local.intern_texts(texts)

    def score_many(
        self,
        targets: list[str],
        predictions: list[str],
        max_tokens: int = -1,
        out: Any = None,
    ) -> list[ScoreDict | None] | None:
        """See ``kurenai._core.plan.Plan.score_many``: the same, in a worker."""
        request = (self._recipe, targets, predictions, max_tokens, out is not None)
        with _POOL.lease() as worker:
            result = worker.call(request)
        if out is None:
            return result  # type: ignore[no-any-return]
        out[...] = result
        return None


class _Worker:
    """One worker process and its two pipes: pickled requests in, replies out."""

    def __init__(self) -> None:
        env = {**os.environ, WORKER_VAR: "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-c", _BOOT, json.dumps([str(entry) for entry in sys.path])],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )

    def call(self, request: tuple[Any, ...]) -> Any:
        pipe_in, pipe_out = self.process.stdin, self.process.stdout
        assert pipe_in is not None and pipe_out is not None
        try:
            pickle.dump(request, pipe_in, protocol=pickle.HIGHEST_PROTOCOL)
            pipe_in.flush()
            ok, value = pickle.load(pipe_out)
        except (OSError, EOFError, pickle.UnpicklingError):
            self.close()
            raise RuntimeError(
                f"a kurenai worker process ended unexpectedly (exit code {self.process.poll()})"
            ) from None
        except BaseException:  # interrupted mid-exchange: the next reply would not be ours
            self.close()
            raise
        if not ok:
            raise value
        return value

    def alive(self) -> bool:
        return self.process.poll() is None

    def close(self) -> None:
        for pipe in (self.process.stdin, self.process.stdout):
            try:
                if pipe is not None:
                    pipe.close()
            except OSError:
                pass
        try:
            self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class _Pool:
    """At most one worker per core, each lent to one caller at a time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._workers: list[_Worker] = []
        self._idle: queue.SimpleQueue[_Worker] = queue.SimpleQueue()
        self._pid = os.getpid()

    def running(self) -> bool:
        return self._pid == os.getpid() and any(w.alive() for w in self._workers)

    def grow(self, size: int) -> None:
        """Start workers until ``size`` are alive."""
        with self._lock:
            if self._pid != os.getpid():  # a forked child: the workers are the parent's
                self._pid, self._workers, self._idle = os.getpid(), [], queue.SimpleQueue()
            # A worker that died stays counted: lease() replaces it when its turn comes.
            while len(self._workers) < size:
                worker = _Worker()
                self._workers.append(worker)
                self._idle.put(worker)

    @contextmanager
    def lease(self) -> Iterator[_Worker]:
        """An idle worker for the caller alone, back in the pool afterwards
        (one that died is replaced: the pool keeps its size)."""
        worker = self._idle.get()
        if not worker.alive():
            worker = self._replace(worker)
        try:
            yield worker
        finally:
            self._idle.put(worker if worker.alive() else self._replace(worker))

    def _replace(self, dead: _Worker) -> _Worker:
        with self._lock:
            worker = _Worker()
            self._workers = [w for w in self._workers if w is not dead] + [worker]
            return worker

    def close(self) -> None:
        with self._lock:
            workers, self._workers, self._idle = self._workers, [], queue.SimpleQueue()
        if self._pid == os.getpid():
            for worker in workers:
                worker.close()


_POOL = _Pool()
atexit.register(_POOL.close)


def close() -> None:
    """Stop the worker processes (they start again when a batch needs them)."""
    _POOL.close()


def serve(requests: IO[bytes] | None = None, replies: IO[bytes] | None = None) -> None:
    """A worker's loop: read requests until the parent closes the pipe.

    Anything the tokenizers print goes to stderr: stdout carries the replies.
    """
    if requests is None and replies is None:
        # Ctrl-C reaches the whole process group: the parent handles it, and
        # a worker exits when the parent closes its pipe.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if replies is None:
        replies = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
        os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    if requests is None:
        requests = sys.stdin.buffer
    plans: OrderedDict[bytes, Plan] = OrderedDict()
    while True:
        try:
            request = pickle.load(requests)
        except EOFError:
            return
        try:
            reply: tuple[bool, Any] = (True, _run(plans, *request))
            payload = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as error:
            payload = _error_payload(error)
        try:
            replies.write(payload)
            replies.flush()
        except BrokenPipeError:  # the caller gave up on this reply and closed the pipe
            return


def _run(
    plans: OrderedDict[bytes, Plan],
    recipe: bytes,
    targets: list[str],
    predictions: list[str],
    max_tokens: int,
    columnar: bool,
) -> Any:
    plan = plans.get(recipe)
    if plan is None:
        from kurenai._core.choice import make_plan

        made = pickle.loads(recipe)
        plan = made.plan() if hasattr(made, "plan") else make_plan(*made)
        plans[recipe] = plan
        if len(plans) > PLANS_PER_WORKER:
            plans.popitem(last=False)
    plans.move_to_end(recipe)
    if not columnar:
        return plan.score_many(targets, predictions, max_tokens)
    out = np.full((len(plan.rouge_types), 3, len(targets)), np.nan)
    plan.score_many(targets, predictions, max_tokens, out)
    return out


def _error_payload(error: Exception) -> bytes:
    """The error, pickled for the caller to raise; its text if it does not pickle."""
    try:
        return pickle.dumps((False, error), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:
        described = RuntimeError(f"{type(error).__name__}: {error} (in a kurenai worker process)")
        return pickle.dumps((False, described), protocol=pickle.HIGHEST_PROTOCOL)

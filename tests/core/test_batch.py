"""score_batch / score_multi_batch: same scores as one by one, in order."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from rss import MIB, maxrss_bytes

from kurenai.rouge_scorer import ROUGE_TYPES, RougeScorer

WORDS = [
    "the",
    "a",
    "cat",
    "cats",
    "running",
    "runs",
    "dog",
    "猫",
    "犬",
    "42",
    ".",
    ",",
    "x",
    "y",
    "z",
]


def random_text(rng: random.Random) -> str:
    return "".join(
        rng.choice(WORDS) + rng.choice([" ", " ", "\n"]) for _ in range(rng.randint(0, 40))
    )


@pytest.fixture(scope="module")
def pairs() -> tuple[list[str], list[str]]:
    rng = random.Random(7)
    # More than one chunk, so chunks really go to different threads.
    return [random_text(rng) for _ in range(300)], [random_text(rng) for _ in range(300)]


@pytest.mark.parametrize("n_jobs", [1, 2, -1])
@pytest.mark.parametrize("stem", [False, True])
def test_batch_equals_one_by_one(
    backend: str, pairs: tuple[list[str], list[str]], n_jobs: int, stem: bool
) -> None:
    scorer = RougeScorer(list(ROUGE_TYPES), use_stemmer=stem)
    targets, predictions = pairs
    expected = [scorer.score(t, p) for t, p in zip(targets, predictions)]
    assert scorer.score_batch(targets, predictions, n_jobs=n_jobs) == expected


@pytest.mark.parametrize("tokenizer", [None, "rouge-score", "char"])
def test_columnar_holds_the_same_floats(
    backend: str, pairs: tuple[list[str], list[str]], tokenizer: str | None
) -> None:
    scorer = RougeScorer(["rouge1", "rouge3", "rougeL", "rougeLsum"], tokenizer=tokenizer)
    targets, predictions = pairs
    expected = scorer.score_batch(targets, predictions)
    columns = scorer.score_batch(targets, predictions, n_jobs=2, columnar=True)
    for rouge_type, score in columns.items():
        for field in range(3):
            assert score[field].dtype == np.float64
            assert score[field].tolist() == [s[rouge_type][field] for s in expected]


def test_null_in_null_out(backend: str) -> None:
    scorer = RougeScorer(["rouge1", "rougeL"])
    results = scorer.score_batch(["a b", None, "c", None], [None, "a", "c", None], allow_none=True)
    assert results[0] is None and results[1] is None and results[3] is None
    assert results[2] == scorer.score("c", "c")
    columns = scorer.score_batch(["a", None], ["a", "b"], allow_none=True, columnar=True)
    assert columns["rougeL"].fmeasure[0] == 1.0
    assert math.isnan(columns["rougeL"].fmeasure[1])


def test_none_without_allow_none_names_the_index(backend: str) -> None:
    scorer = RougeScorer(["rouge1"])
    with pytest.raises(TypeError, match=r"predictions\[1\] must be a str, got a null .*allow_none"):
        scorer.score_batch(["a", "b"], ["a", None])
    with pytest.raises(TypeError, match=r"targets\[0\] must be a str, got bytes"):
        scorer.score_batch([b"a"], ["a"], allow_none=True)


def test_size_limit_gives_null_instead_of_work(backend: str) -> None:
    scorer = RougeScorer(["rougeL", "rougeLsum"])
    long_text = " ".join(["w"] * 50)
    results = scorer.score_batch(["a b", long_text, "a"], ["a", "w", long_text], max_tokens=10)
    assert results == [scorer.score("a b", "a"), None, None]
    exact = scorer.score_batch([long_text], [long_text], max_tokens=50)
    assert exact == [scorer.score(long_text, long_text)]
    columns = scorer.score_batch(["a b", long_text], ["a", "w"], max_tokens=10, columnar=True)
    assert columns["rougeL"].recall[0] == 0.5
    assert math.isnan(columns["rougeL"].recall[1])


def test_argument_errors() -> None:
    scorer = RougeScorer(["rouge1"])
    with pytest.raises(ValueError, match="2 targets but 1 predictions"):
        scorer.score_batch(["a", "b"], ["a"])
    with pytest.raises(TypeError, match="targets must be a sequence of str, not a single string"):
        scorer.score_batch("ab", "ab")
    with pytest.raises(TypeError, match="targets must be a sequence of str, got int"):
        scorer.score_batch(5, ["a"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="n_jobs"):
        scorer.score_batch(["a"], ["a"], n_jobs=-5)
    with pytest.raises(TypeError, match="n_jobs must be an int"):
        scorer.score_batch(["a"], ["a"], n_jobs=1.5)  # type: ignore[arg-type]
    assert scorer.score_batch([], []) == []


def test_a_scorer_of_no_types_scores_nothing(backend: str) -> None:
    scorer = RougeScorer([])
    assert scorer.score_batch(["a"], ["a"]) == [{}]
    assert scorer.score_batch(["a", None], ["a", "b"], columnar=True, allow_none=True) == {}


def test_multi_batch_equals_score_multi(backend: str, pairs: tuple[list[str], list[str]]) -> None:
    scorer = RougeScorer(["rouge1", "rouge2", "rougeLsum"])
    targets, predictions = pairs
    references = [targets[i : i + 1 + i % 3] for i in range(100)]
    expected = [scorer.score_multi(r, p) for r, p in zip(references, predictions)]
    assert scorer.score_multi_batch(references, predictions[:100], n_jobs=2) == expected
    with pytest.raises(ValueError, match=r"targets\[0\] must be a non-empty list"):
        scorer.score_multi_batch([[]], ["a"])
    with pytest.raises(TypeError, match=r"targets\[0\] must be a list of str, not a single"):
        scorer.score_multi_batch(["a b"], ["a"])
    with pytest.raises(TypeError, match=r"targets\[1\]\[1\] must be a str, got NoneType"):
        scorer.score_multi_batch([["a"], ["b", None]], ["a", "b"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"predictions\[0\] must be a str"):
        scorer.score_multi_batch([["a"]], [3])  # type: ignore[list-item]


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs fork")
def test_batch_threads_work_in_a_forked_child() -> None:
    # The thread pool is kept between calls; a forked child must get its own.
    import os
    import signal

    scorer = RougeScorer(["rouge1"])
    pairs = (["a b"] * 100, ["a"] * 100)
    expected = scorer.score_batch(*pairs, n_jobs=2)
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through its exit code
        signal.alarm(30)  # a hang (threads that were never forked) ends the child
        os._exit(0 if scorer.score_batch(*pairs, n_jobs=2) == expected else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


class SplitOnSpaces:
    """A tokenizer object kurenai knows nothing about: the Python-tokenizer path."""

    def tokenize(self, text: str) -> list[str]:
        return text.split(" ")


@pytest.mark.parametrize(
    "tokenizer", [None, "char", SplitOnSpaces()], ids=["default", "char", "custom"]
)
@pytest.mark.parametrize("stem", [False, True], ids=["plain", "stemmer"])
def test_columns_equal_dicts_with_nulls_and_limits(
    backend: str, tokenizer: object, stem: bool
) -> None:
    scorer = RougeScorer(["rouge2", "rougeL", "rougeLsum"], tokenizer=tokenizer, use_stemmer=stem)  # type: ignore[arg-type]
    long_text = " ".join(["cats"] * 30)
    targets = ["the cats ran", None, long_text, "c d e", "", "running dogs"]
    predictions = ["cats ran", "x", "cats", None, "", "the dog runs"]
    options = {"allow_none": True, "max_tokens": 10, "n_jobs": 2}
    dicts = scorer.score_batch(targets, predictions, **options)  # type: ignore[arg-type]
    columns = scorer.score_batch(targets, predictions, columnar=True, **options)  # type: ignore[arg-type]
    assert dicts[1] is None and dicts[2] is None and dicts[3] is None
    for row, scores in enumerate(dicts):
        for rouge_type, column in columns.items():
            values = [column[field][row] for field in range(3)]
            if scores is None:
                assert all(math.isnan(v) for v in values)
            else:
                assert values == list(scores[rouge_type])


# ------------------------------------------------------------ max_tokens


@pytest.mark.parametrize(
    ("bad", "error", "message"),
    [
        (-5, ValueError, "max_tokens must be None or an int >= 0, got -5"),
        (1.5, TypeError, "max_tokens must be None or an int >= 0, got float"),
        ("5", TypeError, "max_tokens must be None or an int >= 0, got str"),
        (True, TypeError, "got bool"),
    ],
)
def test_max_tokens_is_validated_by_name(bad: object, error: type, message: str) -> None:
    scorer = RougeScorer(["rouge1"])
    with pytest.raises(error, match=message):
        scorer.score_batch(["a"], ["a"], max_tokens=bad)  # type: ignore[arg-type]
    with pytest.raises(error, match=message):
        scorer.score_multi_batch([["a"]], ["a"], max_tokens=bad)  # type: ignore[arg-type]


def test_huge_and_zero_limits(backend: str) -> None:
    scorer = RougeScorer(["rouge1"])
    assert scorer.score_batch(["a b"], ["a"], max_tokens=10**30) == [scorer.score("a b", "a")]
    assert scorer.score_batch(["a", ""], ["a", ""], max_tokens=0) == [None, scorer.score("", "")]


@pytest.mark.parametrize("tokenizer", [None, "rouge-score", "char"])
def test_long_texts_at_the_limit_are_scored(backend: str, tokenizer: str | None) -> None:
    # Longer than the piece the compiled path checks a long text by, with
    # tokens cut by the piece boundaries: exactly at the limit still scores.
    scorer = RougeScorer(["rouge1"], tokenizer=tokenizer)
    at_limit = " ".join(["Abcdefghi"] * 9000)
    results = scorer.score_batch([at_limit, at_limit + " x"], ["x", "x"], max_tokens=9000)
    assert results[0] == scorer.score(at_limit, "x")
    assert results[1] is None


@pytest.mark.compiled_only
def test_an_over_limit_pair_stops_early_in_bounded_memory() -> None:
    # 4M CJK characters (8 MB), each a token for "char": neither a lowercased
    # copy of the whole text nor token buffers sized by it.
    code = (
        "import resource, sys\n"
        "from kurenai.rouge_scorer import RougeScorer\n"
        "scorer = RougeScorer(['rouge1', 'rougeL'], tokenizer='char')\n"
        "text = '漢' * 4_000_000\n"
        "scorer.score_batch(['a'], ['a'])\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "result = scorer.score_batch([text], ['a'], max_tokens=1000)\n"
        "after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print(result, before, after)\n"
    )
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    result, before, after = done.stdout.split()
    assert result == "[None]"
    extra_mib = (maxrss_bytes(int(after)) - maxrss_bytes(int(before))) / MIB
    assert extra_mib < 4, f"{extra_mib:.1f} MiB for one over-limit pair"


# ------------------------------------------------------------ score_multi_batch options


def test_multi_batch_takes_score_batch_options(backend: str) -> None:
    scorer = RougeScorer(["rouge1", "rougeL"])
    targets = [["a b", "a"], None, ["c d e f"], ["x"]]
    predictions = ["a", "b", "c", None]
    rows = scorer.score_multi_batch(targets, predictions, allow_none=True, max_tokens=3)  # type: ignore[arg-type]
    assert rows == [scorer.score_multi(["a b", "a"], "a"), None, None, None]
    columns = scorer.score_multi_batch(
        targets,  # type: ignore[arg-type]
        predictions,
        allow_none=True,
        max_tokens=3,
        columnar=True,
        n_jobs=2,
    )
    assert columns["rouge1"].fmeasure[0] == 1.0
    assert all(math.isnan(v) for v in columns["rougeL"].recall[1:])
    with pytest.raises(TypeError, match=r"targets\[1\] must be a list of str, got NoneType"):
        scorer.score_multi_batch(targets, predictions)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"predictions\[1\] must be a str, got a null"):
        scorer.score_multi_batch(targets[2:], predictions[2:])  # type: ignore[arg-type]


# ------------------------------------------------------------ interrupts


def test_an_interrupt_between_two_starts_stops_the_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    # A signal (Ctrl-C, or SIGHUP raised by the command line) can land in the
    # caller while it takes the next start: the workers must stop after their
    # current one, not work through the rest of the batch while the caller
    # waits (a SIGHUP with --jobs 2 then seemed to hang).
    import threading
    import time
    import types

    from kurenai._core import batch

    if batch.POOL_SIZE < 1:  # pragma: no cover - POOL_SIZE is at least 1
        pytest.skip("no pooled worker")
    taken = {"main": 0}

    class InterruptedLock:
        """A lock whose third entry from the caller's thread is interrupted."""

        def __init__(self) -> None:
            self._lock = real_lock()

        def __enter__(self) -> None:
            if threading.current_thread() is threading.main_thread():
                taken["main"] += 1
                if taken["main"] == 3:
                    raise KeyboardInterrupt
            self._lock.acquire()

        def __exit__(self, *exc: object) -> None:
            self._lock.release()

    calls: list[int] = []

    def run(start: int) -> int:
        calls.append(start)
        time.sleep(0.002)
        return start

    real_lock = threading.Lock
    threads = types.SimpleNamespace(Lock=InterruptedLock, Event=threading.Event)
    monkeypatch.setattr(batch, "threading", threads)  # _map's lock only
    with pytest.raises(KeyboardInterrupt):
        batch._map(run, range(2_000), 2)
    assert len(calls) < 200, len(calls)  # not the whole batch


def test_an_interrupt_while_the_workers_start_stops_them(monkeypatch: pytest.MonkeyPatch) -> None:
    # The signal can also land while the caller hands work to the pool: a
    # worker already started must stop after its current start, not work
    # through the rest of the batch once the caller has given up.
    import time

    from kurenai._core import batch

    real = batch._pool()

    stopped: list[bool] = []

    class InterruptedPool:
        def submit(self, fn: object) -> object:
            real.submit(fn)  # type: ignore[arg-type]
            raise KeyboardInterrupt

        def shutdown(self, wait: bool = True) -> None:
            stopped.append(wait)  # the shared pool itself stays usable

    calls: list[int] = []

    def run(start: int) -> int:
        calls.append(start)
        time.sleep(0.002)
        return start

    monkeypatch.setattr(batch, "_pool", lambda: InterruptedPool())
    with pytest.raises(KeyboardInterrupt):
        batch._map(run, range(2_000), 2)
    time.sleep(0.1)
    settled = len(calls)
    time.sleep(0.1)
    assert len(calls) == settled < 200, (settled, len(calls))
    assert stopped == [False]  # told to stop, without waiting for the workers


# A thread of the pool started while Ctrl-C lands: ``Thread.start`` waits for
# the new thread, and the pool records it only after that wait.
INTERRUPTED_START = """
import threading
from kurenai._core import batch

real_start = threading.Thread.start

def start(self):
    real_start(self)
    if self.name.startswith("kurenai"):
        raise KeyboardInterrupt  # as in start()'s wait for the thread

threading.Thread.start = start
try:
    batch._map(lambda start: start, range(10), 2)
except KeyboardInterrupt:
    print("interrupted", flush=True)
threading.Thread.start = real_start
print(batch._map(lambda start: start, range(4), 2), flush=True)  # a new pool
"""


@pytest.mark.slow
def test_an_interrupt_while_a_pool_thread_starts_lets_the_process_exit() -> None:
    # The thread the pool did not know about kept the interpreter's exit
    # waiting forever ("kurenai: interrupted", then no exit).
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-c", INTERRUPTED_START], capture_output=True, text=True, timeout=60
    )
    assert (run.returncode, run.stdout, run.stderr) == (0, "interrupted\n[0, 1, 2, 3]\n", "")

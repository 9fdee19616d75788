"""Long-lived processes stay bounded: threads, memos and worker caches.

``score_batch`` shares one pool of at most ``available_cores() - 1`` workers
(the caller is the other) whatever ``n_jobs`` each call asks for; ``threads``
is capped at the available cores; the stemmer's memo is bounded in
characters as well as entries; Spark's worker cache keeps the 16 most recent
scorers, keyed by the tokenizer's value; threads do not multiply an
analyser's dictionary (a pool of at most ``POOL_MAX`` analysers that are not
thread-safe, one shared analyser otherwise); ``explain()`` refuses, before
any work, a pair whose explanation would list n² units.
"""

from __future__ import annotations

import os
import pickle
import random
import threading

import pytest
from robustness_support import require
from rss import MIB, peak_rss_bytes

from kurenai import metrics
from kurenai._core import batch as _batch
from kurenai._core import checks as _checks
from kurenai.explain import ExplainLimitError, explain
from kurenai.rouge_scorer import RougeScorer
from kurenai.spark import _worker, tokenizer_key
from kurenai.spark._worker import Spec
from kurenai.tokenizers import UnicodeTokenizer, _stemming
from kurenai.tokenizers._morphological import POOL_MAX, MorphologicalTokenizer
from kurenai.tokenizers._stemming import CachedPorterStemmer


def _rss_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _kurenai_threads() -> int:
    return sum(1 for thread in threading.enumerate() if thread.name.startswith("kurenai"))


def test_batches_of_every_n_jobs_share_one_bounded_pool(backend: str) -> None:
    scorer = RougeScorer(["rouge1", "rougeL"])
    texts = [f"the cat {i} sat on the mat" for i in range(300)]
    expected = scorer.score_batch(texts, texts[::-1])
    for n_jobs in range(2, 66):
        assert scorer.score_batch(texts, texts[::-1], n_jobs=n_jobs) == expected
    assert _kurenai_threads() <= _batch.POOL_SIZE == max(1, _checks.available_cores() - 1)


def test_an_error_in_a_worker_is_raised_and_the_pool_still_serves(backend: str) -> None:
    class Failing:
        def tokenize(self, text: str) -> list[str]:
            if text == "boom":
                raise RuntimeError("tokenizer failed")
            return text.split()

    scorer = RougeScorer(["rouge1"], tokenizer=Failing())
    texts = ["a b"] * 5_000 + ["boom"] + ["a b"] * 5_000
    with pytest.raises(RuntimeError, match="tokenizer failed"):
        scorer.score_batch(texts, texts, n_jobs=4)
    assert scorer.score_batch(["a b"] * 5_000, ["a"] * 5_000, n_jobs=4)[-1]["rouge1"].recall == 0.5


@pytest.mark.parametrize("threads", [2, 64, 10_000, -1])
def test_threads_are_capped_at_the_available_cores(backend: str, threads: int) -> None:
    cores = _checks.available_cores()
    assert _checks.resolve_threads(threads) == (cores if threads == -1 else min(threads, cores))
    scorer = RougeScorer(["rougeL"], threads=threads)
    assert scorer.plan.threads <= cores
    assert (
        scorer.score("a b c", "a c")["rougeL"]
        == RougeScorer(["rougeL"]).score("a b c", "a c")["rougeL"]
    )


def test_the_stemmer_memo_is_bounded_in_characters(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_stemming, "MAX_CACHED_CHARS", 10_000)
    stemmer = CachedPorterStemmer()
    for i in range(200):
        token = "running" + "x" * 400 + str(i)
        assert stemmer.stem_or_drop(token) == stemmer.stem(token)
        assert sum(len(k) + len(v or "") for k, v in stemmer.memo.items()) <= 10_000
    huge = "a" * 20_000
    assert stemmer.stem_or_drop(huge) == huge and huge not in stemmer.memo
    assert stemmer.stem_or_drop("running") == "run"
    assert stemmer.memo["running"] == "run"


def test_a_stemmer_pickled_before_the_character_count_still_counts() -> None:
    stemmer = CachedPorterStemmer()
    state = {k: v for k, v in stemmer.__dict__.items() if not k.endswith("_chars")}
    old = CachedPorterStemmer.__new__(CachedPorterStemmer)
    old.__dict__.update(pickle.loads(pickle.dumps(state)))
    assert old.stem_or_drop("cats") == "cat" and old._kept_chars == len("cats") + len("cat")


def _spec(tokenizer: object) -> Spec:
    return Spec((("", "rouge1", False),), False, tokenizer, None, False, tokenizer_key(tokenizer))


def test_spark_workers_key_scorers_by_the_tokenizers_value() -> None:
    plain, other = UnicodeTokenizer(), UnicodeTokenizer(normalize="NFKC")
    assert tokenizer_key(plain) == tokenizer_key(UnicodeTokenizer())
    assert tokenizer_key(plain) != tokenizer_key(other)
    assert tokenizer_key("char") == "'char'" and tokenizer_key(None) == "None"
    first = _worker.scorer(_spec(plain), False)
    assert _worker.scorer(_spec(UnicodeTokenizer()), False) is first
    assert _worker.scorer(_spec(other), False) is not first


def test_spark_workers_keep_the_most_recent_scorers() -> None:
    local = [type(f"Local{i}", (), {"tokenize": lambda self, t: t.split()})() for i in range(40)]
    keys = {tokenizer_key(t) for t in local}  # unpicklable local classes: fresh ids
    assert len(keys) == len(local)
    for tokenizer in local:
        scores = _worker.score_tables(_spec(tokenizer), ["a b"], ["a"])[0][0]
        assert scores[1, 0] == 1.0  # recall: the target "a" is in the prediction "a b"
    assert len(_worker._SCORERS) <= _worker.MAX_SCORERS


def test_ten_thousand_mixed_calls_keep_threads_and_memory_bounded(backend: str) -> None:
    rng = random.Random(3)
    words = [f"word{i}ing" for i in range(5_000)]

    def text() -> str:
        return " ".join(rng.choice(words) for _ in range(rng.randint(1, 30)))

    scorers = [
        RougeScorer(["rouge1", "rougeL"], use_stemmer=True),
        RougeScorer(["rouge2", "rougeLsum"], tokenizer="unicode", use_stemmer=True, threads=-1),
    ]

    def calls(count: int) -> None:
        for i in range(count):
            scorer = scorers[i % 2]
            kind = i % 4
            if kind == 0:
                scorer.score(text(), text())
            elif kind == 1:
                batch = [text() for _ in range(3)]
                scorer.score_batch(batch, batch[::-1], n_jobs=2 + i % 64)
            elif kind == 2:
                scorer.score_multi([text(), text()], text())
            else:
                metrics.compute(predictions=[text()], references=[[text(), text()]])

    calls(500)  # warm: plans, memos, the pool
    threads, rss = threading.active_count(), _rss_bytes()
    calls(10_000)
    assert threading.active_count() <= threads + 1
    assert _rss_bytes() - rss < 64 << 20


def _vm_size() -> int:
    with open("/proc/self/status") as status:
        line = next(line for line in status if line.startswith("VmSize:"))
    return int(line.split()[1]) << 10


def _short_lived_threads(tokenize: object, text: str, count: int = 50) -> list[list[str]]:
    results: list[list[str]] = []
    for _ in range(count):  # one after another, as a server's request threads
        thread = threading.Thread(target=lambda: results.append(tokenize(text)))  # type: ignore[operator]
        thread.start()
        thread.join()
    together = [
        threading.Thread(target=lambda: results.append(tokenize(text)))  # type: ignore[operator]
        for _ in range(16)
    ]
    for thread in together:
        thread.start()
    for thread in together:
        thread.join()
    return results


class _Counted(MorphologicalTokenizer):
    """An analyser that is not thread-safe and counts how many are made,
    checking that no two calls use one at once."""

    name = "counted"
    extra = "none"
    requirements = ()
    thread_safe = False

    def _load(self) -> object:
        return "resource"

    def _analyser(self, resource: object) -> object:
        self.made = getattr(self, "made", 0) + 1
        busy = threading.Lock()

        def analyse(text: str) -> list[str]:
            assert busy.acquire(blocking=False), "an analyser lent to two calls at once"
            try:
                return text.split()
            finally:
                busy.release()

        return analyse


def test_threads_share_a_bounded_pool_of_analysers() -> None:
    tokenizer = _Counted()
    results = _short_lived_threads(tokenizer.tokenize, "a b c " * 2000)
    assert len(results) == 66 and all(r == ["a", "b", "c"] * 2000 for r in results)
    assert 1 <= tokenizer.made <= POOL_MAX < 66


@pytest.mark.parametrize("name", ["mecab", "sudachi", "jieba", "kiwi"])
def test_short_lived_threads_do_not_multiply_dictionaries(name: str) -> None:
    require(name)
    scorer = RougeScorer(["rouge1"], tokenizer=name)
    tokenizer = scorer.tokenizer
    text = "今日は良い天気ですね。猫が走った。" * 20
    expected = tokenizer.tokenize(text)
    before = _vm_size()
    results = _short_lived_threads(tokenizer.tokenize, text)
    assert all(result == expected for result in results)
    pool = tokenizer._pool
    assert pool is None or pool.made <= POOL_MAX
    # One analyser per thread would map MeCab's dictionary 66 times (~250 MB
    # of address space each); the pool's few, and the threads' stacks, are gone.
    assert _vm_size() - before < POOL_MAX * (300 << 20)


def test_explaining_skip_bigrams_without_a_gap_takes_no_quadratic_memory() -> None:
    # The audit's reproducer scaled: 3 records of 10k tokens, where listing
    # the skip units ran out of memory at 3.65 GB.
    rng = random.Random(7)
    words = [f"w{i}" for i in range(50)]
    scorer = RougeScorer(["rougeS", "rougeSU"])
    before = peak_rss_bytes()
    for _ in range(3):
        target = " ".join(rng.choice(words) for _ in range(10_000))
        with pytest.raises(ExplainLimitError):
            explain(scorer, target, target[::-1])
    assert peak_rss_bytes() - before < 64 * MIB

"""Scorers of every named tokenizer survive pickling, processes and threads.

Spark, Ray and ``multiprocessing`` (spawn) ship a scorer to a fresh process
by pickling it; a training job shares one scorer between threads.  Every
named tokenizer must give the serial results there.
"""

from __future__ import annotations

import multiprocessing
import pickle
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest
from robustness_support import NAMES, PAIRS, TYPES, require

from kurenai.rouge_scorer import RougeScorer
from kurenai.scoring import Score
from kurenai.tokenizers._analyser_calls import RUN_BOUND

Scores = list[dict[str, Score]]


def score_all(scorer: RougeScorer) -> Scores:
    return [scorer.score(target, prediction) for target, prediction in PAIRS]


def unpickle_and_score(blobs: list[bytes]) -> list[Scores]:
    """In the spawned worker: each pickled scorer's scores of PAIRS."""
    return [score_all(pickle.loads(blob)) for blob in blobs]


@pytest.fixture(scope="module")
def pickled_runs() -> dict[tuple[str, bool], tuple[Scores, list[Scores]]]:
    """Per (tokenizer, use_stemmer): the parent's scores, and those of the
    scorer pickled before and after its first use, in one spawned process."""
    expected, blobs = {}, {}
    for name in NAMES:
        for stem in (False, True):
            scorer = RougeScorer(TYPES, use_stemmer=stem, tokenizer=name)
            before = pickle.dumps(scorer)
            expected[name, stem] = score_all(scorer)
            after = pickle.dumps(scorer)
            assert len(after) < 20_000, name  # no dictionary, model or tagger inside
            blobs[name, stem] = [before, after]
    keys = list(blobs)
    # A worker that dies (a segfault) breaks the pool: an error, not a hang.
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=spawn) as pool:
        runs = list(pool.map(unpickle_and_score, [blobs[key] for key in keys]))
    return {key: (expected[key], run) for key, run in zip(keys, runs)}


@pytest.mark.parametrize("stem", [False, True], ids=["plain", "stemmed"])
@pytest.mark.parametrize("name", NAMES)
def test_pickled_scorer_scores_the_same_in_a_spawned_process(
    pickled_runs: dict[tuple[str, bool], tuple[Scores, list[Scores]]], name: str, stem: bool
) -> None:
    require(name)
    expected, (before_use, after_use) = pickled_runs[name, stem]
    assert before_use == expected
    assert after_use == expected


@pytest.mark.parametrize("name", NAMES)
def test_threads_sharing_a_fresh_scorer_get_the_serial_scores(name: str) -> None:
    require(name)
    pairs = PAIRS * 40  # several chunks for each of score_batch's threads
    targets, predictions = [t for t, _ in pairs], [p for _, p in pairs]
    alone = RougeScorer(TYPES, tokenizer=name)
    serial = [alone.score(t, p) for t, p in pairs]
    shared = RougeScorer(TYPES, tokenizer=name)  # nothing loaded yet
    start = threading.Barrier(8)

    def first_use(pair: tuple[str, str]) -> dict[str, Score]:
        start.wait(timeout=30)  # eight threads load and score at once
        return shared.score(*pair)

    with ThreadPoolExecutor(8) as pool:
        first = [pool.submit(first_use, pair) for pair in pairs[:8]]
        rest = list(pool.map(lambda pair: shared.score(*pair), pairs[8:]))
        assert [future.result() for future in first] + rest == serial
    assert shared.score_batch(targets, predictions, n_jobs=2) == serial
    fresh = RougeScorer(TYPES, tokenizer=name)
    assert fresh.score_batch(targets, predictions, n_jobs=2) == serial


@pytest.mark.parametrize("name", NAMES)
def test_lone_surrogates_score_on_every_tokenizer(name: str) -> None:
    require(name)
    scorer = RougeScorer(TYPES, tokenizer=name)
    scores = scorer.score("今日\ud800は a\udfffb", "今日 は")
    assert set(scores) == set(TYPES)
    if name in ("jieba", "kiwi", "mecab", "sudachi"):  # UTF-8/16 analysers
        tokenizer = scorer.tokenizer
        assert tokenizer.tokenize("天気\ud800a\udc00b") == tokenizer.tokenize("天気 a b")


def test_sudachi_takes_texts_longer_than_its_input_limit() -> None:
    require("sudachi")
    tokenizer = RougeScorer(["rouge1"], tokenizer="sudachi").tokenizer
    sentence = "今日は良い天気だ。"
    long_text = sentence * 10_000  # 270,000 bytes; SudachiPy takes 49,149
    assert tokenizer.tokenize(long_text) == tokenizer.tokenize(sentence) * 10_000
    # No separator: cut anyway, every RUN_BOUND code points (the guard on
    # unbroken runs, below Sudachi's own piece size).
    assert len(tokenizer.tokenize("a" * 100_000)) == -(-100_000 // RUN_BOUND)

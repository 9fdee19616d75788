"""Threads sharing kurenai's caches and tables get the answers one thread gets.

Each test shares one object between every thread that runs it: a scorer (its
compiled plan's table of interned tokens and its stem cache), a stemmer's
memo, a MeCab tokenizer's pool of analysers.  Alone, a test is one thread;
CI runs this module under pytest-run-parallel (.ci/run), every test in
several threads at once, each thread many times::

    pytest -p no:xdist -p run_parallel -m "" --parallel-threads=8 --iterations=20 \\
        tests/test_thread_stress.py

Under the GIL this holds by construction today; it is the harness that a
free-threaded build (docs/install.md, "Free-threaded Python") must pass.
The answers to compare with are made before any thread starts, by objects
no thread touches.
"""

from __future__ import annotations

import importlib.util
import random
import threading

from optional import missing

from kurenai.rouge_scorer import RougeScorer
from kurenai.tokenizers._analyser_pool import AnalyserPool
from kurenai.tokenizers._stemming import CachedPorterStemmer

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
_WORDS = (  # noqa: SIM905 (a list of 30 strings would take 30 lines)
    "the cat cats sat sitting runs running ran dog dogs generalization generalize connection "
    "connected connecting relational relate happily happy studies studied caresses ponies "
    "agreed plastered motoring sing singing conditional rational"
).split(" ")


def _pairs(seed: int, count: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)

    def text() -> str:
        words = [rng.choice(_WORDS) + rng.choice(["", "", "s", "ing", str(rng.randint(0, 99))])]
        words += [rng.choice(_WORDS) for _ in range(rng.randint(0, 30))]
        return " ".join(words) + rng.choice([".", ". And more.\nNew line", ""])

    return [(text(), text()) for _ in range(count)]


PAIRS = _pairs(1, 150)
EXPECTED = [RougeScorer(TYPES, use_stemmer=True).score(t, p) for t, p in PAIRS]
SHARED_SCORER = RougeScorer(TYPES, use_stemmer=True)

WORDS = sorted({w + suffix for w in _WORDS for suffix in ("", "s", "ed", "ing", "ness", "ly")})
STEMS = [CachedPorterStemmer().stem(w) for w in WORDS]
SHARED_STEMMER = CachedPorterStemmer()


def _order(count: int) -> list[int]:
    """Each thread its own order, so that threads insert different tokens first."""
    order = list(range(count))
    random.Random(threading.get_ident()).shuffle(order)
    return order


def test_one_scorer_shared_by_threads_scores_as_a_fresh_one() -> None:
    for i in _order(len(PAIRS)):
        assert SHARED_SCORER.score(*PAIRS[i]) == EXPECTED[i]


def test_score_batch_on_a_shared_scorer() -> None:
    targets, predictions = zip(*PAIRS)
    assert SHARED_SCORER.score_batch(list(targets), list(predictions)) == EXPECTED


def test_a_shared_stemmer_memo_stems_as_a_fresh_one() -> None:
    for i in _order(len(WORDS)):
        assert SHARED_STEMMER.stem(WORDS[i]) == STEMS[i]


def test_the_harness_sees_a_wrong_answer() -> None:
    """Negative control: another scorer's numbers differ from the expected."""
    unstemmed = RougeScorer(TYPES, use_stemmer=False)
    assert [unstemmed.score(t, p) for t, p in PAIRS] != EXPECTED


POOL = AnalyserPool(lambda: lambda text: text.split(), 2)


def test_an_analyser_pool_never_makes_more_than_its_size() -> None:
    for _ in range(50):
        with POOL.lend() as analyse:
            assert list(analyse("a b")) == ["a", "b"]
    assert POOL.made <= 2


def _mecab() -> tuple[RougeScorer, list[tuple[str, str]], list[object]] | None:
    """A MeCab scorer that has scored once (its analysers loaded), its pairs and
    their scores, made here, before any thread: None without fugashi."""
    if importlib.util.find_spec("fugashi") is None:
        return None
    pairs = [
        ("今日はとても良い天気だ", "今日は良い天気です"),
        ("猫が窓の外を見ている", "窓の外を猫が見た"),
        ("東京で新しい研究所が開かれた", "新しい研究所が東京に開所"),
    ] * 10
    expected: list[object] = [
        RougeScorer(["rouge1", "rougeL"], tokenizer="mecab").score(t, p) for t, p in pairs
    ]
    scorer = RougeScorer(["rouge1", "rougeL"], tokenizer="mecab")
    scorer.score(*pairs[0])
    return scorer, pairs, expected


MECAB = _mecab()


def test_a_mecab_scorer_shared_by_threads_borrows_from_its_pool() -> None:
    if MECAB is None:
        missing("fugashi is not installed (the ja extra)")
        return
    scorer, pairs, expected = MECAB
    for i in _order(len(pairs)):
        assert scorer.score(*pairs[i]) == expected[i]

"""kurenai.metrics.Rouge: batches, merge across workers, pickling, reset."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

from kurenai import metrics
from kurenai.scoring import Score

WORDS = ["the", "cat", "sat", "on", "a", "mat", "dog", "ran", "fast", "今日", "は", "晴れ"]


def record(rng: random.Random) -> tuple[str, list[str]]:
    def sentence() -> str:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 8)))

    return sentence(), [sentence() for _ in range(rng.randint(1, 3))]


def corpus(size: int = 200) -> tuple[list[str], list[list[str]]]:
    rng = random.Random(1)
    records = [record(rng) for _ in range(size)]
    return [p for p, _ in records], [refs for _, refs in records]


def upper_words(text: str) -> list[str]:
    return text.upper().split()


@pytest.mark.parametrize("accumulate", ["best", "avg"])
def test_merged_pickled_workers_equal_one_pass(accumulate: str) -> None:
    predictions, references = corpus()
    one_pass = metrics.Rouge(accumulate=accumulate)
    one_pass.add_batch(predictions=predictions, references=references)
    workers = [metrics.Rouge(accumulate=accumulate) for _ in range(4)]
    for index, worker in enumerate(workers):
        for start in range(index * 50, index * 50 + 50, 20):
            stop = min(start + 20, index * 50 + 50)
            worker.update(predictions[start:stop], references[start:stop])
    shipped = [pickle.loads(pickle.dumps(worker)) for worker in workers]
    merged = shipped[0].merge(*shipped[1:])
    assert len(merged) == len(one_pass) == 200
    for options in ({"seed": 4}, {"aggregate": "mean"}, {"use_aggregator": False}):
        assert merged.compute(**options) == one_pass.compute(**options)
    assert merged.compute(details=True, seed=1) == one_pass.compute(details=True, seed=1)
    expected = metrics.compute(predictions, references, accumulate=accumulate, seed=4)
    assert merged.compute(seed=4) == expected


def test_keeps_numbers_not_texts() -> None:
    metric = metrics.Rouge(["rouge1"], tokenizer=upper_words)
    metric.add("a distinctive prediction", ["a distinctive reference"])
    state = pickle.dumps(metric)
    assert b"distinctive" not in state
    restored = pickle.loads(state)
    restored.add("b", "b")
    assert restored.compute(use_aggregator=False) == {"rouge1": [2 / 3, 1.0]}
    restored.merge(metric)
    assert restored.compute(use_aggregator=False) == {"rouge1": [2 / 3, 1.0, 2 / 3]}
    with pytest.raises(ValueError, match="set up differently"):
        restored.merge(metrics.Rouge(["rouge1"], tokenizer=str.split))


def test_compute_adds_a_last_batch_and_does_not_reset() -> None:
    metric = metrics.Rouge(["rouge1"])
    metric.add_batch(["a b"], ["a b"])
    got = metric.compute(predictions=["a"], references=["b"], use_aggregator=False)
    assert got == {"rouge1": [1.0, 0.0]}
    assert len(metric) == 2
    metric.reset()
    assert len(metric) == 0
    with pytest.raises(ValueError, match="no predictions"):
        metric.compute()
    with pytest.raises(ValueError, match="pass both predictions and references"):
        metric.compute(predictions=["a"])


def test_avg_averages_precision_recall_and_f_over_references() -> None:
    metric = metrics.Rouge(["rouge1", "rougeL"], accumulate="avg")
    metric.add("a b", ["a", "a b c d"])
    scores = metric.compute(use_aggregator=False, details=True)
    assert scores["rouge1"] == [Score(0.75, (1 + 0.5) / 2, (2 / 3 + 2 / 3) / 2)]


def test_merge_refuses_different_settings() -> None:
    with pytest.raises(ValueError, match="set up differently"):
        metrics.Rouge(["rouge1"]).merge(metrics.Rouge(["rouge2"]))
    with pytest.raises(ValueError, match="set up differently"):
        metrics.Rouge(accumulate="avg").merge(metrics.Rouge())
    with pytest.raises(TypeError, match="can only merge Rouge"):
        metrics.Rouge().merge(object())  # type: ignore[arg-type]


def test_merge_compares_what_the_tokenizer_does() -> None:
    from kurenai.tokenizers import get_tokenizer

    stemmed = metrics.Rouge(["rouge1"], tokenizer=get_tokenizer("whitespace", use_stemmer=True))
    with pytest.raises(ValueError, match="set up differently"):
        stemmed.merge(metrics.Rouge(["rouge1"], tokenizer="whitespace"))
    stemmed.add("cats running", "cat runs")
    by_name = metrics.Rouge(["rouge1"], tokenizer="whitespace", use_stemmer=True)
    by_name.add("cats", "cat")
    assert by_name.merge(stemmed).compute(use_aggregator=False) == {"rouge1": [1.0, 1.0]}
    char = metrics.Rouge(["rouge1"], tokenizer=get_tokenizer("char"))
    assert len(char.merge(metrics.Rouge(["rouge1"], tokenizer="char"))) == 0
    with pytest.raises(ValueError, match="set up differently"):  # control: another tokenizer
        char.merge(metrics.Rouge(["rouge1"], tokenizer="whitespace"))
    with pytest.raises(ValueError, match="set up differently"):
        metrics.Rouge(["rouge1"], tokenizer=str.split).merge(
            metrics.Rouge(["rouge1"], tokenizer=upper_words)
        )


def test_empty_batches_and_repr() -> None:
    metric = metrics.Rouge(["rouge1", "rouge1"])
    metric.add_batch([], [])
    assert metric.rouge_types == ["rouge1"]
    assert "pairs=0" in repr(metric)
    metric.add_batch(np.array(["x"]), np.array(["x"]))
    assert metric.compute(aggregate="mean") == {"rouge1": 1.0}

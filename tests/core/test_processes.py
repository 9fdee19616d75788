"""score_batch(n_jobs=k) in worker processes for tokenizers that hold the GIL.

The scores are those of ``n_jobs=1`` whatever runs them; the workers are
reused, load a recipe once, survive a tokenizer's error, are replaced when
one dies, never re-run a caller's unguarded script, and stop with close().
"""

from __future__ import annotations

import importlib.util
import io
import os
import pickle
import subprocess
import sys
import textwrap
from collections import OrderedDict
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from process_tokenizers import SplittingTokenizer, StemmingTokenizer, UnpicklableTokenizer
from unspaced_text import SENTENCES

from kurenai._core import processes
from kurenai._core.plan import parse_types
from kurenai.rouge_scorer import RougeScorer

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
ANALYSERS = {
    "mecab": "fugashi", "sudachi": "sudachipy", "jieba": "jieba", "kiwi": "kiwipiepy",
    "thai": "pythainlp", "lao": "laonlp", "khmer": "khmernltk",
}  # fmt: skip
JAPANESE = ["猫がマットの上で寝ている。\n犬は庭にいる。", "今日はとても良い天気だ", "東京都に住む"]
KOREAN = ["한 소녀가 머리를 스타일링하고 있다.", "한 무리의 남자들이 해변에서 축구를 한다."]


@pytest.fixture
def in_processes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every batch of two pairs or more goes to the workers; the list
    collects the sizes of the chunks they scored."""
    monkeypatch.setattr(processes, "COLD_MIN_PAIRS", 2)
    monkeypatch.setattr(processes, "WARM_MIN_PAIRS", 2)
    chunks: list[int] = []
    score_many = processes.ProcessPlan.score_many

    def counted(self: processes.ProcessPlan, targets: list[str], *args: Any) -> Any:
        chunks.append(len(targets))
        return score_many(self, targets, *args)

    monkeypatch.setattr(processes.ProcessPlan, "score_many", counted)
    return chunks


def pairs(texts: list[str], count: int) -> tuple[list[str], list[str]]:
    targets = [texts[k % len(texts)] * (1 + k % 3) for k in range(count)]
    predictions = [texts[(k + 1) % len(texts)] + texts[k % len(texts)][:5] for k in range(count)]
    return targets, predictions


@pytest.mark.parametrize("name", sorted(ANALYSERS))
def test_each_analyser_scores_the_same_in_processes(name: str, in_processes: list[int]) -> None:
    if importlib.util.find_spec(ANALYSERS[name]) is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must install the tokenizer extras ({ANALYSERS[name]})")
        pytest.skip(f"{ANALYSERS[name]} is not installed")
    scorer = RougeScorer(TYPES, tokenizer=name)
    texts = SENTENCES.get(name) or (KOREAN if name == "kiwi" else JAPANESE)
    targets, predictions = pairs(texts, 300)
    serial = scorer.score_batch(targets, predictions)
    assert not in_processes
    assert scorer.score_batch(targets, predictions, n_jobs=2) == serial
    assert sum(in_processes) == 300
    columns = scorer.score_batch(targets, predictions, n_jobs=2, columnar=True)
    for rouge_type in TYPES:
        recalls = [scores[rouge_type].recall for scores in serial]  # type: ignore[index]
        assert columns[rouge_type].recall.tolist() == recalls


def test_every_option_of_the_batch_holds(in_processes: list[int]) -> None:
    scorer = RougeScorer(TYPES, tokenizer=SplittingTokenizer())
    targets = ["a b c d e", None, "a a b", "x y z w v u t"] * 40
    predictions = ["a c e", "b", None, "x y"] * 40
    options: dict[str, Any] = {"allow_none": True, "max_tokens": 5}
    serial = scorer.score_batch(targets, predictions, **options)
    assert scorer.score_batch(targets, predictions, n_jobs=2, **options) == serial
    columns = scorer.score_batch(targets, predictions, n_jobs=2, columnar=True, **options)
    expected = scorer.score_batch(targets, predictions, columnar=True, **options)
    for rouge_type in TYPES:
        for got, want in zip(columns[rouge_type], expected[rouge_type]):
            assert np.array_equal(got, want, equal_nan=True)
    groups = [["a b", "b c d"], ["x"], ["q r s", "q"]] * 30
    multi = scorer.score_multi_batch(groups, ["b c", "x", "q s"] * 30, n_jobs=2)
    assert multi == scorer.score_multi_batch(groups, ["b c", "x", "q s"] * 30)
    assert sum(in_processes) == 2 * 80 + sum(map(len, groups))  # the None pairs stay here


def test_the_workers_serve_call_after_call(in_processes: list[int]) -> None:
    scorer = RougeScorer(["rouge1"], tokenizer=SplittingTokenizer())
    scorer.score_batch(["a b"] * 50, ["a"] * 50, n_jobs=2)
    workers = {worker.process.pid for worker in processes._POOL._workers}
    assert len(workers) == 2
    scorer.score_batch(["c d"] * 50, ["d"] * 50, n_jobs=2)
    assert {worker.process.pid for worker in processes._POOL._workers} == workers


def test_a_worker_builds_each_recipe_once_and_keeps_a_few() -> None:
    plans: OrderedDict[bytes, Any] = OrderedDict()
    recipes = [
        pickle.dumps((parse_types([f"rouge{n}"]), SplittingTokenizer(), None, 1))
        for n in range(1, processes.PLANS_PER_WORKER + 2)
    ]
    processes._run(plans, recipes[0], ["a b"], ["a"], -1, False)
    first = plans[recipes[0]]
    assert processes._run(plans, recipes[0], ["a b"], ["b"], -1, True).shape == (1, 3, 1)
    assert plans[recipes[0]] is first
    for recipe in recipes[1:]:
        processes._run(plans, recipe, ["a"], ["a"], -1, False)
    assert list(plans) == recipes[1:]  # the oldest went


def test_a_recipe_is_the_same_however_much_the_tokenizer_has_stemmed(
    in_processes: list[int],
) -> None:
    """The workers keep their loaded plan: the stemmer's memo is not pickled."""
    tokenizer = StemmingTokenizer()
    scorer = RougeScorer(["rouge1"], tokenizer=tokenizer)
    before = processes.spread(scorer.plan, tokenizer, None, 2, 100)
    assert scorer.score("running dogs", "the dogs ran")["rouge1"].recall == 0.5
    assert tokenizer.stemmer.stem("running") == "run"
    after = processes.spread(scorer.plan, tokenizer, None, 2, 100)
    assert before._recipe == after._recipe  # type: ignore[attr-defined]


def test_a_tokenizers_error_is_raised_here_and_the_worker_goes_on(
    in_processes: list[int],
) -> None:
    scorer = RougeScorer(["rouge1"], tokenizer=SplittingTokenizer())
    with pytest.raises(ValueError, match="cannot tokenize 'boom here'"):
        scorer.score_batch(["a"] * 20 + ["boom here"], ["a"] * 21, n_jobs=2)
    assert scorer.score_batch(["a b"] * 30, ["a"] * 30, n_jobs=2)[0]["rouge1"].recall == 0.5


def test_a_dead_worker_is_an_error_and_is_replaced(in_processes: list[int]) -> None:
    scorer = RougeScorer(["rouge1"], tokenizer=SplittingTokenizer())
    with pytest.raises(RuntimeError, match="worker process ended unexpectedly"):
        scorer.score_batch(["exit! now", "a"], ["a", "a"], n_jobs=2)
    assert scorer.score_batch(["a b"] * 30, ["a"] * 30, n_jobs=2)[0]["rouge1"].recall == 0.5
    assert all(worker.alive() for worker in processes._POOL._workers)


def test_an_interrupted_exchange_retires_the_worker(
    in_processes: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its unread reply would answer the next request: the worker goes."""
    scorer = RougeScorer(["rouge1"], tokenizer=SplittingTokenizer())
    scorer.score_batch(["a"] * 9, ["a"] * 9, n_jobs=2)
    worker = processes._POOL._workers[0]
    recipe = pickle.dumps((scorer.plan.spec, SplittingTokenizer(), None, 1))

    def interrupted(*args: Any) -> Any:
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(pickle, "load", interrupted)
        with pytest.raises(KeyboardInterrupt):
            worker.call((recipe, ["a b"], ["a"], -1, False))
    assert not worker.alive()
    assert scorer.score_batch(["a b"] * 30, ["a"] * 30, n_jobs=2)[0]["rouge1"].recall == 0.5


def test_what_a_tokenizer_prints_does_not_reach_the_replies(
    in_processes: list[int], capfd: pytest.CaptureFixture[str]
) -> None:
    scorer = RougeScorer(["rouge1"], tokenizer=SplittingTokenizer())
    result = scorer.score_batch(["chatty a b"] * 20, ["a"] * 20, n_jobs=2)
    assert result[0]["rouge1"].recall == 1 / 3
    assert "a tokenizer's own output" in capfd.readouterr().err


def test_the_batch_stays_here_when_processes_do_not_pay_or_cannot_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scorer = RougeScorer(["rouge1"], tokenizer=SplittingTokenizer())
    plan = scorer.plan
    many = processes.COLD_MIN_PAIRS
    spread = processes.spread
    assert spread(plan, SplittingTokenizer(), None, 1, many) is plan  # one job
    assert spread(plan, object(), None, 2, many) is plan  # a tokenizer without holds_gil
    assert spread(plan, UnpicklableTokenizer(), None, 2, many) is plan  # cannot be sent
    in_a_script = type("InAScript", (SplittingTokenizer,), {"__module__": "__main__"})
    assert spread(plan, in_a_script(), None, 2, many) is plan  # a worker cannot import it
    processes.close()
    assert spread(plan, SplittingTokenizer(), None, 2, processes.WARM_MIN_PAIRS) is plan
    monkeypatch.setenv(processes.WORKER_VAR, "1")  # inside a worker: no workers of its own
    assert spread(plan, SplittingTokenizer(), None, 2, many) is plan


def test_unpicklable_tokenizers_score_on_threads(in_processes: list[int]) -> None:
    scorer = RougeScorer(["rouge1"], tokenizer=UnpicklableTokenizer())
    result = scorer.score_batch(["a b"] * 40, ["a"] * 40, n_jobs=2)
    assert result[0]["rouge1"].recall == 0.5 and not in_processes


def test_close_stops_the_workers(in_processes: list[int]) -> None:
    RougeScorer(["rouge1"], tokenizer=SplittingTokenizer()).score_batch(["a"] * 9, ["a"] * 9, 2)
    workers = list(processes._POOL._workers)
    processes.close()
    assert workers and all(worker.process.poll() is not None for worker in workers)
    assert not processes._POOL.running()


def test_serve_answers_until_the_pipe_closes() -> None:
    recipe = pickle.dumps((parse_types(["rouge1"]), SplittingTokenizer(), None, 1))
    requests = io.BytesIO()
    for request in [(recipe, ["a b"], ["a"], -1, False), (recipe, ["boom"], ["a"], -1, False)]:
        pickle.dump(request, requests)
    requests.seek(0)
    replies = io.BytesIO()
    processes.serve(requests, replies)
    replies.seek(0)
    ok, scores = pickle.load(replies)
    assert ok and scores[0]["rouge1"].recall == 0.5
    ok, error = pickle.load(replies)
    assert not ok and isinstance(error, ValueError)


def test_an_unguarded_script_runs_once(tmp_path: Path) -> None:
    """No ``if __name__ == "__main__"``: the workers never import the
    caller's script, so its batch runs once, in processes."""
    support = Path(__file__).resolve().parents[1] / "support"
    script = tmp_path / "unguarded.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import sys
            sys.path.insert(0, {str(support)!r})
            from process_tokenizers import SplittingTokenizer
            from kurenai._core import processes
            from kurenai.rouge_scorer import RougeScorer
            processes.COLD_MIN_PAIRS = 2
            scorer = RougeScorer(["rouge1"], tokenizer=SplittingTokenizer())
            scores = scorer.score_batch(["a b"] * 100, ["a"] * 100, n_jobs=2)
            print("scored", scores[0]["rouge1"].recall, len(processes._POOL._workers))
            """
        )
    )
    root = str(Path(processes.__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["scored 0.5 2"]


@pytest.fixture(autouse=True)
def fresh_pool() -> Any:
    """Each test starts and ends without workers."""
    processes.close()
    yield
    processes.close()

"""patch_rouge_score(): rouge-score's consumers run on kurenai with every
number unchanged, proven on rouge-score itself and on a real consumer
installed from PyPI (EleutherAI's lm-eval harness)."""

from __future__ import annotations

import importlib.util
import os
import pickle
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from optional import missing
from rouge_score import rouge_scorer, tokenizers

from kurenai import compat
from kurenai.compat import _patched_scorer

ORIGINAL = rouge_scorer.RougeScorer


@pytest.fixture
def unpatched() -> Iterator[None]:
    compat.unpatch_rouge_score()
    yield
    compat.unpatch_rouge_score()


def test_patch_and_unpatch(unpatched: None) -> None:
    assert not compat.is_patched()
    compat.patch_rouge_score()
    compat.patch_rouge_score()  # idempotent
    assert compat.is_patched()
    scorer = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=True)
    assert isinstance(scorer, ORIGINAL)  # code holding rouge-score's class still recognises it
    assert scorer._kurenai is not None
    assert pickle.loads(pickle.dumps(scorer)).score("a b", "a") == scorer.score("a b", "a")
    compat.unpatch_rouge_score()
    assert rouge_scorer.RougeScorer is ORIGINAL
    with compat.rouge_score_patched():
        assert compat.is_patched()
    assert not compat.is_patched()


class _Splitting:
    """A custom tokenizer object: rouge-score calls its tokenize()."""

    def tokenize(self, text: str) -> list[str]:
        return text.lower().split()


def _simple_sentences(text: str) -> list[str]:
    return [s for s in text.replace("!", ".").split(". ")]


words = st.sampled_from(["The", "cats", "running", "ran", "a", "x1", "dog.", "!", "\n", "い", "é"])
texts = st.lists(words, max_size=16).map(" ".join)
TYPES = ["rouge1", "rouge2", "rouge4", "rougeL", "rougeLsum"]


@settings(max_examples=120, deadline=None)
@given(
    pairs=st.lists(st.tuples(texts, texts), min_size=1, max_size=3),
    types=st.lists(st.sampled_from(TYPES), min_size=1, max_size=4),
    stem=st.booleans(),
    split=st.booleans(),
    tokenizer=st.sampled_from([None, "default", "default-stem", "custom"]),
)
def test_patched_scores_are_rouge_scores_bit_for_bit(
    pairs: list[tuple[str, str]],
    types: list[str],
    stem: bool,
    split: bool,
    tokenizer: str | None,
) -> None:
    made = {
        None: None,
        "default": tokenizers.DefaultTokenizer(False),
        "default-stem": tokenizers.DefaultTokenizer(True),
        "custom": _Splitting(),
    }[tokenizer]
    with pytest.MonkeyPatch.context() as mp:
        import nltk

        mp.setattr(nltk, "sent_tokenize", _simple_sentences)  # punkt's data is not installed
        theirs = ORIGINAL(types, use_stemmer=stem, split_summaries=split, tokenizer=made)
        ours = _patched_scorer.RougeScorer(types, stem, split, made)
        assert ours._kurenai is not None
        for target, prediction in pairs:
            assert ours.score(target, prediction) == theirs.score(target, prediction)
        targets = [t for t, _ in pairs]
        assert ours.score_multi(targets, pairs[0][1]) == theirs.score_multi(targets, pairs[0][1])


@pytest.mark.parametrize(
    ("types", "target"),
    [(["rouge0"], "a"), (["rougeW"], "a"), (["rouge1"], b"a b"), ("generator", "a"), ([], "a")],
)
def test_what_kurenai_cannot_reproduce_runs_rouge_scores_code(types: Any, target: Any) -> None:
    def outcome(cls: type) -> Any:
        chosen = (t for t in ["rouge1"]) if types == "generator" else types
        try:
            scorer = cls(chosen)
            return scorer.score(target, "a"), scorer.score(target, "a")
        except Exception as error:
            return type(error), str(error)

    assert outcome(_patched_scorer.RougeScorer) == outcome(ORIGINAL)


def test_changed_attributes_are_followed() -> None:
    scorer = _patched_scorer.RougeScorer(["rouge1"])
    scorer.rouge_types = ["rouge2", "rougeL"]
    assert scorer.score("a b c", "a b") == ORIGINAL(["rouge2", "rougeL"]).score("a b c", "a b")
    scorer._tokenizer = _Splitting()
    assert scorer.score("A-b c", "a-b") == ORIGINAL(
        ["rouge2", "rougeL"], tokenizer=_Splitting()
    ).score("A-b c", "a-b")


def _truthfulqa() -> Any:
    if importlib.util.find_spec("lm_eval") is None:
        missing("lm-eval is not installed (the test-all extra)")
    from lm_eval.tasks.truthfulqa import utils

    return utils


REFS = [
    "the siege of lilybaeum lasted from 250 to 241 bc . the roman army laid siege to the city",
    "he began his premiership by forming a five-man war cabinet . it included chamberlain",
    "nothing happens",
]
PREDS = [
    "the siege lasted from 250 to 241 bc . the romans laid siege to lilybaeum",
    "he began by starting a five person war cabinet and included chamberlain",
    "something happens . or not",
]


def test_lm_eval_truthfulqa_rouge_is_unchanged(unpatched: None) -> None:
    utils = _truthfulqa()

    def run() -> Any:
        utils.ROUGE_SCORER = None  # the harness caches its scorer in a global
        np.random.seed(0)  # rouge-score's bootstrap draws from NumPy's global generator
        return utils.rouge(REFS, PREDS), type(utils.ROUGE_SCORER)

    plain, plain_type = run()
    with compat.rouge_score_patched():
        patched, patched_type = run()
    assert plain_type is ORIGINAL and patched_type is _patched_scorer.RougeScorer
    assert patched == plain


SCRIPT = """
import sys
from rouge_score import rouge_scorer
scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
print(type(scorer).__module__, sys.argv[1:], scorer.score("The cats ran", "the cat runs"))
"""


@pytest.mark.parametrize(
    ("env", "module"),
    [
        ("", "kurenai.compat._patched_scorer"),
        ("0", "rouge_score.rouge_scorer"),
        ("1", "kurenai.compat._patched_scorer"),
    ],
)
def test_the_runner_patches_a_script_it_runs(tmp_path: Path, env: str, module: str) -> None:
    (tmp_path / "score.py").write_text(SCRIPT)
    environ = {k: v for k, v in os.environ.items() if k != compat.ENV_VAR}
    if env:
        environ[compat.ENV_VAR] = env
    out = subprocess.run(
        [sys.executable, "-m", "kurenai.compat.patched", str(tmp_path / "score.py"), "x"],
        capture_output=True,
        text=True,
        env=environ,
        check=True,
    ).stdout
    expected = ORIGINAL(["rouge1", "rougeL"], use_stemmer=True).score(
        "The cats ran", "the cat runs"
    )
    assert out == f"{module} ['x'] {expected}\n"


def test_the_runner_runs_modules_and_says_how(tmp_path: Path) -> None:
    (tmp_path / "scoremod.py").write_text(SCRIPT)
    environ = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    command = [sys.executable, "-m", "kurenai.compat.patched"]
    out = subprocess.run([*command, "-m", "scoremod"], capture_output=True, text=True, env=environ)
    assert out.stdout.startswith("kurenai.compat._patched_scorer [] ")
    usage = subprocess.run(command, capture_output=True, text=True, env=environ)
    assert usage.returncode == 2 and "usage: python -m kurenai.compat.patched" in usage.stderr


def test_patch_from_env(monkeypatch: pytest.MonkeyPatch, unpatched: None) -> None:
    monkeypatch.setenv(compat.ENV_VAR, "0")
    assert compat.patch_from_env() is False and not compat.is_patched()
    monkeypatch.setenv(compat.ENV_VAR, "yes")
    assert compat.patch_from_env() is True and compat.is_patched()
    monkeypatch.setenv(compat.ENV_VAR, "maybe")
    with pytest.raises(ValueError, match="KURENAI_PATCH_ROUGE_SCORE='maybe': use one of 1, true"):
        compat.patch_from_env()

"""``kurenai.rewards``: rewards as TRL's GRPOTrainer and verl's reward
managers call them, against ``RougeScorer.score`` pair by pair."""

from __future__ import annotations

import importlib.util
import tempfile
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from optional import missing

from kurenai import rewards
from kurenai.rouge_scorer import RougeScorer

WORDS = ["the", "cat", "sat", "on", "mat", "dogs", "bark", "loudly", "at", "night"]
text = st.lists(st.sampled_from(WORDS), max_size=10).map(" ".join)


def expected(rouge_type: str, measure: str, refs: list[str], texts: list[str]) -> list[float]:
    scorer = RougeScorer([rouge_type], use_stemmer=True)
    return [getattr(scorer.score(r, t)[rouge_type], measure) for r, t in zip(refs, texts)]


def require(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        missing(f"{module} is not installed")


@settings(max_examples=40)
@given(
    groups=st.lists(
        st.tuples(text, st.lists(text, min_size=1, max_size=4)), min_size=1, max_size=5
    ),
    rouge_type=st.sampled_from(["rouge1", "rouge2", "rougeL", "rougeLsum"]),
    measure=st.sampled_from(["precision", "recall", "fmeasure"]),
    conversational=st.booleans(),
)
def test_a_grpo_batch_scores_each_completion_against_its_reference(
    groups: list[tuple[str, list[str]]], rouge_type: str, measure: str, conversational: bool
) -> None:
    refs = [ref for ref, outs in groups for _ in outs]
    texts = [out for _, outs in groups for out in outs]
    completions: list[Any] = texts
    if conversational:
        completions = [[{"role": "assistant", "content": t}] for t in texts]
    reward = rewards.rouge_reward(rouge_type, measure, "answer", use_stemmer=True)
    found = reward(prompts=["p"] * len(texts), completions=completions, answer=refs, other=refs)
    assert found == expected(rouge_type, measure, refs, texts)
    assert all(type(value) is float for value in found)


def test_the_harness_can_fail() -> None:
    reward = rewards.rouge_reward("rouge1")
    found = reward(prompts=["p", "p"], completions=["a b", "a"], reference=["a b", "a b"])
    # Negative control: the references swapped give other numbers.
    assert found != expected("rouge1", "fmeasure", ["a", "a b"], ["a b", "a"])


def test_completions_and_refusals() -> None:
    parts = [
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "a "},
                {"type": "image"},
                {"type": "text", "text": "b"},
            ],
        }
    ]
    assert rewards.completion_text(parts) == "a b"
    assert (
        rewards.completion_text(
            [{"role": "user", "content": "q"}, {"role": "assistant", "content": "x"}]
        )
        == "x"
    )
    reward = rewards.rouge_reward()
    with pytest.raises(KeyError, match="did you mean 'references'"):
        reward(prompts=["p"], completions=["a"], references=["a"])
    with pytest.raises(TypeError, match="completion must be a str"):
        reward(prompts=["p"], completions=[3], reference=["a"])
    with pytest.raises(ValueError, match="unknown measure"):
        rewards.rouge_reward(measure="f1")
    with pytest.raises(ValueError, match="rougeX"):
        rewards.rouge_reward("rougeX")


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::FutureWarning")  # transformers' own deprecations
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_grpo_trainer_trains_a_step_on_the_reward() -> None:
    """TRL's own plumbing: a GRPOTrainer on a tiny random model built from a
    config (no download) generates, calls the reward and logs its mean."""
    for module in ("trl", "transformers", "datasets", "tokenizers", "torch"):
        require(module)
    import torch
    from datasets import Dataset
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast
    from trl import GRPOConfig, GRPOTrainer

    words = ["<pad>", "<eos>", "<unk>", *WORDS]
    backend = Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, unk_token="<unk>"))
    backend.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=backend, pad_token="<pad>", eos_token="<eos>", unk_token="<unk>"
    )
    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=len(words), hidden_size=16, intermediate_size=32, num_hidden_layers=1,
        num_attention_heads=2, num_key_value_heads=2, pad_token_id=0, eos_token_id=1,
        bos_token_id=1,
    )  # fmt: skip
    references = ["the cat sat on the mat", "dogs bark loudly at night"]
    data = Dataset.from_dict({"prompt": ["the cat", "dogs bark"] * 2, "reference": references * 2})
    reward, calls = rewards.rouge_reward("rougeL"), []

    def recorded(**kwargs: Any) -> list[float]:
        found = reward(**kwargs)
        calls.append((list(kwargs["completions"]), list(kwargs["reference"]), found))
        return found

    recorded.__name__ = "rougeL"
    with tempfile.TemporaryDirectory() as out:
        args = GRPOConfig(
            output_dir=out, per_device_train_batch_size=4, num_generations=2,
            max_completion_length=6, max_steps=1, report_to=[], use_cpu=True,
            logging_steps=1, save_strategy="no",
        )  # fmt: skip
        trainer = GRPOTrainer(
            model=LlamaForCausalLM(config), reward_funcs=[recorded], args=args,
            train_dataset=data, processing_class=tokenizer,
        )  # fmt: skip
        trainer.train()
    assert calls, "the trainer never called the reward"
    texts, refs, found = calls[0]
    assert len(found) == 4 and set(refs) <= set(references)
    assert found == expected("rougeL", "fmeasure", refs, texts)
    logged = [entry for entry in trainer.state.log_history if "rewards/rougeL/mean" in entry]
    assert logged and np.isclose(logged[0]["rewards/rougeL/mean"], np.mean(found))


class WordTokenizer:
    """What verl's managers read of a tokenizer: ``decode``."""

    def __init__(self, words: list[str]) -> None:
        self.words = words

    def decode(self, ids: Any, skip_special_tokens: bool = True) -> str:
        return " ".join(self.words[int(i)] for i in ids if int(i) > 0)


def verl_batch(refs: list[str], texts: list[str]) -> tuple[Any, list[str]]:
    import torch
    from verl import DataProto

    words = ["<pad>", *WORDS]
    width = max(len(t.split()) for t in texts) or 1
    responses = torch.zeros((len(texts), width), dtype=torch.long)
    mask = torch.zeros((len(texts), 1 + width), dtype=torch.long)
    mask[:, 0] = 1
    for row, t in enumerate(texts):
        ids = [words.index(w) for w in t.split()] or [0]
        responses[row, : len(ids)] = torch.tensor(ids)
        mask[row, 1 : 1 + len(ids)] = 1
    data = DataProto.from_dict(
        tensors={
            "prompts": torch.ones((len(texts), 1), dtype=torch.long),
            "responses": responses,
            "attention_mask": mask,
        },
        non_tensors={
            "data_source": np.array(["xsum"] * len(texts), dtype=object),
            "reward_model": np.array([{"ground_truth": r} for r in refs], dtype=object),
        },
    )
    return data, words


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # verl's imports of ray
@pytest.mark.filterwarnings("ignore::FutureWarning")
@pytest.mark.parametrize("manager", ["naive", "batch"])
def test_verl_reward_managers_call_compute_score(manager: str) -> None:
    for module in ("verl", "torch"):
        require(module)
    from verl.workers.reward_manager.batch import BatchRewardManager
    from verl.workers.reward_manager.naive import NaiveRewardManager

    refs = ["the cat sat on the mat"] * 3 + ["dogs bark loudly at night"] * 2
    texts = ["the cat sat", "on mat", "cat on mat", "dogs bark", "at night dogs bark"]
    data, words = verl_batch(refs, texts)
    kind = NaiveRewardManager if manager == "naive" else BatchRewardManager
    compute = rewards.verl_reward("rouge2", use_stemmer=True)
    found = kind(WordTokenizer(words), 0, compute_score=compute)(data)
    assert found.sum(-1).tolist() == [
        np.float32(v) for v in expected("rouge2", "fmeasure", refs, texts)
    ]
    assert (
        rewards.compute_score("d", "the cat", "the cat sat")
        == RougeScorer(["rougeL"]).score("the cat sat", "the cat")["rougeL"].fmeasure
    )

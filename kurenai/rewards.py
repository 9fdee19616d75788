"""ROUGE as a reward for RL fine-tuning: TRL's ``reward_funcs`` and verl's
``compute_score``.

>>> reward = rouge_reward("rouge1")
>>> reward(prompts=["p", "p"], completions=["the cat", "a dog"], reference=["the cat sat"] * 2)
[0.8, 0.0]

:func:`rouge_reward` returns a function TRL's ``GRPOTrainer`` takes in
``reward_funcs``: called ``fn(prompts=..., completions=..., **columns)``
with the dataset's other columns as lists (the reference among them), it
returns one float per completion.  A completion is a string, or a
conversation (a list of ``{"role": ..., "content": ...}`` messages, the
last assistant message's content scored; a content given as parts has its
``text`` parts joined).  The G completions of a prompt share its reference:
each distinct reference is tokenized once per call
(:meth:`RougeScorer.score_indexed <kurenai.rouge_scorer.RougeScorer.score_indexed>`).

:func:`verl_reward` returns a ``compute_score`` for verl: called per
sample by its naive reward manager (``data_source``, ``solution_str``,
``ground_truth``, ``extra_info``: a float) or per batch by its batch
manager (``data_sources``, ``solution_strs``, ``ground_truths``,
``extra_infos``: a list of floats).  :func:`compute_score` is rougeL's F,
for a config naming this module's file and that function.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Callable

from kurenai._core import checks as _checks
from kurenai._data.spelling import did_you_mean
from kurenai.rouge_scorer import RougeScorer

__all__ = ["completion_text", "compute_score", "rouge_reward", "verl_reward"]

RewardFunction = Callable[..., list[float]]


def completion_text(completion: Any) -> str:
    """The text of one completion: a str as it is, or the content of the last
    assistant message of a conversation (its ``text`` parts joined)."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        completion = [completion]
    if isinstance(completion, (list, tuple)) and completion:
        messages = [m for m in completion if isinstance(m, dict)]
        chosen = [m for m in messages if m.get("role") == "assistant"] or messages
        if chosen:
            return _content(chosen[-1].get("content"))
    raise TypeError(
        "a completion must be a str or a list of {'role': ..., 'content': ...} messages, "
        f"got {type(completion).__name__}"
    )


def _content(content: Any) -> str:
    if isinstance(content, str):
        return content
    # Multimodal parts: [{"type": "text", "text": ...}, {"type": "image", ...}]
    if isinstance(content, list) and all(isinstance(part, dict) for part in content):
        return "".join(part.get("text", "") for part in content if part.get("type") == "text")
    raise TypeError(
        f"a message's content must be a str or text parts, got {type(content).__name__}"
    )


def _scores(
    scorer: RougeScorer, rouge_type: str, measure: str, references: Sequence[Any], texts: list[str]
) -> list[float]:
    """Each text's ``measure`` against its reference, each distinct reference
    tokenized once."""
    if len(references) != len(texts):
        raise ValueError(f"{len(references)} references but {len(texts)} completions")
    distinct: dict[str, int] = {}
    targets = []
    for index, reference in enumerate(references):
        if not isinstance(reference, str):
            raise TypeError(f"reference {index} must be a str, got {type(reference).__name__}")
        targets.append(distinct.setdefault(reference, len(distinct)))
    first = len(distinct)
    found = scorer.score_indexed([*distinct, *texts], range(first, first + len(texts)), targets)
    values: list[float] = getattr(found[rouge_type], measure).tolist()
    return values


def rouge_reward(
    rouge_type: str = "rougeL",
    measure: str = "fmeasure",
    reference_column: str = "reference",
    **scorer_options: Any,
) -> RewardFunction:
    """A TRL reward function: each completion's ``measure`` of ``rouge_type``
    against its row's ``reference_column``.  ``scorer_options`` go to
    :class:`~kurenai.rouge_scorer.RougeScorer` (``use_stemmer``,
    ``tokenizer``, ``lang``...); the scorer is built once, here, so a bad
    type, measure or option fails before training starts."""
    scorer = RougeScorer([rouge_type], **scorer_options)
    measure = _checks.measure(measure)

    def reward(prompts: Any = None, completions: Sequence[Any] = (), **columns: Any) -> list[float]:
        if reference_column not in columns:
            known = sorted(name for name in columns if not name.startswith("trainer_"))
            raise KeyError(
                f"no column {reference_column!r}{did_you_mean(reference_column, known)} "
                f"among the dataset's columns {known} (rouge_reward(reference_column=...))"
            )
        texts = [completion_text(completion) for completion in completions]
        return _scores(scorer, rouge_type, measure, columns[reference_column], texts)

    reward.__name__ = reward.__qualname__ = f"{rouge_type}_{measure}"  # TRL logs it by name
    return reward


def verl_reward(
    rouge_type: str = "rougeL", measure: str = "fmeasure", **scorer_options: Any
) -> Callable[..., Any]:
    """A verl ``compute_score`` (see the module docstring): ``measure`` of
    ``rouge_type`` of the solution against the ground truth."""
    scorer = RougeScorer([rouge_type], **scorer_options)
    measure = _checks.measure(measure)

    def compute_score(
        data_source: Any = None,
        solution_str: str | None = None,
        ground_truth: str | None = None,
        extra_info: Any = None,
        *,
        data_sources: Any = None,
        solution_strs: Sequence[str] | None = None,
        ground_truths: Sequence[str] | None = None,
        extra_infos: Any = None,
        **kwargs: Any,
    ) -> float | list[float]:
        if solution_strs is not None:
            texts = [completion_text(text) for text in solution_strs]
            return _scores(scorer, rouge_type, measure, list(ground_truths or ()), texts)
        if solution_str is None or ground_truth is None:
            raise TypeError("compute_score needs solution_str and ground_truth (or their lists)")
        return _scores(scorer, rouge_type, measure, [ground_truth], [solution_str])[0]

    return compute_score


_default: Callable[..., Any] | None = None


def compute_score(
    data_source: Any = None,
    solution_str: str | None = None,
    ground_truth: str | None = None,
    extra_info: Any = None,
    **kwargs: Any,
) -> float | list[float]:
    """verl's ``compute_score`` with rougeL's F-measure and kurenai's default
    tokenizer: ``verl_reward()``, built on first call.

    >>> compute_score("xsum", "the cat sat", "the cat sat down")
    0.8571428571428571
    """
    global _default
    if _default is None:
        _default = verl_reward()
    found: float | list[float] = _default(
        data_source, solution_str, ground_truth, extra_info, **kwargs
    )
    return found

"""The library calls: the script's command line, or summaries in memory.

>>> result = score_corpus(["the cat sat on the mat"], [["a cat sat on a mat", "the cat"]],
...                       "-n 2 -r 100")
>>> result["1"]["ROUGE-1"]["R"]
(0.75, 0.75, 0.75)
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from typing import Any

from kurenai.rouge155._config import Config, Evaluation
from kurenai.rouge155._evaluate import run
from kurenai.rouge155._options import parse_command_line

__all__ = ["evaluate", "report", "score_corpus"]


def _argv(args: str | Sequence[str]) -> list[str]:
    return shlex.split(args) if isinstance(args, str) else list(args)


def report(args: str | Sequence[str]) -> str:
    """What ``ROUGE-1.5.5.pl args`` prints, e.g. ``report("-a -n 2 config.xml")``."""
    from kurenai.rouge155.cli import evaluate_command_line

    return evaluate_command_line(_argv(args)).text()


def evaluate(args: str | Sequence[str]) -> dict[str, dict[str, dict[str, Any]]]:
    """The numbers of :func:`report`: ``{system: {"ROUGE-1": {"R": (mean, low,
    high), "P": ..., "F": ...}}}`` (``-t 2``: ``{"M_count": ..., ...}``)."""
    from kurenai.rouge155.cli import evaluate_command_line

    return evaluate_command_line(_argv(args)).as_dict()


def score_corpus(
    predictions: Sequence[str],
    references: Sequence[Sequence[str]],
    args: str | Sequence[str] = "-n 4 -w 1.2 -2 -1 -U",
    system_id: str = "1",
    text: bool = False,
) -> Any:
    """The script's corpus scores of ``predictions`` (one sentence per line)
    against their ``references``, with the script's options ``args`` (no
    configuration or system ID: evaluation i is prediction i).  Returns
    :func:`evaluate`'s dict, or with ``text`` the printed report."""
    if len(predictions) != len(references):
        raise ValueError(
            f"{len(predictions)} predictions but {len(references)} lists of references"
        )
    options = parse_command_line([*_argv(args), "memory", system_id])
    files: dict[str, bytes] = {}
    evaluations = []
    for index, (prediction, targets) in enumerate(zip(predictions, references), start=1):
        if isinstance(targets, str):
            raise TypeError(f"references[{index - 1}] must be a list of str, not a str")
        ids = [f"M{k}" for k in range(len(targets))]
        files[f"P{index}"] = prediction.encode("utf-8")
        for model_id, target in zip(ids, targets):
            files[f"{index}.{model_id}"] = target.encode("utf-8")
        evaluations.append(
            Evaluation(
                str(index),
                fmt="SPL",
                peers={system_id: f"P{index}"},
                model_ids=ids,
                models={m: f"{index}.{m}" for m in ids},
                listed=True,
            )
        )
    config = Config(evaluations, {system_id})
    found = run(options, config=config, reader=files.__getitem__)
    return found.text() if text else found.as_dict()

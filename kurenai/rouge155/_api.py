"""The library calls: the script's command line, or summaries in memory.

>>> result = score_corpus(["the cat sat on the mat"], [["a cat sat on a mat", "the cat"]],
...                       "-n 2 -r 100")
>>> result["1"]["ROUGE-1"]["R"]
(0.75, 0.75, 0.75)
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

from kurenai.rouge155._config import Config, Evaluation
from kurenai.rouge155._data import check_named_dir
from kurenai.rouge155._evaluate import Report, run
from kurenai.rouge155._options import Options, parse_command_line

__all__ = ["evaluate", "evaluate_command_line", "report", "score_corpus"]


def _argv(args: str | Sequence[str]) -> list[str]:
    if isinstance(args, str):
        import shlex  # only for a command line given as one string

        return shlex.split(args)
    return list(args)


def report(args: str | Sequence[str]) -> str:
    """What ``ROUGE-1.5.5.pl args`` prints, e.g. ``report("-a -n 2 config.xml")``."""
    return evaluate_command_line(_argv(args)).text()


def evaluate(args: str | Sequence[str]) -> dict[str, dict[str, dict[str, Any]]]:
    """The numbers of :func:`report`: ``{system: {"ROUGE-1": {"R": (mean, low,
    high), "P": ..., "F": ...}}}`` (``-t 2``: ``{"M_count": ..., ...}``)."""
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
    words_of, header = _extension(options)
    found = run(options, words_of, header, config=config, reader=files.__getitem__)
    return found.text() if text else found.as_dict()


def evaluate_command_line(argv: Sequence[str]) -> Report:
    """The report of ROUGE-1.5.5.pl's command line ``argv`` (options, config,
    system ID); raises the errors :func:`main` turns into exit codes."""
    options = parse_command_line(argv)
    for warning in options.warnings:
        print(warning, file=sys.stderr)
    check_named_dir(options.data_dir)
    words_of, header = _extension(options)
    return run(options, words_of, header)


def _extension(options: Options) -> tuple[Callable[[str], list[str]] | None, str]:
    """``--tokenizer``: kurenai's words instead of the script's, and the
    header line that says so."""
    if options.tokenizer is None:
        return None, ""
    from kurenai.rouge155._extension import tokenizer_words

    words_of = tokenizer_words(options)
    header = (
        f"kurenai extension: words from kurenai's {options.tokenizer!r} tokenizer"
        f"{' (with its stemmer)' if options.stem else ''}"
        f"{' without SMART stopwords' if options.remove_stopwords else ''}; "
        "ROUGE-1.5.5.pl keeps only ASCII [a-z0-9] words (it deletes CJK text); "
        "everything else is the script's\n"
    )
    return words_of, header

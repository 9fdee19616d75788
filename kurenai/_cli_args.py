"""The command line's arguments: the parser, its value checks, and usage errors.

``parse_args`` never calls ``sys.exit``: a usage error raises ``CliError``
(exit code 2) and ``--help``/``--version`` raise ``ExitRequest``, so
``kurenai.cli.main`` can return every exit code itself.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Callable, NoReturn

from kurenai import __version__
from kurenai._cli_io import CliError
from kurenai._cli_output import FORMATS
from kurenai.rouge_scorer import ROUGE_TYPES, is_rouge_type
from kurenai.tokenizers import available_tokenizers

__all__ = ["DEFAULT_TYPES", "ExitRequest", "parse_args"]

DEFAULT_TYPES = "rouge1,rouge2,rougeL"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The checked options of ``argv`` (default ``sys.argv[1:]``).

    >>> parse_args(["--target-file", "t", "--prediction-file", "p"]).rouge_types
    ['rouge1', 'rouge2', 'rougeL']
    """
    args = _parser().parse_args(argv)
    _check(args)
    return args


class ExitRequest(Exception):
    """``--help`` or ``--version`` is done: return ``code`` from main."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises instead of calling ``sys.exit``."""

    def error(self, message: str) -> NoReturn:
        raise CliError(message, 2)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            sys.stderr.write(message)
        raise ExitRequest(status)


def _check(args: argparse.Namespace) -> None:
    if not args.use_aggregator:
        given = [
            option
            for option, value, default in (
                ("--seed", args.seed, None),
                ("--bootstrap-samples", args.bootstrap_samples, 1000),
                ("--confidence-interval", args.confidence_interval, 0.95),
            )
            if value != default
        ]
        if given:
            raise CliError(f"{', '.join(given)} only apply with --use-aggregator", 2)


def _rouge_types(text: str) -> list[str]:
    types = [t.strip() for t in text.split(",") if t.strip()]
    for rouge_type in types:
        if not is_rouge_type(rouge_type):
            raise argparse.ArgumentTypeError(
                f"unknown ROUGE type {rouge_type!r}; choose from {', '.join(ROUGE_TYPES)}"
            )
    if not types or len(set(types)) != len(types):
        raise argparse.ArgumentTypeError(f"expected distinct ROUGE types, got {text!r}")
    return types


def _int_at_least(minimum: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = minimum - 1
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected an integer >= {minimum}, got {text!r}")
        return value

    return parse


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 1, got {text!r}")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="kurenai",
        description="Score predictions against references with ROUGE, as rouge-score does, "
        "for text in any language.",
        epilog="Exit status: 0 success, 1 bad input or output file, 2 usage error, "
        "130 interrupted.",
    )
    _add_scoring(parser.add_argument_group("scoring"))
    _add_bootstrap(parser.add_argument_group("bootstrap"))
    _add_input(parser.add_argument_group("input"))
    _add_output(parser.add_argument_group("output"))
    return parser


def _add_scoring(group: argparse._ArgumentGroup) -> None:
    add = group.add_argument
    add(
        "--rouge-types",
        type=_rouge_types,
        default=_rouge_types(DEFAULT_TYPES),
        metavar="TYPES",
        help=f"comma-separated ROUGE types (default: {DEFAULT_TYPES})",
    )
    add("--use-stemmer", action="store_true", help="Porter-stem ASCII words")
    add(
        "--split-summaries",
        action="store_true",
        help="rougeLsum: find sentences with kurenai's splitter, not only at newlines",
    )
    add(
        "--tokenizer",
        default="whitespace",
        choices=available_tokenizers(),
        help="tokenizer name (default: whitespace)",
    )
    add(
        "--jobs",
        type=_int_at_least(0),
        default=1,
        metavar="N",
        help="score on N cores (score_batch's n_jobs); 0: all of them (default: 1)",
    )
    add(
        "--chunk-size",
        type=_int_at_least(1),
        default=1000,
        metavar="N",
        help="records read and scored at a time (default: 1000)",
    )


def _add_bootstrap(group: argparse._ArgumentGroup) -> None:
    add = group.add_argument
    add(
        "--use-aggregator",
        action="store_true",
        help="report bootstrap confidence intervals instead of per-record scores",
    )
    add(
        "--bootstrap-samples",
        type=_int_at_least(1),
        default=1000,
        metavar="N",
        help="bootstrap resamples (default: 1000)",
    )
    add(
        "--confidence-interval",
        type=_fraction,
        default=0.95,
        metavar="C",
        help="bootstrap confidence interval (default: 0.95)",
    )
    add(
        "--seed",
        type=_int_at_least(0),
        metavar="N",
        help="seed numpy's global RNG for the bootstrap, for reproducible results",
    )


def _add_input(group: argparse._ArgumentGroup) -> None:
    add = group.add_argument
    add("--target-file", required=True, metavar="FILE", help="references ('-': stdin)")
    add("--prediction-file", required=True, metavar="FILE", help="predictions ('-': stdin)")
    add(
        "--format",
        choices=("auto", "text", "jsonl"),
        default="auto",
        help="text: one record per line; jsonl: one JSON object per line "
        "(default auto: jsonl for *.jsonl files)",
    )
    add(
        "--target-field",
        default="target",
        metavar="NAME",
        help="JSONL field of the reference, a string or a list of strings (default: target)",
    )
    add(
        "--prediction-field",
        default="prediction",
        metavar="NAME",
        help="JSONL field of the prediction (default: prediction)",
    )
    add(
        "--newline-escape",
        action="store_true",
        help=r"in text records, read \n as a newline (a sentence break for rougeLsum) "
        r"and \\ as a backslash",
    )


def _add_output(group: argparse._ArgumentGroup) -> None:
    add = group.add_argument
    add(
        "--output",
        default="-",
        metavar="FILE",
        help="write here instead of stdout; replaced only when the run succeeds",
    )
    add("--output-format", choices=FORMATS, default="csv", help="(default: csv)")
    add("--signature", action="store_true", help="print the reproducibility signature on stderr")
    add("--quiet", action="store_true", help="no progress bar and no notes on stderr")
    add("--version", action="version", version=f"kurenai {__version__}")

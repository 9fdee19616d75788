"""``python -m kurenai`` / ``kurenai``: score a file of predictions against references.

A thin layer over :class:`kurenai.rouge_scorer.RougeScorer`: records stream in
chunks from plain-text or JSONL files (:mod:`kurenai._cli_io`), each chunk is
scored with ``score_batch`` (``score_multi`` for records with several
references), and the scores stream out as CSV, JSON or JSONL
(:mod:`kurenai._cli_output`).  ``main`` returns the exit code: 0 on success,
1 when an input or output file is at fault, 2 for a usage error, 130 on
Ctrl-C; every failure is one line on stderr.

>>> main(["--rouge-types", "rouge9x", "--target-file", "t", "--prediction-file", "p"])
2
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, NoReturn

from kurenai import __version__
from kurenai._cli_io import CliError, Pair, Source, atomic_output, count_records, read_pairs
from kurenai._cli_output import FORMATS, Bootstrap, Progress, make_report
from kurenai.rouge_scorer import ROUGE_TYPES, RougeScorer
from kurenai.scoring import Score
from kurenai.tokenizers import available_tokenizers

__all__ = ["main", "signature"]

DEFAULT_TYPES = "rouge1,rouge2,rougeL"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line on ``argv`` (default ``sys.argv[1:]``); return the exit code."""
    try:
        args = _parser().parse_args(argv)
        _check(args)
        return _run(args)
    except _Exit as done:
        return done.code
    except CliError as error:
        hint = " (see --help)" if error.exit_code == 2 else ""
        print(f"kurenai: error: {error}{hint}", file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        print("kurenai: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (``kurenai ... | head``): stop quietly, and keep
        # Python from complaining again when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as error:
        print(f"kurenai: error: {error}", file=sys.stderr)
        return 1


def signature(args: argparse.Namespace) -> str:
    """The reproducibility signature of a run, in the style of sacrebleu.

    >>> signature(_parser().parse_args(["--target-file", "t", "--prediction-file", "p"]))
    'rouge:rouge1,rouge2,rougeL|tok:whitespace|stem:no|split:newline|version:0.2.0'
    """
    parts = [
        f"rouge:{','.join(args.rouge_types)}",
        f"tok:{args.tokenizer}",
        f"stem:{'yes' if args.use_stemmer else 'no'}",
        f"split:{'sentences' if args.split_summaries else 'newline'}",
    ]
    if args.use_aggregator:
        seed = "none" if args.seed is None else args.seed
        parts.append(f"boot:{args.bootstrap_samples},{args.confidence_interval},seed:{seed}")
    return "|".join([*parts, f"version:{__version__}"])


# ------------------------------------------------------------ running


def _run(args: argparse.Namespace) -> int:
    targets, predictions = _sources(args)
    total = count_records(targets, predictions)
    scorer = _scorer(args)
    _note_lsum(args, targets, predictions)
    pairs = read_pairs(targets, predictions)
    first = next(pairs, None)
    if first is None:
        raise CliError(f"no records in {targets.name} or {predictions.name}")
    boot = None
    if args.use_aggregator:
        boot = Bootstrap(args.bootstrap_samples, args.confidence_interval, args.seed)
    progress = Progress(total, _show_progress(args))
    with atomic_output(args.output) as stream:
        report = make_report(stream, args.output_format, scorer.rouge_types, signature(args), boot)
        for scores in _scored(scorer, itertools.chain([first], pairs), args, progress):
            report.add(scores)
        progress.close()
        report.close()
    if args.signature:
        print(signature(args), file=sys.stderr)
    return 0


def _scored(
    scorer: RougeScorer, pairs: Iterable[Pair], args: argparse.Namespace, progress: Progress
) -> Iterator[dict[str, Score]]:
    """Each record's scores, in input order, computed one chunk at a time."""
    jobs = args.jobs or os.cpu_count() or 1
    iterator = iter(pairs)
    while chunk := list(itertools.islice(iterator, args.chunk_size)):
        yield from _score_chunk(scorer, chunk, jobs)
        progress.update(len(chunk))


def _score_chunk(scorer: RougeScorer, chunk: list[Pair], jobs: int) -> list[dict[str, Score]]:
    single = [i for i, (target, _) in enumerate(chunk) if isinstance(target, str)]
    batch = scorer.score_batch(
        [chunk[i][0] for i in single],  # type: ignore[misc]
        [chunk[i][1] for i in single],
        n_jobs=jobs,
    )
    if len(single) == len(chunk):
        return batch
    results = dict(zip(single, batch))
    return [
        results[i] if i in results else scorer.score_multi(*chunk[i]) for i in range(len(chunk))
    ]


def _scorer(args: argparse.Namespace) -> RougeScorer:
    try:
        return RougeScorer(
            args.rouge_types,
            use_stemmer=args.use_stemmer,
            split_summaries=args.split_summaries,
            tokenizer=args.tokenizer,
        )
    except (ImportError, ValueError) as error:  # e.g. an optional tokenizer not installed
        raise CliError(f"cannot use tokenizer {args.tokenizer!r}: {error}") from None


def _sources(args: argparse.Namespace) -> tuple[Source, Source]:
    def source(path: str, field: str) -> Source:
        fmt = args.format
        if fmt == "auto":
            fmt = "jsonl" if path.lower().endswith(".jsonl") else "text"
        return Source(path, fmt, field, escapes=args.newline_escape)

    targets = source(args.target_file, args.target_field)
    predictions = source(args.prediction_file, args.prediction_field)
    if targets.path == predictions.path == "-" and targets.fmt != "jsonl":
        raise CliError("only JSONL input can give both targets and predictions on stdin", 2)
    return targets, predictions


def _note_lsum(args: argparse.Namespace, *sources: Source) -> None:
    plain = any(source.fmt == "text" for source in sources)
    escaped = args.newline_escape or args.split_summaries
    if "rougeLsum" in args.rouge_types and plain and not (escaped or args.quiet):
        print(
            "kurenai: note: one-line records have one sentence each, so rougeLsum "
            "equals rougeL; see --newline-escape, --split-summaries or JSONL input",
            file=sys.stderr,
        )


def _show_progress(args: argparse.Namespace) -> bool:
    # Not while per-record rows scroll past on the same terminal.
    to_terminal = args.output == "-" and not args.use_aggregator and _isatty(sys.stdout)
    return not args.quiet and _isatty(sys.stderr) and not to_terminal


def _isatty(stream: IO[str]) -> bool:
    return bool(getattr(stream, "isatty", lambda: False)())


# ------------------------------------------------------------ arguments


class _Exit(Exception):
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
        raise _Exit(status)


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
        if rouge_type not in ROUGE_TYPES:
            raise argparse.ArgumentTypeError(
                f"unknown ROUGE type {rouge_type!r}; choose from {', '.join(ROUGE_TYPES)}"
            )
    if not types or len(set(types)) != len(types):
        raise argparse.ArgumentTypeError(f"expected distinct ROUGE types, got {text!r}")
    return types


def _int_at_least(minimum: int) -> type[int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = minimum - 1
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected an integer >= {minimum}, got {text!r}")
        return value

    return parse  # type: ignore[return-value]


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
        help="score with N processes; 0: one per CPU (default: 1)",
    )
    add(
        "--chunk-size",
        type=_int_at_least(1),
        default=1000,
        metavar="N",
        help="records read and scored at a time (default: 1000)",
    )
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

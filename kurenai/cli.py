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
from typing import IO, Any, cast

from kurenai import __version__
from kurenai._cli_args import ExitRequest, parse_args
from kurenai._cli_io import CliError, Pair, Source, atomic_output, count_records, read_pairs
from kurenai._cli_output import Bootstrap, Progress, make_report
from kurenai.rouge_scorer import RougeScorer
from kurenai.scoring import Score

__all__ = ["main", "signature"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line on ``argv`` (default ``sys.argv[1:]``); return the exit code."""
    try:
        return _run(parse_args(argv))
    except ExitRequest as done:
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

    >>> args = parse_args(["--target-file", "t", "--prediction-file", "p", "--use-stemmer"])
    >>> signature(args).replace(__version__, "X.Y.Z")
    'rouge:rouge1,rouge2,rougeL|tok:whitespace|stem:yes|split:newline|version:X.Y.Z'
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
    scorer = _scorer(args)
    total = count_records(targets, predictions)
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
    """Single-reference records go to ``score_batch``, the others to ``score_multi_batch``."""
    single = [i for i, (target, _) in enumerate(chunk) if isinstance(target, str)]
    # Every record is text and there is no size limit, so no score is None.
    batch = cast(
        "list[dict[str, Score]]", scorer.score_batch(*_columns(chunk, single), n_jobs=jobs)
    )
    if len(single) == len(chunk):
        return batch
    multi = [i for i, (target, _) in enumerate(chunk) if not isinstance(target, str)]
    scores = dict(zip(single, batch))
    scores.update(zip(multi, scorer.score_multi_batch(*_columns(chunk, multi), n_jobs=jobs)))
    return [scores[i] for i in range(len(chunk))]


def _columns(chunk: list[Pair], rows: list[int]) -> tuple[list[Any], list[str]]:
    return [chunk[i][0] for i in rows], [chunk[i][1] for i in rows]


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

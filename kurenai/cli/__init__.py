"""``python -m kurenai`` / ``kurenai``: score a file of predictions against references.

A thin layer over :class:`kurenai.rouge_scorer.RougeScorer`: records stream in
chunks from plain-text, JSONL or CSV files (:mod:`kurenai.cli._chunks`), each
chunk is scored with ``score_batch(columnar=True)`` (``score_multi_batch``
for records with several references), and the scores stream out per record
(:mod:`kurenai.cli._output`) or are aggregated at the end: mean, bootstrap
intervals, or a paired comparison with a baseline
(:mod:`kurenai.cli._aggregate`).  ``main`` returns the exit code of the
runner's one table (:mod:`kurenai._core.runner`): 0 on success, 1 when an
input or output file is at fault, 2 for a usage error, 3 when a score is
below ``--fail-under``, 128+N when ended by signal N (130 on Ctrl-C, 141 when
the output's reader went away); every failure is one line on stderr.

>>> main(["--rouge-types", "rouge9x", "--target-file", "t", "--prediction-file", "p"])
2
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import sys
import time
from collections.abc import Callable, Sequence
from typing import IO

from kurenai._core import runner
from kurenai.cli import _commands, _reporting
from kurenai.cli._aggregate import Resampling, aggregate_report, with_mean
from kurenai.cli._args import parse_args
from kurenai.cli._chunks import chunked, read_chunks
from kurenai.cli._files import atomic_output, check_outputs, stderr_line
from kurenai.cli._floats import below
from kurenai.cli._io import Sides, count_records, read_records
from kurenai.cli._notes import note_lsum
from kurenai.cli._output import Report, record_report
from kurenai.cli._progress import Progress
from kurenai.cli._scoring import scored_blocks
from kurenai.cli._sources import BELOW_GATE, CliError, Source, detect_format, line_limits
from kurenai.rouge_scorer import RougeScorer
from kurenai.sentences import punkt_sentences
from kurenai.signature import Bootstrap, Randomization, Signature

__all__ = ["main", "signature"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line on ``argv`` (default ``sys.argv[1:]``); return the exit code.

    A subcommand is imported and run inside the runner too: a Ctrl-C while
    its module loads is one line and status 130, as anywhere else."""
    args = list(sys.argv[1:] if argv is None else argv)
    found = _commands.command(args[0]) if args else None
    if found is not None:  # a subcommand: kurenai.cli._commands
        given = args if found.named else args[1:]

        def subcommand() -> int:
            run: Callable[[list[str]], int] = importlib.import_module(found.module).main
            return run(given)

        return runner.run(f"kurenai {args[0]}", subcommand)
    return runner.run("kurenai", lambda: _score(args))


def _score(args: list[str]) -> int:
    if args and not args[0].startswith("-"):
        raise CliError(_commands.unknown(args[0]), 2)
    try:
        return _run(parse_args(args))
    except UnicodeEncodeError as error:
        # A text or id that is no UTF-8 (a lone surrogate from a JSON escape
        # such as "\ud800") reached the output: an input fault.
        raise CliError(f"cannot write the output: {_unencodable(error)}") from None


def _unencodable(error: UnicodeEncodeError) -> str:
    """What could not be written, e.g. ``U+D800 (a lone surrogate, from a JSON
    escape) has no UTF-8 encoding``."""
    bad = error.object[error.start : error.end]
    points = ", ".join(f"U+{ord(char):04X}" for char in bad[:3])
    if all("\ud800" <= char <= "\udfff" for char in bad):
        return f"{points} (a lone surrogate, from a JSON escape) has no {error.encoding} encoding"
    return f"{points} has no {error.encoding} encoding ({error.reason})"


def signature(args: argparse.Namespace, scorer: RougeScorer | None = None) -> Signature:
    """The reproducibility signature of a run, in the style of sacrebleu: the
    scorer's (:meth:`RougeScorer.signature`), with the multi-reference mode
    (whichever it is: records with several references score by it) and the
    bootstrap's settings.

    >>> args = parse_args(["--target-file", "t", "--prediction-file", "p"])
    >>> str(signature(args)).split("|version:")[0]
    'rouge:rouge1,rouge2,rougeL|tok:whitespace|stem:no|split:newline|refs:best'
    """
    scorer = scorer if scorer is not None else _scorer(args)
    described = scorer.signature(args.multi_ref_mode)
    paired = args.baseline_file is not None
    if args.aggregate == "bootstrap" or (paired and not args.paired_ar):
        settings = Bootstrap(args.bootstrap_samples, args.confidence_interval, args.seed, paired)
        described = described.with_bootstrap(settings)
    if args.paired_ar:  # the comparison's or the leaderboard's tests
        described = described.with_randomization(Randomization(args.ar_trials, args.seed))
    if args.paired_test.startswith("sacrebleu-"):  # kurenai's own tests are the default
        described = described.with_paired_test(args.paired_test)
    return described


# ------------------------------------------------------------ running


def _run(args: argparse.Namespace) -> int:
    sides = _sides(args)
    # Every file the run writes, against every file it reads, before any is read.
    check_outputs(args, [*(source.path for source in sides.all), *(args.systems or ())])
    if _reporting.ranks_systems(args):  # a leaderboard
        return _reporting.run_systems(args, sides, _scorer(args), str(signature(args)))
    started = time.monotonic()
    scorer = _scorer(args, load=True)
    loading = time.monotonic() - started
    report_tap = _reporting.tap(args, scorer, sides)  # None without --report
    shown = _show_progress(args)
    total = count_records(sides, for_progress=shown)
    note_lsum(args, [source.fmt for source in sides.all])
    if report_tap is None:
        chunks = read_chunks(sides, args.chunk_size)
    else:  # the report keeps the records
        chunks = chunked(report_tap.records(read_records(sides)), args.chunk_size)
    first = next(chunks, None)  # before the output is opened or written
    if first is None:
        raise CliError(f"no records in {sides.describe()}")
    progress = Progress(total, shown, loading=loading)
    sign = str(signature(args, scorer))
    over = 0  # records over --max-tokens or --max-chars
    with atomic_output(args.output) as stream:
        report = _report(args, stream, scorer, progress, sign)
        for block in scored_blocks(scorer, itertools.chain([first], chunks), args):
            over += int(block.over_limits().sum())
            report.add(block)
            if report_tap is not None:
                report_tap.add(block)
            progress.update(len(block.ids))
        if args.aggregate == "bootstrap":  # each type draws its own samples, in turn
            types = len(scorer.rouge_types)
            progress.phase("bootstrap", args.bootstrap_samples, "samples", types=types)
        elif args.baseline_file is not None and args.paired_ar:  # the types share the trials
            progress.phase("comparison", args.ar_trials, "trials")
        elif args.baseline_file is not None:  # the types share the samples
            progress.phase("comparison", args.bootstrap_samples, "samples")
        report.close()
        if report_tap is not None:
            report_tap.write(sign)
    progress.close(summary=not args.quiet)
    if over and not args.quiet:
        stderr_line(
            f"kurenai: {over} records over --max-tokens or --max-chars: null in the output, "
            "left out of corpus scores"
        )
    if args.signature:
        stderr_line(sign)
    return _threshold_status(args, report)


def _report(
    args: argparse.Namespace, stream: IO[str], scorer: RougeScorer, progress: Progress, sign: str
) -> Report:
    if args.baseline_file is None and args.aggregate == "none" and not args.fail_under:
        return record_report(stream, args.output_format, scorer.rouge_types, sign)
    resampling = Resampling(
        args.bootstrap_samples,
        args.confidence_interval,
        args.seed,
        progress.step,
        args.paired_test,
        args.ar_trials,
    )
    kind = "paired" if args.baseline_file is not None else args.aggregate
    if kind == "none":
        records = record_report(stream, args.output_format, scorer.rouge_types, sign)
        return with_mean(records, scorer.rouge_types)
    return aggregate_report(kind, stream, args.output_format, scorer.rouge_types, sign, resampling)


def _threshold_status(args: argparse.Namespace, report: Report) -> int:
    """BELOW_GATE (and one line per type) if a corpus F-measure is below ``--fail-under``."""
    corpus_f: dict[str, float] = getattr(report, "corpus_f", {})
    failed = 0
    for rouge_type, threshold in (args.fail_under or {}).items():
        if corpus_f[rouge_type] < threshold:
            stderr_line(f"kurenai: {rouge_type}-F {below(corpus_f[rouge_type], threshold)}")
            failed = BELOW_GATE
    return failed


def _scorer(args: argparse.Namespace, load: bool = False) -> RougeScorer:
    """The run's scorer; with ``load``, its tokenizer's dictionary or model
    loaded now (a tokenizer's optional ``load()``), so that loading is timed
    apart from scoring and fails before any output."""
    try:
        scorer = RougeScorer(
            args.rouge_types,
            use_stemmer=args.use_stemmer,
            split_summaries=args.split_summaries,
            tokenizer=args.tokenizer,
            lang=args.lang,
        )
        loader = getattr(scorer.tokenizer, "load", None)
        if load and callable(loader):
            loader()
    except (ImportError, ValueError, RuntimeError) as error:  # e.g. an extra not installed
        named = f"tokenizer {args.tokenizer!r}" if args.tokenizer else f"--lang {args.lang}"
        raise CliError(f"cannot use {named}: {error}") from None
    if args.split_summaries == "punkt":  # its model's package, before any input is read
        try:
            punkt_sentences("")
        except ImportError as error:
            raise CliError(f"cannot use --split-summaries punkt: {error}") from None
    return scorer


def _sides(args: argparse.Namespace) -> Sides:
    def source(path: str, field: str) -> Source:
        fmt = detect_format(path, args.format)
        id_field = args.id_field if fmt != "text" else None
        max_line, cut = line_limits(fmt, args.max_line_bytes, args.max_chars)
        return Source(path, fmt, field, args.newline_escape, id_field, max_line, cut)

    baseline = args.baseline_file
    sides = Sides(
        source(args.target_file, args.target_field),
        source(args.prediction_file, args.prediction_field),
        None if baseline is None else source(baseline, args.prediction_field),
    )
    on_stdin = [s for s in sides.all if s.path == "-"]
    if len(on_stdin) > 1 and any(s.fmt == "text" for s in on_stdin):
        raise CliError("only JSONL or CSV input can give several sides on stdin", 2)
    if args.id_field is not None and not any(s.structured for s in sides.all):
        raise CliError("--id-field needs JSONL, CSV or TSV input", 2)
    return sides


def _show_progress(args: argparse.Namespace) -> bool:
    # Not while per-record rows scroll past on the same terminal.
    per_record = args.aggregate == "none" and args.baseline_file is None
    to_terminal = args.output == "-" and per_record and _isatty(sys.stdout)
    return not args.quiet and _isatty(sys.stderr) and not to_terminal


def _isatty(stream: IO[str]) -> bool:
    return bool(getattr(stream, "isatty", lambda: False)())

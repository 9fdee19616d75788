"""The command line's arguments: the parser, the checks across options, and usage errors
(each option's value: ``kurenai.cli._values``).

``parse_args`` never calls ``sys.exit``: a usage error raises ``CliError``
(exit code 2) and ``--help``/``--version`` raise ``ExitRequest``
(:class:`kurenai._core.parsers.Parser`), so the runner
(:mod:`kurenai._core.runner`) returns every exit code itself.
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Sequence

from kurenai import __version__
from kurenai._core import checks as _checks
from kurenai._core import multiref as _multiref
from kurenai._core import names as _names
from kurenai._core.parsers import Parser, add_rouge_types
from kurenai._core.plan import ROUGE_TYPE_GRAMMAR
from kurenai._core.runner import EXIT_STATUS, ExitRequest
from kurenai.cli import _commands, _reporting, _values
from kurenai.cli._output import FORMATS as OUTPUT_FORMATS
from kurenai.cli._sources import BELOW_GATE, INPUT_FORMATS, MAX_LINE_BYTES, CliError
from kurenai.stats._bootstrap import MAX_DRAWS
from kurenai.stats._paired import check_test
from kurenai.tokenizers import available_tokenizers, tokenizer_info

__all__ = ["DEFAULT_TYPES", "ExitRequest", "parse_args"]

DEFAULT_TYPES = ",".join(_checks.DEFAULT_TYPES)
DEFAULT_TOKENIZER = "whitespace"
DEFAULT_OUTPUT_FORMAT = next(iter(OUTPUT_FORMATS))
# Bootstrap resamples at most: the library's cap.
MAX_SAMPLES = MAX_DRAWS


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The checked options of ``argv`` (default ``sys.argv[1:]``).

    >>> parse_args(["--target-file", "t", "--prediction-file", "p"]).rouge_types
    ['rouge1', 'rouge2', 'rougeL']
    """
    args = _parser().parse_args(argv)
    _reporting.check(args)
    _check(args)
    _reporting.check_installed(args)  # after the usage errors: an extra is status 1
    return args


def _paired_test(args: argparse.Namespace) -> None:
    """``args.paired_test``: the paired tests' convention (``--paired-ar`` is
    ``--paired-test ar``); ``args.paired_ar``: whether they draw trials."""
    if args.paired_ar and args.paired_test not in (None, "ar"):
        raise CliError(f"--paired-ar means --paired-test ar, not {args.paired_test}", 2)
    alone = args.baseline_file is None and not _reporting.ranks_systems(args)
    if args.paired_test is not None and not args.paired_ar and alone:
        raise CliError("--paired-test tests a comparison: give --baseline-file or --systems", 2)
    try:
        test = check_test("ar" if args.paired_ar else args.paired_test or "bootstrap")
    except ValueError as error:
        raise CliError(f"--paired-test: {error}", 2) from None
    args.paired_test = test.name
    args.paired_ar = not test.resamples


def _check(args: argparse.Namespace) -> None:
    """Checks across options, before any file is read."""
    args.default_tokenizer = args.tokenizer is None and args.lang is None
    if args.default_tokenizer:
        args.tokenizer = DEFAULT_TOKENIZER  # (with --lang: the language's)
    if args.output_format is None and not _reporting.ranks_systems(args):
        args.output_format = DEFAULT_OUTPUT_FORMAT  # (a leaderboard's is its text table)
    if args.use_aggregator:
        if args.aggregate not in (None, "bootstrap"):
            raise CliError(f"--use-aggregator means --aggregate bootstrap, not {args.aggregate}", 2)
        args.aggregate = "bootstrap"
    args.aggregate = args.aggregate or "none"
    if args.baseline_file is not None and args.aggregate != "none":
        raise CliError("--baseline-file reports a comparison; leave out --aggregate", 2)
    resampling = args.aggregate == "bootstrap" or args.baseline_file is not None
    given = [
        option
        for option, value, default in (
            ("--seed", args.seed, None),
            ("--bootstrap-samples", args.bootstrap_samples, 1000),
            ("--confidence-interval", args.confidence_interval, 0.95),
        )
        if value != default
    ]
    _paired_test(args)
    if args.paired_ar and args.baseline_file is None and not _reporting.ranks_systems(args):
        raise CliError("--paired-ar tests a comparison: give --baseline-file or --systems", 2)
    if args.ar_trials != 10_000 and not args.paired_ar:
        raise CliError("--ar-trials only applies with --paired-ar", 2)
    if given and not resampling:
        verb = "applies" if len(given) == 1 else "apply"
        raise CliError(
            f"{' and '.join(given)} only {verb} with --aggregate bootstrap "
            "(--use-aggregator) or --baseline-file",
            2,
        )
    for rouge_type in args.rouge_types:
        try:
            _names.check_sentences(_names.resolve(rouge_type), args.split_summaries)
        except ValueError as error:
            raise CliError(f"--rouge-types: {error}", 2) from None
    unknown = [name for name in args.fail_under or {} if name not in args.rouge_types]
    if unknown:
        raise CliError(
            f"--fail-under: {', '.join(unknown)} is not scored (--rouge-types "
            f"{','.join(args.rouge_types)})",
            2,
        )


_USAGE = (
    "kurenai --target-file FILE --prediction-file FILE [options]\n"
    f"       kurenai COMMAND ... (COMMAND: {', '.join(_commands.COMMANDS)})"
)
_EXAMPLES = """\
examples:
  kurenai --target-file refs.txt --prediction-file predictions.txt
  kurenai --rouge-types rouge1,rougeL --tokenizer char --use-aggregator --seed 0 \\
      --target-file refs.txt --prediction-file predictions.txt
  kurenai --target-file dev.jsonl --prediction-file dev.jsonl \\
      --target-field references --id-field id --output-format jsonl"""
_EXIT_STATUS = "\n".join(textwrap.wrap(EXIT_STATUS, 79)) + (
    f"\n({BELOW_GATE} here: a score below --fail-under, or a leaderboard's first system "
    "significantly worse)"
)


def _parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="kurenai",
        usage=_USAGE,
        description="Score predictions against references with ROUGE, as rouge-score does, "
        "for text in any language.",
        epilog="\n\n".join([_commands.listing(), _tokenizer_table(), _EXAMPLES, _EXIT_STATUS]),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        add_help=False,  # -h goes last, with --version: the required options come first
    )
    _add_required(parser.add_argument_group("required"))
    _add_scoring(parser.add_argument_group("scoring"))
    _add_corpus(parser.add_argument_group("corpus scores and comparison"))
    _add_input(parser.add_argument_group("input"))
    _add_output(parser.add_argument_group("output"))
    other = parser.add_argument_group("other")
    other.add_argument("-h", "--help", action="help", help="show this help and exit")
    other.add_argument("--version", action="version", version=f"kurenai {__version__}")
    _reporting.add_options(parser)  # --report, --systems, ...: kurenai.cli._reporting
    return parser


def _tokenizer_table() -> str:
    """The registered tokenizers, one per line, with the pip extra each needs."""
    names = available_tokenizers()
    width = max(map(len, names)) + 2
    lines = ["tokenizers (--tokenizer NAME):"]
    for name in names:
        info = tokenizer_info(name)
        text = info.summary + (" (the default)" if name == DEFAULT_TOKENIZER else "")
        # The extra's name, not a pip command: --help and the reference page
        # are the same however kurenai was installed (the error names the command).
        text += f"; needs the {info.extra} extra" if info.extra else ""
        lines += textwrap.wrap(
            text or "(registered by the program)",
            79,
            initial_indent=f"  {name:<{width}}",
            subsequent_indent=" " * (width + 2),
        )
    return "\n".join(lines)


def _add_required(group: argparse._ArgumentGroup) -> None:
    add = group.add_argument
    add(
        "--target-file",
        required=True,
        metavar="FILE",
        help="the references, one record per line ('-': stdin; see --format)",
    )
    add(
        "--prediction-file",
        required=True,
        metavar="FILE",
        help="the predictions, in the same order ('-': stdin)",
    )


def _add_scoring(group: argparse._ArgumentGroup) -> None:
    add = group.add_argument
    add_rouge_types(
        group, _checks.DEFAULT_TYPES, _values.rouge_type_list, f"ROUGE types: {ROUGE_TYPE_GRAMMAR}"
    )
    add("--use-stemmer", action="store_true", help="Porter-stem ASCII words")
    add(
        "--split-summaries",
        nargs="?",
        const=True,
        default=False,
        type=_values.splitter,
        metavar="punkt",
        help="rougeLsum: find sentences with kurenai's splitter, not only at newlines; "
        "--split-summaries punkt: as nltk.sent_tokenize (NLTK's English punkt, offline: "
        "the punkt extra)",
    )
    add(
        "--tokenizer",
        default=None,
        type=_values.tokenizer,
        metavar="NAME",
        help="how texts become tokens, one of the tokenizers listed below (default: "
        f"{DEFAULT_TOKENIZER}). Japanese, Chinese or Thai without spaces between words needs char "
        "(or a morphological tokenizer: mecab, sudachi, jieba, thai, lao, khmer)",
    )
    add(
        "--lang",
        type=_values.language,
        metavar="LANG",
        help="the texts' language, an ISO 639-1 code (de, th, ja...) or English name "
        "(german, bangla...): its tokenizer unless --tokenizer names one, and with "
        "--use-stemmer its stemmer",
    )
    add(
        "--multi-ref-mode",
        default="best",
        type=_values.mode,
        metavar="{" + ",".join(mode.name for mode in _multiref.MODES) + "}",
        help=f"records with several references: {_multiref.help_text()} (default: best)",
    )
    add(
        "--max-tokens",
        type=_values.limit("max_tokens"),
        metavar="N",
        help="do not score a record with a text of more than N tokens (as the tokenizer "
        "counts them; it stops soon after N): null in the output (an empty CSV cell, JSON "
        "null), left out of corpus scores, counted on stderr (default: no limit)",
    )
    add(
        "--max-chars",
        type=_values.limit("max_chars"),
        metavar="N",
        help="the same for a text of more than N characters (Unicode code points), "
        "checked before any tokenizing (default: no limit)",
    )
    add(
        "--jobs",
        type=_values.int_in(-1),
        default=1,
        metavar="N",
        help="score on N cores (score_batch's n_jobs); 0 or -1: all of them (default: 1)",
    )
    add(
        "--chunk-size",
        type=_values.int_in(1),
        default=1000,
        metavar="N",
        help="records read and scored at a time (default: 1000)",
    )


def _add_corpus(group: argparse._ArgumentGroup) -> None:
    add = group.add_argument
    add(
        "--aggregate",
        choices=("none", "mean", "bootstrap"),
        help="report corpus scores instead of per-record scores: the mean, or "
        "rouge-score's bootstrap confidence intervals (default: none)",
    )
    add("--use-aggregator", action="store_true", help="the same as --aggregate bootstrap")
    add(
        "--fail-under",
        type=_values.thresholds,
        metavar="TYPE=VALUE[,...]",
        help="exit with status 3 if a type's corpus F-measure (the mean; the bootstrap mid "
        "with --aggregate bootstrap; the predictions' mean with --baseline-file) is below "
        "VALUE; the report is written anyway",
    )
    add(
        "--baseline-file",
        metavar="FILE",
        help="compare the predictions with this baseline system's (same format and fields "
        "as --prediction-file): mean F of each, difference, its paired-bootstrap "
        "confidence interval and p-value",
    )
    add(
        "--bootstrap-samples",
        type=_values.int_in(1, MAX_SAMPLES),
        default=1000,
        metavar="N",
        help=f"bootstrap resamples (default: 1000, at most {MAX_SAMPLES})",
    )
    add(
        "--confidence-interval",
        type=_values.fraction,
        default=0.95,
        metavar="C",
        help="bootstrap confidence interval (default: 0.95)",
    )
    add(
        "--seed",
        type=_values.int_in(0, 2**32 - 1),
        metavar="N",
        help="seed the bootstrap's random generator (as np.random.seed(N) would), "
        "for reproducible intervals and p-values; the types draw from it in turn, in the "
        "order of --rouge-types, as in rouge-score, so a type's interval depends on the "
        "types listed before it",
    )
    add(
        "--paired-ar",
        action="store_true",
        help="test --baseline-file's comparison, or --systems' pairs, by approximate "
        "randomization (a paired permutation test: p-value, no interval) instead of the "
        "paired bootstrap",
    )
    add(
        "--paired-test",
        metavar="NAME",
        help="the paired tests' convention: bootstrap (kurenai's two-sided paired bootstrap, "
        "the default), ar (as --paired-ar), sacrebleu-bs or sacrebleu-ar (sacrebleu 2.6's "
        "paired bootstrap and approximate randomization, their p-values exactly; "
        "default_rng(--seed), 12345 without it)",
    )
    add(
        "--ar-trials",
        type=_values.int_in(1, MAX_SAMPLES),
        default=10_000,
        metavar="N",
        help=f"approximate randomization trials (default: 10000, at most {MAX_SAMPLES})",
    )


def _add_input(group: argparse._ArgumentGroup) -> None:
    add = group.add_argument
    add(
        "--format",
        choices=INPUT_FORMATS,
        default="auto",
        help="text: one record per line; jsonl: one JSON object per line; csv/tsv: a header "
        "row naming the columns (default auto: by extension, .jsonl, .csv, .tsv, else "
        "text; .gz, .bz2 and .xz files are decompressed)",
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
        "--id-field",
        metavar="NAME",
        help="JSONL/CSV field of each record's id, carried into the report "
        "(default: records are numbered from 0)",
    )
    add(
        "--max-line-bytes",
        type=_values.int_in(1),
        default=MAX_LINE_BYTES,
        metavar="N",
        help="refuse a line of more than N bytes as it is read, before it is held "
        f"(default: {MAX_LINE_BYTES:,}, 256 MiB); with --max-chars, a plain-text line over "
        "the limit is skipped unread rather than refused",
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
    add(
        "--output-format",
        choices=OUTPUT_FORMATS,
        help=f"(default: {DEFAULT_OUTPUT_FORMAT}; a leaderboard of --systems: a text table); "
        "every format gives precision, recall and F in this order",
    )
    add("--signature", action="store_true", help="print the reproducibility signature on stderr")
    add(
        "--quiet",
        action="store_true",
        help="nothing on stderr but errors and missed thresholds: no progress, summary, "
        "notes or warnings",
    )

"""``kurenai rouge ...`` and ``kurenai rouge-chinese ...``: the command lines
of pltrdy's ``rouge`` and of ``rouge-chinese``, on kurenai.compat.

The same arguments and the same JSON on stdout as the packages' own
``rouge`` / ``rouge_chinese`` commands::

    kurenai rouge "the cat sat" "the cat"            # two texts
    kurenai rouge -f hyp.txt ref.txt --avg           # two files, line by line

plus the choice of numbers (``--rouge-version``, ``--mode``, ``--tokenizer``,
``--use-stemmer``).  As in the packages, ``--ignore_empty`` acts on files
only.  ``main`` returns the exit code of :mod:`kurenai._core.runner`'s table:
0, 1 with one line on stderr when scoring fails, 2 for a usage error, 130 on
Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from kurenai._core import runner
from kurenai._core.parsers import Parser
from kurenai._data.spelling import did_you_mean
from kurenai.compat._dialects import DIALECTS
from kurenai.compat._files import FilesRouge, FilesRougeChinese
from kurenai.compat._rouge import COMPAT_MODES, Rouge, RougeChinese

__all__ = ["COMMANDS", "main"]

# command -> (package, Rouge class, FilesRouge class)
COMMANDS = {
    "rouge": ("rouge", Rouge, FilesRouge),
    "rouge-chinese": ("rouge-chinese", RougeChinese, FilesRougeChinese),
    "rouge_chinese": ("rouge-chinese", RougeChinese, FilesRougeChinese),
}


def _parser(command: str, package: str) -> argparse.ArgumentParser:
    versions = [v for p, v in DIALECTS if p == package]
    parser = Parser(
        prog=f"kurenai {command}",
        description=f"Rouge Metric Calculator: {package}'s command line on kurenai",
    )
    parser.add_argument("-f", "--file", help="File mode", action="store_true")
    parser.add_argument("-a", "--avg", help="Average mode", action="store_true")
    parser.add_argument("--ignore_empty", action="store_true", help="Ignore empty hypothesis")
    parser.add_argument("hypothesis", type=str, help="Text of file path")
    parser.add_argument("reference", type=str, help="Text or file path")
    parser.add_argument(
        "--metrics",
        nargs="+",
        type=str.upper,
        choices=["1", "2", "3", "4", "5", "L"],
        help="Metrics to use (default=all)",
    )
    parser.add_argument(
        "--stats",
        nargs="+",
        type=str.upper,
        choices=["R", "P", "F"],
        help="Stats to use (default=all)",
    )
    parser.add_argument(
        "--rouge-version",
        choices=versions,
        default=versions[0],
        help=f"the {package} release whose numbers to give (default: %(default)s)",
    )
    parser.add_argument(
        "--mode",
        choices=COMPAT_MODES,
        default="compat",
        help="compat: the package's numbers; rouge-score: rouge-score's (default: %(default)s)",
    )
    parser.add_argument("--tokenizer", help="with --mode rouge-score: a kurenai tokenizer name")
    parser.add_argument("--use-stemmer", action="store_true", help="with --mode rouge-score")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``argv`` (its first item the command name, e.g. ``rouge``)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] in (["-h"], ["--help"]):  # python -m kurenai.compat --help
        print(f"usage: python -m kurenai.compat {{{','.join(COMMANDS)}}} [-h] ...")
        return 0
    if not argv or argv[0] not in COMMANDS:
        meant = did_you_mean(argv[0], COMMANDS) if argv else ""
        first = f"the first argument must be one of {', '.join(COMMANDS)}{meant}"
        return runner.run("kurenai", lambda: runner.fail(runner.CommandError(first, 2)))
    failures = (ValueError, TypeError, AssertionError, KeyError, ZeroDivisionError, OSError)
    return runner.run(f"kurenai {argv[0]}", lambda: _main(argv[0], argv[1:]), failures)


def _main(command: str, args_list: list[str]) -> int:
    package, rouge_class, files_class = COMMANDS[command]
    args = _parser(command, package).parse_args(args_list)
    metrics = None if args.metrics is None else [f"rouge-{m.lower()}" for m in args.metrics]
    options = {"version": args.rouge_version, "mode": args.mode}
    if args.tokenizer is not None or args.use_stemmer:
        options.update(tokenizer=args.tokenizer, use_stemmer=args.use_stemmer)
    if args.file:
        files = files_class(metrics, args.stats, **options)
        scores = files.get_scores(
            args.hypothesis, args.reference, avg=args.avg, ignore_empty=args.ignore_empty
        )
    else:
        scores = rouge_class(metrics, args.stats, **options).get_scores(
            args.hypothesis, args.reference, avg=args.avg
        )
    print(json.dumps(scores, indent=2))
    return 0

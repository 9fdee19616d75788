"""``kurenai xlsum``: XL-Sum's evaluation of a prediction file against a
reference file, printed as its ``calculate_rouge`` reports it.

    kurenai xlsum --lang bengali predictions.txt references.txt

One summary per line in each file (the lines pair up).  Prints one line per
type, ``rouge1 29.5653``: the bootstrap's mid F-measure x 100, rounded to 4
places, as XL-Sum's ``seq2seq/utils.py`` computes it (stemming on, sentences
split with NLTK's English punkt, seed 1234).  Exit status 0, 1 for an
unreadable file or a missing extra, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Sequence

from kurenai._core.parsers import Parser
from kurenai.compat.xlsum import ROUGE_KEYS, RougeScorer, calculate_rouge

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="kurenai xlsum", description="XL-Sum's multilingual ROUGE, as its papers report it."
    )
    parser.add_argument("predictions", help="one predicted summary per line")
    parser.add_argument("references", help="one reference summary per line")
    parser.add_argument("--lang", default=None, help="XL-Sum's language name (e.g. bengali)")
    parser.add_argument("--no-stemmer", action="store_true", help="do not stem")
    parser.add_argument("--seed", type=int, default=1234, help="the bootstrap's seed (1234)")
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="worker processes for jieba, MeCab and pythainlp (default: every core)",
    )
    parser.add_argument(
        "--rouge-types", nargs="+", default=list(ROUGE_KEYS), help="default: %(default)s"
    )
    return parser


def _lines(path: str) -> list[str]:
    with open(path, encoding="utf-8") as file:
        return [line.rstrip("\n").strip() for line in file]


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``kurenai xlsum`` on ``argv``; return the exit status."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as done:  # --help (0) or a usage error (2)
        return int(done.code or 0)
    try:  # the options (and the language's extra and data), before any file is read
        with warnings.catch_warnings():  # the package's warnings: once, from the run
            warnings.simplefilter("ignore")
            scorer = RougeScorer(args.rouge_types, lang=args.lang, use_stemmer=not args.no_stemmer)
            scorer.score("", "")  # the package reads the types when it first scores
    except (ImportError, LookupError) as error:
        print(f"kurenai xlsum: error: {error}", file=sys.stderr)
        return 1
    except (TypeError, ValueError) as error:
        print(f"kurenai xlsum: error: {error}", file=sys.stderr)
        return 2
    try:
        predictions, references = _lines(args.predictions), _lines(args.references)
        result = calculate_rouge(
            predictions,
            references,
            use_stemmer=not args.no_stemmer,
            rouge_keys=args.rouge_types,
            rouge_lang=args.lang,
            seed=args.seed,
            n_jobs=args.jobs,
        )
    except (OSError, ImportError, LookupError) as error:
        print(f"kurenai xlsum: error: {error}", file=sys.stderr)
        return 1
    except ValueError as error:
        print(f"kurenai xlsum: error: {error}", file=sys.stderr)
        return 2
    for key, value in result.items():
        print(f"{key} {value}")
    return 0

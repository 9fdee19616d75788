"""``kurenai xlsum``: XL-Sum's evaluation of a prediction file against a
reference file, printed as its ``calculate_rouge`` reports it.

    kurenai xlsum --lang bengali predictions.txt references.txt

One summary per line in each file (the lines pair up).  Prints one line per
type, ``rouge1 29.5653``: the bootstrap's mid F-measure x 100, rounded to 4
places, as XL-Sum's ``seq2seq/utils.py`` computes it (stemming on, sentences
split with NLTK's English punkt, seed 1234).

``--lang`` takes XL-Sum's names (``bengali``, ``chinese_simplified``, its
aliases such as ``bangla``, and the Snowball languages its package stems);
an ISO code or a name kurenai knows (``bn``, ``de``) is read as XL-Sum's name
for it, with a note; any other language is refused (status 2), where the
package itself would score it silently with neither segmenter nor stemmer.
The package's warnings become ``kurenai xlsum: note: ...`` lines on stderr,
and a note says when rougeLsum counts whole lines of an unspaced script.
The input limits are the scoring command's: ``--max-line-bytes`` refuses a
longer line as it is read; ``--max-chars``/``--max-tokens`` leave a record
out (counted on stderr).  Exit status: :mod:`kurenai._core.runner`'s table
(0, 1 for an unreadable file or a missing extra, 2 for bad arguments, 130
on Ctrl-C).
"""

from __future__ import annotations

import argparse
import warnings
from collections.abc import Sequence

from kurenai._core import runner
from kurenai._core.parsers import Parser, add_max_line_bytes, add_rouge_types, int_in
from kurenai._core.paths import read_lines
from kurenai._data.spelling import closest, meant

__all__ = ["XLSUM_LANGUAGES", "main", "xlsum_language"]

_PROG = "kurenai xlsum"
# The 45 languages of the XL-Sum dataset, as its scorer is given them.
XLSUM_LANGUAGES = (
    "amharic", "arabic", "azerbaijani", "bengali", "burmese", "chinese_simplified",
    "chinese_traditional", "english", "french", "gujarati", "hausa", "hindi", "igbo",
    "indonesian", "japanese", "kirundi", "korean", "kyrgyz", "marathi", "nepali", "oromo",
    "pashto", "persian", "pidgin", "portuguese", "punjabi", "russian", "scottish_gaelic",
    "serbian_cyrillic", "serbian_latin", "sinhala", "somali", "spanish", "swahili", "tamil",
    "telugu", "thai", "tigrinya", "turkish", "ukrainian", "urdu", "uzbek", "vietnamese", "welsh",
    "yoruba"
)  # fmt: skip
# What NLTK's Snowball stems (the package's stemmer for a language of its own).
_SNOWBALL = (
    "arabic", "danish", "dutch", "english", "finnish", "french", "german", "hungarian", "italian",
    "norwegian", "porter", "portuguese", "romanian", "russian", "spanish", "swedish"
)  # fmt: skip


def _parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog=_PROG,
        description="XL-Sum's multilingual ROUGE, as its papers report it.",
        epilog=runner.EXIT_STATUS,
    )
    parser.add_argument("predictions", help="one predicted summary per line")
    parser.add_argument("references", help="one reference summary per line")
    parser.add_argument(
        "--lang",
        default=None,
        help="XL-Sum's language name (e.g. bengali); an ISO code (bn) is read as XL-Sum's name",
    )
    parser.add_argument("--no-stemmer", action="store_true", help="do not stem")
    parser.add_argument("--seed", type=int_in(0), default=1234, help="the bootstrap's seed (1234)")
    parser.add_argument(
        "--jobs",
        type=int_in(-1),
        default=-1,
        help="worker processes for jieba, MeCab and pythainlp; 0 or -1: every core (the default)",
    )
    add_rouge_types(parser, ["rouge1", "rouge2", "rougeL", "rougeLsum"])
    limits = parser.add_argument_group("input limits (the scoring command's)")
    add_max_line_bytes(limits)
    limits.add_argument(
        "--max-tokens",
        type=int_in(0),
        metavar="N",
        help="leave out a record with a text of more than N tokens (XL-Sum's tokens: such "
        "texts are tokenized twice), counted on stderr (default: no limit)",
    )
    limits.add_argument(
        "--max-chars",
        type=int_in(0),
        metavar="N",
        help="the same for a text of more than N characters, checked before any tokenizing "
        "(default: no limit)",
    )
    return parser


def xlsum_language(name: str | None) -> tuple[str | None, str | None]:
    """The name XL-Sum's scorer is given for ``--lang name``, and the note
    saying so when it differs; a ValueError for a language it does not know.

    >>> xlsum_language("bn")
    ('bengali', "--lang bn is XL-Sum's 'bengali'")
    >>> xlsum_language("bangla"), xlsum_language(None)
    (('bangla', None), (None, None))
    """
    if name is None:
        return None, None
    from kurenai.compat._xlsum_tokens import ALIASES

    own = {*XLSUM_LANGUAGES, *ALIASES, *ALIASES.values(), *_SNOWBALL}
    if name in own:
        return name, None
    from kurenai._core.languages import language, likely

    try:
        row = language(name)
    except ValueError:
        row = None
    if row is not None:
        named = [spelling for spelling in (row.name, *row.aliases) if spelling in own]
        if named and (named[0] == row.name or len(named) == 1):
            return named[0], f"--lang {name} is XL-Sum's {named[0]!r}"
        if named:
            raise ValueError(
                f"--lang {name!r} is {' or '.join(map(repr, named))} in XL-Sum: name one"
            )
    guess = closest(name, own)
    near = likely(name) if guess is None else None
    if near is not None:
        guess = next((s for s in (near.name, *near.aliases) if s in own), None)
    raise ValueError(
        f"XL-Sum does not know the language {name[:40]!r}{meant(guess)}; its languages: "
        f"{', '.join(XLSUM_LANGUAGES)} (or a language of NLTK's Snowball stemmer)"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``kurenai xlsum`` on ``argv``; return the exit status."""
    return runner.run(_PROG, lambda: _main(argv), failures=(OSError, ImportError, LookupError))


def _main(argv: Sequence[str] | None) -> int:
    from kurenai.compat.xlsum import RougeScorer, XLSumLimitError

    args = _parser().parse_args(argv)
    try:
        lang, note = xlsum_language(args.lang)
    except ValueError as error:
        raise runner.CommandError(str(error), runner.USAGE) from None
    stem = not args.no_stemmer
    with warnings.catch_warnings(record=True) as said:  # the package's warnings: notes
        warnings.simplefilter("always")
        try:  # the options (and the language's extra and data), before any file is read
            scorer = RougeScorer(args.rouge_types, lang=lang, use_stemmer=stem)
            scorer.score("", "")  # the package reads the types when it first scores
        except (TypeError, ValueError) as error:
            raise runner.CommandError(str(error), runner.USAGE) from None
        try:  # a record past the dialect's limits (MAX_RUN, MAX_CHARS): one line, status 1
            predictions, references, over = _records(args, scorer)
            result = _scores(args, lang, predictions, references)
        except XLSumLimitError as error:
            raise runner.CommandError(str(error)) from None
    notes = [note] if note else []
    notes += _warnings(said)
    if over:
        notes.append(f"{over} records over --max-tokens or --max-chars: left out of the scores")
    notes += _lsum_note(lang, args.rouge_types, result)
    for line in notes:
        runner.stderr_line(f"{_PROG}: note: {line}")
    print("".join(f"{key} {value}\n" for key, value in result.items()), end="", flush=True)
    return runner.OK


def _records(args: argparse.Namespace, scorer: object) -> tuple[list[str], list[str], int]:
    """The pairs within the limits, and how many were left out."""
    predictions = _lines(args.predictions, args.max_line_bytes)
    references = _lines(args.references, args.max_line_bytes)
    if len(predictions) != len(references):
        raise runner.counts_differ(
            args.predictions, len(predictions), args.references, len(references)
        )
    if args.max_chars is None and args.max_tokens is None:
        return predictions, references, 0
    kept = [
        i
        for i, pair in enumerate(zip(predictions, references))
        if not any(_over(args, scorer, text) for text in pair)
    ]
    if not kept and predictions:
        raise runner.CommandError("every record is over --max-tokens or --max-chars: no score")
    over = len(predictions) - len(kept)
    return [predictions[i] for i in kept], [references[i] for i in kept], over


def _over(args: argparse.Namespace, scorer: object, text: str) -> bool:
    if args.max_chars is not None and len(text) > args.max_chars:
        return True
    if args.max_tokens is None:
        return False
    return bool(len(scorer.tokenize(text)) > args.max_tokens)  # type: ignore[attr-defined]


def _scores(
    args: argparse.Namespace, lang: str | None, predictions: list[str], references: list[str]
) -> dict[str, float]:
    from kurenai.compat.xlsum import calculate_rouge

    return calculate_rouge(
        predictions,
        references,
        use_stemmer=not args.no_stemmer,
        rouge_keys=args.rouge_types,
        rouge_lang=lang,
        seed=args.seed,
        n_jobs=args.jobs,
    )


def _lines(path: str, max_line_bytes: int) -> list[str]:
    return [line.strip() for _, line in read_lines(path, max_line_bytes)]


def _warnings(said: list[warnings.WarningMessage]) -> list[str]:
    """The package's warnings, one note each however often it warned."""
    said_once = dict.fromkeys(str(warning.message).strip("- ") for warning in said)
    return [f"XL-Sum's package warns: {text}" for text in said_once]


def _lsum_note(lang: str | None, types: list[str], result: dict[str, float]) -> list[str]:
    """Why rougeLsum is low for an unspaced script: the package tokenizes its
    lines with the sanitizer alone, so each line of such text is one word."""
    from kurenai.compat._xlsum_tokens import SEGMENTED, canonical

    if "rougeLsum" not in types or canonical(lang) not in SEGMENTED:
        return []
    zero = "is 0 by construction" if result.get("rougeLsum") == 0 else "counts whole lines"
    return [
        f"rougeLsum {zero} here: XL-Sum's package splits {canonical(lang)} lines at spaces "
        "only (no segmenter), so an unspaced line is one word and only identical lines match"
    ]

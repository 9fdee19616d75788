"""``kurenai correlate``: how well ROUGE agrees with human judgments.

    kurenai correlate --judgments judgments.jsonl --predictions outputs.jsonl \\
        --references references.jsonl --variants default stem --seed 0

Three JSONL files (one may hold all three kinds of member, and
``--predictions``/``--references`` default to the judgments file):
judgments ``{"system": ..., "document": ..., "<criterion>": score, ...}``,
system outputs ``{"system": ..., "document": ..., "prediction": text}`` and
references ``{"document": ..., "reference": text}`` (or ``"references"``:
a list).  Prints the summary- and system-level correlations of each ROUGE
type (and tokenizer/``lang`` variant) with each criterion, their bootstrap
intervals and the tests between metrics (:func:`kurenai.report.correlate`);
``--report`` writes them as an HTML page.  As the scoring command line,
``--output`` and ``--report`` are checked before any input is read and are
written whole or not at all.  Every option (the types and each variant's
scorer among them) is checked before any input is read.  Exit status
(:mod:`kurenai._core.runner`'s table): 0, 1 for an unreadable file, bad
data, a missing extra or an output that is an input, 2 for bad arguments,
130 (or 128 + the signal) when interrupted.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from kurenai._core import runner
from kurenai._core.parsers import Parser, add_max_line_bytes, add_rouge_types
from kurenai._core.paths import json_object, read_lines
from kurenai.cli import _files, _reporting
from kurenai.cli._progress import Progress
from kurenai.cli._sources import CliError
from kurenai.cli._values import int_in
from kurenai.stats._bootstrap import MAX_DRAWS
from kurenai.stats._correlate import WILLIAMS
from kurenai.stats._correlation import COEFFICIENTS, DEFAULT_LEVELS, LEVELS, RESAMPLING

__all__ = ["main", "parse_variant", "scorer_options"]

_PROG = "kurenai correlate"
_TESTS = ("williams", "permutation")


def _parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog=_PROG,
        description="Correlate ROUGE with human judgments: summary- and system-level "
        "Pearson, Spearman and Kendall, bootstrap intervals, tests between metrics.",
    )
    files = parser.add_argument_group("input (JSONL)")
    files.add_argument(
        "--judgments",
        required=True,
        help="one line per judged summary: system, document, a number per criterion",
    )
    files.add_argument("--predictions", help="system, document, prediction (default: --judgments)")
    files.add_argument(
        "--references", help="document, reference or references (default: --judgments)"
    )
    add_max_line_bytes(files)
    scoring = parser.add_argument_group("metrics")
    add_rouge_types(scoring, ["rouge1", "rouge2", "rougeL"])
    scoring.add_argument(
        "--measure",
        choices=("precision", "recall", "fmeasure"),
        default="fmeasure",
        help="default: %(default)s",
    )
    scoring.add_argument(
        "--variants",
        nargs="+",
        default=["default"],
        metavar="SPEC",
        help="tokenizations to compare, each a metric per type: 'default', or parts joined "
        "by '+': lang=CODE, tokenizer=NAME, stem (Porter) or stem=LANGUAGE; e.g. "
        "'lang=de' 'lang=de+stem'",
    )
    stats = parser.add_argument_group("statistics")
    stats.add_argument("--criteria", nargs="+", help="default: every numeric member")
    stats.add_argument(
        "--levels",
        nargs="+",
        choices=LEVELS,
        default=list(DEFAULT_LEVELS),
        help="summary, system, global (every summary at once) (default: summary system)",
    )
    stats.add_argument(
        "--coefficients", nargs="+", choices=COEFFICIENTS, default=list(COEFFICIENTS)
    )
    stats.add_argument(
        "--resample",
        choices=RESAMPLING,
        default="both",
        help="what the bootstrap and the permutation test resample (default: both)",
    )
    stats.add_argument(
        "--bootstrap-samples",
        type=int_in(0, MAX_DRAWS),
        default=1000,
        help=f"resamples (0: no intervals; default: %(default)s, at most {MAX_DRAWS})",
    )
    stats.add_argument(
        "--confidence-interval", type=float, default=0.95, help="default: %(default)s"
    )
    stats.add_argument("--seed", type=int, default=None, help="makes every resampling reproducible")
    stats.add_argument("--tests", nargs="*", choices=_TESTS, default=list(_TESTS))
    stats.add_argument(
        "--williams",
        choices=WILLIAMS,
        default="signed",
        help="Williams' test on the correlations as they are (signed, the default) or on "
        "their absolute values (absolute: SacreROUGE's and the WMT metrics task's convention)",
    )
    stats.add_argument(
        "--compare",
        choices=("first", "all", "none"),
        default="first",
        help="test each metric against the first (default), every pair, or none",
    )
    stats.add_argument(
        "--reference-resamples",
        type=int_in(0, MAX_DRAWS),
        default=0,
        metavar="N",
        help="also rank the systems by the first ROUGE type over N resampled reference sets "
        "of each document and report each system's rank distribution and how often each "
        "pair swaps (0: not; needs documents with several references)",
    )
    out = parser.add_argument_group("output")
    out.add_argument("--output-format", choices=("text", "json"), default="text")
    out.add_argument("--output", default="-", help="default: stdout")
    out.add_argument("--report", metavar="HTML", help="also write an HTML page of the results")
    return parser


def parse_variant(spec: str) -> dict[str, Any]:
    """RougeScorer options of a ``--variants`` spec (ValueError if malformed).

    >>> parse_variant("lang=de+stem")
    {'lang': 'de', 'use_stemmer': True}
    """
    options: dict[str, Any] = {}
    if spec == "default":
        return options
    for part in spec.split("+"):
        key, _, value = part.partition("=")
        if key == "stem":
            options["use_stemmer"] = value or True
        elif key in ("lang", "tokenizer") and value:
            options[key] = value
        else:
            raise ValueError(
                f"bad variant {spec!r}: use 'default' or parts joined by '+': "
                "lang=CODE, tokenizer=NAME, stem, stem=LANGUAGE"
            )
    return options


def _records(path: str, max_line: int) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, line in read_lines(path, max_line):
        if not line.strip():
            continue
        yield number, json_object(line, path, number)


def _member(path: str, number: int, record: dict[str, Any], name: str) -> Any:
    if name not in record:
        raise ValueError(f"{path}:{number}: no {name!r} member")
    return record[name]


def _predictions(path: str, max_line: int) -> dict[str, dict[str, str]]:
    found: dict[str, dict[str, str]] = {}
    for number, record in _records(path, max_line):
        system = str(_member(path, number, record, "system"))
        document = str(_member(path, number, record, "document"))
        text = _member(path, number, record, "prediction")
        if not isinstance(text, str):
            raise ValueError(f"{path}:{number}: 'prediction' must be a string")
        found.setdefault(system, {})[document] = text
    return found


def _references(path: str, max_line: int) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for number, record in _records(path, max_line):
        document = str(_member(path, number, record, "document"))
        text = record.get("references", record.get("reference"))
        ok = isinstance(text, str) or (
            isinstance(text, list) and text and all(isinstance(t, str) for t in text)
        )
        if not ok:
            raise ValueError(f"{path}:{number}: needs 'reference' (a string) or 'references'")
        if found.setdefault(document, text) != text:
            raise ValueError(f"{path}:{number}: document {document!r} has another reference")
    return found


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``kurenai correlate`` on ``argv``; return the exit status."""
    return runner.run(
        _PROG, lambda: _main(argv), failures=(OSError, ValueError, ImportError, RuntimeError)
    )


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    # As the scoring command line: every option, before any input is read:
    # the variants' scorers built (types, languages, tokenizers, stemmers and
    # their extras), the outputs checked (never an input, never each other).
    variants = _variants(args)
    inputs = [args.judgments, args.predictions or "-", args.references or "-"]
    _files.check_outputs(args, [path for path in inputs if path != "-"])
    _reporting.check_installed(args)
    return _write(args, _run(args, variants))


def _variants(args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """Each ``--variants`` spec's RougeScorer options, its scorer built once
    here: a usage error (status 2) or a missing extra (1) before any input."""
    from kurenai.rouge_scorer import RougeScorer

    variants = {}
    for spec in args.variants:
        label = "" if len(args.variants) == 1 and spec == "default" else spec
        try:
            options = scorer_options(parse_variant(spec))
            RougeScorer(list(args.rouge_types), **options)
        except ImportError as error:
            raise CliError(f"cannot make variant {spec!r}: {error}") from None
        except (TypeError, ValueError) as error:
            raise CliError(f"variant {spec!r}: {error}", 2) from None
        variants[label] = options
    return variants


def scorer_options(options: dict[str, Any]) -> dict[str, Any]:
    """:func:`parse_variant`'s options as ``RougeScorer`` takes them: a named
    stemmer (``stem=german``) stems the variant's tokenizer (its ``tokenizer=``,
    its language's, or rouge-score's), given to the scorer as that tokenizer.

    >>> scorer_options(parse_variant("stem=german"))["tokenizer"]
    AllCharacterSupportTokenizer(use_stemmer=german)
    """
    stem = options.get("use_stemmer")
    if not isinstance(stem, str):
        return options
    from kurenai._core.languages import language
    from kurenai.tokenizers import resolve_tokenizer

    lang, name = options.get("lang"), options.get("tokenizer")
    if name is None and lang is not None:
        name = language(lang).tokenizer
    return {"tokenizer": resolve_tokenizer(name, use_stemmer=stem)}


def _write(args: argparse.Namespace, found: Any) -> int:
    """The results to ``--output`` and the page to ``--report``, each file
    whole or not at all (written under a temporary name, then renamed)."""
    text = json.dumps(found.as_dict(), indent=2) if args.output_format == "json" else found.text()
    with _files.atomic_output(args.output) as stream:
        stream.write(text + "\n")
    if args.report:
        from kurenai.report import write_correlation_report

        with _files.atomic_output(args.report) as stream:
            name = os.path.basename(args.report)
            write_correlation_report(stream, found, title=f"kurenai correlations — {name}")
    return 0


def _run(args: argparse.Namespace, variants: dict[str, dict[str, Any]]) -> Any:
    from kurenai.report import correlate

    most = args.max_line_bytes
    judgments = [record for _, record in _records(args.judgments, most)]
    # On a terminal, the resamples and trials drawn so far (a long run shows it is moving).
    progress = Progress(None, sys.stderr is not None and sys.stderr.isatty())
    progress.phase("resampling", 0, "resamples and trials")
    found = correlate(
        _references(args.references or args.judgments, most),
        _predictions(args.predictions or args.judgments, most),
        judgments,
        args.rouge_types,
        variants=variants,
        measure=args.measure,
        criteria=args.criteria,
        levels=args.levels,
        coefficients=args.coefficients,
        resample=args.resample,
        n_samples=args.bootstrap_samples,
        confidence=args.confidence_interval,
        seed=args.seed,
        tests=args.tests,
        compare=args.compare,
        williams=args.williams,
        progress=progress.step,
    )
    progress.close(summary=False)
    for note in found.settings.get("notes", ()):
        runner.stderr_line(f"{_PROG}: note: {note}")
    if args.reference_resamples:
        found = dataclasses.replace(found, stability=_stability(args, found, variants))
    return found


def _stability(args: argparse.Namespace, found: Any, variants: dict[str, dict[str, Any]]) -> Any:
    """The judged systems' rank stability over resampled references, on the
    documents every judged system has a prediction for."""
    from kurenai.rouge_scorer import RougeScorer
    from kurenai.stats import rank_stability

    references = _references(args.references or args.judgments, args.max_line_bytes)
    predictions = _predictions(args.predictions or args.judgments, args.max_line_bytes)
    documents = [
        d for d in found.documents if d in references
        and all(d in predictions.get(s, {}) for s in found.systems)
    ]  # fmt: skip
    if not documents:
        raise CliError("--reference-resamples: no document has a prediction of every system")
    scorer = RougeScorer(list(args.rouge_types), **next(iter(variants.values())))
    return rank_stability(
        scorer,
        [references[d] for d in documents],
        {s: [predictions[s][d] for d in documents] for s in found.systems},
        args.reference_resamples,
        seed=args.seed,
    )

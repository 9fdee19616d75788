"""``kurenai pairs``: ROUGE between samples, a group at a time.

    kurenai pairs --task mbr --input samples.jsonl --group-field prompt_id
    kurenai pairs --task self-rouge --input outputs.txt
    kurenai pairs --task one-to-many --input rollouts.jsonl --reference-field reference

The input is JSONL (records with a text member, ``--text-field``, and
optionally a group, ``--group-field``, and a reference, ``--reference-field``)
or plain text, one sample per line, all one group (``--format``; by default
JSONL for a ``.jsonl`` name).  The groups keep their first appearance's
order.  Each task writes JSON lines (:mod:`kurenai.pairs`):

- ``mbr``: per group and ROUGE type, the minimum-Bayes-risk (consensus)
  sample: its ``index`` in the group, its ``text`` and its ``utility`` (mean
  ``--measure`` against the group's other samples; ties: the first);
- ``self-rouge``: per group and type, the mean ``--measure`` over every
  ordered pair of different samples (lower: more diverse);
- ``one-to-many``: per record, its scores against its own reference (each
  distinct reference tokenized once).

As the scoring command line: ``--rouge-types`` is comma-separated,
``--tokenizer`` defaults to ``whitespace`` (``--lang`` picks the
language's), ``--output`` is checked before any input is read and written
whole or not at all.  Exit status 0, 1 for an unreadable input or bad data,
2 for bad arguments, 130 (or 128 + the signal) when interrupted.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator, Sequence
from typing import Any

from kurenai._core.parsers import Parser
from kurenai._core.paths import json_object
from kurenai.cli import _files, _values
from kurenai.cli._files import stderr_line
from kurenai.cli._sources import CliError

__all__ = ["main"]

_PROG = "kurenai pairs"
TASKS = ("mbr", "self-rouge", "one-to-many")
_DEFAULT_TOKENIZER = "whitespace"  # the scoring command line's


def _parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog=_PROG,
        description="ROUGE between samples: minimum-Bayes-risk selection, self-ROUGE, "
        "G predictions against one reference.",
    )
    add = parser.add_argument
    add("--task", required=True, choices=TASKS, help="what to compute")
    add("--input", required=True, metavar="FILE", help="the samples ('-': stdin)")
    add("--format", choices=("jsonl", "text"), help="default: jsonl for *.jsonl, else text")
    add("--text-field", default="text", metavar="NAME", help="default: %(default)s")
    add("--group-field", metavar="NAME", help="the samples' group (default: one group)")
    add("--reference-field", default="reference", metavar="NAME", help="one-to-many's reference")
    add(
        "--rouge-types",
        type=_values.rouge_types,
        default=_values.rouge_types("rougeL"),
        metavar="TYPES",
        help="comma-separated ROUGE types (default: rougeL)",
    )
    add("--measure", choices=("precision", "recall", "fmeasure"), default="fmeasure")
    add("--tokenizer", type=_values.tokenizer, metavar="NAME", help="default: whitespace")
    add("--lang", type=_values.language, metavar="LANG", help="the texts' language")
    add("--use-stemmer", action="store_true", help="stem (Porter, or --lang's stemmer)")
    add("--jobs", type=_values.int_in(-1), default=1, metavar="N", help="threads (default: 1)")
    add("--output", default="-", metavar="FILE", help="JSON lines (default: stdout)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``kurenai pairs`` on ``argv``; return the exit status."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as done:  # --help (0) or a usage error (2)
        return int(done.code or 0)
    try:
        if args.task == "one-to-many" and args.format == "text":
            raise CliError("--task one-to-many reads references: give JSONL input", 2)
        _files.check_outputs(args, [] if args.input == "-" else [args.input])
        scorer = _scorer(args)
    except CliError as error:
        stderr_line(f"{_PROG}: error: {error}")
        return error.exit_code
    except (ValueError, TypeError, ImportError) as error:
        stderr_line(f"{_PROG}: error: {error}")
        return 2
    try:
        with _files.signals_raise():
            lines = list(_run(args, scorer))
            with _files.atomic_output(args.output) as stream:
                stream.writelines(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
        return 0
    except KeyboardInterrupt:
        stderr_line("kurenai: interrupted")
        return 130
    except _files.Terminated as killed:
        stderr_line(f"kurenai: terminated by signal {killed.signum}")
        return 128 + killed.signum
    except CliError as error:
        stderr_line(f"{_PROG}: error: {error}")
        return error.exit_code
    except (OSError, ValueError, TypeError, ImportError, UnicodeDecodeError) as error:
        stderr_line(f"{_PROG}: error: {error}")
        return 1


def _scorer(args: argparse.Namespace) -> Any:
    from kurenai.rouge_scorer import RougeScorer

    tokenizer = args.tokenizer or (None if args.lang else _DEFAULT_TOKENIZER)
    return RougeScorer(
        args.rouge_types, use_stemmer=args.use_stemmer, tokenizer=tokenizer, lang=args.lang
    )


def _lines(path: str) -> Iterator[str]:
    import sys

    if path == "-":
        yield from sys.stdin
        return
    try:
        with open(path, encoding="utf-8") as file:
            yield from file
    except OSError as error:
        raise CliError(f"cannot read {path}: {error.strerror}") from None


def _records(args: argparse.Namespace) -> Iterator[dict[str, Any]]:
    jsonl = args.format == "jsonl" or (args.format is None and args.input.endswith(".jsonl"))
    for number, line in enumerate(_lines(args.input), 1):
        if not jsonl:
            yield {args.text_field: line.rstrip("\n").rstrip("\r")}
            continue
        if not line.strip():
            continue
        record = json_object(line, args.input, number)
        for field in _fields(args):
            if not isinstance(record.get(field), str):
                raise CliError(f"{args.input}:{number}: {field!r} must be a string")
        yield record


def _fields(args: argparse.Namespace) -> list[str]:
    fields = [args.text_field]
    if args.task == "one-to-many":
        fields.append(args.reference_field)
    return fields


def _groups(args: argparse.Namespace) -> dict[Any, list[dict[str, Any]]]:
    groups: dict[Any, list[dict[str, Any]]] = {}
    for record in _records(args):
        key = record.get(args.group_field) if args.group_field else None
        groups.setdefault(json.dumps(key, sort_keys=True), []).append(record)
    return groups


def _run(args: argparse.Namespace, scorer: Any) -> Iterator[dict[str, Any]]:
    from kurenai import pairs

    for key, records in _groups(args).items():
        group = json.loads(key)
        texts = [record[args.text_field] for record in records]
        head: dict[str, Any] = {"group": group, "size": len(texts)}
        if args.task == "one-to-many":
            yield from _one_to_many(args, scorer, group, records)
        elif args.task == "mbr":
            for name in scorer.rouge_types:
                utilities = pairs.expected_utilities(
                    texts, name, args.measure, scorer=scorer, n_jobs=args.jobs
                )
                best = 0 if len(texts) == 1 else int(utilities.argmax())
                value = utilities[best]
                head[name] = {
                    "index": best,
                    "text": texts[best],
                    "utility": None if value != value else float(value),
                }
            yield head
        elif len(texts) < 2:
            raise CliError(f"group {group!r} has {len(texts)} sample: self-ROUGE needs two")
        else:
            for name in scorer.rouge_types:
                head[name] = pairs.self_rouge(
                    texts, name, args.measure, scorer=scorer, n_jobs=args.jobs
                )
            yield head


def _one_to_many(
    args: argparse.Namespace, scorer: Any, group: Any, records: list[dict[str, Any]]
) -> Iterator[dict[str, Any]]:
    references: dict[str, int] = {}
    targets = [references.setdefault(r[args.reference_field], len(references)) for r in records]
    texts = [*references, *(record[args.text_field] for record in records)]
    first = len(references)
    found = scorer.score_indexed(texts, range(first, len(texts)), targets)
    for k in range(len(records)):
        line: dict[str, Any] = {"group": group, "index": k}
        for name, score in found.items():
            line[name] = {field: float(getattr(score, field)[k]) for field in score._fields}
        yield line

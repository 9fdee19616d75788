"""The command line's report options: ``--report``, and several systems at once.

``kurenai.cli`` calls these from here: :func:`add_options` (the options),
:func:`check` (their combinations), :func:`tap` (with ``--report``: keeps
the records and scores of the usual run, whatever its input and output) and
:func:`run_systems` (with ``--systems`` or ``--system-fields``, see
:func:`ranks_systems`: the leaderboard run).  ``kurenai.report`` computes
and renders; this module is only its command line.

A leaderboard run scores every system against the same references, each
tokenized once, and writes the leaderboard: a text table, or with
``--output-format`` that format's leaderboard writer (the table of
:mod:`kurenai.cli._output`).  Its exit status is a CI gate: ``BELOW_GATE``
when a ``--fail-under`` threshold is missed by the first system (the
``--prediction-file`` one) or when the first system is significantly worse
than the best one (the paired bootstrap, or approximate randomization with
``--paired-ar``: p below 1 - ``--confidence-interval``) on any type; 0
otherwise.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from kurenai.cli._files import atomic_output, stderr_line
from kurenai.cli._floats import below
from kurenai.cli._io import (
    Record,
    Sides,
    _count_error,
    _files,
    _id,
    _target_getter,
    _text_getter,
)
from kurenai.cli._notes import note_texts
from kurenai.cli._output import Block, write_leaderboard
from kurenai.cli._scoring import limited, score_records
from kurenai.cli._sources import (
    BELOW_GATE,
    CliError,
    Source,
    detect_format,
    line_limits,
    rows,
)
from kurenai.cli._values import int_in
from kurenai.stats._bootstrap import MAX_DRAWS

__all__ = ["add_options", "check", "check_installed", "ranks_systems", "run_systems", "tap"]


def add_options(parser: argparse.ArgumentParser) -> None:
    """The report and leaderboard options, as their own group of ``--help``."""
    add = parser.add_argument_group("report and several systems").add_argument
    add(
        "--report",
        metavar="FILE",
        help="also write an HTML report of the run to FILE (needs the report extra)",
    )
    add(
        "--report-explain",
        type=int,
        default=5_000,
        metavar="N",
        help="highlight the matches of at most N records in the report (-1: all; default 5000)",
    )
    add(
        "--systems",
        nargs="+",
        metavar="FILE",
        help="more systems' prediction files (format "
        "and field as --prediction-file): rank every system with bootstrap intervals and "
        "paired tests against the one ranked first; exit 3 if the first is significantly worse",
    )
    add(
        "--system-fields",
        metavar="NAMES",
        help="more systems as comma-separated JSONL/CSV fields of --prediction-file",
    )
    add("--all-pairs", action="store_true", help="with several systems, test every pair")
    add(
        "--reference-resamples",
        type=int_in(0, MAX_DRAWS),
        default=0,
        metavar="N",
        help="with several systems and records of several references: also rank the systems "
        "over N resampled reference sets and report each one's rank distribution and how "
        "often each pair swaps (0: not; --multi-ref-mode best or mean)",
    )


def ranks_systems(args: argparse.Namespace) -> bool:
    """Whether the run is a leaderboard of several systems."""
    return bool(args.systems or args.system_fields)


def check(args: argparse.Namespace) -> None:
    """Checks across the report options; CliError (exit 2) on a bad combination."""
    several = ranks_systems(args)
    if several and args.baseline_file is not None:
        raise CliError(
            "--systems/--system-fields rank systems; give the baseline as one of them", 2
        )
    if several and args.aggregate not in (None, "none", "bootstrap"):
        raise CliError(
            "--systems/--system-fields report bootstrap intervals; leave out --aggregate", 2
        )
    if several and args.aggregate is None:
        args.aggregate = "bootstrap"  # what the leaderboard reports, and the signature says
    if args.all_pairs and not several:
        raise CliError("--all-pairs needs --systems or --system-fields", 2)
    if args.reference_resamples and not several:
        raise CliError("--reference-resamples ranks systems: give --systems or --system-fields", 2)
    if args.reference_resamples and args.output_format == "csv":
        raise CliError("--reference-resamples: the csv leaderboard has no rank stability; "
                       "use the text table, json or jsonl", 2)  # fmt: skip
    if args.report_explain < -1:
        raise CliError("--report-explain: expected -1 (all) or a count >= 0", 2)


def check_installed(args: argparse.Namespace) -> None:
    """CliError (exit 1, as for any extra not installed) if ``--report``
    lacks the ``report`` extra: said before any input is read."""
    if args.report is not None:
        from kurenai.report._render import check_installed as report_installed

        try:
            report_installed()
        except ImportError as error:
            raise CliError(f"--report: {error}") from None


class _Tap:
    """Keeps what a usual run reads and scores, then writes its report."""

    def __init__(self, args: argparse.Namespace, scorer: Any, sides: Sides) -> None:
        self._args, self._scorer, self._sides = args, scorer, sides
        self._records: list[Record] = []
        self._values: list[npt.NDArray[np.float64]] = []
        self._baseline: list[npt.NDArray[np.float64]] = []

    def records(self, records: Iterable[Record]) -> Iterator[Record]:
        for record in records:
            self._records.append(record)
            yield record

    def add(self, block: Block) -> None:
        self._values.append(block.values)
        if block.baseline is not None:
            self._baseline.append(block.baseline)

    def write(self, signature: str) -> None:
        """Write the report (``--report``) of everything kept."""
        args = self._args
        sides = self._sides
        # The systems by their files (or fields): the baseline's name is its file's.
        sources = [s for s in (sides.predictions, sides.baseline) if s is not None]
        name, *rest = _names(sources)
        scores = {name: np.concatenate(self._values, axis=2)}
        baseline = None
        if self._baseline:
            baseline = {rest[0]: [r.baseline or "" for r in self._records]}
            scores[rest[0]] = np.concatenate(self._baseline, axis=2)
        records = self._records
        _write(
            args,
            self._scorer,
            [r.target for r in records],
            {name: [r.prediction for r in records]},
            _ids(records),
            scores,
            signature,
            baseline=baseline,
        )


def tap(args: argparse.Namespace, scorer: Any, sides: Sides) -> _Tap | None:
    """With ``--report``, what keeps the run's records and scores; else None."""
    if args.report is None:
        return None
    return _Tap(args, scorer, sides)


def run_systems(args: argparse.Namespace, sides: Sides, scorer: Any, signature: str) -> int:
    """The leaderboard run; returns the exit status (see the module)."""
    from kurenai.report import leaderboard, score_systems

    sources = _system_sources(args, sides.predictions)
    targets, predictions, ids = _read(sides.targets, sources)
    note_texts(args, targets, predictions[0])
    names = _names(sources)
    systems = dict(zip(names, predictions))
    if limited(args):
        targets, systems, ids, scores = _within_limits(args, scorer, targets, systems, ids)
    else:
        scores = score_systems(scorer, targets, systems, args.multi_ref_mode)
    stability = _stability(args, scorer, targets, systems)
    types = scorer.rouge_types
    samples, confidence, seed = args.bootstrap_samples, args.confidence_interval, args.seed
    test = args.paired_test
    board = leaderboard(
        scores, types, samples, confidence, seed, args.all_pairs, test, args.ar_trials
    )
    board = dataclasses.replace(board, stability=stability)
    if not args.quiet:  # the paired tests' one rule: no evidence, p = 1 and a note
        for standing in board.standings:
            for rouge_type, result in standing.comparison.items():
                if result.note:
                    stderr_line(f"kurenai: note: {standing.system} against "
                                f"{standing.compared_to}, {rouge_type}: {result.note}")  # fmt: skip
    with atomic_output(args.output) as stream:
        if args.output_format is None:  # not given: the table a reader reads
            stream.write(f"{signature}\n{board.text()}\n")
        else:
            write_leaderboard(stream, args.output_format, board, len(targets), signature)
    if args.report is not None:
        _write(args, scorer, targets, systems, ids, scores, signature, all_pairs=args.all_pairs)
    return _gate(args, board, names[0], scores[names[0]], types)


def _stability(
    args: argparse.Namespace, scorer: Any, targets: list[Any], systems: dict[str, list[str]]
) -> Any:
    """``--reference-resamples``' rank stability (None without it); exit 2
    when every record has one reference or under another multi-reference mode."""
    from kurenai.report import reference_stability

    if not args.reference_resamples:
        return None
    try:
        return reference_stability(scorer, targets, systems, args.reference_resamples,
                                   args.multi_ref_mode, args.seed)  # fmt: skip
    except ValueError as error:
        raise CliError(f"--reference-resamples: {error}", 2) from None


def _within_limits(
    args: argparse.Namespace,
    scorer: Any,
    targets: list[Any],
    systems: dict[str, list[str]],
    ids: list[Any] | None,
) -> tuple[list[Any], dict[str, list[str]], list[Any] | None, dict[str, Any]]:
    """The records, systems, ids and scores of the leaderboard under
    ``--max-tokens``/``--max-chars``: a record over a limit in its target or
    in any system's prediction is left out for every system (the paired
    tests compare the same records), and counted on stderr."""
    from kurenai.report import scored_records  # the report's rule: the same records

    scores = {name: score_records(scorer, targets, texts, args) for name, texts in systems.items()}
    keep = scored_records(scores)
    if not keep.size:
        raise CliError("every record is over --max-tokens or --max-chars: nothing to rank")
    if keep.size == len(targets):
        return targets, systems, ids, scores
    if not args.quiet:
        stderr_line(
            f"kurenai: {len(targets) - keep.size} records over --max-tokens or --max-chars: "
            "left out of the leaderboard"
        )
    return (
        [targets[i] for i in keep],
        {name: [texts[i] for i in keep] for name, texts in systems.items()},
        None if ids is None else [ids[i] for i in keep],
        {name: values[:, :, keep] for name, values in scores.items()},
    )


def _gate(
    args: argparse.Namespace, board: Any, first: str, scores: Any, types: Sequence[str]
) -> int:
    status = 0
    for rouge_type, threshold in (args.fail_under or {}).items():
        mean = float(np.mean(scores[list(types).index(rouge_type), 2]))
        if mean < threshold:
            print(f"kurenai: {first} {rouge_type}-F {below(mean, threshold)}", file=sys.stderr)
            status = BELOW_GATE
    standing = next(s for s in board.standings if s.system == first)
    for rouge_type, result in standing.comparison.items():
        if result.p_value < 1 - board.confidence and result.difference < 0:
            print(
                f"kurenai: {first} is significantly worse than {standing.compared_to} on "
                f"{rouge_type} ({result.difference:+.4f}, p = {result.p_value:.4f})",
                file=sys.stderr,
            )
            status = BELOW_GATE
    return status


def _write(
    args: argparse.Namespace,
    scorer: Any,
    targets: Sequence[Any],
    systems: dict[str, list[str]],
    ids: Sequence[Any] | None,
    scores: dict[str, Any],
    signature: str,
    baseline: dict[str, list[str]] | None = None,
    all_pairs: bool = False,
) -> None:
    from kurenai.report import write_report

    try:
        with atomic_output(args.report) as stream:
            write_report(
                stream,
                scorer,
                targets,
                systems,
                baseline=baseline,
                ids=ids,
                scores=scores,
                signature=signature,
                n_samples=args.bootstrap_samples,
                confidence=args.confidence_interval,
                seed=args.seed,
                all_pairs=all_pairs,
                explain_limit=args.report_explain,
                paired_test=args.paired_test,
                n_trials=args.ar_trials,
                reference_resamples=getattr(args, "reference_resamples", 0),
                title=f"kurenai report — {os.path.basename(args.report)}",
            )
    except ImportError as error:  # an extra missing: as check() says it
        raise CliError(f"--report: {error}") from None
    except ValueError as error:  # e.g. every record over --max-tokens: nothing to report
        raise CliError(f"--report: {error}") from None


def _system_sources(args: argparse.Namespace, predictions: Source) -> list[Source]:
    sources = [predictions]
    for path in args.systems or ():
        fmt = detect_format(path, args.format)
        id_field = args.id_field if fmt != "text" else None
        max_line, cut = line_limits(fmt, args.max_line_bytes, args.max_chars)
        escapes = args.newline_escape
        sources.append(Source(path, fmt, predictions.field, escapes, id_field, max_line, cut))
    for field in (args.system_fields or "").split(","):
        if field.strip():
            if not predictions.structured:
                raise CliError("--system-fields needs JSONL, CSV or TSV predictions", 2)
            sources.append(
                dataclasses.replace(predictions, field=field.strip(), escapes=False, id_field=None)
            )
    return sources


def _names(sources: Sequence[Source]) -> list[str]:
    """A distinct name per system: its field when systems share a file, else its
    file's name, with as many of its folders as tell it from another system's
    file of that name (``a/pred.jsonl``, ``b/pred.jsonl``); ``-2``... last."""
    first = [_system_name(source, sources) for source in sources]
    names: list[str] = []
    for source, name in zip(sources, first):
        if first.count(name) > 1 and name == os.path.basename(source.path):
            name = _shortest_suffix(source.path, {s.path for s in sources if s.path != source.path})
        candidate, k = name, 2
        while candidate in names:
            candidate, k = f"{name}-{k}", k + 1
        names.append(candidate)
    return names


def _shortest_suffix(path: str, others: set[str]) -> str:
    """The last parts of ``path`` that no path of ``others`` ends with."""
    parts = os.path.normpath(os.path.abspath(path)).split(os.sep)
    ends = [os.path.normpath(os.path.abspath(p)).split(os.sep) for p in others]
    for size in range(1, len(parts) + 1):
        if all(end[-size:] != parts[-size:] for end in ends):
            return "/".join(parts[-size:])
    return os.path.basename(path)


def _system_name(source: Source, sources: Sequence[Source]) -> str:
    # A file that holds one system (beside the references or not) names it;
    # systems sharing a file, or stdin, are named by their fields.
    shared = [s for s in sources if s is not source and s.path == source.path]
    if source.structured and (shared or source.path == "-"):
        return source.field
    return os.path.basename(source.path)


def _read(
    targets: Source, systems: Sequence[Source]
) -> tuple[list[Any], list[list[str]], list[Any] | None]:
    """Every record's target, each system's prediction, the ids (or None)."""
    sources = [targets, *systems]
    files = _files(sources)
    readers = [rows(group[0]) for group in files]
    where = {id(source): i for i, group in enumerate(files) for source in group}
    getters = [_target_getter(targets), *map(_text_getter, systems)]
    found: list[list[Any]] = [[] for _ in sources]
    ids: list[Any] = []
    end = object()
    for done, current in enumerate(itertools.zip_longest(*readers, fillvalue=end)):
        if end in current:
            counts = [done + (r is not end) + sum(1 for _ in it) for r, it in zip(current, readers)]
            raise _count_error(files, counts)
        taken: list[tuple[int, Any]] = [current[where[id(s)]] for s in sources]  # type: ignore[misc]
        for k, (get, (number, row)) in enumerate(zip(getters, taken)):
            found[k].append(get(number, row))
        if targets.id_field is not None:
            ids.append(_id(targets, *taken[0]))
    if not found[0]:
        raise CliError(f"no records in {targets.name}")
    return found[0], found[1:], ids if targets.id_field is not None else None


def _ids(records: Sequence[Record]) -> list[Any] | None:
    if not records or records[0].id is None:
        return None
    return [r.id for r in records]

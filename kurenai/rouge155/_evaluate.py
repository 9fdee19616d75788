"""A whole run of the script: read the setup, count every evaluation, average.

The script loops system by system, metric by metric, evaluation by
evaluation, re-reading every file each time.  Here each evaluation's files
are read once and every metric of every system counted from them; only the
evaluations' values are kept (a few floats each), so memory stays small for
any number of summaries.  Nothing is printed until everything is computed:
a bad file stops the run with one error and no half-written report.
"""

from __future__ import annotations

import errno
import sys
from array import array
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from kurenai import _backend
from kurenai.rouge155._config import Config, ConfigError, Evaluation, read_config, read_file_list
from kurenai.rouge155._corpus import Average, corpus_averages
from kurenai.rouge155._counts import KERNEL_METRICS, Metric, evaluation_values
from kurenai.rouge155._options import Options
from kurenai.rouge155._report import metric_block
from kurenai.rouge155._summary import (
    Limits,
    Summary,
    SummaryError,
    exists,
    plain,
    read_bytes,
    read_summary,
    summary_of,
)
from kurenai.rouge155._text import SUMMARY_FORMATS
from kurenai.rouge155._tokenizer import Words

__all__ = ["MetricResult", "Report", "metrics_of", "run"]

Values = tuple[float, float, float]


class MetricResult(NamedTuple):
    """One metric of one system: its corpus average and each evaluation's values."""

    tag: str
    average: Average
    per_eval: list[tuple[str, Values]]


class Report(NamedTuple):
    """What a run prints, per system in order, and how."""

    systems: dict[str, list[MetricResult]]
    options: Options
    header: str = ""

    def as_dict(self) -> dict[str, dict[str, dict[str, Any]]]:
        """The printed numbers: ``{system: {tag: {"R"|"P"|"F": (mean, low, high)}}}``,
        or under ``-t 2`` ``{"M_count"|"P_count"|"H_count": count}``."""
        found: dict[str, dict[str, dict[str, Any]]] = {}
        for system, results in self.systems.items():
            found[system] = {}
            for result in results:
                average = result.average
                if average.recall is None:
                    names = ("M_count", "P_count", "H_count")
                    entry: dict[str, Any] = {n: int(c) for n, c in zip(names, average.counts)}
                else:
                    entry = {
                        name: (float(i.mean), float(i.low), float(i.high))
                        for name, i in (
                            ("R", average.recall),
                            ("P", average.precision),
                            ("F", average.f_measure),
                        )
                        if i is not None
                    }
                found[system][result.tag] = entry
        return found

    def text(self) -> str:
        """The report exactly as ROUGE-1.5.5.pl prints it."""
        parts = [self.header]
        for system, results in self.systems.items():
            for result in results:
                parts.append(
                    metric_block(
                        system,
                        result.tag,
                        result.average,
                        self.options.confidence,
                        result.per_eval if self.options.per_eval else None,
                        self.options.counting,
                    )
                )
        return "".join(parts)


_NO_GAP_LIMIT = 10**9


def metrics_of(options: Options) -> list[Metric]:
    """The metrics the options ask for, in the order the script prints them."""
    metrics = [Metric(f"ROUGE-{n}", "N", n=n) for n in range(1, (options.max_n or 0) + 1)]
    if not options.no_lcs:
        metrics.append(Metric("ROUGE-L", "L"))
    if options.weight is not None:
        metrics.append(Metric(f"ROUGE-W-{options.weight}", "W", weight=float(options.weight)))
    if options.gap is not None:
        gap = int(options.gap)
        shown = options.gap if gap >= 0 else "*"
        if not 0 <= gap < _NO_GAP_LIMIT:
            # A gap longer than any summary (none has 10**9 words) is no
            # limit: counted as -2 -1, so the kernels' C int holds it.
            gap = -1
        s = Metric(f"ROUGE-S{shown}", "S", gap=gap)
        su = Metric(f"ROUGE-SU{shown}", "S", gap=gap, unigrams=True)
        if options.su_only:
            metrics.append(su)
        else:
            metrics += [s, su] if options.s_and_su else [s]
    return metrics


def run(
    options: Options,
    words_of: Callable[[str], list[str]] | None = None,
    header: str = "",
    warn: Callable[[str], None] | None = None,
    config: Config | None = None,
    reader: Callable[[str], bytes] | None = None,
) -> Report:
    """Compute everything the script would print for ``options``.

    ``words_of`` turns a unit into words (default: the script's, with ``-m``
    and ``-s``); ``warn`` receives the script's warnings (default: stderr);
    ``config`` replaces the configuration file and ``reader`` the reading of
    the summary files (path -> bytes), for summaries held in memory.
    """
    warn = warn or (lambda message: print(message, file=sys.stderr))
    config = config or _config(options)
    systems = [options.system_id] if not options.all_systems else sorted(config.peer_ids)
    if not config.evaluations:
        raise ConfigError(f"{options.config} holds no evaluation (<EVAL>)")
    for system in systems:
        assert system is not None
        if not any(system in e.peers for e in config.evaluations):
            raise ConfigError(f"system {system!r} has no summary in {options.config}")
    metrics = metrics_of(options)
    words_of = words_of or Words.of(options.stem, options.remove_stopwords, options.data_dir)
    empty: set[str] = set()
    try:
        tables = _count(config, systems, metrics, options, words_of, reader, empty)  # type: ignore[arg-type]
    except ConfigError:  # the script dies reading a file: the missing peers were told first
        _warnings(config, systems, 1, set(), warn)
        raise
    _warnings(config, systems, len(metrics), empty, warn)
    results: dict[str, list[MetricResult]] = {}
    width = 3 * len(metrics)
    for system, (names, values) in tables.items():
        order = sorted(range(len(names)), key=names.__getitem__)  # the script's string sort
        ordered = array("d")
        for i in order:
            ordered.extend(values[i * width : (i + 1) * width])
        averages = corpus_averages(
            ordered,
            len(metrics),
            options.counting,
            options.alpha,
            options.resamples,
            float(options.confidence),
        )
        results[system] = [
            MetricResult(
                metric.tag,
                average,
                [(names[i], _values(values, i * width + 3 * m)) for i in order]
                if options.per_eval
                else [],
            )
            for m, (metric, average) in enumerate(zip(metrics, averages))
        ]
    return Report(results, options, header)


def _values(values: array[float], start: int) -> Values:
    return values[start], values[start + 1], values[start + 2]


def _config(options: Options) -> Config:
    if options.file_list is not None:
        return read_file_list(options.config, options.file_list, options.system_id or "X")
    return read_config(options.config)


def _count(
    config: Config,
    systems: list[str],
    metrics: list[Metric],
    options: Options,
    words_of: Callable[[str], list[str]],
    reader: Callable[[str], bytes] | None,
    empty: set[str],
) -> dict[str, tuple[list[str], array[float]]]:
    """Per system: its evaluations' names ("evalID.systemID") and values
    (evaluations x metrics x 3, flat).  Adds to ``empty`` the summaries a
    limit left without text."""
    limits = Limits(options.words, options.size)
    best = options.scoring == "B"
    joined = (limits.words == 0 and limits.size == 0) or None  # no cut: each reader's words agree
    spl_values = None
    if _backend.perl and joined and plain(words_of) and len(metrics) <= KERNEL_METRICS:
        spl_values = _backend.perl.spl_values
    tables: dict[str, tuple[list[str], array[float]]] = {s: ([], array("d")) for s in systems}
    seen: set[str] = set()
    for evaluation in config.evaluations:
        present = [s for s in systems if s in evaluation.peers]
        if not present:
            continue
        fmt = _format(evaluation, present[0], reader)
        # SPL files with the script's own words: the compiled kernel reads
        # their bytes itself (the same words as summary_of's, fewer objects).
        kernel = spl_values if fmt.upper() == "SPL" else None
        fast = kernel is not None
        try:
            models = [
                _load(path, fast, fmt, limits, words_of, reader)
                for path in evaluation.model_paths()
            ]
        except ConfigError:
            if reader is None:  # the script checks that every model exists before reading one
                _model_paths(evaluation)
            raise
        empty.update(p for p, m in zip(evaluation.model_paths(), models) if _undefined(m))
        for system in present:
            name = f"{evaluation.eval_id}.{system}"
            peer_path = evaluation.peer_path(system)
            peer = _load(peer_path, fast, fmt, limits, words_of, reader)
            if _undefined(peer):
                empty.add(peer_path)
            if name in seen:  # the script keeps the first evaluation of a name
                continue
            seen.add(name)
            try:
                if kernel is not None:
                    found = kernel(metrics, models, peer, best, options.counting, options.alpha)
                else:
                    found = evaluation_values(
                        metrics, models, peer, best, options.counting, options.alpha, joined
                    )
            except ZeroDivisionError as error:  # Perl155ZeroDivision, or the kernel's
                raise ConfigError(
                    f"Illegal division by zero in evaluation {evaluation.eval_id}: {error} "
                    "(ROUGE-1.5.5.pl dies here too)"
                ) from None
            names, values = tables[system]
            names.append(name)
            values.extend(found)
    return tables


def _undefined(loaded: Any) -> bool:
    return isinstance(loaded, Summary) and loaded.undefined


def _warnings(
    config: Config,
    systems: Sequence[str | None],
    metrics: int,
    empty: set[str],
    warn: Callable[[str], None],
) -> None:
    """The script's warnings, in its order: per system, per metric, per
    evaluation, a peer missing (once per evaluation), or each summary it
    reads (the peer, then the models) that a limit left empty."""
    missing: set[tuple[str | None, str]] = set()
    for system in systems:
        for _ in range(metrics):
            for evaluation in config.evaluations:
                if system not in evaluation.peers:
                    if (system, evaluation.eval_id) not in missing:
                        missing.add((system, evaluation.eval_id))
                        warn(
                            f"*ROUGE Warning: test instance for peer {system} does not exist "
                            f"for evaluation {evaluation.eval_id}"
                        )
                    continue
                for path in [evaluation.peer_path(system), *evaluation.model_paths()]:
                    if path in empty:
                        warn(f"readText: {path} -> empty text")


def _format(evaluation: Evaluation, system: str, reader: Callable[[str], bytes] | None) -> str:
    """The evaluation's input format, if its summaries have one the script reads."""
    fmt = evaluation.fmt or ""
    if fmt.upper() in SUMMARY_FORMATS:
        return fmt
    # The script checks that the models exist, opens the peer and only then
    # dies on the format, exiting with the errno its open left: ENOTTY.
    if reader is None:
        _model_paths(evaluation)
    _bytes(evaluation.peer_path(system), reader)
    why = "SIMPLE is Basic Elements' (-3), which is not supported"
    if fmt.upper() != "SIMPLE":
        why = "summaries are SEE, ISI or SPL"
    raise ConfigError(
        f"Unknown input format: {fmt} (evaluation {evaluation.eval_id}: {why})", errno.ENOTTY
    )


def _model_paths(evaluation: Evaluation) -> list[str]:
    paths = evaluation.model_paths()
    for path in paths:
        if not exists(path):
            raise ConfigError(f"Cannot find model summary: {path}", 2)
    return paths


def _load(
    path: str,
    fast: bool,
    fmt: str,
    limits: Limits,
    words_of: Callable[[str], list[str]],
    reader: Callable[[str], bytes] | None,
) -> Any:
    """The file's bytes for the compiled kernel (``fast``), else its Summary."""
    if fast:
        return _bytes(path, reader)
    return _read(path, fmt, limits, words_of, reader)


def _bytes(path: str, reader: Callable[[str], bytes] | None) -> bytes:
    try:
        return reader(path) if reader is not None else read_bytes(path)
    except SummaryError as error:
        raise ConfigError(str(error), error.errno) from None


def _read(
    path: str,
    fmt: str,
    limits: Limits,
    words_of: Callable[[str], list[str]],
    reader: Callable[[str], bytes] | None,
) -> Summary:
    try:
        if reader is not None:
            return summary_of(reader(path), fmt, limits, words_of)
        return read_summary(path, fmt, limits, words_of)
    except SummaryError as error:
        raise ConfigError(str(error), error.errno) from None

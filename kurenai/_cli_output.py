"""The command line's reports: per-record or bootstrap, as CSV, JSON or JSONL.

A report takes one ``dict[str, Score]`` per record through ``add`` and
finishes in ``close``.  Per-record reports stream each record out at once;
the aggregate report keeps the scores for ``BootstrapAggregator``.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from typing import IO, Any, Protocol

from kurenai.scoring import AggregateScore, BootstrapAggregator, Score, seeded_bootstrap

__all__ = [
    "Bootstrap",
    "Progress",
    "Report",
    "make_report",
]

FORMATS = ("csv", "json", "jsonl")
# Column order of rouge-score's own command line: P, R, F per record; R, P, F aggregated.
_RECORD_MEASURES = (("P", "precision"), ("R", "recall"), ("F", "fmeasure"))
_AGGREGATE_MEASURES = (("R", "recall"), ("P", "precision"), ("F", "fmeasure"))


class Report(Protocol):
    """Receives each record's scores in order, then writes what is left."""

    def add(self, scores: dict[str, Score]) -> None: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class Bootstrap:
    """``BootstrapAggregator``'s settings, and the seed of numpy's global RNG."""

    samples: int = 1000
    confidence: float = 0.95
    seed: int | None = None

    def aggregate(self, aggregator: BootstrapAggregator) -> dict[str, AggregateScore]:
        """``aggregator.aggregate()``, under ``seed`` if one is set."""
        with seeded_bootstrap(self.seed):
            return aggregator.aggregate()


def make_report(
    stream: IO[str], fmt: str, rouge_types: Sequence[str], signature: str, boot: Bootstrap | None
) -> Report:
    """The report for output format ``fmt``; aggregated if ``boot`` is given."""
    if boot is not None:
        return _AggregateReport(stream, fmt, rouge_types, signature, boot)
    if fmt == "csv":
        return _CsvRecords(stream, rouge_types)
    return _JsonRecords(stream, signature, lines=fmt == "jsonl")


class _CsvRecords:
    def __init__(self, stream: IO[str], rouge_types: Sequence[str]) -> None:
        self._stream = stream
        self._types = list(rouge_types)
        self._id = 0
        # One %-format per row: the CLI's hot loop when the scorer is fast.
        self._row = "%d," + ",".join(["%f"] * (3 * len(self._types))) + "\n"
        header = [f"{t}-{letter}" for t in self._types for letter, _ in _RECORD_MEASURES]
        stream.write(",".join(["id", *header]) + "\n")

    def add(self, scores: dict[str, Score]) -> None:
        self._stream.write(
            self._row % (self._id, *chain.from_iterable(scores[t] for t in self._types))
        )
        self._id += 1

    def close(self) -> None:
        pass


class _JsonRecords:
    """JSONL: one object per record.  JSON: ``{"signature", "records": [...]}``."""

    def __init__(self, stream: IO[str], signature: str, lines: bool) -> None:
        self._stream = stream
        self._lines = lines
        self._id = 0
        if not lines:
            stream.write(f'{{"signature": {json.dumps(signature)}, "records": [\n')

    def add(self, scores: dict[str, Score]) -> None:
        record = {"id": self._id, **{t: _score_json(s) for t, s in scores.items()}}
        separator = "" if self._lines or not self._id else ",\n"
        self._stream.write(separator + json.dumps(record, ensure_ascii=False))
        if self._lines:
            self._stream.write("\n")
        self._id += 1

    def close(self) -> None:
        if not self._lines:
            self._stream.write("\n]}\n" if self._id else "]}\n")


class _AggregateReport:
    def __init__(
        self,
        stream: IO[str],
        fmt: str,
        rouge_types: Sequence[str],
        signature: str,
        boot: Bootstrap,
    ) -> None:
        self._stream, self._fmt, self._signature, self._boot = stream, fmt, signature, boot
        self._types = sorted(rouge_types)
        self._aggregator = BootstrapAggregator(boot.confidence, boot.samples)
        self._count = 0

    def add(self, scores: dict[str, Score]) -> None:
        self._aggregator.add_scores(scores)
        self._count += 1

    def close(self) -> None:
        result = self._boot.aggregate(self._aggregator)
        if self._fmt == "csv":
            self._stream.write("score_type,low,mid,high\n")
            for rouge_type in self._types:
                bounds = result[rouge_type]
                for letter, measure in _AGGREGATE_MEASURES:
                    values = (getattr(getattr(bounds, b), measure) for b in ("low", "mid", "high"))
                    self._stream.write(
                        f"{rouge_type}-{letter}," + ",".join(map("{:f}".format, values)) + "\n"
                    )
        elif self._fmt == "jsonl":
            for rouge_type in self._types:
                line = {"score_type": rouge_type, **_aggregate_json(result[rouge_type])}
                self._stream.write(json.dumps(line) + "\n")
        else:
            document = {
                "signature": self._signature,
                "count": self._count,
                "aggregate": {t: _aggregate_json(result[t]) for t in self._types},
            }
            self._stream.write(json.dumps(document, indent=2) + "\n")


def _score_json(score: Score) -> dict[str, float]:
    # float(): rouge-score's int 0 for an empty rougeL side is 0.0 like any other score.
    return {name: float(getattr(score, name)) for _, name in _RECORD_MEASURES}


def _aggregate_json(bounds: AggregateScore) -> dict[str, Any]:
    return {b: _score_json(getattr(bounds, b)) for b in ("low", "mid", "high")}


class Progress:
    """A one-line progress bar on a terminal: ``kurenai: 1200/5000 records (24%)``.

    Redrawn at most every ``interval`` seconds; does nothing when disabled.
    """

    def __init__(
        self, total: int | None, enabled: bool, stream: IO[str] | None = None, interval: float = 0.2
    ) -> None:
        self._total, self._enabled, self._interval = total, enabled, interval
        self._stream = stream if stream is not None else sys.stderr
        self._done = 0
        self._start = time.monotonic()
        self._last = float("-inf")  # draw at the first update
        self._drawn = False

    def update(self, count: int) -> None:
        """Count ``count`` more records done."""
        self._done += count
        now = time.monotonic()
        if self._enabled and now - self._last >= self._interval:
            self._last = now
            self._draw(now)

    def close(self) -> None:
        """Draw the final state and end the line (only if anything was drawn)."""
        if self._drawn:
            self._draw(time.monotonic())
            self._stream.write("\n")
            self._stream.flush()

    def _draw(self, now: float) -> None:
        rate = self._done / max(now - self._start, 1e-9)
        if self._total:
            text = f"{self._done}/{self._total} records ({100 * self._done // self._total}%)"
        else:
            text = f"{self._done} records"
        self._stream.write(f"\rkurenai: {text}, {rate:.0f}/s ")
        self._stream.flush()
        self._drawn = True

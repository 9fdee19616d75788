"""The command line's corpus reports: mean, bootstrap, paired comparison.

Each keeps the blocks of scores (a few floats per record), computes at
``close`` and writes CSV, JSON or JSONL.  Types appear in sorted order, the
measures as recall, precision, F (the order of rouge-score's own command
line).  ``corpus_f`` gives, per type, the F-measure that ``--fail-under``
compares: the mean, or the bootstrap ``mid``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import IO, Any, Callable

import numpy as np
import numpy.typing as npt

from kurenai._core.bootstrap import PairedResult, bootstrap, paired_bootstrap
from kurenai.cli._output import MEASURES, Block, Report
from kurenai.scoring import AggregateScore

__all__ = ["Resampling", "aggregate_report", "with_mean"]

_ROWS = (("R", 1, "recall"), ("P", 0, "precision"), ("F", 2, "fmeasure"))
_BOUNDS = ("low", "mid", "high")


@dataclass(frozen=True)
class Resampling:
    """Bootstrap settings, and the progress callback for the samples drawn."""

    samples: int = 1000
    confidence: float = 0.95
    seed: int | None = None
    progress: Callable[[int], None] | None = None


class _Collected:
    """The blocks' scores, concatenated at the end."""

    def __init__(
        self, stream: IO[str] | None, fmt: str, rouge_types: Sequence[str], signature: str
    ) -> None:
        self._stream, self._fmt, self._signature = stream, fmt, signature
        self._types = list(rouge_types)
        self._values: list[npt.NDArray[np.float64]] = []
        self._baseline: list[npt.NDArray[np.float64]] = []
        self.corpus_f: dict[str, float] = {}

    def close(self) -> None:
        """Compute and write the report."""
        raise NotImplementedError

    def add(self, block: Block) -> None:
        """Keep the block's scores."""
        self._values.append(block.values)
        if block.baseline is not None:
            self._baseline.append(block.baseline)

    def _matrices(self, blocks: list[npt.NDArray[np.float64]]) -> dict[str, Any]:
        """Per type (in the scorer's order), the (records x P/R/F) matrix."""
        table = np.concatenate(blocks, axis=2)
        return {t: np.ascontiguousarray(table[i].T) for i, t in enumerate(self._types)}

    def _write(self, name: str, per_type: dict[str, dict[str, Any]], csv_lines: list[str]) -> None:
        stream = self._stream
        assert stream is not None
        if self._fmt == "csv":
            stream.write("".join(line + "\n" for line in csv_lines))
        elif self._fmt == "jsonl":
            for rouge_type, value in per_type.items():
                stream.write(json.dumps({"score_type": rouge_type, **value}) + "\n")
        else:
            count = sum(block.shape[2] for block in self._values)
            document = {"signature": self._signature, "count": count, name: per_type}
            stream.write(json.dumps(document, indent=2) + "\n")

    def _means(self) -> dict[str, list[float]]:
        """Per type in sorted order, the mean precision, recall and F."""
        matrices = self._matrices(self._values)
        # Each column on its own, contiguous: the mean NumPy (or pandas) gives
        # of the per-record values, to the last bit.
        return {
            t: [float(np.mean(np.ascontiguousarray(column))) for column in matrices[t].T]
            for t in sorted(matrices)
        }


class _MeanReport(_Collected):
    def close(self) -> None:
        means = self._means()
        self.corpus_f = {t: means[t][2] for t in self._types}
        lines = ["score_type,mean"]
        lines += [f"{t}-{letter},{means[t][m]:f}" for t in means for letter, m, _ in _ROWS]
        per_type = {t: _score_dict(means[t]) for t in means}
        self._write("mean", per_type, lines)


class _BootstrapReport(_Collected):
    def __init__(self, *args: Any, resampling: Resampling) -> None:
        super().__init__(*args)
        self._resampling = resampling

    def close(self) -> None:
        r = self._resampling
        result = bootstrap(
            self._matrices(self._values), r.samples, r.confidence, r.seed, r.progress
        )
        self.corpus_f = {t: float(result[t].mid.fmeasure) for t in self._types}
        lines = ["score_type,low,mid,high"]
        for rouge_type in sorted(result):
            for letter, _, name in _ROWS:
                cells = (
                    f"{float(getattr(getattr(result[rouge_type], b), name)):f}" for b in _BOUNDS
                )
                lines.append(f"{rouge_type}-{letter}," + ",".join(cells))
        per_type = {t: _aggregate_dict(result[t]) for t in sorted(result)}
        self._write("aggregate", per_type, lines)


class _PairedReport(_BootstrapReport):
    def close(self) -> None:
        r = self._resampling
        system = {t: m[:, 2] for t, m in self._matrices(self._values).items()}
        baseline = {t: m[:, 2] for t, m in self._matrices(self._baseline).items()}
        result = paired_bootstrap(system, baseline, r.samples, r.confidence, r.seed, r.progress)
        self.corpus_f = {t: result[t].system for t in self._types}
        fields = ("system", "baseline", "difference", "low", "high", "p_value")
        lines = ["score_type," + ",".join(fields)]
        lines += [f"{t}-F," + _paired_cells(result[t], fields) for t in sorted(result)]
        per_type = {t: asdict(result[t]) for t in sorted(result)}
        self._write("comparison", per_type, lines)


class _WithMean(_Collected):
    """A per-record report that also keeps the scores for ``--fail-under``."""

    def __init__(self, report: Report, rouge_types: Sequence[str]) -> None:
        super().__init__(None, "", rouge_types, "")
        self._report = report

    def add(self, block: Block) -> None:
        self._report.add(block)
        super().add(block)

    def close(self) -> None:
        self._report.close()
        self.corpus_f = {t: values[2] for t, values in self._means().items()}


def with_mean(report: Report, rouge_types: Sequence[str]) -> _Collected:
    """``report``, also computing the mean F-measures for ``--fail-under``."""
    return _WithMean(report, rouge_types)


def aggregate_report(
    kind: str,
    stream: IO[str],
    fmt: str,
    rouge_types: Sequence[str],
    signature: str,
    resampling: Resampling,
) -> _Collected:
    """The corpus report ``kind``: ``mean``, ``bootstrap`` or ``paired``."""
    if kind == "mean":
        return _MeanReport(stream, fmt, rouge_types, signature)
    cls = _PairedReport if kind == "paired" else _BootstrapReport
    return cls(stream, fmt, rouge_types, signature, resampling=resampling)


def _score_dict(values: Sequence[float]) -> dict[str, float]:
    return {name: float(values[m]) for m, (_, name) in enumerate(MEASURES)}


def _aggregate_dict(bounds: AggregateScore) -> dict[str, dict[str, float]]:
    return {b: _score_dict(list(getattr(bounds, b))) for b in _BOUNDS}


def _paired_cells(result: PairedResult, fields: Sequence[str]) -> str:
    return ",".join(f"{getattr(result, field):f}" for field in fields)

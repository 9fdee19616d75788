"""The command line's corpus reports: mean, bootstrap, paired comparison.

Each keeps the blocks of scores (a few floats per record), computes at
``close`` a :class:`~kurenai.cli._output.Corpus` and writes it with the
output format's corpus writer.  Types appear in sorted order, each type's
rows as recall, precision, F (rouge-score's aggregate CSV); JSON names
them.  ``corpus_f`` gives, per type,
the F-measure that ``--fail-under`` compares: the mean, or the bootstrap
``mid``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, Any, Callable

import numpy as np
import numpy.typing as npt

from kurenai.cli._files import stderr_line
from kurenai.cli._mean import StreamingMean
from kurenai.cli._output import CORPUS_COLUMNS, MEASURE_COLUMNS, Block, Corpus, Report, write_corpus
from kurenai.cli._sources import CliError
from kurenai.scoring import AggregateScore
from kurenai.stats._bootstrap import bootstrap
from kurenai.stats._paired import check_test, paired_test

__all__ = ["Resampling", "aggregate_report", "with_mean"]

_BOUNDS = ("low", "mid", "high")


@dataclass(frozen=True)
class Resampling:
    """Bootstrap settings, the progress callback for the samples drawn, and
    the comparison's paired test (a name :data:`kurenai.stats.TESTS` knows;
    the randomization tests draw ``trials``)."""

    samples: int = 1000
    confidence: float = 0.95
    seed: int | None = None
    progress: Callable[[int], None] | None = None
    test: str = "bootstrap"
    trials: int = 10_000


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
        """Keep the block's scores, less the records over a size limit."""
        values, baseline = block.values, block.baseline
        over = block.over_limits()
        if over.any():
            values = values[:, :, ~over]
            baseline = None if baseline is None else baseline[:, :, ~over]
        self._values.append(values)
        if baseline is not None:
            self._baseline.append(baseline)

    def _matrices(self, blocks: list[npt.NDArray[np.float64]]) -> dict[str, Any]:
        """Per type (in the scorer's order), the (records x P/R/F) matrix."""
        table = np.concatenate(blocks, axis=2)
        if not table.shape[2]:
            raise CliError("every record is over --max-tokens or --max-chars: no corpus score")
        return {t: np.ascontiguousarray(table[i].T) for i, t in enumerate(self._types)}

    def _write(
        self,
        name: str,
        columns: tuple[str, ...],
        rows: list[tuple[str, list[float]]],
        per_type: dict[str, dict[str, Any]],
    ) -> None:
        assert self._stream is not None
        corpus = Corpus(name, columns, rows, per_type, self._count())
        write_corpus(self._stream, self._fmt, corpus, self._signature)

    def _count(self) -> int:
        return sum(block.shape[2] for block in self._values)


class _Streamed(_Collected):
    """Keeps no scores: a mean needs none.  The columns stream to a
    :class:`~kurenai.cli._mean.StreamingMean`, whose means are ``np.mean``'s
    (or pandas') of the per-record values, to the last bit."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self._mean = StreamingMean(3 * len(self._types))

    def add(self, block: Block) -> None:
        values = block.values[:, :, ~block.over_limits()]
        self._mean.add(values.reshape(3 * len(self._types), values.shape[2]).T)

    def _count(self) -> int:
        return self._mean.count

    def _means(self) -> dict[str, list[float]]:
        """Per type in sorted order, the mean precision, recall and F."""
        means = self._mean.means().reshape(len(self._types), 3).tolist()
        if not self._mean.count:
            raise CliError("every record is over --max-tokens or --max-chars: no corpus score")
        return {t: means[self._types.index(t)] for t in sorted(self._types)}


class _MeanReport(_Streamed):
    def close(self) -> None:
        means = self._means()
        self.corpus_f = {t: means[t][2] for t in self._types}
        rows = [(f"{t}-{letter}", [means[t][m]]) for t in means for m, letter, _ in CORPUS_COLUMNS]
        per_type = {t: _score_dict(means[t]) for t in means}
        self._write("mean", ("mean",), rows, per_type)


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
        rows = [
            (f"{t}-{letter}", [float(getattr(getattr(result[t], b), name)) for b in _BOUNDS])
            for t in sorted(result)
            for _, letter, name in CORPUS_COLUMNS
        ]
        per_type = {t: _aggregate_dict(result[t]) for t in sorted(result)}
        self._write("aggregate", _BOUNDS, rows, per_type)


class _PairedReport(_BootstrapReport):
    def close(self) -> None:
        r = self._resampling
        system = {t: m[:, 2] for t, m in self._matrices(self._values).items()}
        baseline = {t: m[:, 2] for t, m in self._matrices(self._baseline).items()}
        test = check_test(r.test)
        draws = test.draws(r.samples, r.trials)
        result = paired_test(system, baseline, r.test, draws, r.confidence, r.seed, r.progress)
        self.corpus_f = {t: result[t].system for t in self._types}
        fields: tuple[str, ...] = ("system", "baseline", "difference", "low", "high", "p_value")
        if not test.interval:  # a p-value, no interval
            fields = ("system", "baseline", "difference", "p_value")
        for t in self._types:
            if result[t].note:
                stderr_line(f"kurenai: note: {t}: {result[t].note}")
        rows = [
            (f"{t}-F", [float(getattr(result[t], field)) for field in fields])
            for t in sorted(result)
        ]
        per_type = {t: result[t].as_dict() for t in sorted(result)}
        self._write("comparison", fields, rows, per_type)


class _WithMean(_Streamed):
    """A per-record report that also streams the means for ``--fail-under``."""

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
    return {name: float(values[m]) for m, (_, name) in enumerate(MEASURE_COLUMNS)}


def _aggregate_dict(bounds: AggregateScore) -> dict[str, dict[str, float]]:
    return {b: _score_dict(list(getattr(bounds, b))) for b in _BOUNDS}

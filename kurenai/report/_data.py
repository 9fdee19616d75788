"""The report's document: every number the page shows, as JSON-ready data.

Records are stored by column (one list per field), which keeps the page's
JSON small and lets its script sort a column of 100,000 numbers in one
``sort`` call.  Scores are rounded to 6 decimals for the table and charts;
the corpus numbers are kept to the last bit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from kurenai.report._highlights import Highlight, Target, shown_target
from kurenai.report._systems import Leaderboard
from kurenai.stats._paired import check_test, paired_test

__all__ = ["LENGTH_EDGES", "RATIO_EDGES", "document"]

Matrix = npt.NDArray[np.float64]  # (types x P/R/F x records)
# compare-mt's buckets: reference length in tokens, prediction/reference length.
LENGTH_EDGES = (10, 20, 30, 40, 50, 60)
RATIO_EDGES = (0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3)
TOP = 20  # most improved / regressed records listed


@dataclass(frozen=True)
class Resampling:
    """The report's resampling: the bootstrap's samples, confidence and seed,
    and the paired tests' method (``test``: a name
    :func:`kurenai.stats._paired.check_test` knows) and trials (the
    randomization tests')."""

    samples: int
    confidence: float
    seed: int | None
    test: str = "bootstrap"
    trials: int | None = None

    def __post_init__(self) -> None:
        test = check_test(self.test)
        object.__setattr__(self, "test", test.name)
        if self.trials is None and not test.resamples:
            object.__setattr__(self, "trials", test.default_draws)


def document(
    *,
    rouge_types: Sequence[str],
    signature: str,
    ids: Sequence[Any],
    targets: Sequence[Target],
    systems: Mapping[str, Sequence[str]],
    scores: Mapping[str, Matrix],
    scored: npt.NDArray[np.intp],
    target_lengths: npt.NDArray[np.int64],
    prediction_lengths: Mapping[str, npt.NDArray[np.int64]],
    board: Leaderboard,
    baseline: str | None,
    highlights: Mapping[int, Highlight],
    resampling: Resampling,
) -> dict[str, Any]:
    """The page's data (see the template's script for how each part is read).

    ``scored``: the records in the corpus numbers (the others, over a size
    limit, have NaN scores: null in the table, in no bucket or comparison)."""
    names = list(systems)
    main = names[0]
    doc: dict[str, Any] = {
        "signature": signature,
        "types": list(rouge_types),
        "systems": names,
        "main": main,
        "baseline": baseline,
        "count": len(targets),
        "ids": [str(i) for i in ids],
        "targets": [shown_target(t) for t in targets],
        "predictions": {name: list(systems[name]) for name in names},
        "scores": {name: _rounded(scores[name]) for name in names},
        "lengths": {
            "target": target_lengths.tolist(),
            **{name: prediction_lengths[name].tolist() for name in names},
        },
        "leaderboard": board.as_dict(),
        "buckets": _buckets(
            rouge_types,
            {name: matrix[:, :, scored] for name, matrix in scores.items()},
            target_lengths[scored],
            {name: lengths[scored] for name, lengths in prediction_lengths.items()},
        ),
        "highlights": {str(i): h for i, h in highlights.items()},
        "explained": sum(h is not None for h in highlights.values()),
        "too_costly": sum(h is None for h in highlights.values()),
        "resampling": {
            "samples": resampling.samples,
            "confidence": resampling.confidence,
            "seed": resampling.seed,
            "test": resampling.test,
            "trials": resampling.trials,
        },
    }
    if baseline is not None:
        doc["comparison"] = _comparison(
            rouge_types, scores[main][:, :, scored], scores[baseline][:, :, scored], resampling
        )
        for found in doc["comparison"].values():  # records by their index in the page
            for key in ("improved", "regressed"):
                found[key] = [int(scored[i]) for i in found[key]]
    return doc


def _rounded(matrix: Matrix) -> list[list[list[float | None]]]:
    """(types x P/R/F x records) as nested lists, 6 decimals; NaN (over a
    size limit) as None, JSON's null (NaN is no JSON)."""
    rounded = np.round(matrix, 6).astype(object)
    rounded[np.isnan(matrix)] = None
    return rounded.tolist()  # type: ignore[no-any-return]


def _buckets(
    rouge_types: Sequence[str],
    scores: Mapping[str, Matrix],
    target_lengths: npt.NDArray[np.int64],
    prediction_lengths: Mapping[str, npt.NDArray[np.int64]],
) -> dict[str, Any]:
    """Mean F per bucket of reference length and of length ratio, per system and type."""
    by_length = np.digitize(target_lengths, LENGTH_EDGES)
    length_labels = _labels(LENGTH_EDGES, "{:g}")
    found: dict[str, Any] = {"length": {"labels": length_labels}, "ratio": {"labels": []}}
    found["ratio"]["labels"] = _labels(RATIO_EDGES, "{:.1f}")
    for name, matrix in scores.items():
        ratio = prediction_lengths[name] / np.maximum(target_lengths, 1)
        by_ratio = np.digitize(ratio, RATIO_EDGES)
        for key, bucket, count in (
            ("length", by_length, len(LENGTH_EDGES) + 1),
            ("ratio", by_ratio, len(RATIO_EDGES) + 1),
        ):
            sizes = np.bincount(bucket, minlength=count)
            found[key].setdefault("counts", {})[name] = sizes.tolist()
            means = {}
            for k, rouge_type in enumerate(rouge_types):
                sums = np.bincount(bucket, weights=matrix[k, 2], minlength=count)
                mean = np.divide(sums, sizes, out=np.full(count, np.nan), where=sizes > 0)
                means[rouge_type] = [None if np.isnan(v) else round(float(v), 6) for v in mean]
            found[key].setdefault("means", {})[name] = means
    return found


def _labels(edges: Sequence[float], fmt: str) -> list[str]:
    labels = [f"<{fmt.format(edges[0])}"]
    labels += [f"{fmt.format(a)}–{fmt.format(b)}" for a, b in zip(edges, edges[1:])]
    return [*labels, f"≥{fmt.format(edges[-1])}"]


def _comparison(
    rouge_types: Sequence[str],
    system: Matrix,
    baseline: Matrix,
    resampling: Resampling,
) -> dict[str, Any]:
    """Per type: wins/ties/losses, the paired test, the top records either way."""
    f_system = {t: system[k, 2] for k, t in enumerate(rouge_types)}
    f_baseline = {t: baseline[k, 2] for k, t in enumerate(rouge_types)}
    r = resampling
    draws = check_test(r.test).draws(r.samples, r.trials)
    paired = paired_test(f_system, f_baseline, r.test, draws, r.confidence, r.seed)
    found: dict[str, Any] = {}
    for rouge_type in rouge_types:
        delta = f_system[rouge_type] - f_baseline[rouge_type]
        order = np.argsort(delta, kind="stable")
        found[rouge_type] = {
            "wins": int(np.count_nonzero(delta > 0)),
            "ties": int(np.count_nonzero(delta == 0)),
            "losses": int(np.count_nonzero(delta < 0)),
            "paired": paired[rouge_type].as_dict(),
            "improved": [int(i) for i in order[::-1][:TOP] if delta[i] > 0],
            "regressed": [int(i) for i in order[:TOP] if delta[i] < 0],
        }
    return found

"""Meta-evaluation: how well ROUGE agrees with people, and how surely.

:func:`correlate` scores every judged summary with each ROUGE type (under
each tokenizer/``lang`` variant asked for), lays the scores and the human
judgments out as (systems x documents) matrices and hands them to
:func:`correlate_scores`, which works on any metric's matrices: the
summary- and system-level correlations (:mod:`kurenai.stats._correlation`),
their bootstrap intervals and the tests between metrics
(:mod:`kurenai.stats._correlation_resampling`).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Callable, Union

import numpy as np
import numpy.typing as npt

from kurenai._core.plan import SCORE_FIELDS
from kurenai._core.shared import score_systems
from kurenai.stats._correlation import (
    COEFFICIENTS,
    DEFAULT_LEVELS,
    LEVELS,
    RESAMPLING,
    check_choice,
)
from kurenai.stats._correlation import level_correlation as _level_correlation
from kurenai.stats._correlation_resampling import (
    bootstrap_intervals,
    permutation_test,
    williams_comparison,
)
from kurenai.stats._correlations import Correlation, Correlations, MetricTest

__all__ = ["TESTS", "WILLIAMS", "correlate", "correlate_scores", "judgment_matrices"]

Matrix = npt.NDArray[np.float64]
Target = Union[str, Sequence[str]]
TESTS = ("williams", "permutation")
# Williams' test: the correlations' signs kept, or their absolute values (SacreROUGE, WMT).
WILLIAMS = ("signed", "absolute")
_KEYS = ("system", "document")
# Members of a one-file layout that hold texts, not scores.
_TEXT_KEYS = ("prediction", "reference", "references", "id")


def correlate(
    references: Mapping[Any, Target],
    predictions: Mapping[Any, Mapping[Any, str]],
    judgments: Iterable[Mapping[str, Any]],
    rouge_types: Sequence[str] = ("rouge1", "rouge2", "rougeL"),
    *,
    variants: Mapping[str, Mapping[str, Any]] | None = None,
    measure: str = "fmeasure",
    criteria: Sequence[str] | None = None,
    **options: Any,
) -> Correlations:
    """Correlate ROUGE with human ``judgments``.

    ``references``: document -> its reference (or list of references).
    ``predictions``: system -> document -> that system's summary.
    ``judgments``: records ``{"system": s, "document": d, criterion: score,
    ...}`` (or the scores under ``"scores"``); every numeric member is a
    criterion unless ``criteria`` names the ones to use.  ``variants``:
    label -> :class:`~kurenai.rouge_scorer.RougeScorer` options (``lang``,
    ``tokenizer``, ``use_stemmer``, ...), each scored as metrics named
    ``"rouge1 (label)"``; default one variant, rouge-score's defaults.
    ``measure``: which of precision, recall, fmeasure.  ``options`` go to
    :func:`correlate_scores`.

    Raises ValueError for a judgment of an unknown system or document, a
    system or document judged twice, fewer than 3 systems, or no criterion;
    ImportError without SciPy (the ``correlate`` extra).
    """
    from kurenai.rouge_scorer import RougeScorer

    check_choice(measure, SCORE_FIELDS, "measure")
    notes: list[str] = []
    systems, documents, human = judgment_matrices(judgments, criteria, notes=notes)
    for system in systems:
        if system not in _text_keys(predictions):
            raise ValueError(f"judgments name system {system!r}, which has no predictions")
    cells = [
        (i, j)
        for i in range(len(systems))
        for j in range(len(documents))
        if any(not np.isnan(m[i, j]) for m in human.values())
    ]
    targets, texts = _judged_texts(references, predictions, systems, documents, cells)
    metrics: dict[str, Matrix] = {}
    for label, kwargs in (variants or {"": {}}).items():
        try:
            scorer = RougeScorer(list(rouge_types), **kwargs)
        except (ValueError, ImportError) as error:  # an unknown lang, an extra not installed
            named = f"variant {label!r}" if label else "the scorer"
            raise type(error)(f"cannot make {named}: {error}") from None
        scores = score_systems(scorer, targets, {"judged": texts})["judged"]
        for k, rouge_type in enumerate(scorer.rouge_types):
            matrix = np.full((len(systems), len(documents)), np.nan)
            for (i, j), value in zip(cells, scores[k, SCORE_FIELDS.index(measure)]):
                matrix[i, j] = value
            metrics[f"{rouge_type} ({label})" if label else rouge_type] = matrix
    found = correlate_scores(metrics, human, systems, documents, **options)
    found.settings["measure"] = measure
    if notes:
        found.settings["notes"] = notes
    return found


def _text_keys(mapping: Mapping[Any, Any]) -> dict[str, Any]:
    return {str(key): value for key, value in mapping.items()}


def _judged_texts(
    references: Mapping[Any, Target],
    predictions: Mapping[Any, Mapping[Any, str]],
    systems: Sequence[str],
    documents: Sequence[str],
    cells: Sequence[tuple[int, int]],
) -> tuple[list[Target], list[str]]:
    refs = _text_keys(references)
    outputs = {name: _text_keys(texts) for name, texts in _text_keys(predictions).items()}
    for document in documents:
        if document not in refs:
            raise ValueError(f"judgments name document {document!r}, which has no reference")
    targets, texts = [], []
    for i, j in cells:
        prediction = outputs[systems[i]].get(documents[j])
        if prediction is None:
            raise ValueError(
                f"system {systems[i]!r} is judged on document {documents[j]!r}, "
                "which it has no prediction for"
            )
        targets.append(refs[documents[j]])
        texts.append(prediction)
    return targets, texts


def judgment_matrices(
    judgments: Iterable[Mapping[str, Any]],
    criteria: Sequence[str] | None = None,
    *,
    notes: list[str] | None = None,
) -> tuple[list[str], list[str], dict[str, Matrix]]:
    """(systems, documents, criterion -> (systems x documents) scores, NaN
    where not judged) of judgment records, in order of first appearance.

    A score written as a string (``"3.2"``) is a ValueError, as is a
    criterion that is a number in some records and text in others; members
    holding only text (``"good"``) are not criteria, and ``notes`` (when
    given) gets one line naming them (the texts of ``prediction``,
    ``reference`` and ``references`` excepted)."""
    skipped: set[str] = set()
    systems: dict[str, int] = {}
    documents: dict[str, int] = {}
    cells: dict[tuple[int, int], dict[str, float]] = {}
    for number, record in enumerate(judgments, 1):
        if not isinstance(record, Mapping) or any(key not in record for key in _KEYS):
            raise ValueError(f"judgment {number} needs a 'system' and a 'document'")
        i = systems.setdefault(str(record["system"]), len(systems))
        j = documents.setdefault(str(record["document"]), len(documents))
        if (i, j) in cells:
            raise ValueError(
                f"system {str(record['system'])!r} is judged twice on document "
                f"{str(record['document'])!r} (judgment {number}): average them first"
            )
        cells[(i, j)] = _scores(record, criteria, number, skipped)
    names = list(criteria or dict.fromkeys(c for scores in cells.values() for c in scores))
    mixed = sorted(skipped & set(names))
    if mixed:
        raise ValueError(
            f"criterion {mixed[0]!r} is a number in some judgments and text in others: "
            "every score of a criterion must be a number"
        )
    if notes is not None and skipped:
        listed = ", ".join(repr(name) for name in sorted(skipped))
        notes.append(f"members holding text, not scores, are not criteria: {listed}")
    if not names:
        raise ValueError("the judgments hold no numeric score (a criterion) to correlate with")
    if len(systems) < 3:
        raise ValueError(
            f"a correlation needs at least 3 systems; the judgments name {len(systems)}"
        )
    human = {name: np.full((len(systems), len(documents)), np.nan) for name in names}
    for (i, j), scores in cells.items():
        for name in names:
            human[name][i, j] = scores.get(name, np.nan)
    for name, matrix in human.items():
        if np.isnan(matrix).all():
            raise ValueError(f"no judgment scores criterion {name!r}")
    return list(systems), list(documents), human


def _scores(
    record: Mapping[str, Any], criteria: Sequence[str] | None, number: int, skipped: set[str]
) -> dict[str, float]:
    members = record.get("scores", record)
    if not isinstance(members, Mapping):
        raise ValueError(f"judgment {number}: 'scores' must be an object of criterion -> score")
    found = {}
    for name, value in members.items():
        if name in _KEYS or (criteria is not None and name not in criteria):
            continue
        if isinstance(value, numbers.Real) and not isinstance(value, bool):
            if math.isinf(value):
                raise ValueError(f"judgment {number}: {name!r} is {value}, not a finite score")
            found[str(name)] = float(value)  # NaN: not judged on this criterion
        elif isinstance(value, str) and _numeric(value):
            raise ValueError(
                f"judgment {number}: {name!r} is the string {value!r}: write the score as a "
                "number (a quoted number is not read as a score)"
            )
        elif criteria is not None and value is not None:
            raise ValueError(f"judgment {number}: {name!r} must be a number, got {value!r}")
        elif isinstance(value, str) and name not in _TEXT_KEYS:
            skipped.add(str(name))
    return found


def _numeric(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def correlate_scores(
    metric_scores: Mapping[str, Matrix],
    human_scores: Mapping[str, Matrix],
    systems: Sequence[str],
    documents: Sequence[str],
    *,
    levels: Sequence[str] = DEFAULT_LEVELS,
    coefficients: Sequence[str] = COEFFICIENTS,
    resample: str = "both",
    n_samples: int = 1000,
    confidence: float = 0.95,
    seed: int | None = None,
    tests: Sequence[str] = TESTS,
    compare: str | Sequence[tuple[str, str]] = "first",
    williams: str = "signed",
    progress: Callable[[int], None] | None = None,
) -> Correlations:
    """The correlations of any metrics' (systems x documents) scores with
    the human ones (NaN: not judged).

    ``n_samples``: the resamples of each bootstrap and the trials of each
    permutation test; 0 skips the intervals (the permutation test then runs
    1000 trials).  ``resample``: systems,
    documents or both (the intervals and the permutation test).
    ``compare``: which metrics the ``tests`` compare: ``"first"`` (each
    against the first metric), ``"all"`` (every pair), ``"none"``, or a list
    of (a, b) pairs.  ``levels``: any of summary, system and global (every
    scored summary at once; default summary and system).  ``williams``:
    ``signed`` (the correlations as they are) or ``absolute`` (their
    absolute values first: SacreROUGE's and the WMT metrics task's
    convention; :func:`kurenai.stats.williams_test`), recorded in the
    settings.  ``progress`` is called with the number of resamples and
    trials done after each block.  Every resampling starts
    afresh from ``seed``."""
    plan = _Plan(
        tuple(check_choice(v, LEVELS, "level") for v in levels),
        tuple(check_choice(v, COEFFICIENTS, "coefficient") for v in coefficients),
        tuple(check_choice(v, TESTS, "test") for v in tests),
        check_choice(resample, RESAMPLING, "resampling"),
        n_samples,
        confidence,
        seed,
        tuple(_pairs(list(metric_scores), compare)),
        check_choice(williams, WILLIAMS, "williams convention") == "absolute",
        progress,
    )
    _check_sizes(metric_scores, human_scores, systems, documents, confidence, n_samples)
    correlations: list[Correlation] = []
    found_tests: list[MetricTest] = []
    for criterion, human in human_scores.items():
        # A summary without this criterion's judgment is left out of every metric.
        metrics = {n: np.where(np.isnan(human), np.nan, m) for n, m in metric_scores.items()}
        for level in plan.levels:
            correlations += _correlations(plan, criterion, level, metrics, human)
            found_tests += _tests(plan, criterion, level, metrics, human)
    settings = {
        "resample": resample,
        "samples": n_samples,
        "confidence": confidence,
        "seed": seed,
        "williams": williams,
    }
    return Correlations(
        tuple(systems),
        tuple(documents),
        tuple(metric_scores),
        tuple(human_scores),
        tuple(correlations),
        tuple(found_tests),
        settings,
        dict(metric_scores),
        dict(human_scores),
    )


@dataclass(frozen=True)
class _Plan:
    """What :func:`correlate_scores` computes, checked."""

    levels: tuple[str, ...]
    coefficients: tuple[str, ...]
    tests: tuple[str, ...]
    resample: str
    n_samples: int
    confidence: float
    seed: int | None
    pairs: tuple[tuple[str, str], ...]
    absolute: bool
    progress: Callable[[int], None] | None = None


def _check_sizes(
    metric_scores: Mapping[str, Matrix],
    human_scores: Mapping[str, Matrix],
    systems: Sequence[str],
    documents: Sequence[str],
    confidence: float,
    n_samples: int,
) -> None:
    if not 0 < confidence < 1:
        raise ValueError("confidence must be between 0 and 1")
    if n_samples < 0:
        raise ValueError("n_samples must be 0 (no intervals) or more")
    shape = (len(systems), len(documents))
    for name, matrix in [*metric_scores.items(), *human_scores.items()]:
        if np.shape(matrix) != shape:
            raise ValueError(
                f"{name!r} has shape {np.shape(matrix)}, not {shape} (systems x documents)"
            )
    if len(systems) < 3:
        raise ValueError(f"a correlation needs at least 3 systems, got {len(systems)}")


def _correlations(
    plan: _Plan, criterion: str, level: str, metrics: Mapping[str, Matrix], human: Matrix
) -> list[Correlation]:
    intervals = {}
    if plan.n_samples:
        intervals = bootstrap_intervals(
            metrics, human, level, plan.coefficients, plan.resample, plan.n_samples,
            plan.confidence, plan.seed, plan.progress,
        )  # fmt: skip
    found = []
    for name, matrix in metrics.items():
        for coefficient in plan.coefficients:
            value, vectors = _level_correlation(coefficient, level, matrix, human)
            interval = intervals.get((name, coefficient))
            found.append(Correlation(criterion, level, name, coefficient, value, vectors, interval))
    return found


def _tests(
    plan: _Plan, criterion: str, level: str, metrics: Mapping[str, Matrix], human: Matrix
) -> list[MetricTest]:
    found = []
    for coefficient in plan.coefficients:
        for a, b in plan.pairs:
            for test in plan.tests:
                pair = ((a, metrics[a]), (b, metrics[b]))
                if test == "williams":
                    result = williams_comparison(*pair, human, level, coefficient, plan.absolute)
                else:  # without intervals, the permutation test still needs trials
                    trials = plan.n_samples or 1000
                    result = permutation_test(
                        *pair, human, level, coefficient, plan.resample, trials, plan.seed,
                        plan.progress,
                    )  # fmt: skip
                found.append(MetricTest(criterion, level, coefficient, result))
    return found


def _pairs(names: list[str], compare: str | Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    if compare == "first":
        return [(names[0], other) for other in names[1:]]
    if compare == "all":
        return [(a, b) for k, a in enumerate(names) for b in names[k + 1 :]]
    if compare == "none":
        return []
    if isinstance(compare, str):
        raise ValueError(f"unknown compare {compare!r}: first, all, none or a list of pairs")
    for pair in compare:
        for name in pair:
            if name not in names:
                raise ValueError(f"cannot compare {name!r}: the metrics are {', '.join(names)}")
    return [(a, b) for a, b in compare]

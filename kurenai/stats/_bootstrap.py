"""Bootstrap confidence intervals: rouge-score's numbers, at C speed.

:func:`bootstrap` gives exactly what rouge-score's ``BootstrapAggregator``
gives under the same random state, and leaves the generator in the state
rouge-score's calls would.  That aggregator, for each type in turn, draws
``n_samples`` times ``np.random.choice(n, size=n)`` (which is
``randint(0, n, size=n)``), averages the chosen rows with ``np.mean(axis=0)``
and takes ``np.percentile`` of the means.

Two twins with one surface (``state``, ``randint``, ``sums``) compute the
means.  The NumPy one (:class:`NumpyStream`: the readable spec, and the path
without the compiled kernel or for a generator other than MT19937) draws the
same integers in a few large ``randint`` calls (NumPy's legacy generator
yields one stream however it is cut) and adds the chosen rows record after
record, as ``np.mean(axis=0)`` does.  The compiled one
(``kurenai._resample.LegacyStream``) copies the generator's MT19937 state
with ``get_state()``, draws the same integers by NumPy's own rule in C, adds
the rows of a few samples side by side as soon as they are drawn (from a
table of the distinct rows when rows repeat), and writes the state back with
``set_state()``: no (samples x records) index array, and none of
``randint``'s per-call cost.
:func:`paired_bootstrap` resamples two systems with shared indices for a
paired significance test, on the same twins.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from typing import Any, Callable, Union

import numpy as np
import numpy.typing as npt

from kurenai import _backend
from kurenai.scoring import AggregateScore, Score

__all__ = [
    "FLAT",
    "MAX_DRAWS",
    "PairedResult",
    "bootstrap",
    "check_draws",
    "check_settings",
    "no_evidence",
    "paired_bootstrap",
    "paired_differences",
    "random_state",
]

Seed = Union[int, np.random.RandomState, None]
Matrix = npt.NDArray[np.float64]
# Indices drawn per block of samples: enough to amortise NumPy's per-call
# cost, few enough to keep the block's arrays small (8 MiB each).  Progress
# is reported between blocks.
_BLOCK_VALUES = 1 << 20
# The compiled twin's blocks: ~20 ms of work, Python's share (and the index
# buffers' allocation in each call) negligible.
_KERNEL_BLOCK_VALUES = 1 << 24


# Chosen in kurenai._backend; None: the NumPy twin below.
_KERNEL: Callable[..., Any] | None = getattr(_backend.resample, "LegacyStream", None)


def random_state(seed: Seed) -> np.random.RandomState:
    """The generator a seed stands for: ``None`` is NumPy's global one (as
    rouge-score uses), an int a fresh ``RandomState(seed)``, which draws what
    the global one draws after ``np.random.seed(seed)``."""
    if seed is None:
        return np.random.mtrand._rand
    if isinstance(seed, np.random.RandomState):
        return seed
    return np.random.RandomState(seed)


def bootstrap(
    scores: Mapping[str, npt.ArrayLike],
    n_samples: int = 1000,
    confidence: float = 0.95,
    seed: Seed = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, AggregateScore]:
    """Per type, the (low, mid, high) bootstrap bounds of the mean score.

    ``scores`` maps each type, in rouge-score's order (the order its scores
    were added), to an (records x 3) matrix of precision, recall, F-measure.
    The result equals ``BootstrapAggregator(confidence, n_samples)``'s after
    the same records were added and the generator was in the same state.
    ``progress`` is called with the number of samples drawn after each block.

    >>> matrix = [[0.5, 1.0, 2 / 3], [1.0, 0.5, 2 / 3], [0.0, 0.0, 0.0]]
    >>> result = bootstrap({"rouge1": matrix}, n_samples=200, seed=1)
    >>> round(float(result["rouge1"].mid.precision), 4)
    0.5
    """
    check_settings(n_samples, confidence)
    matrices = {t: np.asarray(values, dtype=np.float64) for t, values in scores.items()}
    for rouge_type, matrix in matrices.items():
        if matrix.ndim != 2 or not len(matrix) or not matrix.shape[1]:
            raise ValueError(f"{rouge_type}: expected a non-empty (records x measures) matrix")
    result = {}
    with _drawing(random_state(seed)) as draws:
        for rouge_type, matrix in matrices.items():
            means = _resampled_sums(matrix, n_samples, draws, progress) / len(matrix)
            bounds = np.percentile(means, _percentiles(confidence), axis=0)
            low, mid, high = (Score(*row) for row in bounds)
            result[rouge_type] = AggregateScore(low=low, mid=mid, high=high)
    return result


@dataclass(frozen=True)
class PairedResult:
    """One type's paired comparison of a system against a baseline (F-measure).

    ``low``/``high`` bound the difference (the paired bootstrap's interval);
    NaN for a test that gives none (approximate randomization):
    :meth:`as_dict` then leaves them out.  ``test`` names the convention
    that produced ``p_value`` (:data:`kurenai.stats.TESTS`: ``bootstrap``,
    ``ar``, ``sacrebleu-bs``, ``sacrebleu-ar``); ``note`` says why the
    p-value is 1 when the records carry no evidence (one record, or
    differences that do not vary), else it is empty.
    """

    system: float
    baseline: float
    difference: float
    low: float
    high: float
    p_value: float
    test: str = "bootstrap"
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        """The fields as a dict, without an interval the test did not give
        or an empty note."""
        found = asdict(self)
        if np.isnan(self.low) and np.isnan(self.high):
            del found["low"], found["high"]
        if not self.note:
            del found["note"]
        return found


def paired_bootstrap(
    system: Mapping[str, npt.ArrayLike],
    baseline: Mapping[str, npt.ArrayLike],
    n_samples: int = 1000,
    confidence: float = 0.95,
    seed: Seed = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, PairedResult]:
    """Paired bootstrap test of two systems' per-record F-measures, per type.

    Both systems are resampled with the same record indices (shared by every
    type).  ``low``/``high`` bound the
    mean difference (system - baseline) at ``confidence``; the two-sided
    ``p_value`` is the share of resampled differences, centred on their mean
    (the null hypothesis), at least as far from 0 as the observed one, with
    +1 smoothing: (count + 1) / (n_samples + 1).  Records that carry no
    evidence (:func:`no_evidence`) give p = 1 with a note; a NaN score is a
    ValueError.  sacrebleu's convention is ``sacrebleu-bs``
    (:func:`kurenai.stats.paired_test`).

    >>> result = paired_bootstrap({"rouge1": [0.2, 0.4]}, {"rouge1": [0.2, 0.4]}, seed=0)
    >>> result["rouge1"].difference, result["rouge1"].p_value
    (0.0, 1.0)
    """
    check_settings(n_samples, confidence)
    # (records x types): one resample's indices serve every type's column.
    differences = paired_differences(system, baseline)
    size = len(differences)
    with _drawing(random_state(seed)) as draws:
        diffs = _resampled_sums(differences, n_samples, draws, progress) / size
    return {
        t: _paired_result(system[t], baseline[t], differences[:, i], diffs[:, i], confidence)
        for i, t in enumerate(system)
    }


def paired_differences(
    system: Mapping[str, npt.ArrayLike], baseline: Mapping[str, npt.ArrayLike]
) -> Matrix:
    """(records x types): per record and type, system - baseline; the types
    are ``system``'s, each also in ``baseline``.  ValueError unless every
    column is one-dimensional, non-empty and of the same length."""
    missing = [t for t in system if t not in baseline]
    if missing:
        raise ValueError(f"the baseline has no scores for {', '.join(missing)}")
    given = [np.asarray(side[t], np.float64) for side in (system, baseline) for t in system]
    if not given or len({c.shape for c in given}) != 1 or given[0].ndim != 1 or not len(given[0]):
        raise ValueError("expected one non-empty column of the same length per type and system")
    for k, column in enumerate(given):
        if not np.isfinite(column).all():
            side = "system" if k < len(system) else "baseline"
            record = int(np.flatnonzero(~np.isfinite(column))[0])
            raise ValueError(
                f"the {side}'s {list(system)[k % len(system)]} score of record {record} is "
                f"{column[record]}: a paired test needs a finite score for every record "
                "(leave unscored records out of both systems)"
            )
    return np.column_stack([given[i] - given[len(system) + i] for i in range(len(system))])


#: Differences within this of one another "do not vary" (scores are in [0, 1]).
FLAT = 1e-12


def no_evidence(differences: npt.NDArray[np.float64]) -> str:
    """Why one type's differences (system - baseline per record) carry no
    evidence of a difference, or "": a single record, or differences that do
    not vary (every record differs by the same amount, identical systems
    included).  Every paired test then reports p = 1 with this note."""
    if len(differences) < 2:
        return "no evidence: a paired test needs at least 2 records, p = 1"
    if float(np.ptp(differences)) <= FLAT:
        return "no evidence: every record differs by the same amount, p = 1"
    return ""


def _paired_result(
    system: npt.ArrayLike,
    baseline: npt.ArrayLike,
    differences: Matrix,
    diffs: Matrix,
    confidence: float,
) -> PairedResult:
    system_mean = float(np.mean(np.asarray(system, np.float64)))
    baseline_mean = float(np.mean(np.asarray(baseline, np.float64)))
    observed = system_mean - baseline_mean
    low, high = np.percentile(diffs, _percentiles(confidence)[[0, 2]])
    centred = np.abs(diffs - diffs.mean())
    # A tolerance for rounding: a resample equal to the observed difference counts.
    extreme = int(np.count_nonzero(centred >= abs(observed) - 1e-12))
    p_value = (extreme + 1) / (len(diffs) + 1)
    note = no_evidence(differences)
    return PairedResult(
        system_mean, baseline_mean, observed, float(low), float(high),
        1.0 if note else p_value, "bootstrap", note,
    )  # fmt: skip


#: The most resamples or trials any statistic draws (the command lines' cap too):
#: a million draws of 200,000 records already take minutes.
MAX_DRAWS = 1_000_000


def check_settings(n_samples: int, confidence: float) -> None:
    """rouge-score's own argument checks, with its messages, and the cap."""
    if not 0 <= confidence <= 1:
        raise ValueError("confidence_interval must be in range [0, 1]")
    if n_samples <= 0:
        raise ValueError("n_samples must be positive")
    check_draws(n_samples, "n_samples")


def check_draws(count: int, what: str) -> None:
    """ValueError unless ``count`` is at most :data:`MAX_DRAWS`."""
    if count > MAX_DRAWS:
        raise ValueError(f"{what} must be at most {MAX_DRAWS:,}, got {count:,}")


def _percentiles(confidence: float) -> npt.NDArray[np.float64]:
    delta = (1 - confidence) / 2
    return 100 * np.array([delta, 0.5, 1 - delta])


class NumpyStream:
    """The NumPy twin of ``kurenai._resample.LegacyStream``: the same draws
    and sums, made by ``rng`` itself (any bit generator)."""

    def __init__(self, rng: np.random.RandomState) -> None:
        self.rng = rng

    def state(self) -> tuple[bytes, int]:
        """(key, position) of an MT19937 generator, as ``LegacyStream.state``."""
        state = self.rng.get_state(legacy=False)
        if state.get("bit_generator") != "MT19937":
            raise ValueError(f"{state.get('bit_generator')} has no MT19937 key")
        inner = state["state"]
        return np.asarray(inner["key"], dtype=np.uint32).tobytes(), int(inner["pos"])

    def randint(self, high: int, out: npt.NDArray[np.int64]) -> None:
        """``out[:] = randint(0, high, size=len(out))``."""
        out[:] = self.rng.randint(0, high, size=len(out), dtype=np.int64)

    def sums(self, values: Matrix, out: Matrix) -> None:
        """``out`` (samples x measures): the sums of ``len(out)`` resamples
        of the rows of ``values`` (records x measures), one sample's indices
        after another."""
        size = len(values)
        out[:] = _numpy_sums(values, self.rng.randint(0, size, size=(len(out), size)))

    def flip_sums(self, values: Matrix, out: Matrix) -> None:
        """``out`` (trials x types): approximate randomization's signed sums
        of the columns of ``values`` (records x types), as
        ``kurenai._resample.LegacyStream.flip_sums`` (which says how a
        trial's words choose the swapped records)."""
        size = len(values)
        drawn = self.rng.randint(0, 2**32, size=(len(out), (size + 31) // 32), dtype=np.int64)
        # (trials x records): bit i % 32 of word i // 32.
        bits = ((drawn[:, :, None] >> np.arange(32)) & 1).reshape(len(out), -1)[:, :size]
        out[:] = _numpy_flip_sums(values, bits.astype(bool))


def _numpy_flip_sums(values: Matrix, swapped: npt.NDArray[np.bool_]) -> Matrix:
    """(trials x types) sums of the columns of ``values`` (records x types),
    each record negated where ``swapped`` (trials x records), added record
    after record from +0.0 (the NumPy twin)."""
    sums = np.empty((len(swapped), values.shape[1]))
    by_record = np.ascontiguousarray(swapped.T)  # (records x trials), as _numpy_sums
    for k in range(values.shape[1]):
        column = values[:, k : k + 1]
        signed = np.where(by_record, -column, column)
        if len(swapped) == 1:  # reduce would sum one column pairwise
            sums[0, k] = np.cumsum(signed[:, 0])[-1] + 0.0
        else:
            sums[:, k] = np.add.reduce(signed, axis=0) + 0.0
    return sums


@contextmanager
def _drawing(rng: np.random.RandomState) -> Iterator[Any]:
    """What draws the resamples from ``rng``: the compiled twin's copy of its
    MT19937 state, written back into ``rng`` at the end; or the NumPy twin
    without the kernel or for another bit generator."""
    state = rng.get_state(legacy=False)
    if _KERNEL is None or state.get("bit_generator") != "MT19937":
        yield NumpyStream(rng)
        return
    inner = state["state"]
    stream = _KERNEL(np.ascontiguousarray(inner["key"], dtype=np.uint32), int(inner["pos"]))
    yield stream
    key, pos = stream.state()
    state["state"] = {"key": np.frombuffer(key, dtype=np.uint32).copy(), "pos": pos}
    rng.set_state(state)


def _resampled_sums(
    matrix: Matrix,
    n_samples: int,
    draws: Any,
    progress: Callable[[int], None] | None,
) -> Matrix:
    """(samples x measures) sums of resampled rows of ``matrix`` (records x
    measures), each added record after record to +0.0, as ``np.mean(axis=0)``
    adds."""
    sums = np.empty((n_samples, matrix.shape[1]))
    if isinstance(draws, NumpyStream):
        rows, block = matrix, _BLOCK_VALUES
    else:
        rows, block = _kernel_rows(matrix), _KERNEL_BLOCK_VALUES
    for start, stop in _blocks(len(matrix), n_samples, block):
        draws.sums(rows, sums[start:stop])
        if progress is not None:
            progress(stop - start)
    return sums


def _kernel_rows(matrix: Matrix) -> Any:
    """``matrix`` laid out once for the compiled kernel's sums
    (``kurenai._resample.Rows``: each distinct row once when rows repeat, as
    scores of short texts do, so that the sums gather from a small table)."""
    kernel: Any = _backend.resample
    return kernel.Rows(np.ascontiguousarray(matrix), matrix.shape[1])


def _numpy_sums(matrix: Matrix, indices: npt.NDArray[np.int_]) -> Matrix:
    """(samples x measures) sums of the rows ``indices`` (samples x records)
    picks, added record after record (the NumPy twin)."""
    sums = np.empty((len(indices), matrix.shape[1]))
    # (records x samples), C order: reducing axis 0 adds the records one
    # after another, as rouge-score's np.mean(axis=0) of (records x
    # measures) does, for every sample of the block at once.
    by_record = np.ascontiguousarray(indices.T)
    for k in range(matrix.shape[1]):
        column = np.ascontiguousarray(matrix[:, k])
        if len(indices) == 1:
            # One sample: reduce would sum pairwise; cumsum adds in order,
            # from the first value where reduce starts from +0.0 (which
            # differs only for a sum of -0.0s: + 0.0 makes it +0.0).
            sums[0, k] = np.cumsum(column.take(indices[0]))[-1] + 0.0
        else:
            sums[:, k] = np.add.reduce(column.take(by_record), axis=0)
    return sums


def _blocks(size: int, n_samples: int, values: int) -> Iterable[tuple[int, int]]:
    """(first sample, stop) of each block of about ``values`` draws, in the
    generator's order."""
    block = max(2, values // size)
    for start in range(0, n_samples, block):
        yield start, min(start + block, n_samples)

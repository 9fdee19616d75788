"""kurenai._resample.LegacyStream: NumPy's legacy draws and the bootstrap's sums, in C.

The integers and the generator's final state are held to the installed
NumPy's ``RandomState.randint`` on every path of its bounded-integer rule
(one value, 32-bit masks, the full 32-bit range, 64-bit words); the sums to
the NumPy twin of kurenai.stats._bootstrap, on every path of the grouped sums
(groups of samples cut short, repeated rows or not, every width), with the
generator's words refilled on AVX2 lanes and without.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kurenai.stats._bootstrap import Matrix, _numpy_sums

pytestmark = pytest.mark.compiled_only

# Around each switch of NumPy's rule: no draw, 32-bit words (every mask
# width), the full 32-bit range, 64-bit words, and int64's top.
HIGHS = [1, 2, 3, 4, 5, 1000, 2**16 + 1, 200_000, 2**31, 2**31 + 1, 2**32 - 1, 2**32,
         2**32 + 1, 2**32 + 2, 2**33, 3 * 2**40 + 7, 2**62 + 1, 2**63 - 1]  # fmt: skip


def stream_of(rng: np.random.RandomState) -> object:
    from kurenai._resample import LegacyStream

    state = rng.get_state(legacy=False)["state"]
    return LegacyStream(np.ascontiguousarray(state["key"], np.uint32), int(state["pos"]))


def assert_same_state(stream: object, rng: np.random.RandomState) -> None:
    key, pos = stream.state()  # type: ignore[attr-defined]
    state = rng.get_state(legacy=False)["state"]
    assert pos == state["pos"]
    assert np.frombuffer(key, np.uint32).tolist() == state["key"].tolist()


@pytest.mark.parametrize("high", HIGHS)
def test_randint_draws_numpys_integers_and_ends_in_its_state(high: int) -> None:
    rng = np.random.RandomState(high % 2**32)
    rng.random_sample(7)  # start mid-key
    stream = stream_of(rng)
    got = np.empty(1500, np.int64)  # crosses the key's end (624 words)
    stream.randint(high, got)  # type: ignore[attr-defined]
    assert got.tolist() == rng.randint(0, high, size=1500).tolist()
    assert_same_state(stream, rng)


def test_randint_up_to_two_to_the_63() -> None:
    """The widest range int64 holds: NumPy draws it for uint64 by the same rule."""
    rng = np.random.RandomState(5)
    stream = stream_of(rng)
    got = np.empty(300, np.int64)
    stream.randint(2**63, got)  # type: ignore[attr-defined]
    assert got.tolist() == rng.randint(0, 2**63, size=300, dtype=np.uint64).tolist()
    assert_same_state(stream, rng)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    high=st.one_of(st.integers(1, 2**20), st.integers(2**31, 2**34), st.sampled_from(HIGHS)),
    counts=st.lists(st.integers(0, 900), min_size=1, max_size=4),
)
def test_any_seed_range_and_split_of_the_calls(seed: int, high: int, counts: list[int]) -> None:
    rng = np.random.RandomState(seed)
    stream = stream_of(rng)
    for count in counts:
        got = np.empty(count, np.int64)
        stream.randint(high, got)  # type: ignore[attr-defined]
        assert got.tolist() == rng.randint(0, high, size=count).tolist()
    assert_same_state(stream, rng)


@pytest.mark.parametrize("width", [1, 2, 3, 4, 5, 7])
@pytest.mark.parametrize("records", [1, 2, 3, 1023, 1024, 1025, 2500])
def test_sums_equal_the_numpy_twin_and_draw_as_choice(width: int, records: int) -> None:
    values = np.random.default_rng(records * width).random((records, width))
    values[::3] = -0.0  # NumPy's reductions start from the first row, not from 0.0
    values[1::5] = 1e16  # absorbs small addends: the order of additions shows
    rng = np.random.RandomState(records + width)
    stream = stream_of(rng)
    got = np.empty((9, width))
    stream.sums(values, got)  # type: ignore[attr-defined]
    indices = np.array([rng.choice(records, size=records) for _ in range(9)])
    expected = _numpy_sums(values, indices)
    assert got.tobytes() == expected.tobytes()  # bit for bit, signs of zeros included
    assert_same_state(stream, rng)


def test_padding_columns_are_read_past() -> None:
    """Rows may be wider than the sums (rows of 3 padded to 4): the same sums."""
    values = np.random.default_rng(3).random((500, 3))
    padded = np.hstack([values, np.full((500, 1), np.nan)])
    got = []
    for rows in (values, padded):
        out = np.empty((6, 3))
        stream_of(np.random.RandomState(9)).sums(np.ascontiguousarray(rows), out)  # type: ignore[attr-defined]
        got.append(out.tobytes())
    assert got[0] == got[1]


def test_one_record_draws_nothing() -> None:
    rng = np.random.RandomState(1)
    stream = stream_of(rng)
    got = np.empty((4, 3))
    stream.sums(np.array([[0.25, -0.0, 1.0]]), got)  # type: ignore[attr-defined]
    assert got.tolist() == [[0.25, -0.0, 1.0]] * 4
    assert_same_state(stream, np.random.RandomState(1))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda s: s.sums(np.zeros((0, 3)), np.zeros((2, 3))), "no records"),
        (lambda s: s.sums(np.zeros((4, 3)), np.zeros((2, 4))), "expected 1 to 3"),
        (lambda s: s.sums(np.zeros((4, 0)), np.zeros((2, 0))), "expected 1 to 0"),
        (lambda s: s.randint(0, np.zeros(3, np.int64)), r"high must be in \[1, 2\*\*63\]"),
        (lambda s: s.randint(2**63 + 1, np.zeros(3, np.int64)), "high must be in"),
    ],
)
def test_bad_arguments(call: object, message: str) -> None:
    stream = stream_of(np.random.RandomState(0))
    with pytest.raises(ValueError, match=message):
        call(stream)  # type: ignore[operator]


@pytest.fixture(params=[True, False], ids=["avx2-if-there", "plain"])
def refill(request: pytest.FixtureRequest) -> Iterator[bool]:
    """The sums refill the generator's words on AVX2 lanes where the
    processor has them, or without (the words must be the same)."""
    from kurenai._resample import _set_avx2

    try:
        yield _set_avx2(request.param)
    finally:
        _set_avx2(True)


def repeated_rows(rng: np.random.Generator, records: int, width: int, distinct: int) -> Matrix:
    """``records`` rows drawn from ``distinct`` ones, +0.0 and -0.0 rows among
    them (equal values, different bits: kept apart)."""
    pool = rng.random((distinct, width))
    pool[0] = 0.0
    if distinct > 1:
        pool[1] = -0.0
    return np.ascontiguousarray(pool[rng.integers(0, distinct, records)])


# Every ``refill`` run draws its own examples: the fixture is the parameter.
@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(0, 2**32 - 1),
    records=st.one_of(st.integers(1, 9), st.integers(10, 3000)),
    width=st.integers(1, 6),
    distinct=st.one_of(st.none(), st.integers(1, 60)),
    splits=st.lists(st.integers(0, 11), min_size=1, max_size=3),
)
def test_grouped_sums_equal_the_numpy_twin_and_leave_numpys_state(
    refill: bool,
    seed: int,
    records: int,
    width: int,
    distinct: int | None,
    splits: list[int],
) -> None:
    """Samples in groups (cut short when the count is no multiple of the
    group), one or two records, distinct or repeated rows, one ``Rows`` for
    several calls: the twin's sums bit for bit, and NumPy's final state."""
    from kurenai._resample import Rows

    values_rng = np.random.default_rng(seed)
    if distinct is None:
        values = values_rng.random((records, width))
        values[::4] = -0.0
    else:
        values = repeated_rows(values_rng, records, width, distinct)
    rows = Rows(values, width)
    assert (rows.records, rows.width) == (records, width)
    if distinct is not None and 4 * distinct <= records:
        assert rows.distinct <= distinct  # gathered from the distinct rows
    rng = np.random.RandomState(seed)
    rng.random_sample(seed % 700)  # start anywhere in the key
    stream = stream_of(rng)
    for samples in splits:
        got = np.empty((samples, width))
        stream.sums(rows, got)  # type: ignore[attr-defined]
        drawn = [rng.choice(records, size=records) for _ in range(samples)]
        expected = _numpy_sums(values, np.array(drawn, np.int64).reshape(samples, records))
        assert got.tobytes() == expected.tobytes()
    assert_same_state(stream, rng)


@pytest.mark.parametrize("distinct", [None, 300])
def test_many_records_with_a_short_last_group(distinct: int | None) -> None:
    """Tens of thousands of records (the index buffers well past the caches),
    distinct or repeated rows, and a sample count that leaves the last group
    of samples short."""
    from kurenai._resample import Rows

    records, samples = 40_000, 14
    values_rng = np.random.default_rng(7)
    if distinct is None:
        values = values_rng.random((records, 3))
    else:
        values = repeated_rows(values_rng, records, 3, distinct)
    rows = Rows(values, 3)
    assert rows.distinct == (records if distinct is None else distinct)
    rng = np.random.RandomState(12)
    stream = stream_of(rng)
    got = np.empty((samples, 3))
    stream.sums(rows, got)  # type: ignore[attr-defined]
    drawn = np.array([rng.choice(records, size=records) for _ in range(samples)])
    assert got.tobytes() == _numpy_sums(values, drawn).tobytes()
    assert_same_state(stream, rng)


def test_rows_keep_each_distinct_row_once_by_its_bits() -> None:
    from kurenai._resample import Rows

    values = repeated_rows(np.random.default_rng(1), 4000, 3, 486)
    assert Rows(values, 3).distinct == len(np.unique(values.view(np.uint64), axis=0)) == 486
    zeros = np.array([[0.0], [-0.0]] * 4)
    assert Rows(zeros, 1).distinct == 2  # equal values, two rows
    assert Rows(np.random.default_rng(2).random((400, 2)), 2).distinct == 400  # none shared
    assert Rows(np.ones((3, 2)), 1).distinct == 3  # too few records to share rows


def test_rows_sum_only_their_width() -> None:
    from kurenai._resample import Rows

    stream = stream_of(np.random.RandomState(0))
    with pytest.raises(ValueError, match="out has 2 columns, the rows 3"):
        stream.sums(Rows(np.zeros((5, 3)), 3), np.zeros((4, 2)))  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="expected 1 to 3"):
        Rows(np.zeros((5, 3)), 4)


def test_bad_states_are_refused() -> None:
    from kurenai._resample import LegacyStream

    with pytest.raises(ValueError, match="624 words, got 623"):
        LegacyStream(np.zeros(623, np.uint32), 0)
    with pytest.raises(ValueError, match="position is in"):
        LegacyStream(np.zeros(624, np.uint32), 625)


# ------------------------------------------------------------ the NumPy twin


@pytest.mark.parametrize("high", HIGHS)
def test_the_numpy_twin_draws_and_ends_as_the_kernel(high: int) -> None:
    from kurenai.stats._bootstrap import NumpyStream

    rng = np.random.RandomState(high % 2**32)
    rng.random_sample(3)
    kernel, twin = stream_of(rng), NumpyStream(rng)
    assert twin.state() == kernel.state()  # type: ignore[attr-defined]
    got = [np.empty(700, np.int64) for _ in range(2)]
    kernel.randint(high, got[0])  # type: ignore[attr-defined]
    twin.randint(high, got[1])
    assert got[0].tolist() == got[1].tolist()
    assert twin.state() == kernel.state()  # type: ignore[attr-defined]


@pytest.mark.parametrize("records", [1, 2, 7, 300])
def test_the_numpy_twin_sums_as_the_kernel(records: int) -> None:
    from kurenai.stats._bootstrap import NumpyStream

    values = np.random.default_rng(records).random((records, 3))
    rng = np.random.RandomState(records)
    kernel, twin = stream_of(rng), NumpyStream(rng)
    sums = [np.empty((40, 3)) for _ in range(2)]
    kernel.sums(values, sums[0])  # type: ignore[attr-defined]
    twin.sums(values, sums[1])
    np.testing.assert_array_equal(sums[0], sums[1])
    assert twin.state() == kernel.state()  # type: ignore[attr-defined]

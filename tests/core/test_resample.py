"""kurenai._resample.LegacyStream: NumPy's legacy draws and the bootstrap's sums, in C.

The integers and the generator's final state are held to the installed
NumPy's ``RandomState.randint`` on every path of its bounded-integer rule
(one value, 32-bit masks, the full 32-bit range, 64-bit words); the sums to
the NumPy twin of kurenai._core.bootstrap.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kurenai._core.bootstrap import _numpy_sums

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


def test_bad_states_are_refused() -> None:
    from kurenai._resample import LegacyStream

    with pytest.raises(ValueError, match="624 words, got 623"):
        LegacyStream(np.zeros(623, np.uint32), 0)
    with pytest.raises(ValueError, match="position is in"):
        LegacyStream(np.zeros(624, np.uint32), 625)

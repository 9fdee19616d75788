"""kurenai.stats._randomization: approximate randomization against a plain loop."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from resample_twins import summing  # noqa: F401 - every test on both twins

from kurenai.stats import _bootstrap as _bootstrap
from kurenai.stats._randomization import paired_randomization


def plain_randomization(
    system: dict[str, list[float]], baseline: dict[str, list[float]], trials: int, seed: int
) -> tuple[dict[str, tuple[float, float]], int]:
    """The definition, written as a loop: per type (observed mean difference,
    p-value), and the generator's next draw after the trials."""
    rng = np.random.RandomState(seed)
    types = list(system)
    size = len(system[types[0]])
    d = {t: [float(system[t][i]) - float(baseline[t][i]) for i in range(size)] for t in types}
    sums: dict[str, list[float]] = {t: [] for t in types}
    for _ in range(trials):
        words = [int(w) for w in rng.randint(0, 2**32, size=(size + 31) // 32)]
        for t in types:
            total = 0.0
            for i, value in enumerate(d[t]):
                swapped = (words[i // 32] >> (i % 32)) & 1
                total += -value if swapped else value
            sums[t].append(total)
    found = {}
    for t in types:
        observed = 0.0
        for value in d[t]:
            observed += value
        observed /= size
        count = sum(1 for s in sums[t] if abs(s / size) >= abs(observed) - 1e-12)
        found[t] = (observed, (count + 1) / (trials + 1))
    return found, int(rng.randint(0, 2**31))


@settings(max_examples=25, deadline=None)
@given(
    size=st.integers(1, 70),
    trials=st.integers(1, 40),
    types=st.integers(1, 3),
    seed=st.integers(0, 2**32 - 1),
    data=st.data(),
)
def test_equals_the_plain_loop(
    size: int, trials: int, types: int, seed: int, data: st.DataObject
) -> None:
    score = st.sampled_from([0.0, 0.25, 0.5, 1.0]) | st.floats(0, 1)
    system = {
        f"t{k}": data.draw(st.lists(score, min_size=size, max_size=size)) for k in range(types)
    }
    baseline = {
        f"t{k}": data.draw(st.lists(score, min_size=size, max_size=size)) for k in range(types)
    }
    expected, next_draw = plain_randomization(system, baseline, trials, seed)
    rng = np.random.RandomState(seed)
    found = paired_randomization(system, baseline, trials, seed=rng)
    for t, (_, p_value) in expected.items():
        assert found[t].p_value == p_value
        assert found[t].difference == float(np.mean(system[t]) - np.mean(baseline[t]))
        assert math.isnan(found[t].low) and math.isnan(found[t].high)
    assert int(rng.randint(0, 2**31)) == next_draw  # the generator moved as the loop's


def test_sums_equal_the_loop_bit_for_bit() -> None:
    """The trials' sums themselves (not only the counts), over several blocks."""
    rng = np.random.default_rng(4)
    values = np.ascontiguousarray(rng.random((67, 5)) - 0.5)
    trials = 37
    expected = np.empty((trials, 5))
    draws = np.random.RandomState(9)
    for t in range(trials):
        words = [int(w) for w in draws.randint(0, 2**32, size=3)]
        for k in range(5):
            total = 0.0
            for i in range(67):
                total += -values[i, k] if (words[i // 32] >> (i % 32)) & 1 else values[i, k]
            expected[t, k] = total
    with _bootstrap._drawing(np.random.RandomState(9)) as stream:
        out = np.empty((trials, 5))
        stream.flip_sums(values, out[:20])
        stream.flip_sums(values, out[20:])
    assert (out == expected).all()
    assert not (out[:, 0] == np.cumsum(values[:, 0])[-1]).all()  # negative control: flips happen


def test_a_wrong_reference_is_caught() -> None:
    """Negative control: the harness fails for another seed's trials."""
    rng = np.random.default_rng(5)
    a, b = list(rng.random(30)), list(rng.random(30) * 0.9)
    expected, _ = plain_randomization({"r": a}, {"r": b}, 200, seed=1)
    found = paired_randomization({"r": a}, {"r": b}, 200, seed=2)
    assert found["r"].p_value != expected["r"][1]


def test_identical_systems_give_p_one() -> None:
    f = list(np.random.default_rng(0).random(100))
    result = paired_randomization({"rouge1": f}, {"rouge1": list(f)}, 500, seed=1)["rouge1"]
    assert (result.difference, result.p_value) == (0.0, 1.0)
    assert result.as_dict() == {
        "system": result.system,
        "baseline": result.baseline,
        "difference": 0.0,
        "p_value": 1.0,
        "test": "ar",
        "note": "no evidence: every record differs by the same amount, p = 1",
    }


def test_clear_difference_is_significant_noise_is_not() -> None:
    rng = np.random.default_rng(1)
    base = rng.random(300) * 0.5
    better = base + 0.1 + rng.normal(0, 0.02, 300)
    result = paired_randomization({"r": better}, {"r": base}, 1000, seed=7)["r"]
    assert result.p_value == 1 / 1001
    a, b = rng.random(200), rng.random(200)
    assert paired_randomization({"r": a}, {"r": b}, 2000, seed=3)["r"].p_value > 0.05


def test_seeded_runs_repeat_and_global_generator_moves() -> None:
    rng = np.random.default_rng(2)
    a, b = rng.random(90), rng.random(90) * 0.95
    first = paired_randomization({"r": a}, {"r": b}, 300, seed=11)
    assert first == paired_randomization({"r": a}, {"r": b}, 300, seed=11)
    state = np.random.get_state()
    try:
        np.random.seed(11)
        unseeded = paired_randomization({"r": a}, {"r": b}, 300)
        after = np.random.randint(0, 2**31)
    finally:
        np.random.set_state(state)
    assert unseeded == first  # None: NumPy's global generator, as np.random.seed(11) set it
    again = np.random.RandomState(11)
    again.randint(0, 2**32, size=(300, 3))
    assert after == again.randint(0, 2**31)


def test_one_record() -> None:
    same = paired_randomization({"r": [0.5]}, {"r": [0.5]}, 99, seed=0)["r"]
    assert same.p_value == 1.0
    apart = paired_randomization({"r": [0.9]}, {"r": [0.1]}, 99, seed=0)["r"]
    assert apart.p_value == 1.0  # a flip of one record is as far from 0 as the record


@pytest.mark.parametrize(
    ("system", "baseline", "trials", "message"),
    [
        ({"r": [0.1, 0.2]}, {"r": [0.1]}, 10, "same length"),
        ({}, {}, 10, "one non-empty column"),
        ({"r": []}, {"r": []}, 10, "one non-empty column"),
        ({"r": [0.1]}, {"s": [0.1]}, 10, "no scores for r"),
        ({"r": [0.1]}, {"r": [0.1]}, 0, "positive integer"),
        ({"r": [0.1]}, {"r": [0.1]}, 2.5, "positive integer"),
    ],
)
def test_bad_input(system: dict, baseline: dict, trials: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        paired_randomization(system, baseline, trials)  # type: ignore[arg-type]


@pytest.mark.compiled_only
@pytest.mark.parametrize("summing", ["compiled"], indirect=True)  # only it has two builds
def test_avx2_and_plain_sums_agree(request: pytest.FixtureRequest) -> None:
    """The kernel's two compilations of the sums (AVX2 where the processor
    has it, SSE2 otherwise) give the same bits."""
    from kurenai import _resample

    assert request.getfixturevalue("summing") == "compiled"

    values = np.ascontiguousarray(np.random.default_rng(6).random((1000, 3)) - 0.5)
    found = []
    for allowed in (True, False):
        _resample._set_avx2(allowed)
        try:
            with _bootstrap._drawing(np.random.RandomState(3)) as stream:
                out = np.empty((50, 3))
                stream.flip_sums(values, out)
                found.append(out)
        finally:
            _resample._set_avx2(True)
    assert (found[0] == found[1]).all()

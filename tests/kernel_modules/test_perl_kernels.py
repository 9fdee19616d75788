"""The compiled ROUGE-1.5.5 kernels (``kurenai._perl``) against their spec,
``kurenai.rouge155``'s pure Python, on generated inputs: every value equal
to the bit."""

from __future__ import annotations

import math
import os
from collections.abc import Iterator

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kurenai import _backend
from kurenai._data.rounding import perl_rounded
from kurenai.rouge155 import _corpus
from kurenai.rouge155._counts import Metric, Perl155ZeroDivision, evaluation_values
from kurenai.rouge155._summary import Limits, Summary, summary_of
from kurenai.rouge155._tokenizer import Words

try:
    from kurenai import _perl
except ImportError:
    _perl = None  # type: ignore[assignment]

pytestmark = pytest.mark.compiled_only


@pytest.fixture(autouse=True)
def compiled() -> None:
    if _perl is None:
        if os.environ.get("CI"):
            pytest.fail("kurenai._perl must be built in CI")
        pytest.skip("kurenai._perl is not built")


@pytest.fixture
def pure() -> Iterator[None]:
    """The spec: kurenai.rouge155 without the compiled kernel."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_backend, "perl", None)
        yield


words = st.lists(st.sampled_from(["a", "b", "c", "the", "cat"]), max_size=8)
units = st.lists(words, max_size=3)
gaps = st.sampled_from([-1, 0, 1, 2, 4])


@st.composite
def metric_lists(draw: st.DrawFn) -> list[Metric]:
    found = [Metric(f"ROUGE-{n}", "N", n=n) for n in range(1, draw(st.integers(0, 4)) + 1)]
    if draw(st.booleans()):
        found.append(Metric("ROUGE-L", "L"))
    if draw(st.booleans()):
        weight = draw(st.sampled_from([1.2, 1.5, 2.0]))
        found.append(Metric(f"ROUGE-W-{weight}", "W", weight=weight))
    for _ in range(draw(st.integers(0, 2))):
        unigrams = draw(st.booleans())
        found.append(Metric("ROUGE-S", "S", gap=draw(gaps), unigrams=unigrams))
    return found or [Metric("ROUGE-1", "N", n=1)]


def _summary(unit_words: list[list[str]]) -> Summary:
    return Summary([w for unit in unit_words for w in unit], unit_words)


def _spec(metrics: list[Metric], models: list[Summary], peer: Summary, *args: object) -> object:
    saved = _backend.perl
    _backend.perl = None
    try:
        return evaluation_values(metrics, models, peer, *args)  # type: ignore[arg-type]
    except Perl155ZeroDivision as error:
        return ZeroDivisionError, str(error)
    finally:
        _backend.perl = saved


def _compiled(call: object, *args: object) -> object:
    try:
        return call(*args)  # type: ignore[operator]
    except ZeroDivisionError as error:
        return ZeroDivisionError, str(error)


@settings(max_examples=300, deadline=None)
@given(
    metric_lists(),
    st.lists(units, max_size=3),
    units,
    st.booleans(),
    st.sampled_from([None, 1, 2]),
    st.sampled_from([0.5, 0.0, 1.0, 0.3]),
)
def test_peer_values_equal_the_pure_evaluation(
    metrics: list[Metric],
    models: list[list[list[str]]],
    peer: list[list[str]],
    best: bool,
    counting: int | None,
    alpha: float,
) -> None:
    spec = _spec(metrics, [_summary(m) for m in models], _summary(peer), best, counting, alpha)
    found = _compiled(_perl.peer_values, metrics, models, peer, best, counting, alpha)
    assert found == spec


# SPL bytes: words, case, digits, separators, blank lines, \r and non-ASCII bytes.
spl_bytes = st.lists(
    st.sampled_from(
        [
            b"a",
            b"B",
            b"cat",
            b"The",
            b"9",
            b" ",
            b"\n",
            b"\n\n",
            b"-",
            b".",
            b"\r",
            b"\xc3\xa9",
            b"\t",
            b"x1",
        ]
    ),
    max_size=25,
).map(b"".join)


@settings(max_examples=300, deadline=None)
@given(metric_lists(), st.lists(spl_bytes, max_size=3), spl_bytes, st.booleans())
def test_spl_values_read_the_words_summary_of_reads(
    metrics: list[Metric], models: list[bytes], peer: bytes, best: bool
) -> None:
    def read(data: bytes) -> Summary:
        return summary_of(data, "SPL", Limits(), Words())

    spec = _spec(metrics, [read(m) for m in models], read(peer), best, None, 0.5)
    assert _compiled(_perl.spl_values, metrics, models, peer, best, None, 0.5) == spec


def test_a_model_without_words_is_the_scripts_division_by_zero() -> None:
    metrics = [Metric("ROUGE-W-1.2", "W", weight=1.2)]
    with pytest.raises(ZeroDivisionError, match="ROUGE-W divides by its length"):
        _perl.spl_values(metrics, [b"...\n"], b"a b\n", False, None, 0.5)
    assert _spec(metrics, [_summary([[]])], _summary([["a"]]), False, None, 0.5) == (
        ZeroDivisionError,
        _perl.ZERO_BASE,
    )


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 3),
    st.integers(0, 12),
    st.sampled_from([None, 1, 2]),
    st.integers(1, 60),
    st.sampled_from([95.0, 90.0, 50.0, 99.9]),
    st.data(),
)
def test_corpus_values_equal_the_numpy_bootstrap(
    metrics: int,
    evaluations: int,
    counting: int | None,
    resamples: int,
    confidence: float,
    data: st.DataObject,
) -> None:
    value = st.floats(0, 1) if counting is None else st.integers(0, 9).map(float)
    values = data.draw(
        st.lists(value, min_size=3 * metrics * evaluations, max_size=3 * metrics * evaluations)
    )
    compiled = _corpus.corpus_averages(values, metrics, counting, 0.5, resamples, confidence)
    saved = _backend.perl
    _backend.perl = None
    try:
        spec = _corpus.corpus_averages(values, metrics, counting, 0.5, resamples, confidence)
    finally:
        _backend.perl = saved
    assert compiled == spec


def _beside(value: float) -> st.SearchStrategy[float]:
    """``value`` and its neighbouring doubles: where the rounding turns."""
    return st.sampled_from(
        [math.nextafter(value, -math.inf), value, math.nextafter(value, math.inf)]
    )


@settings(max_examples=3000, deadline=None)
@given(
    st.one_of(
        st.floats(0, 2),
        st.integers(0, 200000).map(lambda k: k / 100000 + 5e-6),
        st.integers(0, 200000).map(lambda k: k / 200000),
        # ties at the 5th decimal (k + 1/2) / 10^5, and the doubles beside them
        st.integers(0, 10**9).map(lambda k: (2 * k + 1) / 200000).flatmap(_beside),
        st.floats(0, 1e12),
        st.floats(allow_nan=True, allow_infinity=True),
    )
)
@example(-0.0)  # the fast path once lost the sign the text keeps
def test_rounding_is_the_python_spec(value: float) -> None:
    """The C rounding (a fast path, else ``snprintf``) is the spec's
    ``perl_rounded``, for every double: negatives, huge, inf and NaN too."""
    found, expected = _perl.rounded(value), perl_rounded(value)
    if math.isnan(expected):  # (a NaN's sign means nothing)
        assert math.isnan(found)
    else:
        assert found == expected and math.copysign(1, found) == math.copysign(1, expected)


def test_the_pure_path_is_used_without_the_kernel(pure: None) -> None:
    metrics = [Metric("ROUGE-1", "N", n=1), Metric("ROUGE-L", "L")]
    found = evaluation_values(
        metrics, [_summary([["a", "b"]])], _summary([["a"]]), False, None, 0.5
    )
    assert found == _perl.peer_values(metrics, [[["a", "b"]]], [["a"]], False, None, 0.5)

"""Williams' test both ways, held to R's psych::r.test values that SacreROUGE's
own test records (``sacrerouge/tests/stats_test.py::test_williams_diff_test``),
and the global level SacreROUGE correlates at."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from support.optional import missing

from kurenai.cli import main
from kurenai.stats import correlate_scores, level_correlation, williams_test

pytest.importorskip("scipy")


def _sacrerouge_inputs() -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """SacreROUGE's two triples: np.random.seed(12), three (9 x 5) draws each."""
    np.random.seed(12)
    first = tuple(np.random.random((9, 5)) for _ in range(3))
    second = tuple(np.random.random((9, 5)) for _ in range(3))
    return first, second


FIRST, SECOND = _sacrerouge_inputs()
# R's psych::r.test, as SacreROUGE's test records them (7 digits).
R_GLOBAL_ONE_TAIL = 0.2716978
R_GLOBAL_TWO_TAILS = 0.5433956
R_SYSTEM_SPEARMAN_ONE_TAIL = 0.4658712  # (Y, X): r.test assumes r12 > r13
R_SYSTEM_SPEARMAN_TWO_TAILS = 0.9317423


def _p(a: np.ndarray, b: np.ndarray, z: np.ndarray, level: str, coefficient: str, **kw) -> float:
    return williams_test(a, b, z, level, coefficient, **kw).p_value


def test_global_pearson_absolute_is_r_test_both_orders_both_tails() -> None:
    x, y, z = FIRST
    absolute = {"absolute": True}
    assert _p(x, y, z, "global", "pearson", **absolute, tails=1) == pytest.approx(
        R_GLOBAL_ONE_TAIL, abs=5e-8
    )
    assert _p(y, x, z, "global", "pearson", **absolute, tails=1) == pytest.approx(
        1 - R_GLOBAL_ONE_TAIL, abs=5e-8
    )
    for a, b in ((x, y), (y, x)):
        assert _p(a, b, z, "global", "pearson", **absolute) == pytest.approx(
            R_GLOBAL_TWO_TAILS, abs=5e-8
        )
    found = williams_test(x, y, z, "global", absolute=True)
    assert (found.n, found.level, found.convention) == (45, "global", "absolute (SacreROUGE, WMT)")


def test_system_spearman_absolute_is_r_test_both_orders_both_tails() -> None:
    x, y, z = SECOND
    assert _p(y, x, z, "system", "spearman", absolute=True, tails=1) == pytest.approx(
        R_SYSTEM_SPEARMAN_ONE_TAIL, abs=5e-8
    )
    assert _p(x, y, z, "system", "spearman", absolute=True, tails=1) == pytest.approx(
        1 - R_SYSTEM_SPEARMAN_ONE_TAIL, abs=5e-8
    )
    for a, b in ((x, y), (y, x)):
        assert _p(a, b, z, "system", "spearman", absolute=True) == pytest.approx(
            R_SYSTEM_SPEARMAN_TWO_TAILS, abs=5e-8
        )


def test_the_signed_convention_differs_where_a_correlation_is_negative() -> None:
    # Negative control: kurenai's default keeps the signs, and SacreROUGE's
    # global case then gives another p (0.0341, not 0.5434).
    x, y, z = FIRST
    signed = williams_test(x, y, z, "global", "pearson")
    assert min(signed.r12, signed.r13, signed.r23) < 0
    assert round(signed.p_value, 4) == 0.0341
    assert signed.p_value != pytest.approx(R_GLOBAL_TWO_TAILS, abs=1e-3)
    assert signed.convention == "signed"


correlated = hnp.arrays(np.float64, (6, 4), elements=st.floats(0, 1, width=32))


@settings(max_examples=40, deadline=None)
@given(correlated, correlated, correlated)
def test_both_conventions_agree_when_every_correlation_is_positive(
    a: np.ndarray, b: np.ndarray, noise: np.ndarray
) -> None:
    human = a + b + noise  # both metrics correlate with people
    signed = williams_test(a + 2 * human, b + 2 * human, human, "global")
    absolute = williams_test(a + 2 * human, b + 2 * human, human, "global", absolute=True)
    if min(signed.r12, signed.r13, signed.r23) > 0:
        assert signed.p_value == absolute.p_value or (
            np.isnan(signed.p_value) and np.isnan(absolute.p_value)
        )


def test_unscored_summaries_are_left_out_of_all_three() -> None:
    x, y, z = (m.copy() for m in FIRST)
    x[0, 0] = np.nan
    found = williams_test(x, y, z, "global", absolute=True)
    kept = np.ones((9, 5), bool)
    kept[0, 0] = False
    expected = williams_test(
        np.where(kept, FIRST[0], np.nan), FIRST[1], np.where(kept, FIRST[2], np.nan), "global",
        absolute=True,
    )  # fmt: skip
    assert found.n == 44 and found.p_value == expected.p_value


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"level": "corpus"}, "unknown level 'corpus'"),
        ({"coefficient": "pearsonr"}, "did you mean 'pearson'"),
        ({"tails": 3}, "tails must be 1 or 2"),
    ],
)
def test_bad_choices_are_refused(kwargs: dict, message: str) -> None:
    x, y, z = FIRST
    with pytest.raises(ValueError, match=message):
        williams_test(x, y, z, **kwargs)


def test_the_global_level_is_scipys_on_every_summary() -> None:
    from scipy import stats

    x, _, z = FIRST
    for name, function in (("pearson", stats.pearsonr), ("kendall", stats.kendalltau)):
        value, vectors = level_correlation(name, "global", x, z)
        assert value == float(function(x.ravel(), z.ravel())[0]) and vectors == 1


def test_correlate_scores_reports_the_global_level_and_the_williams_convention() -> None:
    x, y, z = FIRST
    systems, documents = [f"s{i}" for i in range(9)], [f"d{j}" for j in range(5)]
    found = correlate_scores(
        {"x": x, "y": y}, {"human": z}, systems, documents, levels=["global", "system"],
        n_samples=200, seed=1, tests=["williams", "permutation"], williams="absolute",
    )  # fmt: skip
    assert found.get("human", "global", "x", "pearson").value == pytest.approx(
        williams_test(x, y, z, "global").r12, abs=0
    )
    interval = found.get("human", "global", "x", "pearson").interval
    assert interval is not None and interval.samples == 200
    (test,) = [
        t for t in found.tests
        if (t.level, t.coefficient, t.test.method) == ("global", "pearson", "williams-absolute")
    ]  # fmt: skip
    assert test.test.p_value == pytest.approx(R_GLOBAL_TWO_TAILS, abs=5e-8)
    assert found.settings["williams"] == "absolute"
    assert "Williams' test absolute" in found.text()
    permutation = [t for t in found.tests if t.level == "global" and t.test.method == "permutation"]
    assert permutation and 0 < permutation[0].test.p_value <= 1


def test_the_command_line_takes_the_convention_and_the_global_level(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    z = FIRST[2]
    words = ["a", "b", "c", "d", "e", "f", "g"]
    rng = np.random.default_rng(1)
    rows = []
    for i in range(9):
        for j in range(5):
            text = " ".join(rng.choice(words, 5))
            rows.append({"system": f"s{i}", "document": f"d{j}", "prediction": text,
                         "reference": "a b c d e", "quality": float(z[i, j])})  # fmt: skip
    path = tmp_path / "judged.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    options = ["--levels", "global", "--williams", "absolute", "--bootstrap-samples", "50"]
    options += ["--seed", "1", "--output-format", "json", "--rouge-types", "rouge1", "rouge2"]
    code = main(["correlate", "--judgments", str(path), *options])
    out = capsys.readouterr()
    assert code == 0, out.err
    document = json.loads(out.out)
    assert document["settings"]["williams"] == "absolute"
    assert {c["level"] for c in document["correlations"]} == {"global"}
    assert {t["method"] for t in document["tests"]} >= {"williams-absolute"}


@settings(max_examples=60, deadline=None)
@given(
    hnp.arrays(np.float64, (3, 7, 5), elements=st.floats(0, 1, width=32)),
    st.sampled_from(["summary", "system", "global"]),
    st.sampled_from(["pearson", "spearman", "kendall"]),
    st.sampled_from(["two-sided", "greater", "less"]),
)
def test_absolute_equals_nlpstats_williams_test(
    triple: np.ndarray, level: str, coefficient: str, alternative: str
) -> None:
    """nlpstats (Deutsch's package, SacreROUGE's statistics) installed from the index."""
    try:
        from nlpstats.correlations import williams_test as reference
    except ImportError:
        missing("nlpstats is not installed (the test extra)")
    x, y, z = triple
    names = {"summary": "input", "system": "system", "global": "global"}
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SciPy's on a constant vector: NaN, compared below
        expected = float(reference(x, y, z, names[level], coefficient, alternative).pvalue)
    a, b = (y, x) if alternative == "less" else (x, y)  # less: b better than a
    found = williams_test(a, b, z, level, coefficient, absolute=True,
                          tails=2 if alternative == "two-sided" else 1)  # fmt: skip
    if np.isnan(expected) or np.isnan(found.p_value):
        return  # undefined (a constant vector): nothing to compare
    assert found.p_value == pytest.approx(min(expected, 1.0), rel=1e-9, abs=1e-12)

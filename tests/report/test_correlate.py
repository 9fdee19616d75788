"""kurenai.report.correlate: ROUGE against human judgments, end to end, and
every bad input answered with one clear error (or a documented NaN)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from optional import missing
from report_support import page_data

from kurenai._data.extras import pip_install
from kurenai.report import correlate, correlate_scores, write_correlation_report
from kurenai.rouge_scorer import RougeScorer

try:
    import scipy.stats as stats
except ImportError:  # pragma: no cover - the correlate extra is in the test extra
    stats = None

WORDS = ["the", "cat", "sat", "on", "a", "mat", "while", "dogs", "ran", "past", "quickly", "today"]


@pytest.fixture(autouse=True)
def _scipy() -> None:
    if stats is None:
        missing("scipy (the correlate extra) is not installed")


def _corpus(systems: int = 4, documents: int = 6) -> tuple[Any, Any, list[dict[str, Any]]]:
    rng = np.random.default_rng(0)
    references = {f"d{j}": " ".join(rng.choice(WORDS, 8)) for j in range(documents)}
    predictions = {
        f"s{i}": {d: " ".join(rng.choice(WORDS, 6)) for d in references} for i in range(systems)
    }
    judgments = [
        {"system": s, "document": d, "quality": float(rng.integers(1, 6)), "fluency": 3.0 + i}
        for i, s in enumerate(predictions)
        for d in references
    ]
    return references, predictions, judgments


def test_the_metrics_are_the_scorers_and_the_correlations_scipys() -> None:
    references, predictions, judgments = _corpus()
    found = correlate(
        references,
        predictions,
        judgments,
        ["rouge1", "rougeL"],
        variants={"": {}, "stem": {"use_stemmer": True}},
        measure="recall",
        n_samples=20,
        seed=0,
    )
    assert found.metrics == ("rouge1", "rougeL", "rouge1 (stem)", "rougeL (stem)")
    assert found.criteria == ("quality", "fluency")
    scorer = RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
    for i, system in enumerate(found.systems):
        for j, document in enumerate(found.documents):
            score = scorer.score(references[document], predictions[system][document])
            assert found.metric_scores["rougeL (stem)"][i, j] == score["rougeL"].recall
    x, z = found.metric_scores["rouge1"], found.human_scores["quality"]
    expected = np.mean(
        [
            stats.kendalltau(x[:, j], z[:, j])[0]
            for j in range(z.shape[1])
            if np.ptp(z[:, j]) > 0 and np.ptp(x[:, j]) > 0
        ]
    )
    assert found.get("quality", "summary", "rouge1", "kendall").value == expected
    system = stats.spearmanr(x.mean(axis=1), z.mean(axis=1))[0]
    assert found.get("quality", "system", "rouge1", "spearman").value == system
    assert json.loads(json.dumps(found.as_dict()))["settings"]["measure"] == "recall"


def test_undefined_correlations_are_nan_and_printed_so() -> None:
    references, predictions, judgments = _corpus()
    for judgment in judgments:
        judgment["quality"] = 3.0  # every summary judged alike: a constant vector
    found = correlate(references, predictions, judgments, ["rouge1"], n_samples=10, seed=0)
    quality = found.get("quality", "summary", "rouge1", "pearson")
    assert np.isnan(quality.value) and quality.vectors == 0
    assert quality.interval is not None and quality.interval.samples == 0
    assert "nan" in found.text()
    assert found.as_dict()["correlations"][0]["value"] is None  # JSON has no NaN
    # Ties (fluency is constant within a document) leave the system level defined.
    assert not np.isnan(found.get("fluency", "system", "rouge1", "kendall").value)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda r, p, j: j.append({"system": "ghost", "document": "d0", "quality": 1}),
            "judgments name system 'ghost', which has no predictions",
        ),
        (
            lambda r, p, j: j.append({"system": "s0", "document": "d9", "quality": 1}),
            "judgments name document 'd9', which has no reference",
        ),
        (
            lambda r, p, j: p["s1"].pop("d2"),
            "system 's1' is judged on document 'd2', which it has no prediction for",
        ),
        (lambda r, p, j: j.append(dict(j[0])), "judged twice"),
        (lambda r, p, j: j.append({"system": "s0"}), "needs a 'system' and a 'document'"),
        (lambda r, p, j: j[3].update(quality=float("inf")), "'quality' is inf, not a finite"),
        (lambda r, p, j: [x.pop(k) for x in j for k in ("quality", "fluency")], "no numeric score"),
        (
            lambda r, p, j: j.__setitem__(
                slice(None), [x for x in j if x["system"] in ("s0", "s1")]
            ),
            "at least 3 systems; the judgments name 2",
        ),
    ],
)
def test_bad_judgments_get_one_clear_error(change: Any, message: str) -> None:
    references, predictions, judgments = _corpus()
    change(references, predictions, judgments)
    with pytest.raises(ValueError, match=message):
        correlate(references, predictions, judgments, ["rouge1"], n_samples=0)


def test_bad_options_get_one_clear_error() -> None:
    references, predictions, judgments = _corpus()
    with pytest.raises(ValueError, match="no judgment scores criterion 'clarity'"):
        correlate(references, predictions, judgments, ["rouge1"], criteria=["quality", "clarity"])
    with pytest.raises(ValueError, match="unknown resampling 'rows'"):
        correlate(references, predictions, judgments, ["rouge1"], resample="rows")
    with pytest.raises(ValueError, match="cannot compare 'rouge9'"):
        correlate(references, predictions, judgments, ["rouge1"], compare=[("rouge1", "rouge9")])
    with pytest.raises(ValueError, match="cannot make variant 'x'"):
        correlate(references, predictions, judgments, ["rouge1"], variants={"x": {"lang": "xx"}})
    with pytest.raises(ValueError, match="unknown measure 'f1'"):
        correlate(references, predictions, judgments, ["rouge1"], measure="f1")
    with pytest.raises(ValueError, match="shape"):
        correlate_scores({"m": np.zeros((3, 2))}, {"h": np.zeros((3, 3))}, "abc", "xyz")


def test_without_scipy_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    references, predictions, judgments = _corpus()
    monkeypatch.setitem(sys.modules, "scipy.stats", None)
    expected = f"correlations need SciPy: {pip_install('correlate')}"
    with pytest.raises(ImportError, match=re.escape(expected)):
        correlate(references, predictions, judgments, ["rouge1"], n_samples=0)


def test_the_page_shows_every_metric_and_its_intervals(tmp_path: Path) -> None:
    references, predictions, judgments = _corpus()
    found = correlate(
        references,
        predictions,
        judgments,
        ["rouge1", "rouge2"],
        n_samples=30,
        seed=1,
        compare="all",
    )
    path = tmp_path / "correlations.html"
    write_correlation_report(path, found)
    page = path.read_text(encoding="utf-8")
    data = page_data(path)
    assert data["metrics"] == ["rouge1", "rouge2"]
    assert set(data["scatter"]) == {"quality", "fluency"}
    assert len(data["scatter"]["quality"]["metrics"]["rouge2"]["system_means"]) == 4
    assert page.count('class="chart scatter"') == 2 * 2  # per criterion, per metric
    assert page.count('class="chart intervals"') == 2 * 2  # per criterion, per level
    low = found.get("quality", "system", "rouge2", "pearson").interval.low  # type: ignore[union-attr]
    assert f"[{low:.4f}, " in page
    assert "permutation" in page and "williams" in page


@pytest.mark.slow
def test_import_kurenai_and_its_report_import_no_scipy() -> None:
    code = "import sys, kurenai, kurenai.report, kurenai.cli; print('scipy' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


def test_the_page_shows_the_rank_stability_when_there_is_one(tmp_path: Path) -> None:
    from dataclasses import replace

    from kurenai.stats import rank_stability

    references, predictions, judgments = _corpus(systems=3)
    renamed = {"<b>s0</b>": "s0"}  # a name the page must print as text
    predictions = {("<b>s0</b>" if s == "s0" else s): p for s, p in predictions.items()}
    for row in judgments:
        row["system"] = next((k for k, v in renamed.items() if v == row["system"]), row["system"])
    found = correlate(references, predictions, judgments, ["rouge1"], n_samples=0, seed=1)
    path = tmp_path / "plain.html"
    write_correlation_report(path, found)
    assert 'id="rank-stability"' not in path.read_text(encoding="utf-8")  # none asked for
    documents = sorted(references)
    multi = [[references[d], predictions["s1"][d], predictions["s2"][d]] for d in documents]
    texts = {s: [predictions[s][d] for d in documents] for s in predictions}
    stability = rank_stability(RougeScorer(["rouge1"]), multi, texts, 50, seed=2)
    write_correlation_report(path, replace(found, stability=stability))
    page = path.read_text(encoding="utf-8")
    assert page_data(path)["rank_stability"] == json.loads(json.dumps(stability.as_dict()))
    section = page[page.index('id="rank-stability"') :]
    assert "&lt;b&gt;s0&lt;/b&gt;" in section and "<b>s0" not in section
    assert section.count('<tr><td class="num">') == 3  # a row per system
    for k, system in enumerate(stability.systems):  # its rank distribution, as shares
        shares = [f"{100 * c / 50:.1f}%" for c in stability.ranks[system] if c]
        row = section[section.index(f'<td class="num">{k + 1}</td>') :].split("</tr>")[0]
        assert re.findall(r"\d+\.\d%", row) == shares
    swapping = [(a, b, v) for (a, b), v in stability.swaps.items() if v > 0]
    assert swapping, "the references were chosen to make the systems swap"
    swaps = section[section.index('class="board swaps"') :].split("</table>")[0]
    assert swaps.count("<tr><td") == len(swapping)
    assert f"{100 * swapping[0][2]:.1f}%" in swaps
    assert section.count('class="chart swaps"') == 1

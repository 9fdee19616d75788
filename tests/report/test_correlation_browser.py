"""The correlation page in headless Chromium: no console error, every chart
drawn, the titles clear of Plotly's toolbar and the coefficients' intervals
side by side, measured on the laid-out page (with a screenshot to look at)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from browser_support import artifacts_dir, check_clear_of_the_toolbar, chromium, open_report

from kurenai.report import correlate_scores, write_correlation_report

pytest.importorskip("jinja2")
pytest.importorskip("plotly")
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    yield from chromium()


def _page(folder: Path) -> Path:
    pytest.importorskip("scipy")
    rng = np.random.default_rng(0)
    human = rng.integers(1, 6, size=(5, 12)).astype(float)
    human[0, 3] = np.nan  # a summary not judged
    metrics = {
        "rouge1 <b>": human + rng.normal(0, 1, human.shape),  # a name that is no markup
        "rouge2": rng.random(human.shape),
    }
    systems = [f"s{i}</script>" for i in range(5)]
    found = correlate_scores(
        metrics, {"quality": human}, systems, [f"d{j}" for j in range(12)], n_samples=50, seed=0
    )
    path = folder / "correlations.html"
    write_correlation_report(path, found)
    return path


def test_the_correlation_page_draws_every_chart(driver: Any, tmp_path: Path) -> None:
    path = _page(tmp_path)
    logs = open_report(driver, path)
    assert not [entry for entry in logs if entry.get("level") in ("SEVERE", "ERROR")], logs
    drawn = driver.execute_script("return document.querySelectorAll('.chart .main-svg').length")
    assert drawn >= 2 + 2  # the intervals per level, a scatter per metric
    assert driver.execute_script("return document.querySelectorAll('b').length") == 0
    driver.save_screenshot(str(artifacts_dir(tmp_path) / "correlations.png"))


def test_the_titles_are_clear_of_the_toolbar(driver: Any, tmp_path: Path) -> None:
    open_report(driver, _page(tmp_path))
    figures = driver.find_elements("css selector", "figure.figure")
    assert len(figures) == 2 + 2  # the intervals of two levels, a scatter per metric
    for figure in figures:
        check_clear_of_the_toolbar(driver, figure)
    captions = [f.find_element("css selector", "figcaption").text for f in figures]
    assert captions[:2] == [
        "system-level correlation with quality",
        "summary-level correlation with quality",
    ] or captions[:2] == [
        "summary-level correlation with quality",
        "system-level correlation with quality",
    ]
    assert "rouge1 <b>" in captions  # the metric's name as text, not markup


def test_the_coefficients_intervals_stand_side_by_side(driver: Any, tmp_path: Path) -> None:
    open_report(driver, _page(tmp_path))
    shots = artifacts_dir(tmp_path)
    for k, chart in enumerate(driver.find_elements("css selector", ".chart.intervals")):
        driver.execute_script("arguments[0].scrollIntoView()", chart)
        names = driver.execute_script("return arguments[0].data.map(t => t.name)", chart)
        assert len(names) == 3  # Pearson, Spearman, Kendall
        # Per metric, the pixel x of each coefficient's point: distinct, so no
        # interval is drawn over another.
        xs = driver.execute_script(
            """const traces = arguments[0].querySelectorAll('.scatterlayer .trace');
            return [...traces].map(t => [...t.querySelectorAll('.points path')].map(
              p => p.getBoundingClientRect().x));""",
            chart,
        )
        assert len(xs) == 3 and all(len(points) == 2 for points in xs), xs
        ticks = chart.find_elements("css selector", ".xtick text")
        assert [t.text for t in ticks] == ["rouge1 <b>", "rouge2"]  # names, not markup
        for metric in range(2):
            at = [round(points[metric], 1) for points in xs]
            assert len(set(at)) == 3, (names, at)
        driver.save_screenshot(str(shots / f"correlation-intervals-{k}.png"))


def test_the_rank_stability_draws_its_swaps_as_a_heatmap(driver: Any, tmp_path: Path) -> None:
    from dataclasses import replace

    from kurenai.stats import RankStability

    path = _page(tmp_path)
    found = correlate_scores(
        {"rouge1": np.arange(6.0).reshape(3, 2)}, {"quality": np.ones((3, 2))},
        ["<b>a</b>", "b", "c"], ["d0", "d1"], n_samples=0,
    )  # fmt: skip
    names = ("<b>a</b>", "b", "c")
    stability = RankStability(
        "rouge1", "best", 10, False, 0, names, dict(zip(names, (0.5, 0.4, 0.3))),
        {"<b>a</b>": [7, 3, 0], "b": [3, 6, 1], "c": [0, 1, 9]},
        {("<b>a</b>", "b"): 0.3, ("<b>a</b>", "c"): 0.0, ("b", "c"): 0.1},
    )  # fmt: skip
    write_correlation_report(path, replace(found, stability=stability))
    logs = open_report(driver, path)
    assert not [entry for entry in logs if entry.get("level") in ("SEVERE", "ERROR")], logs
    chart = driver.find_element("css selector", ".chart.swaps")
    driver.execute_script("arguments[0].scrollIntoView()", chart)
    assert chart.find_elements("css selector", ".main-svg"), "the heatmap is drawn"
    z = driver.execute_script("return arguments[0].data[0].z", chart)
    assert z == [[None, 0.3, 0.0], [0.3, None, 0.1], [0.0, 0.1, None]]
    ticks = [t.text for t in chart.find_elements("css selector", ".xtick text")]
    assert ticks == ["<b>a</b>", "b", "c"]  # names, not markup
    assert driver.execute_script("return document.querySelectorAll('b').length") == 0
    check_clear_of_the_toolbar(
        driver, driver.find_element("css selector", "#rank-stability figure")
    )
    driver.save_screenshot(str(artifacts_dir(tmp_path) / "correlation-stability.png"))

"""The correlation page in headless Chromium: no console error, every chart drawn."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from browser_support import artifacts_dir, chromium, open_report

from kurenai.report import correlate_scores, write_correlation_report

pytest.importorskip("jinja2")
pytest.importorskip("plotly")
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    yield from chromium()


def test_the_correlation_page_draws_every_chart(driver: Any, tmp_path: Path) -> None:
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
    path = tmp_path / "correlations.html"
    write_correlation_report(path, found)
    logs = open_report(driver, path)
    assert not [entry for entry in logs if entry.get("level") in ("SEVERE", "ERROR")], logs
    drawn = driver.execute_script("return document.querySelectorAll('.chart .main-svg').length")
    assert drawn >= 2 + 2  # the intervals per level, a scatter per metric
    assert driver.execute_script("return document.querySelectorAll('b').length") == 0
    driver.save_screenshot(str(artifacts_dir(tmp_path) / "correlations.png"))

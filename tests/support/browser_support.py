"""Headless Chromium for the report tests: Debian's ``chromium`` and ``chromium-driver``
(``.ci/browser-setup.sh`` installs them), driven by Selenium.  No browser is
downloaded: Selenium is pointed at the system's driver and binary.

Without them a test skips, except under ``CI=true``, where it fails: CI must
have run the setup script.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = ("chromium", "chromium-browser")
DRIVER = "chromedriver"


def _found() -> tuple[str, str] | None:
    browser = next((p for p in map(shutil.which, CHROMIUM) if p), None)
    driver = shutil.which(DRIVER)
    return (browser, driver) if browser and driver else None


def chromium() -> Iterator[Any]:
    """A headless Chromium session (for a module-scoped fixture)."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _missing("selenium is not installed (pip install -e '.[test-all]')")
    found = _found()
    if found is None:
        _missing("Chromium is not installed (bash .ci/browser-setup.sh)")
    browser, driver_path = found
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1400,1000",  # what a person sees on a laptop
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def _missing(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI needs the browser tests: {reason}")
    pytest.skip(reason)


def open_report(driver: Any, path: Path) -> list[dict[str, Any]]:
    """Load the page and wait for its script; return what it logged on the console."""
    driver.get_log("browser")  # drop what earlier pages logged
    driver.get(path.resolve().as_uri())
    ready = "return Boolean(window.kurenaiReport && window.kurenaiReport.ready)"
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 30).until(lambda d: d.execute_script(ready))
    return list(driver.get_log("browser"))


def artifacts_dir(base: Path) -> Path:
    """Where screenshots go: ``$KURENAI_TEST_ARTIFACTS`` or a temporary folder."""
    folder = Path(os.environ.get("KURENAI_TEST_ARTIFACTS") or base / "artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def rect(driver: Any, element: Any) -> dict[str, float]:
    """``element``'s bounding box on the laid-out page."""
    return dict(
        driver.execute_script("return arguments[0].getBoundingClientRect().toJSON()", element)
    )


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two bounding boxes share any area."""
    return (
        a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and b["top"] < a["bottom"]
    )


def check_clear_of_the_toolbar(driver: Any, figure: Any) -> None:
    """The charts' one rule, measured: with the pointer on ``figure`` (Plotly
    shows its toolbar on hover), its caption, and any title or legend Plotly
    draws, lie clear of the toolbar, which is inside the chart."""
    from selenium.webdriver.common.action_chains import ActionChains

    driver.execute_script("arguments[0].scrollIntoView()", figure)
    ActionChains(driver).move_to_element(figure).perform()
    chart = figure.find_element("css selector", ".js-plotly-plot")
    (modebar,) = figure.find_elements("css selector", ".modebar")
    bar = rect(driver, modebar)
    assert bar["width"] > 20 and bar["height"] > 10, bar  # a toolbar was measured
    assert overlap(bar, rect(driver, chart))  # negative control: it is in the chart
    caption = figure.find_element("css selector", "figcaption")
    assert caption.text and not overlap(rect(driver, caption), bar), (caption.text, bar)
    for text in chart.find_elements("css selector", ".gtitle, .legend"):
        assert not overlap(rect(driver, text), bar), caption.text

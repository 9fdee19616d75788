"""Reports opened in headless Chromium: no console error, and the table and the
aligned view work, with the highlights that kurenai.explain returns."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from browser_support import artifacts_dir, chromium, open_report
from report_support import CJK, ENGLISH

from kurenai.explain import explain
from kurenai.report import write_report
from kurenai.rouge_scorer import RougeScorer

pytest.importorskip("jinja2")
pytest.importorskip("plotly")
pytestmark = pytest.mark.slow

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
# Enough records for five pages of 50, with repeats for ties in the sort.
MANY = [(f"{t} {i}", f"{p} {i % 7}", b) for i in range(46) for t, p, b in ENGLISH]


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    yield from chromium()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return artifacts_dir(tmp_path_factory.getbasetemp())


def _report(folder: Path, name: str, rows: list[tuple[str, str, str]], scorer: RougeScorer) -> Path:
    targets, predictions, baseline = (list(x) for x in zip(*rows))
    path = folder / f"{name}.html"
    write_report(
        path, scorer, targets, {"system": predictions}, baseline=baseline, seed=0, n_samples=100
    )
    return path


def _errors(logs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [entry for entry in logs if entry.get("level") in ("SEVERE", "ERROR")]


def _rows(driver: Any) -> list[int]:
    return [
        int(i)
        for i in driver.execute_script(
            "return [...document.querySelectorAll('#rows tr')].map(r => r.dataset.i)"
        )
    ]


def _marks(driver: Any, column: str) -> list[str]:
    script = f"return [...document.querySelectorAll('#{column} mark')].map(m => m.textContent)"
    return list(driver.execute_script(script))


def _click(driver: Any, selector: str) -> None:
    driver.execute_script(f"document.querySelector({selector!r}).click()")


def _expected_marks(
    scorer: RougeScorer, target: str, prediction: str, rouge_type: str, side: str
) -> list[str]:
    found = explain(scorer, target, prediction)[rouge_type]
    text = target if side == "target" else prediction
    return [text[s:e] for s, e in sorted(set(found.spans(side)))]  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["english", "cjk"])
def test_the_page_loads_without_console_errors(
    driver: Any, tmp_path: Path, shots: Path, name: str
) -> None:
    rows = ENGLISH if name == "english" else CJK
    path = _report(tmp_path, name, rows, RougeScorer(TYPES, use_stemmer=True))
    logs = open_report(driver, path)
    assert not _errors(logs), logs
    charts = driver.execute_script("return document.querySelectorAll('.chart .main-svg').length")
    assert charts >= 4  # every chart drew
    driver.save_screenshot(str(shots / f"{name}-page.png"))


def test_sorting_filtering_and_paging(driver: Any, tmp_path: Path, shots: Path) -> None:
    scorer = RougeScorer(TYPES)
    path = _report(tmp_path, "many", MANY, scorer)
    assert not _errors(open_report(driver, path))
    assert _rows(driver) == list(range(50))
    f = [scorer.score(t, p)["rouge1"].fmeasure for t, p, _ in MANY]
    by_f = sorted(range(len(MANY)), key=lambda i: (round(f[i], 6), i))
    _click(driver, "th[data-key='f0']")  # a score column sorts high to low first
    assert _rows(driver) == by_f[::-1][:50]
    _click(driver, "th[data-key='f0']")
    assert _rows(driver) == by_f[:50]
    _click(driver, "#next")
    assert _rows(driver) == by_f[50:100]
    _click(driver, "#last")
    assert _rows(driver) == by_f[200:]
    assert driver.execute_script("return document.getElementById('page').textContent") == (
        "page 5 of 5"
    )
    box = driver.find_element("id", "filter")
    box.send_keys("GUNMAN")  # case-insensitive, across the texts
    driver.implicitly_wait(0)
    wanted = sorted(
        (i for i, (t, p, b) in enumerate(MANY) if "gunman" in (t + p + b).lower()),
        key=lambda i: (round(f[i], 6), i),
    )
    _wait_for(driver, lambda: _rows(driver) == wanted[:50])
    assert driver.find_element("id", "shown").text == f"{len(wanted)} of {len(MANY)} records"
    driver.save_screenshot(str(shots / "table-filtered.png"))


def test_the_aligned_view_highlights_what_explain_returned(
    driver: Any, tmp_path: Path, shots: Path
) -> None:
    scorer = RougeScorer(TYPES, use_stemmer=True)
    path = _report(tmp_path, "aligned", ENGLISH, scorer)
    assert not _errors(open_report(driver, path))
    for i, (target, prediction, baseline) in enumerate(ENGLISH):
        _click(driver, f"#rows tr[data-i='{i}']")
        for k, rouge_type in enumerate(TYPES):
            _click(driver, f"#aligned-types button[data-k='{k}']")
            assert _marks(driver, "aligned-target") == _expected_marks(
                scorer, target, prediction, rouge_type, "target"
            )
            assert _marks(driver, "aligned-system-0") == _expected_marks(
                scorer, target, prediction, rouge_type, "prediction"
            )
            assert _marks(driver, "aligned-system-1") == _expected_marks(
                scorer, target, baseline, rouge_type, "prediction"
            )
            shown = driver.find_element("id", "aligned-target").text
            assert target.replace("\n", "") in shown.replace("\n", "")  # markup shown as text
    driver.save_screenshot(str(shots / "aligned-english.png"))
    _click(driver, "#aligned-types button[data-k='0']")
    _click(driver, "#improved a")  # one click from the most improved record
    first = int(driver.execute_script("return document.querySelector('#improved a').dataset.i"))
    assert driver.execute_script("return document.getElementById('aligned').dataset.i") == str(
        first
    )
    assert not _errors(list(driver.get_log("browser")))


def test_cjk_highlights_in_the_aligned_view(driver: Any, tmp_path: Path, shots: Path) -> None:
    scorer = RougeScorer(TYPES)
    path = _report(tmp_path, "cjk-aligned", CJK, scorer)
    assert not _errors(open_report(driver, path))
    for i, (target, prediction, _) in enumerate(CJK):
        _click(driver, f"#rows tr[data-i='{i}']")
        _click(driver, "#aligned-types button[data-k='0']")
        expected = _expected_marks(scorer, target, prediction, "rouge1", "prediction")
        assert _marks(driver, "aligned-system-0") == expected
    assert _marks(driver, "aligned-system-0") == ["我", "爱", "北京"]  # after 𠮷: UTF-16 offsets
    driver.save_screenshot(str(shots / "aligned-cjk.png"))


def _wait_for(driver: Any, condition: Any) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 10).until(lambda _: condition())


def test_a_record_over_a_limit_is_empty_cells_sorted_last(
    driver: Any, tmp_path: Path, shots: Path
) -> None:
    # NaN scores (a record over --max-tokens): empty F and Δ cells, never a
    # number made of null (null - x is -x in JavaScript), last when sorted.
    from kurenai.report import score_systems

    scorer = RougeScorer(TYPES)
    targets, predictions, baseline = (list(x) for x in zip(*ENGLISH))
    systems = {"system": predictions, "baseline": baseline}
    scores = score_systems(scorer, targets, systems)
    scores["system"][:, :, 1] = np.nan
    path = tmp_path / "limits.html"
    write_report(path, scorer, targets, {"system": predictions}, baseline=baseline, seed=0,
                 n_samples=100, scores=scores)  # fmt: skip
    assert not _errors(open_report(driver, path))
    cells = driver.execute_script(
        "return [...document.querySelectorAll(\"#rows tr[data-i='1'] td.num\")]"
        ".map(td => td.textContent)"
    )
    assert cells[2:] == [""] * (len(cells) - 2)  # after the number and the reference tokens
    for key in ("f0", "d0baseline"):
        _click(driver, f"th[data-key='{key}']")  # high to low: the unscored record last
        assert _rows(driver)[-1] == 1
    driver.save_screenshot(str(shots / "over-limit.png"))

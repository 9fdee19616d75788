"""Reports opened in headless Chromium: no console error, and the table and the
aligned view work, with the highlights that kurenai.explain returns."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from browser_support import (
    artifacts_dir,
    check_clear_of_the_toolbar,
    chromium,
    open_report,
    overlap,
    rect,
)
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
    # After the number and the reference tokens: the system's F and the Δ empty,
    # the baseline's F (scored) beside them.
    theirs = scorer.score(targets[1], baseline[1])["rouge1"].fmeasure
    assert cells[2:] == ["", f"{theirs:.4f}", ""]
    for key in ("f0", "d0:baseline"):
        _click(driver, f"th[data-key='{key}']")  # high to low: the unscored record last
        assert _rows(driver)[-1] == 1
    driver.save_screenshot(str(shots / "over-limit.png"))


# ------------------------------------------------------------ what a person sees
# Each test below measures the laid-out page (bounding boxes, computed styles,
# the charts' data) in a 1400 x 1000 window and keeps a screenshot of it.

SYSTEM, BASELINE = "bart-large.jsonl", "lead-3.jsonl"
IDS = [f"cnn-dailymail-test-{i:06d}-{'x' * (i % 5) * 6}" for i in range(len(MANY))]


@pytest.fixture(scope="module")
def named_page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, RougeScorer]:
    scorer = RougeScorer(TYPES)
    targets, predictions, baseline = (list(x) for x in zip(*MANY))
    path = tmp_path_factory.mktemp("named") / "named.html"
    write_report(path, scorer, targets, {SYSTEM: predictions}, baseline={BASELINE: baseline},
                 ids=IDS, seed=0, n_samples=100)  # fmt: skip
    return path, scorer


def _scroll_to(driver: Any, selector: str) -> None:
    driver.execute_script(f"document.querySelector({selector!r}).scrollIntoView()")


def _shot(driver: Any, shots: Path, selector: str, name: str) -> None:
    """A screenshot of the window scrolled to ``selector``, to look at."""
    _scroll_to(driver, selector)
    driver.save_screenshot(str(shots / name))


def test_chart_titles_and_legends_are_clear_of_the_toolbars(
    driver: Any, named_page: tuple[Path, RougeScorer], shots: Path
) -> None:
    assert not _errors(open_report(driver, named_page[0]))
    figures = driver.find_elements("css selector", "figure.figure")
    assert len(figures) == 3 + len(TYPES)  # intervals, two bucket charts, one per type
    for figure in figures:
        check_clear_of_the_toolbar(driver, figure)
    _shot(driver, shots, "#buckets", "titles-buckets.png")


def _plot(driver: Any, element: Any, script: str) -> Any:
    return driver.execute_script(f"const gd = arguments[0]; return {script};", element)


def test_one_distribution_per_type_on_a_shared_count_axis(
    driver: Any, named_page: tuple[Path, RougeScorer], shots: Path
) -> None:
    path, scorer = named_page
    assert not _errors(open_report(driver, path))
    targets, predictions, baseline = (list(x) for x in zip(*MANY))
    figures = driver.find_elements("css selector", "#chart-distributions figure.distribution")
    assert [f.find_element("css selector", "figcaption").text for f in figures] == TYPES
    tops = set()
    for figure, rouge_type in zip(figures, TYPES):
        chart = figure.find_element("css selector", ".js-plotly-plot")
        traces = _plot(driver, chart, "gd.data.map(t => [t.name, t.type, t.y])")
        assert [name for name, _, _ in traces] == [SYSTEM, BASELINE]  # one series per system
        assert all(kind == "bar" for _, kind, _ in traces)  # side by side, not overlaid
        assert _plot(driver, chart, "gd._fullLayout.barmode") == "group"
        assert all(_plot(driver, chart, "gd.data.map(t => t.opacity === undefined)"))
        for texts, (_, _, counts) in zip((predictions, baseline), traces):
            columns = scorer.score_batch(targets, texts, columnar=True)
            f = np.round(columns[rouge_type].fmeasure, 6)  # as the page holds them
            assert counts == np.histogram(f, bins=20, range=(0, 1))[0].tolist()
        tops.add(tuple(_plot(driver, chart, "gd._fullLayout.yaxis.range")))
        bar = rect(driver, figure.find_element("css selector", ".modebar"))
        assert not overlap(rect(driver, figure.find_element("css selector", "figcaption")), bar)
    assert len(tops) == 1  # one count axis: the types' charts compare at a glance
    tops_of_charts = {round(rect(driver, f)["top"]) for f in figures}
    assert len(tops_of_charts) == 1  # four types side by side in a 1400-pixel window
    legend = driver.find_elements("css selector", "#legend-distributions .legend-item")
    assert [item.text for item in legend] == [SYSTEM, f"{BASELINE} (baseline)"]
    _shot(driver, shots, "#distributions", "distributions.png")


def test_ids_are_shown_whole(
    driver: Any, named_page: tuple[Path, RougeScorer], shots: Path
) -> None:
    assert not _errors(open_report(driver, named_page[0]))
    cells = driver.find_elements("css selector", "#rows td.id")
    assert len(cells) == 50
    for cell in cells:
        i = int(driver.execute_script("return arguments[0].parentNode.dataset.i", cell))
        assert cell.text == IDS[i]  # what is rendered, not only the DOM text
        assert cell.get_attribute("title") == IDS[i]
        clipped = "return arguments[0].scrollWidth > arguments[0].clientWidth"
        assert not driver.execute_script(clipped, cell), IDS[i]
    # Negative control: a long reference is cut in its cell (its whole text on hover).
    text = driver.find_element("css selector", "#rows tr[data-i='0'] td.text")
    assert driver.execute_script(clipped, text)
    assert text.get_attribute("title") == MANY[0][0]
    _shot(driver, shots, "#records", "table-ids.png")


def test_the_record_table_shows_the_baseline_f_beside_the_delta(
    driver: Any, named_page: tuple[Path, RougeScorer], shots: Path
) -> None:
    path, scorer = named_page
    assert not _errors(open_report(driver, path))
    for k, rouge_type in enumerate(TYPES[:2]):
        driver.execute_script(
            f"const s = document.getElementById('type'); s.value = '{k}';"
            "s.dispatchEvent(new Event('change'))"
        )
        keys = driver.execute_script(
            "return [...document.querySelectorAll('#table-head th')].map(th => th.dataset.key)"
        )
        scores = keys[keys.index(f"f{k}") :]
        assert scores == [f"f{k}", f"g{k}:{BASELINE}", f"d{k}:{BASELINE}"]  # side by side
        heads = [
            driver.find_element("css selector", f"th[data-key='{key}']").text for key in scores
        ]
        assert SYSTEM in heads[0] and BASELINE in heads[1] and rouge_type in heads[2]
        for i in (0, 3, 4):
            target, prediction, baseline = MANY[i]
            mine = scorer.score(target, prediction)[rouge_type].fmeasure
            theirs = scorer.score(target, baseline)[rouge_type].fmeasure
            cells = driver.execute_script(
                f"return [...document.querySelectorAll(\"#rows tr[data-i='{i}'] td\")]"
                ".slice(-3).map(td => td.textContent)"
            )
            delta = round(mine, 6) - round(theirs, 6)
            sign = "+" if delta > 0 else "−" if delta < 0 else "±"
            assert cells == [f"{mine:.4f}", f"{theirs:.4f}", f"{sign}{abs(delta):.4f}"]
    _shot(driver, shots, "#records", "table-baseline.png")


def test_the_record_view_opens_over_a_backdrop(
    driver: Any, named_page: tuple[Path, RougeScorer], shots: Path
) -> None:
    assert not _errors(open_report(driver, named_page[0]))
    hit = "return document.elementFromPoint(arguments[0], arguments[1]).id"
    inside = (
        "return document.getElementById('aligned')"
        ".contains(document.elementFromPoint(arguments[0], arguments[1]))"
    )
    size = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    corners = [(3, 3), (size[0] - 20, size[1] - 3)]  # -20: clear of the scroll bar
    assert all(driver.execute_script(hit, x, y) != "backdrop" for x, y in corners)  # control
    _scroll_to(driver, "#records")
    _click(driver, "#rows tr[data-i='4']")
    backdrop = driver.find_element("id", "backdrop")
    assert backdrop.is_displayed()
    style = driver.execute_script(
        "const s = getComputedStyle(arguments[0]); return [s.position, s.backgroundColor]", backdrop
    )
    assert style[0] == "fixed" and style[1] not in ("rgba(0, 0, 0, 0)", "transparent")
    box = rect(driver, backdrop)
    assert (box["left"], box["top"]) == (0, 0)
    assert box["width"] >= size[0] - 20 and box["height"] >= size[1]
    assert all(driver.execute_script(hit, x, y) == "backdrop" for x, y in corners)
    # Nothing of the page is above it: not the charts' toolbars either.
    _scroll_to(driver, "#leaderboard")
    buttons = [rect(driver, b) for b in driver.find_elements("css selector", ".modebar-btn")]
    seen = [
        (b["left"] + b["width"] / 2, b["top"] + b["height"] / 2)
        for b in buttons
        if 0 < b["top"] < size[1] - b["height"]
    ]
    assert seen  # a toolbar is in the window, under the pop-up or beside it
    assert all(
        driver.execute_script(hit, x, y) == "backdrop" or driver.execute_script(inside, x, y)
        for x, y in seen
    )
    dialog = rect(driver, driver.find_element("id", "aligned"))
    centre = (dialog["left"] + dialog["width"] / 2, dialog["top"] + 20)
    assert driver.execute_script(inside, *centre)  # the pop-up is above the backdrop
    heads = driver.find_elements("css selector", "#aligned-columns h3")
    assert [h.text for h in heads] == ["reference", SYSTEM, f"{BASELINE} (baseline)"]
    assert driver.find_element("id", "aligned-id").text == IDS[4]
    driver.save_screenshot(str(shots / "record-view.png"))
    driver.execute_script("document.elementFromPoint(3, 3).click()")  # a click beside it closes
    assert not backdrop.is_displayed()
    assert not driver.find_element("id", "aligned").is_displayed()
    _click(driver, "#rows tr[data-i='4']")
    from selenium.webdriver.common.keys import Keys

    driver.find_element("tag name", "body").send_keys(Keys.ESCAPE)
    assert not backdrop.is_displayed()


def test_the_leaderboard_says_best_only_in_each_types_best_cell(
    driver: Any, tmp_path: Path, shots: Path
) -> None:
    # "a" ranks first by rouge1 (every word, no bigram); "b" and "c" (equal)
    # have the higher rouge2.
    # "a <i>": a name that is no markup, in the table nor in Plotly's legend.
    systems = {"a <i>": ["mat the on sat cat the today"], "b": ["the cat sat on"]}
    systems["c"] = systems["b"]
    path = tmp_path / "ranked.html"
    write_report(path, RougeScorer(["rouge1", "rouge2"]), ["the cat sat on the mat today"],
                 systems, seed=0, n_samples=50)  # fmt: skip
    assert not _errors(open_report(driver, path))
    rows = driver.find_elements("css selector", "#leaderboard table.board tbody tr")
    marked = {}
    for row in rows:
        cells = row.find_elements("css selector", "td")
        name = cells[1].text
        marked[name] = [
            k for k, cell in enumerate(cells[2:]) if cell.find_elements("css selector", ".best")
        ]
        for cell in cells[2:]:
            for badge in cell.find_elements("css selector", ".best"):
                assert badge.is_displayed() and badge.text == "best"
    assert marked == {"a <i>": [0], "b": [2], "c": [2]}  # rouge1 F, Δ, rouge2 F, Δ
    legend_texts = driver.find_elements("css selector", "#chart-intervals .legend .legendtext")
    assert [t.text for t in legend_texts] == ["a <i>", "b", "c"]
    legend = driver.find_element("css selector", "#board-legend").text
    assert legend.startswith("Ranked by the mean rouge1 F (the first type)")
    headers = [th.text for th in driver.find_elements("css selector", "#leaderboard thead th")]
    assert sum(h.startswith("Δ rank 1") for h in headers) == 2
    _shot(driver, shots, "#leaderboard", "leaderboard-best.png")


def test_the_report_draws_the_rank_stability_under_the_references(
    driver: Any, tmp_path: Path, shots: Path
) -> None:
    targets = [[t, b, p] for t, p, b in ENGLISH]  # three references per record
    systems = {name: [t[k] for t in targets] for k, name in enumerate(["a", "b", "c</script>"])}
    path = tmp_path / "stability.html"
    board = write_report(
        path, RougeScorer(["rouge1"]), targets, systems, seed=0, n_samples=50,
        reference_resamples=200,
    )  # fmt: skip
    assert board.stability is not None and board.stability.samples == 200
    assert not _errors(open_report(driver, path))
    chart = driver.find_element("css selector", "#rank-stability .chart.swaps")
    driver.execute_script("arguments[0].scrollIntoView()", chart)
    assert chart.find_elements("css selector", ".main-svg"), "the heatmap is drawn"
    ticks = [t.text for t in chart.find_elements("css selector", ".ytick text")]
    assert sorted(ticks) == sorted(board.stability.systems) and "c</script>" in ticks
    check_clear_of_the_toolbar(
        driver, driver.find_element("css selector", "#rank-stability figure")
    )
    driver.save_screenshot(str(shots / "report-stability.png"))

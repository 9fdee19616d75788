"""The HTML report's cost: writing it against scoring with the bootstrap, and the page in a browser.

On ``--records`` new generated records a round (default 100,000; Faker's
English sentences, SciTLDR-shaped: ``benchmarks/_text.py``; rouge1, rouge2,
rougeL), measures side by side, as medians of ``--repeats`` rounds of first
runs (CPU time of the process, steadier than wall time on a shared machine,
and wall time):

- ``scoring``: ``score_batch(columnar=True)`` and the bootstrap (1000
  samples), what ``kurenai --aggregate bootstrap`` computes;
- ``report``: ``kurenai.report.write_report`` from the texts: the same
  scoring and bootstrap, the explanations of ``--explain`` records (default:
  the library's 20,000), token counts, JSON and rendering;

and prints their ratio (the goal: at most 2).  Every round is a first run:
records no other round has, a scorer made anew for each contender (untimed),
the two taking turns to go first; the imports are paid on a throwaway
report first.  Then it opens each round's page in
headless Chromium (Debian's ``chromium`` and ``chromium-driver``; skipped
with a note if absent) and measures the load (navigation start to the page's
script being done) and the script time of sorting the table by F, of a text
filter and of opening the aligned view: a page no earlier load opened.
``--tiny`` runs 200 generated records once.

    python benchmarks/bench_report.py [--records N] [--explain N]
                                      [--repeats N] [--implementation python] [--tiny]
"""

from __future__ import annotations

import argparse
import itertools
import shutil
import statistics
import tempfile
from pathlib import Path
from typing import Any, Callable

import numpy as np
from _common import add_common_options, first_runs_wall_and_cpu, header
from _text import fresh_pairs, text_source

from kurenai.report import DEFAULT_EXPLAINED, write_report
from kurenai.rouge_scorer import RougeScorer
from kurenai.stats._bootstrap import bootstrap

TYPES = ["rouge1", "rouge2", "rougeL"]


def pairs(count: int, seed: int) -> tuple[list[str], list[str]]:
    """Round ``seed``'s ``count`` predictions and targets, texts no other
    round has (the benchmarks' fresh-text hook, which
    tests/shipping/test_benchmark_texts.py checks; round 0 is the warm-up)."""
    return fresh_pairs(count, seed=1_000 * seed)


def contenders(
    texts: tuple[list[str], list[str]], page: Path, explain: int
) -> dict[str, Callable[[], object]]:
    """Scoring with the bootstrap and writing the report, each on a scorer
    made anew (untimed) for one round's records."""
    predictions, targets = texts
    scorer, other = RougeScorer(TYPES), RougeScorer(TYPES)

    def scoring() -> None:
        columns = scorer.score_batch(targets, predictions, columnar=True)
        bootstrap({t: np.stack(list(columns[t]), axis=1) for t in TYPES}, 1000, seed=0)

    def report() -> None:
        write_report(page, other, targets, {"system": predictions}, seed=0, explain_limit=explain)

    return {"scoring": scoring, "report": report}


def main() -> None:
    options = _options()
    header(options)
    if options.tiny:
        options.repeats, options.records = 1, 200
    print(
        f"{options.records} new records a round ({text_source()}), types {','.join(TYPES)}, "
        f"explaining {options.explain}; medians of {options.repeats} rounds"
    )
    with tempfile.TemporaryDirectory() as folder:
        # The imports and the first report's one-time costs, on records no round has.
        for run in contenders(pairs(20, 0), Path(folder) / "warm-up.html", 20).values():
            run()
        pages: list[Path] = []
        numbers = itertools.count(1)

        def make(texts: tuple[list[str], list[str]]) -> dict[str, Callable[[], object]]:
            pages.append(Path(folder) / f"report{next(numbers)}.html")
            return contenders(texts, pages[-1], options.explain)

        rounds = [pairs(options.records, k + 1) for k in range(options.repeats)]
        times = first_runs_wall_and_cpu(rounds, make)
        wall = {name: seconds[0] for name, seconds in times.items()}
        cpu = {name: seconds[1] for name, seconds in times.items()}
        ratio = cpu["report"] / cpu["scoring"]
        size = statistics.median(page.stat().st_size for page in pages) / 2**20
        print(f"scoring + bootstrap: {cpu['scoring']:.2f} s CPU ({wall['scoring']:.2f} s wall)")
        print(
            f"report written:      {cpu['report']:.2f} s CPU ({wall['report']:.2f} s wall), "
            f"{ratio:.2f}x scoring (goal <= 2x), {size:.1f} MiB"
        )
        _browser(pages)


def _browser(pages: list[Path]) -> None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        browser = None
    if not browser or not driver_path:
        print("browser: skipped (no chromium/chromedriver or selenium; bash .ci/browser-setup.sh)")
        return
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        loads, sorts, filters, opens = [], [], [], []
        for page in pages:  # each page loaded once: none from the browser's cache
            driver.get(page.resolve().as_uri())
            loads.append(_ms(driver, "return window.kurenaiReport.loadedAt"))
            sorts.append(_timed(driver, "r.sortBy('f0')"))
            filters.append(
                _timed(
                    driver,
                    "document.getElementById('filter').value = 'model'; "
                    "r.state.page = 0; r.refilter(false)",
                )
            )
            opens.append(_timed(driver, "r.open(0)"))
        print(
            f"browser: load {statistics.median(loads):.0f} ms, sort by F "
            f"{statistics.median(sorts):.0f} ms, text filter {statistics.median(filters):.0f} ms, "
            f"aligned view {statistics.median(opens):.1f} ms (medians of {len(loads)})"
        )
    finally:
        driver.quit()


def _ms(driver: Any, script: str) -> float:
    return float(driver.execute_script(script))


def _timed(driver: Any, action: str) -> float:
    script = f"const r = window.kurenaiReport; const t = performance.now(); {action}; "
    return _ms(driver, script + "return performance.now() - t;")


def _options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_options(parser)
    parser.add_argument(
        "--records", type=int, default=100_000, help="new records a round (default 100000)"
    )
    parser.add_argument(
        "--explain",
        type=int,
        default=DEFAULT_EXPLAINED,
        help=f"records explained (default {DEFAULT_EXPLAINED}; -1: all)",
    )
    parser.add_argument("--repeats", type=int, default=3, help="rounds of first runs (default 3)")
    return parser.parse_args()


if __name__ == "__main__":
    main()

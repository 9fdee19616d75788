"""The HTML report's cost: writing it against scoring with the bootstrap, and the page in a browser.

On SciTLDR's test set repeated to ``--records`` records (default 100,000;
rouge1, rouge2, rougeL), measures side by side, as medians of interleaved
repeats (CPU time of the process, steadier than wall time on a shared machine,
and wall time):

- ``scoring``: ``score_batch(columnar=True)`` and the bootstrap (1000
  samples), what ``kurenai --aggregate bootstrap`` computes;
- ``report``: ``kurenai.report.write_report`` from the texts: the same
  scoring and bootstrap, the explanations of ``--explain`` records (default:
  the library's 20,000), token counts, JSON and rendering;

and prints their ratio (the goal: at most 2).  Then it opens the page in
headless Chromium (Debian's ``chromium`` and ``chromium-driver``; skipped
with a note if absent) and measures the load (navigation start to the page's
script being done) and the script time of sorting the table by F, of a text
filter and of opening the aligned view.  ``--tiny`` runs 200 generated
records once.

    python benchmarks/bench_report.py [--data-dir DIR] [--records N] [--explain N]
                                      [--repeats N] [--implementation python] [--tiny]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from _common import (
    add_common_options,
    find_data_dir,
    header,
    interleaved,
    interleaved_times,
    read_jsonl,
    synthetic_pairs,
)

from kurenai.report import DEFAULT_EXPLAINED, write_report
from kurenai.rouge_scorer import RougeScorer
from kurenai.stats._bootstrap import bootstrap

# Not fresh text (benchmarks/_text.py): said in the header of every run.
REPEATS_TEXTS = (
    "each repeat scores the same texts again (a corpus of a few hundred pairs, "
    "or generated pairs reused): warm figures, not a first run's"
)

TYPES = ["rouge1", "rouge2", "rougeL"]


def main() -> None:
    options = _options()
    header(options)
    if options.tiny:
        options.repeats, options.records = 1, 200
        pairs = synthetic_pairs(options.records, 40)
        targets, predictions = [t for t, _ in pairs], [p for _, p in pairs]
        source = "generated"
    else:
        rows = read_jsonl(find_data_dir(options.data_dir) / "en_scitldr_test.jsonl")
        copies = -(-options.records // len(rows))
        rows = (rows * copies)[: options.records]
        targets = [str(r["target"]) for r in rows]
        predictions = [str(r["prediction"]) for r in rows]
        source = "SciTLDR, repeated"
    print(
        f"{len(targets)} records ({source}), types {','.join(TYPES)}, explaining {options.explain}"
    )
    scorer = RougeScorer(TYPES)
    with tempfile.TemporaryDirectory() as folder:
        page = Path(folder) / "report.html"

        def scoring() -> None:
            columns = scorer.score_batch(targets, predictions, columnar=True)
            bootstrap({t: np.stack(list(columns[t]), axis=1) for t in TYPES}, 1000, seed=0)

        def report() -> None:
            write_report(
                page,
                scorer,
                targets,
                {"system": predictions},
                seed=0,
                explain_limit=options.explain,
            )

        contenders = {"scoring": scoring, "report": report}
        # CPU seconds of this process: steadier than wall time on a shared machine.
        runs = interleaved_times(contenders, options.repeats, clock=time.process_time)
        cpu = {name: statistics.median(values) for name, values in runs.items()}
        wall = interleaved(contenders, options.repeats)
        ratio = cpu["report"] / cpu["scoring"]
        print(f"scoring + bootstrap: {cpu['scoring']:.2f} s CPU ({wall['scoring']:.2f} s wall)")
        print(
            f"report written:      {cpu['report']:.2f} s CPU ({wall['report']:.2f} s wall), "
            f"{ratio:.2f}x scoring (goal <= 2x), {page.stat().st_size / 2**20:.1f} MiB"
        )
        _browser(page, options.repeats)


def _browser(page: Path, repeats: int) -> None:
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
        for _ in range(max(1, repeats)):
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
    parser.add_argument("--data-dir", help="folder holding en_scitldr_test.jsonl")
    parser.add_argument("--records", type=int, default=100_000, help="records (default 100000)")
    parser.add_argument(
        "--explain",
        type=int,
        default=DEFAULT_EXPLAINED,
        help=f"records explained (default {DEFAULT_EXPLAINED}; -1: all)",
    )
    parser.add_argument("--repeats", type=int, default=3, help="interleaved repeats (default 3)")
    return parser.parse_args()


if __name__ == "__main__":
    main()

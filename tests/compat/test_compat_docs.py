"""The examples of the migration pages and of the SQL/frames guide run and
print what the pages say (doctest), wherever their optional packages are."""

from __future__ import annotations

import doctest
import importlib
import warnings
from pathlib import Path

import pytest
from optional import missing

DOCS = Path(__file__).resolve().parents[2] / "docs"
# page -> the optional packages its examples import
PAGES = {
    "migrate/pltrdy-rouge.md": (),
    "migrate/rouge-chinese.md": ("jieba",),
    "migrate/rouge-score.md": (),
    "migrate/rouge-score-consumers.md": (),
    "migrate/xl-sum.md": ("jieba", "pyonmttok", "pythainlp", "TurkishStemmer", "punkt"),
    "migrate/torchmetrics.md": ("torch", "torchmetrics"),
    "migrate/ignite.md": ("torch", "ignite"),
    "guides/sql-and-frames.md": ("duckdb", "polars", "pyarrow"),
}


@pytest.mark.parametrize("page", sorted(PAGES))
def test_the_examples_of_the_page_run(page: str) -> None:
    for module in PAGES[page]:
        # Imported quietly first, as kurenai imports an analyser: an old one
        # warns on import (jieba's escapes, where no bytecode was cached),
        # which the suite's -W error would raise at the page's own import.
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                importlib.import_module(module)
        except ImportError:
            missing(f"{page} needs {module}")
    result = doctest.testfile(str(DOCS / page), module_relative=False, verbose=False)
    assert result.attempted > 0
    assert result.failed == 0


def test_every_page_is_tested() -> None:
    pages = {str(p.relative_to(DOCS)) for p in DOCS.glob("*/*.md")}
    assert set(PAGES) <= pages
    assert {p for p in pages if p.startswith("migrate/")} <= set(PAGES)

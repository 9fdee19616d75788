"""The documentation site: the strict build (every link and anchor, every
docstring against its signature), the pages generated from the code, and the
command-line reference hook."""

from __future__ import annotations

import argparse
import html
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from test_install_lines import index_requirements, install_lines

from kurenai.cli._args import _parser

ROOT = Path(__file__).resolve().parents[2]
API = {
    "rouge_scorer": ["RougeScorer.score", "RougeScorer.score_batch", "RougeScorer.score_arrow"],
    "scoring": ["seeded_bootstrap"],
    "tokenizers": ["get_tokenizer", "register_tokenizer", "available_tokenizers"],
    "sentences": ["split_sentences"],
    "metrics": ["compute", "Rouge.add_batch", "Rouge.merge"],
    "spark": ["rouge_score", "rouge_scores", "register"],
}


def _hook() -> ModuleType:
    path = ROOT / "docs" / "_hooks" / "cli_reference.py"
    spec = importlib.util.spec_from_file_location("cli_reference", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _options(parser: argparse.ArgumentParser) -> list[str]:
    return [option for action in parser._actions for option in action.option_strings]


def test_cli_reference_has_every_option_and_help_text() -> None:
    page = (ROOT / "docs" / "reference" / "cli.md").read_text(encoding="utf-8")
    rendered = _hook().on_page_markdown(page, page=None)
    assert "<!-- cli-reference -->" not in rendered
    parser = _parser()
    headings = [f"## {group.title.capitalize()}" for group in parser._action_groups[2:]]
    assert all(heading in rendered for heading in headings), headings
    for action in parser._actions:
        for option in action.option_strings:
            assert f"`{option}" in rendered or f", {option}" in rendered, option
    # Help text is escaped: \n stays two characters, brackets stay text.
    assert r"read \\n as a newline" in rendered
    assert r"`--fail-under TYPE=VALUE[,...]`" in rendered


def test_other_pages_pass_through_the_hook() -> None:
    assert _hook().on_page_markdown("# Title\n", page=None) == "# Title\n"


@pytest.mark.slow
def test_site_builds_strictly(tmp_path: Path) -> None:
    if os.environ.get("CI") != "true":
        pytest.importorskip("mkdocs", reason="the docs extra: pip install -e '.[docs]'")
    site = tmp_path / "site"
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    cli = (site / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    assert all(option in cli for option in _options(_parser()))
    for module, members in API.items():
        page = (site / "reference" / "api" / module / "index.html").read_text(encoding="utf-8")
        for member in members:
            assert f'id="kurenai.{module}.{member}"' in page, (module, member)
        # The docstrings' install lines install this project too.
        text = html.unescape(re.sub(r"<[^>]+>", "", page))
        assert not [line for line in install_lines(text) if index_requirements(line)], module
    pages = sorted(p.relative_to(ROOT / "docs") for p in (ROOT / "docs").rglob("*.md"))
    for page in pages:
        built = site / page.with_suffix("") / "index.html"
        assert built.is_file() or (site / page.parent / "index.html").is_file(), page


def test_docstring_doctests_are_fenced_and_fenced_ones_left_alone() -> None:
    fence = _hook().fence_doctests
    docstring = ["Text.", "", ">>> f(1)", "2", "", "More."]
    assert fence(docstring) == ["Text.", "", "```pycon", ">>> f(1)", "2", "```", "", "More."]
    page = ["```python", ">>> f(1)", "2", "", "```", ">>> g()"]
    assert fence(page) == [*page[:5], "```pycon", ">>> g()", "```"]

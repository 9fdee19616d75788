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
    "frames": ["duckdb.register", "polars.RougeNamespace"],
    "compat": ["Rouge", "patch_rouge_score", "rouge_chinese.Rouge", "xlsum.calculate_rouge"],
    "explain": ["explain", "Explanation"],
    "report": ["write_report", "leaderboard"],
    "rouge155": ["evaluate", "Rouge155"],
    "signature": ["Signature"],
}
# Public modules documented elsewhere: the command line by docs/reference/cli.md.
NOT_IN_API = {"kurenai.cli"}


def _hook() -> ModuleType:
    path = ROOT / "docs" / "_hooks" / "cli_reference.py"
    spec = importlib.util.spec_from_file_location("cli_reference", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _options(parser: argparse.ArgumentParser) -> list[str]:
    return [option for action in parser._actions for option in action.option_strings]


def test_cli_reference_page_is_current() -> None:
    """docs/reference/cli.md is what the script writes from today's parsers."""
    page = (ROOT / "docs" / "reference" / "cli.md").read_text(encoding="utf-8")
    assert page == _hook().page(), "stale: run python docs/_hooks/cli_reference.py"


def test_cli_reference_has_every_option_and_help_text() -> None:
    rendered = _hook().page()
    parser = _parser()
    headings = [f"## {group.title.capitalize()}" for group in parser._action_groups[2:]]
    assert all(heading in rendered for heading in headings), headings
    parsers = [parser, *(sub for _, _, sub in _hook().subcommands() if sub is not None)]
    for each in parsers:
        for action in each._actions:
            for option in action.option_strings:
                assert f"`{option}" in rendered or f", {option}" in rendered, option
    # Every subcommand has its section.
    from kurenai.cli._commands import COMMANDS

    for name in COMMANDS:
        assert f"## `kurenai {name}`" in rendered, name
    # Help text is escaped: \\n stays two characters, brackets stay text.
    assert r"read \\n as a newline" in rendered
    assert r"`--fail-under TYPE=VALUE[,...]`" in rendered


def test_a_stale_cli_reference_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hook = _hook()
    monkeypatch.setattr(hook, "PAGE", tmp_path / "cli.md")
    (tmp_path / "cli.md").write_text(hook.page().replace("--seed", "--sead"), encoding="utf-8")
    assert hook.main(["--check"]) == 1
    assert hook.main([]) == 0 and hook.main(["--check"]) == 0


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


def test_a_release_publishes_the_strict_build() -> None:
    """.github/workflows/docs.yml builds the site as the suite and .ci/run do
    (strict), after checking the command-line page, on each published release."""
    workflow = (ROOT / ".github" / "workflows" / "docs.yml").read_text(encoding="utf-8")
    on = workflow.split("\non:\n", 1)[1].split("\n\n", 1)[0]
    assert "  release:\n    types: [published]" in on
    steps = [line.strip() for line in workflow.splitlines() if line.strip().startswith("run:")]
    assert steps == [
        'run: python -m pip install -e ".[docs]"',
        "run: python docs/_hooks/cli_reference.py --check",
        "run: python -m mkdocs build --strict --site-dir site",
    ]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python -m mkdocs build --strict" in ci
    assert "actions/deploy-pages@" in workflow and "path: site" in workflow
    site_url = re.search(r"^site_url: (\S+)$", (ROOT / "mkdocs.yml").read_text(), re.M)
    assert site_url is not None and site_url.group(1) in workflow


def test_every_public_module_is_in_the_api_reference() -> None:
    pages = "".join(
        p.read_text(encoding="utf-8") for p in (ROOT / "docs" / "reference" / "api").glob("*.md")
    )
    documented = set(re.findall(r"^::: (kurenai[\w.]*)$", pages, flags=re.M))
    package = ROOT / "kurenai"
    public = {f"kurenai.{p.stem}" for p in package.glob("*.py") if not p.stem.startswith("_")}
    public |= {f"kurenai.{p.parent.name}" for p in package.glob("[!_]*/__init__.py")}
    covered = {m for m in public if any(d == m or d.startswith(m + ".") for d in documented)}
    assert public - NOT_IN_API - covered == set()
    # Each page is listed in the site's navigation.
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in (ROOT / "docs" / "reference" / "api").glob("*.md"):
        assert f"reference/api/{page.name}" in nav, page.name

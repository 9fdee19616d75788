"""Install lines in README.md and docs/ install this project where it can be
checked (a checkout, a wheel built from one), never the package index's
``kurenai`` (0.1.0, the thin wrapper this project grew from) nor a ``git+`` URL
of the repository, which nothing here can check."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
# "pip install ...", "%pip install", "python -m pip install", "uv pip install",
# up to the end of the line, a code span or a shell separator.
INSTALL = re.compile(r"(?:^|[\s`(%])(?:uv\s+)?pip3?\s+install\s+([^`\n;|&)]*)", re.M)
# Options whose next word is their value, not a requirement.
VALUED = {"-r", "--requirement", "-c", "--constraint", "-i", "--index-url",
          "--extra-index-url", "-f", "--find-links", "-t", "--target", "-d", "--dest"}  # fmt: skip
# The project named alone, with extras or a version: what the index would serve.
BY_NAME = re.compile(r"kurenai(\[[^\]]*\])?\s*([<>=!~].*)?", re.I)


def index_requirements(arguments: str) -> list[str]:
    """The requirements of one ``pip install`` that pip would fetch from the
    package index as kurenai (``kurenai``, ``'kurenai[ja]'``, ``kurenai>=0.2``)."""
    try:
        words = shlex.split(arguments, comments=True)
    except ValueError:  # an unbalanced quote cut off by a code span
        words = arguments.split()
    found, skip = [], False
    for word, after in zip(words, [*words[1:], ""]):
        if skip or word.startswith("-"):
            skip = not skip and word in VALUED
            continue
        # "kurenai[ja] @ git+https://...": a direct reference, not the index.
        if BY_NAME.fullmatch(word.strip("'\"")) and not after.startswith("@"):
            found.append(word.strip("'\""))
    return found


def install_lines(text: str) -> list[str]:
    return [match.group(1) for match in INSTALL.finditer(text)]


@pytest.mark.parametrize(
    ("line", "fetched"),
    [
        ("pip install kurenai", ["kurenai"]),
        ("%pip install 'kurenai[spark]'", ["kurenai[spark]"]),
        ("python -m pip install -U 'kurenai[ja,zh]>=0.2' venv-pack", ["kurenai[ja,zh]>=0.2"]),
        ("uv pip install KURENAI", ["KURENAI"]),
        ("pip install -e '.[spark]'", []),
        ("pip install -e . && python -m kurenai --help", []),
        ("pip install 'kurenai[ja] @ git+https://github.com/kurenai-rouge/kurenai'", []),
        ("pip install 'kurenai[ja] @", []),  # a code span broken across lines
        ("pip install -r kurenai venv-pack  # a requirements file named kurenai", []),
        ("pip install kurenai-tools", []),
    ],
)
def test_the_check_tells_index_installs_from_project_installs(
    line: str, fetched: list[str]
) -> None:
    [arguments] = install_lines(line)
    assert index_requirements(arguments) == fetched


def test_no_install_line_fetches_the_index_kurenai() -> None:
    checked, offending = 0, []
    for page in PAGES:
        for arguments in install_lines(page.read_text(encoding="utf-8")):
            checked += 1
            offending += [f"{page.relative_to(ROOT)}: pip install {arguments.strip()}"] * bool(
                index_requirements(arguments)
            )
    assert checked >= 10, "the pages' install lines were not found"
    assert offending == []


def test_no_install_line_points_at_the_repository() -> None:
    offending = [
        f"{page.relative_to(ROOT)}: pip install {arguments.strip()}"
        for page in PAGES
        for arguments in install_lines(page.read_text(encoding="utf-8"))
        if "git+" in arguments
    ]
    assert offending == []

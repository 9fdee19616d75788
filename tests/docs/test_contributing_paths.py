"""Every file CONTRIBUTING.md names exists: a recipe that lists a moved or
renamed file sends the next contributor to nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("kurenai/", "tests/", "docs/", "benchmarks/", "examples/", ".ci/")
EXTENSIONS = (".py", ".pyx", ".pxd", ".pyi", ".h", ".md", ".toml", ".txt", ".in", ".yml")


def named_paths(text: str) -> list[str]:
    """The paths in ``text``'s code (its fenced blocks, then its code spans,
    commands' words included): a word under one of the checkout's folders, or
    a file name with an extension; ``path::function`` names a test.  Spans may
    break across lines; placeholders (``<module>``), globs and bare suffixes
    (``.pyi``) are not paths."""
    fences = re.findall(r"^```[^\n]*\n(.*?)^```", text, re.M | re.S)
    prose = re.sub(r"^```[^\n]*\n.*?^```", "", text, flags=re.M | re.S)
    paths = []
    for span in fences + re.findall(r"`([^`]+)`", prose):
        joined = re.sub(r"::\s+", "::", span)  # a test name wrapped after its ``::``
        for word in joined.split():
            word = word.strip("(),;:")
            if any(mark in word for mark in "<>*{}="):
                continue
            named = word.startswith(FOLDERS) or word.split("::")[0].endswith(EXTENSIONS)
            if named and (word.startswith(".ci/") or not word.startswith(".")):
                paths.append(word)
    return paths


def missing(path: str) -> bool:
    file, _, function = path.partition("::")
    if "/" in file:
        found = [ROOT / file]
    else:  # a bare name, in a sentence that has just named its folder
        found = [p for folder in ("kurenai", "tests") for p in (ROOT / folder).rglob(file)]
        found += [ROOT / file]
    found = [p for p in found if p.exists()]
    if not found:
        return True
    if function:
        return not any(f"def {function}(" in p.read_text(encoding="utf-8") for p in found)
    return False


def test_the_path_finder_sees_what_a_recipe_writes() -> None:
    text = (
        "1. `kurenai/_core/kinds.py`: then `_fused_pair.pxd`, `kurenai/_variants.pyx`/`.pxd`, "
        "`tests/core/test_names.py::\n   test_each_kind_names_its_types_in_its_own_grammar`, "
        "`kurenai/tokenizers/<module>.py`, `python -m pytest -q tests/core/test_plan.py`, "
        "`kurenai/_fused_scan.pxd`, `tests/core/test_names.py::test_that_is_not_there`."
    )
    paths = named_paths(text)
    assert paths == [
        "kurenai/_core/kinds.py",
        "_fused_pair.pxd",
        "kurenai/_variants.pyx",
        "tests/core/test_names.py::test_each_kind_names_its_types_in_its_own_grammar",
        "tests/core/test_plan.py",
        "kurenai/_fused_scan.pxd",
        "tests/core/test_names.py::test_that_is_not_there",
    ]
    assert [path for path in paths if missing(path)] == [
        "kurenai/_fused_scan.pxd",  # moved to kurenai/_kernels/
        "tests/core/test_names.py::test_that_is_not_there",
    ]


@pytest.mark.parametrize("document", ["CONTRIBUTING.md"])
def test_every_path_the_guide_names_exists(document: str) -> None:
    paths = named_paths((ROOT / document).read_text(encoding="utf-8"))
    assert len(paths) > 50, "the guide names its files in code spans"
    assert [path for path in paths if missing(path)] == []

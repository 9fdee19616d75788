"""The examples of the guide page run as written."""

from __future__ import annotations

import doctest
from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "docs" / "guides" / "perl-rouge155.md"


def test_the_guide_examples_give_their_outputs() -> None:
    result = doctest.testfile(str(PAGE), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 8
    assert result.failed == 0

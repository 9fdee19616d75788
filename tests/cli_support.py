"""What the CLI test modules share: calling ``cli.main`` in process."""

from __future__ import annotations

from typing import Callable, NamedTuple

import pytest

from kurenai import cli


class Result(NamedTuple):
    code: int
    out: str
    err: str


Run = Callable[..., Result]


def call_main(capsys: pytest.CaptureFixture[str], *argv: str) -> Result:
    """``cli.main(argv)``'s exit code with what it wrote to stdout and stderr."""
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return Result(code, captured.out, captured.err)

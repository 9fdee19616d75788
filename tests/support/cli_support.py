"""What the CLI test modules share: calling ``cli.main`` in process."""

from __future__ import annotations

import re
import sys
from typing import Callable, NamedTuple

import pytest

from kurenai import cli

# The line every successful run ends with on stderr (unless --quiet): the
# records' time, then the loading's (when it took 10 ms or more) and the
# bootstrap's or the comparison's (when there was one).
SUMMARY = re.compile(
    r"kurenai: (\d+) records in \d+\.\d\d s \(\d+ records/s\)"
    r"(?:; loading \d+\.\d\d s)?(?:; (?:bootstrap|comparison) \d+\.\d\d s)?\n"
)


def punctuation_note(word: str) -> str:
    """The note on stderr of a run of the default tokenizer whose first ASCII
    word with punctuation glued to it is ``word``."""
    return (
        f"kurenai: note: the default tokenizer (whitespace) keeps punctuation on words "
        f"({word!r} does not match {word.strip('.,!?')!r}); --tokenizer rouge-score gives "
        "rouge-score's numbers\n"
    )


# A process started from a background job (``pytest &``, CI runners) inherits
# SIGINT as ignored, and Python then keeps ignoring it instead of raising
# KeyboardInterrupt: the launcher puts SIGINT back to its default and execs.
_DEFAULT_SIGINT = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])"
)


def kurenai_command(*argv: str) -> list[str]:
    """``python -u -m kurenai *argv`` with SIGINT at its default (POSIX),
    so that a test's SIGINT interrupts it however pytest was started."""
    return [sys.executable, "-c", _DEFAULT_SIGINT, "-u", "-m", "kurenai", *argv]


class Result(NamedTuple):
    code: int
    out: str
    err: str


Run = Callable[..., Result]


def call_main(capsys: pytest.CaptureFixture[str], *argv: str) -> Result:
    """``cli.main(argv)``'s exit code with what it wrote to stdout and stderr.

    The summary line is checked (one, on success only) and left out of
    ``err``, so that tests compare the rest exactly.
    """
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return Result(code, captured.out, without_summary(captured.err, code))


def without_summary(err: str, code: int) -> str:
    """``err`` without its summary line, which a run that scored must have
    (exit 0 or 3) unless it was ``--quiet``."""
    lines = err.splitlines(keepends=True)
    summaries = [i for i, line in enumerate(lines) if SUMMARY.fullmatch(line)]
    assert len(summaries) <= 1, err
    if code not in (0, 3):
        assert not summaries, err
    return "".join(line for i, line in enumerate(lines) if i not in summaries)

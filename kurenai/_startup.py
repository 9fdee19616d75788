"""The command line's first moments: SIGINT during its imports is one line.

``python -m kurenai`` (or the ``kurenai`` script) imports NumPy, the
compiled modules and the facade before ``kurenai.cli.main`` can catch
anything: a Ctrl-C then printed a traceback from whichever import was
running.  Imported first by the package, this module makes SIGINT end such a
start with ``kurenai: interrupted`` and exit status 130 (nothing is written
yet); ``main`` puts Python's handler back (:func:`started`: its
KeyboardInterrupt cleans up).  Only the command line's own process is
touched: a program that imports kurenai (``python -m pkg.run``, ``python -m
kurenai.compat.patched user.py``), or a SIGINT that is ignored or handled, is
left alone.
"""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType


def interrupted(signum: int, frame: FrameType | None) -> None:
    """SIGINT while the command line starts: one line on stderr, exit 130."""
    os.write(2, b"kurenai: interrupted\n")
    os._exit(130)


# The modules ``python -m`` runs as one of kurenai's command lines.  Not
# kurenai.compat.patched: it runs the user's program, whose Ctrl-C is its own.
COMMAND_LINES = ("kurenai", "kurenai.rouge155", "kurenai.compat")


def started() -> None:
    """A command line's ``main`` has started: SIGINT raises KeyboardInterrupt
    again (its ``except`` cleans up), if :func:`interrupted` was the handler."""
    if signal.getsignal(signal.SIGINT) is interrupted:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def running_module(command: list[str]) -> str | None:
    """The module of ``python [options] -m MODULE ...`` (``sys.orig_argv``),
    or None for a script, ``-c`` or the interactive interpreter.

    >>> running_module(["python3", "-X", "dev", "-u", "-m", "kurenai", "--help"])
    'kurenai'
    >>> running_module(["python", "-Im", "pkg.run"]), running_module(["python", "-c", "-m"])
    ('pkg.run', None)
    """
    words = iter(command[1:])
    for word in words:
        if word == "-" or not word.startswith("-") or word == "--":
            return None
        if word.startswith("--"):  # --check-hash-based-pycs MODE takes a value
            if word == "--check-hash-based-pycs":
                next(words, None)
            continue
        for at, flag in enumerate(word[1:], 1):
            if flag in "cmWX":  # the rest of the word, or the next one, is its value
                value = word[at + 1 :] or next(words, "")
                if flag == "m":
                    return value
                if flag == "c":
                    return None
                break
    return None


def _command() -> list[str]:
    """The interpreter's own command line: ``sys.orig_argv`` (3.10+), else
    /proc/self/cmdline where there is one."""
    original = getattr(sys, "orig_argv", None)
    if original is not None:
        return list(original)
    try:
        with open("/proc/self/cmdline", "rb") as stream:
            return [os.fsdecode(word) for word in stream.read().split(b"\0")[:-1]]
    except OSError:
        return []


def _starting_the_command_line() -> bool:
    """Whether this process is one of kurenai's command lines starting:
    ``python -m kurenai`` (or its ``rouge155``, ``compat``) or the console
    script.  A program that imports kurenai (``python -m pkg.run``) is not."""
    program = sys.argv[0] if sys.argv else ""
    if os.path.basename(program) == "kurenai":  # the console script
        return True
    # Under ``python -m``, sys.argv[0] is "-m" until the module itself runs.
    return program == "-m" and running_module(_command()) in COMMAND_LINES


if _starting_the_command_line() and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
    signal.signal(signal.SIGINT, interrupted)

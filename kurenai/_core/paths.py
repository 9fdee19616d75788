"""The command lines' output files, checked against their inputs before anything is read.

:func:`check_outputs` is the one check every command line runs on the files
it will write (``kurenai``'s ``--output`` and ``--report``, files2rouge's
``--saveto``): each must be writable (not a directory, in a directory that
exists), none may be an input (also through a symbolic or hard link), and no
two may be the same file (or both stdout).  A refusal is an
:class:`OutputClash` naming the option at fault.

>>> try:
...     check_outputs([("--report", "out.csv"), ("--output", "out.csv")], [])
... except OutputClash as error:
...     print(error)
--output out.csv and --report out.csv are the same file; give each its own
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Sequence

__all__ = ["OutputClash", "check_outputs"]

STDOUT = "-"


class OutputClash(ValueError):
    """An output file that cannot be written, or would destroy an input or another output."""


def check_outputs(outputs: Sequence[tuple[str, str]], inputs: Iterable[str]) -> None:
    """Raise :class:`OutputClash` unless every ``(option, path)`` of
    ``outputs`` can be written without replacing an input or another output.

    ``-`` is stdout (for an input, stdin): it clashes with no file, only with
    another output to stdout.  Nothing is created or read.
    """
    inputs = [name for name in inputs if name != STDOUT]
    seen: list[tuple[str, str, object]] = []  # (option, path, identity)
    for option, path in outputs:
        identity = STDOUT if path == STDOUT else _writable(option, path, inputs)
        for other_option, other_path, other in seen:
            if identity == other:
                first, second = sorted([(option, path), (other_option, other_path)])
                both = "both write to stdout" if path == STDOUT else "are the same file"
                raise OutputClash(
                    f"{first[0]} {first[1]} and {second[0]} {second[1]} {both}; give each its own"
                )
        seen.append((option, path, identity))


def _writable(option: str, path: str, inputs: Sequence[str]) -> object:
    """What identifies the file ``path`` names, after checking it can be written."""
    try:
        info: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise OutputClash(f"cannot write {option} {path}: {error.strerror}") from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise OutputClash(f"cannot write {option} {path}: it is a directory")
    if not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        raise OutputClash(f"cannot write {option} {path}: No such file or directory")
    if info is None:  # a new file: named by where it will be
        return os.path.realpath(path)
    if not stat.S_ISREG(info.st_mode):  # a FIFO or a device is written into, never replaced
        return ("device", option)
    for name in inputs:
        try:
            other = os.stat(name)
        except OSError:
            continue
        if (other.st_dev, other.st_ino) == (info.st_dev, info.st_ino):
            raise OutputClash(f"{option} {path} is the input file {name}; refusing to replace it")
    return (info.st_dev, info.st_ino)

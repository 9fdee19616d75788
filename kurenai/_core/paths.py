"""The command lines' output files, checked against their inputs before anything is read.

:func:`check_outputs` is the one check every command line runs on the files
it will write (``kurenai``'s ``--output`` and ``--report``, files2rouge's
``--saveto``): each must be writable (not a directory, in a directory that
exists), none may be an input (also through a symbolic or hard link), and no
two may be the same file (or both stdout).  A refusal is an
:class:`OutputClash` naming the option at fault.  :func:`atomic_output` is how
every command line writes a file: under a temporary name, renamed at the end,
so that a failed or interrupted run leaves an existing file intact (a FIFO or
a device is written directly); the temporary file is named before it is made,
so that a signal at any moment finds it.

>>> try:
...     check_outputs([("--report", "out.csv"), ("--output", "out.csv")], [])
... except OutputClash as error:
...     print(error)
--output out.csv and --report out.csv are the same file; give each its own
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import stat
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, Any

from kurenai._core.runner import CommandError, usable

__all__ = [
    "MAX_LINE_BYTES",
    "OutputClash",
    "atomic_output",
    "check_outputs",
    "line_too_long",
    "read_lines",
]

# The longest line a command line reads (--max-line-bytes): a longer one is
# refused as it is read, before it is held whole (/dev/zero is one line).
MAX_LINE_BYTES = 1 << 28
_CHUNK = 1 << 16

_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)

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


@contextlib.contextmanager
def atomic_output(path: str) -> Iterator[IO[str]]:
    """A text stream that becomes ``path`` only if the block succeeds.

    A regular file is written under a temporary name in the same directory
    and renamed over ``path`` at the end; ``-`` means stdout, and a FIFO or
    device is opened and written directly.
    """
    if path == "-":
        stdout = sys.stdout
        if not usable(stdout):
            raise CommandError("cannot write the output: stdout is closed")
        yield stdout
        stdout.flush()
        return
    if _is_special(path):
        try:
            special = open(path, "w", encoding="utf-8", newline="")  # noqa: SIM115
        except OSError as error:
            raise CommandError(f"cannot write {path}: {error.strerror}") from None
        with special:
            yield special
        return
    with _temporary(path) as stream:
        yield stream


@contextlib.contextmanager
def _temporary(path: str) -> Iterator[IO[str]]:
    """The temporary file of ``path``: named before it exists, so that an
    interrupt at any moment (a signal can raise in the main thread even while
    it is held there: a BLAS or worker thread takes it) finds it recorded and
    removes it."""
    directory = os.path.dirname(os.path.abspath(path))
    temporary = os.path.join(directory, f".{os.path.basename(path)}.{secrets.token_hex(8)}.tmp")
    created = False
    try:
        # O_EXCL: the name is ours only if the file is new (never an existing
        # file or a link planted under the name).
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW, 0o600)
        created = True
        with open(fd, "w", encoding="utf-8", newline="") as stream:
            yield stream
        os.chmod(temporary, _mode_for(path))
        os.replace(temporary, path)
    except BaseException as error:
        if isinstance(error, OSError) and not created:
            raise CommandError(f"cannot write {path}: {error.strerror}") from None
        # Also when interrupted before ``created`` was set: the name is
        # random, so a file under it is the one just made.
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _is_special(path: str) -> bool:
    """A FIFO, character or block device: something to write into, not replace."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISBLK(mode)


def _mode_for(path: str) -> int:
    """The existing file's permissions, or what ``open(path, "w")`` would give."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        mask = os.umask(0)  # the only way to read the umask
        os.umask(mask)
        return 0o666 & ~mask


def line_too_long(name: str, number: int, limit: int) -> CommandError:
    """Every command line's refusal of line ``number`` of ``name`` over ``--max-line-bytes``."""
    return CommandError(f"{name}: line {number}: longer than {limit:,} bytes (--max-line-bytes)")


def json_object(line: str, path: str, number: int) -> dict[str, Any]:
    """Line ``number`` of the JSONL file ``path`` as the JSON object it must
    be, else every command line's one-line refusal naming the place.

    >>> json_object('[1, 2]', "in.jsonl", 3)
    Traceback (most recent call last):
    kurenai._core.runner.CommandError: in.jsonl:3: not a JSON object
    """
    try:
        record = json.loads(line)
    except json.JSONDecodeError as error:
        raise CommandError(f"{path}:{number}: not JSON ({error.msg})") from None
    if not isinstance(record, dict):
        raise CommandError(f"{path}:{number}: not a JSON object")
    return record


def read_lines(path: str, max_line_bytes: int = MAX_LINE_BYTES) -> Iterator[tuple[int, str]]:
    """The numbered lines of the UTF-8 file ``path`` (without their line
    break), none held beyond ``max_line_bytes``: a longer line is refused
    (:func:`line_too_long`) as it is read, as is text that is no UTF-8.

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as file:
    ...     _ = file.write("one\\n" + "x" * 10 + "\\n")
    >>> list(read_lines(file.name, 5))
    Traceback (most recent call last):
    kurenai._core.runner.CommandError: ...: line 2: longer than 5 bytes (--max-line-bytes)
    """
    with open(path, "rb") as stream:
        number = 0
        while raw := stream.readline(max_line_bytes + 1):
            number += 1
            body = raw[:-1] if raw.endswith(b"\n") else raw
            if len(body) > max_line_bytes:
                raise line_too_long(path, number, max_line_bytes)
            try:
                yield number, body.decode("utf-8")
            except UnicodeDecodeError as error:
                raise CommandError(
                    f"{path}: line {number}: not UTF-8 (byte {error.start + 1})"
                ) from None

"""The command line's output file: checked before reading, replaced atomically.

:func:`check_outputs` refuses, before any input is read, an output that is a
directory, that cannot be created, that is one of the input files (also
through a symbolic or hard link) or another output.  :func:`atomic_output` writes a regular
file under a temporary name and renames it at the end, so a failed or
interrupted run leaves an existing file intact; a FIFO or a character device
(``/dev/null``, ``/dev/stdout``) is written directly.  :func:`signals_raise`
turns SIGTERM and SIGHUP into an exception, so the temporary file is removed
on those too; the temporary file is named before it is made, so that a
signal at any moment finds it.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import signal
import stat
import sys
from collections.abc import Iterable, Iterator
from types import FrameType
from typing import IO

from kurenai._core import paths as _paths
from kurenai.cli._sources import CliError

_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)

__all__ = ["Terminated", "atomic_output", "check_outputs", "signals_raise", "stderr_line", "usable"]


class Terminated(BaseException):
    """A termination signal arrived; the exit code is 128 + its number.

    A BaseException, like KeyboardInterrupt, so that no ``except Exception``
    on the way swallows it.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def check_outputs(args: argparse.Namespace, inputs: Iterable[str]) -> None:
    """Raise CliError, before any input is read, if an output the run will
    write (``--output``, ``--report``) cannot be written, is one of
    ``inputs`` or is another output: :func:`kurenai._core.paths.check_outputs`."""
    outputs = [("--output", args.output)]
    if getattr(args, "report", None) is not None:
        outputs.append(("--report", args.report))
    try:
        _paths.check_outputs(outputs, inputs)
    except _paths.OutputClash as error:
        raise CliError(str(error)) from None


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
            raise CliError("cannot write the output: stdout is closed")
        yield stdout
        stdout.flush()
        return
    if _is_special(path):
        try:
            special = open(path, "w", encoding="utf-8", newline="")  # noqa: SIM115
        except OSError as error:
            raise CliError(f"cannot write {path}: {error.strerror}") from None
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
            raise CliError(f"cannot write {path}: {error.strerror}") from None
        # Also when interrupted before ``created`` was set: the name is
        # random, so a file under it is the one just made.
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


@contextlib.contextmanager
def signals_raise() -> Iterator[None]:
    """Inside the block, SIGTERM and SIGHUP raise :class:`Terminated`.

    Only in the main thread (the only one that may set handlers); the
    previous handlers come back afterwards.
    """
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    wanted = [getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)]
    previous = {signum: signal.signal(signum, _raise) for signum in wanted}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def usable(stream: IO[str] | None) -> bool:
    """Whether ``stream`` can be written: Python sets ``sys.stdout`` or
    ``sys.stderr`` to None when the process starts with that descriptor closed
    (``kurenai ... >&-``)."""
    return stream is not None and not stream.closed


def stderr_line(line: str) -> None:
    """Write ``line`` to stderr, or nowhere if stderr is closed: ``print``
    to a None stderr would write it into stdout, among the scores."""
    stream = sys.stderr
    if not usable(stream):
        return
    with contextlib.suppress(OSError, ValueError):  # a stderr gone away: nowhere to say it
        print(line, file=stream, flush=True)


def _raise(signum: int, frame: FrameType | None) -> None:
    raise Terminated(signum)


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

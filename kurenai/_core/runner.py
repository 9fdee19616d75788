"""The command lines' one runner: one exit-status table, one rule for interrupts.

Every command line (``kurenai``, ``kurenai correlate``, ``kurenai xlsum``,
``kurenai rouge``/``rouge-chinese``, ``kurenai rouge155`` and its
``files2rouge``, ``python -m kurenai.compat.patched``) is
``run(prog, body)``: ``body`` parses with :class:`kurenai._core.parsers.Parser`
(a usage error raises, never exits), checks every option before reading any
input, and returns its status.  What ends a run, and how, is written here once:

==========  ===========================================================
status      meaning
==========  ===========================================================
0           success (also ``--help``, ``--version``)
1           an input or output at fault, a missing extra, no memory
2           a usage error: an option, its value or a combination
3           a score below the command's gate (``--fail-under``; a
            leaderboard's first system significantly worse)
130         interrupted (Ctrl-C, SIGINT)
128 + N     ended by signal N: SIGTERM 143, SIGHUP 129, and 141 when
            the reader of the output went away (SIGPIPE, ``| head``)
==========  ===========================================================

Each failure is one line on stderr, ``PROG: error: ...`` (``PROG:
interrupted``); a file the run writes is written whole or not at all
(:func:`kurenai._core.paths.atomic_output`).  rouge155 keeps ROUGE-1.5.5.pl's
own statuses for its refusals (they are the script's contract).

>>> run("demo", lambda: fail(CommandError("no records in t.txt")))
1
"""

from __future__ import annotations

import _thread
import contextlib
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from types import FrameType
from typing import IO, NoReturn

from kurenai import _startup

__all__ = [
    "BELOW_GATE",
    "EXIT_STATUS",
    "FAILED",
    "INTERRUPTED",
    "OK",
    "USAGE",
    "CommandError",
    "ExitRequest",
    "Terminated",
    "counts_differ",
    "fail",
    "run",
    "signals_raise",
    "stderr_line",
    "usable",
]

OK, FAILED, USAGE, BELOW_GATE, INTERRUPTED = 0, 1, 2, 3, 130
_SIGPIPE = getattr(signal, "SIGPIPE", 13)
# The table in one paragraph, for each command's --help and docstring.
EXIT_STATUS = (
    "exit status: 0 success, 1 bad input or output file (or a missing extra), 2 usage "
    f"error, {BELOW_GATE} a score below the command's gate, 128+N ended by signal N "
    f"(130: Ctrl-C; {128 + _SIGPIPE}: the output's reader went away)."
)


class CommandError(Exception):
    """A failure the user can fix, one line; ``exit_code`` 2 is a usage error."""

    def __init__(self, message: str, exit_code: int = FAILED) -> None:
        super().__init__(message)
        self.exit_code = exit_code


class ExitRequest(Exception):
    """``--help`` or ``--version`` is done: the run ends with ``code``."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class Terminated(BaseException):
    """A termination signal arrived; the exit code is 128 + its number.

    A BaseException, like KeyboardInterrupt, so that no ``except Exception``
    on the way swallows it.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def fail(error: BaseException) -> NoReturn:
    """Raise ``error`` (for lambdas and one-line bodies)."""
    raise error


def counts_differ(first: str, first_count: int, second: str, second_count: int) -> CommandError:
    """The one refusal of two sides whose records do not pair up (status 1),
    on every command line.

    >>> str(counts_differ("p.txt", 3, "r.txt", 2))
    'p.txt has 3 records but r.txt has 2'
    """
    return CommandError(f"{first} has {first_count} records but {second} has {second_count}")


def run(
    prog: str,
    body: Callable[[], int],
    failures: tuple[type[BaseException], ...] = (OSError,),
) -> int:
    """``body()``'s status, every way it can end mapped to the table above.

    ``failures``: the exceptions that are an input's fault here (status 1,
    their message on one line); any other escapes as a bug would.
    """
    _startup.started()  # SIGINT is KeyboardInterrupt from here on
    try:
        with signals_raise():
            return body()
    except ExitRequest as done:
        return done.code
    except CommandError as error:
        hint = " (see --help)" if error.exit_code == USAGE else ""
        stderr_line(f"{prog}: error: {error}{hint}")
        return error.exit_code
    except KeyboardInterrupt:
        stderr_line(f"{prog}: interrupted")
        return INTERRUPTED
    except Terminated as killed:
        stderr_line(f"{prog}: terminated by signal {killed.signum}")
        return 128 + killed.signum
    except BrokenPipeError:
        # The reader went away (``... | head``): stop quietly, and keep Python
        # from complaining again when it flushes stdout at exit.
        if usable(sys.stdout):
            with contextlib.suppress(OSError, ValueError, AttributeError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + _SIGPIPE
    except MemoryError:
        stderr_line(f"{prog}: error: out of memory (a smaller input, or --max-chars, needs less)")
        return FAILED
    except failures as error:
        stderr_line(f"{prog}: error: {error}")
        return FAILED


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
    hook = sys.unraisablehook
    sys.unraisablehook = _interrupt_again(hook)
    try:
        yield
    finally:
        sys.unraisablehook = hook
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _interrupt_again(hook: Callable[..., object]) -> Callable[..., object]:
    """An unraisable-exception hook for the block: Ctrl-C that lands in a
    ``__del__`` (a library's finalizer while it loads) is swallowed there by
    Python, which prints a traceback and runs on; here it is delivered again,
    so the run ends as any interrupt does (one line, 130)."""

    def unraisable(found: object) -> None:
        if isinstance(getattr(found, "exc_value", None), KeyboardInterrupt):
            # From another thread: raised where the main thread next checks for
            # signals, after this hook (an interrupt raised in here is swallowed too).
            _thread.start_new_thread(_interrupt_soon, ())
            return
        hook(found)

    return unraisable


def _interrupt_soon() -> None:
    time.sleep(0.01)  # the hook has returned by then
    _thread.interrupt_main()


def _raise(signum: int, frame: FrameType | None) -> None:
    raise Terminated(signum)


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

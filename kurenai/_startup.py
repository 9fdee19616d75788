"""The command line's first moments: SIGINT during its imports is one line.

``python -m kurenai`` (or the ``kurenai`` script) imports NumPy, the
compiled modules and the facade before ``kurenai.cli.main`` can catch
anything: a Ctrl-C then printed a traceback from whichever import was
running.  Imported first by the package, this module makes SIGINT end such a
start with ``kurenai: interrupted`` and exit status 130 (nothing is written
yet); ``main`` puts Python's handler back (its KeyboardInterrupt cleans up).
A library import, or a SIGINT that is ignored or handled, is left alone.
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


def _starting_the_command_line() -> bool:
    # Under ``python -m``, sys.argv[0] is "-m" until the module itself runs.
    program = sys.argv[0] if sys.argv else ""
    return program == "-m" or os.path.basename(program) == "kurenai"


if _starting_the_command_line() and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
    signal.signal(signal.SIGINT, interrupted)

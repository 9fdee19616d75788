"""The command line's output files: checked before reading, replaced atomically.

:func:`check_outputs` refuses, before any input is read, an output that is a
directory, that cannot be created, that is one of the input files (also
through a symbolic or hard link) or another output.  :func:`atomic_output`
(:mod:`kurenai._core.paths`, every command line's) writes a regular file under
a temporary name and renames it at the end.  The signals, the exit statuses
and the one-line messages are :mod:`kurenai._core.runner`'s.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable

from kurenai._core import paths as _paths
from kurenai._core.paths import atomic_output
from kurenai._core.runner import Terminated, signals_raise, stderr_line, usable
from kurenai.cli._sources import CliError

__all__ = ["Terminated", "atomic_output", "check_outputs", "signals_raise", "stderr_line", "usable"]


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

"""``python -m kurenai.rouge155`` / ``kurenai rouge155``: ROUGE-1.5.5.pl's command line.

(``python -m kurenai.rouge155 files2rouge REFERENCES SUMMARIES`` is files2rouge's.)

Takes the script's own options and configuration and prints what the
script prints, byte for byte, computed by kurenai.  Exit codes are the
script's: 0 (also for ``-h``, ``-H`` or ``--help``, which print the usage on
stdout), 2 when a summary, the configuration or a data file cannot be
found (Perl's ``die`` exits with the errno), 25 for an input format the
script cannot read (its ``die`` after opening the first summary leaves
``ENOTTY``), 255 for every other refusal (usage, bad
options, a bad configuration, the script's own division by zero); each
failure is one line on stderr and nothing on stdout.  Interrupts, signals and
a closed pipe end as every kurenai command's do (:mod:`kurenai._core.runner`:
130 on Ctrl-C, 128+N on signal N, 141 for a reader gone away).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from kurenai._core import runner
from kurenai.rouge155._api import evaluate_command_line
from kurenai.rouge155._config import ConfigError
from kurenai.rouge155._data import DataError
from kurenai.rouge155._options import OptionsError, UsageRequest
from kurenai.rouge155._options import usage as usage_text

__all__ = ["main"]

_PROG = "rouge155"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); return the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["files2rouge"]:  # files2rouge's command line
        from kurenai.rouge155._files2rouge import main as files2rouge_main

        return files2rouge_main(args[1:])
    return runner.run(_PROG, lambda: _main(args))


def _main(args: list[str]) -> int:
    try:
        report = evaluate_command_line(args)
    except UsageRequest as request:
        if request.asked:  # -h, -H, --help
            sys.stdout.write(usage_text(_PROG))
            return 0
        sys.stderr.write(usage_text(_PROG))  # no configuration: the script's die $usage
        return 255
    except OptionsError as error:
        runner.stderr_line(f"{_PROG}: {error}")
        return 255
    except (ConfigError, DataError) as error:
        runner.stderr_line(f"{_PROG}: {error}")
        return error.errno
    except MemoryError:
        runner.stderr_line(
            f"{_PROG}: out of memory (fewer summaries, -r samples or -n orders need less)"
        )
        return 1
    out = sys.stdout
    if not hasattr(out, "buffer"):  # a text stream without a buffer (tests, IDEs)
        out.write(report.text())
        return 0
    out.buffer.write(report.text().encode("utf-8"))
    out.flush()
    return 0

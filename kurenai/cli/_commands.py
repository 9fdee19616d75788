"""The subcommands of ``python -m kurenai``: each a command line of its own.

One row per command: the module whose ``main(argv)`` runs it, whether its
``argv`` keeps the command's name (``kurenai.compat``'s main serves two
commands and reads which), and its line in ``kurenai --help`` (one line:
at most 60 characters), which lists every row.  A command added here is run
and listed; nothing else names it.
"""

from __future__ import annotations

import textwrap
from typing import NamedTuple

from kurenai._data.spelling import did_you_mean

__all__ = ["COMMANDS", "Command", "command", "listing", "unknown"]


class Command(NamedTuple):
    module: str  # whose main(argv) -> int runs the command
    named: bool  # argv keeps the command's name
    summary: str  # its line in --help
    aliases: tuple[str, ...] = ()


COMMANDS = {
    "rouge155": Command(
        "kurenai.rouge155.cli", False, "ROUGE-1.5.5.pl's command line, byte for byte, without Perl"
    ),
    "rouge": Command("kurenai.compat.cli", True, "pltrdy's rouge command: its arguments and JSON"),
    "rouge-chinese": Command(
        "kurenai.compat.cli",
        True,
        "rouge-chinese's command: its arguments and JSON",
        aliases=("rouge_chinese",),
    ),
    "xlsum": Command(
        "kurenai.compat.xlsum_cli", False, "XL-Sum's multilingual ROUGE, as its papers report it"
    ),
    "correlate": Command(
        "kurenai.cli._correlate", False, "ROUGE's correlations with human judgments"
    ),
    "pairs": Command(
        "kurenai.cli._pairs", False, "ROUGE between samples: MBR, self-ROUGE, one-to-many"
    ),
}
_BY_NAME = {alias: entry for name, entry in COMMANDS.items() for alias in (name, *entry.aliases)}


def command(name: str) -> Command | None:
    """The command ``name`` (or one of its aliases) runs, else None."""
    return _BY_NAME.get(name)


def unknown(name: str) -> str:
    """The refusal of ``name``, a first argument that is neither an option nor
    a command (with the command it likely means)."""
    return (
        f"unknown command {name!r}{did_you_mean(name, _BY_NAME)}; the commands are "
        f"{', '.join(COMMANDS)}, and scoring takes --target-file and --prediction-file"
    )


def listing(width: int = 79) -> str:
    """The commands for ``--help``, one line each (wrapped at ``width``)."""
    column = max(map(len, COMMANDS)) + 4
    lines = ["commands (kurenai COMMAND --help: each one's options):"]
    for name, entry in COMMANDS.items():
        lines += textwrap.wrap(
            entry.summary,
            width,
            initial_indent=f"  {name:<{column - 2}}",
            subsequent_indent=" " * column,
        )
    return "\n".join(lines)

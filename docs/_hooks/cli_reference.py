"""The command-line reference, written into ``docs/reference/cli.md`` from
the command lines' own parsers, and docstring doctests shown as code.

``python docs/_hooks/cli_reference.py`` rewrites the page: the options of
``kurenai.cli._args._parser()`` (the parser that ``python -m kurenai`` runs),
group by group, then each subcommand's.  The page is plain Markdown, so it
reads on the forge as on the site; ``tests/docs/test_site.py`` fails when it
is stale (a parser changed and the script was not rerun).  ``render`` is plain
Python, tested there too.

The docstrings' ``>>>`` examples are bare doctest paragraphs, which Markdown
would read as nested block quotes: :func:`fence_doctests` puts each in a
fenced ``pycon`` block, through a Markdown preprocessor that mkdocstrings'
renderer runs too (this module is the site's MkDocs hook).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

PAGE = Path(__file__).resolve().parents[1] / "reference" / "cli.md"
# Markdown punctuation that would turn help text into markup (\\n, TYPE=VALUE[,...]).
_SPECIAL = re.compile(r"([\\`*_\[\]<>|])")


def _escape(text: str) -> str:
    return _SPECIAL.sub(r"\\\1", text)


def _invocation(action: argparse.Action) -> str:
    """``--option METAVAR`` as ``--help`` shows it (every spelling, comma-separated)."""
    if action.nargs == 0:
        return ", ".join(action.option_strings)
    metavar = action.metavar or (action.dest.upper() if action.choices is None else None)
    value = metavar if metavar is not None else "{" + ",".join(map(str, action.choices)) + "}"
    return ", ".join(f"{option} {value}" for option in action.option_strings)


def _option(action: argparse.Action) -> list[str]:
    required = " Required." if action.required else ""
    return [f"`{_invocation(action)}`", f":   {_escape(action.help or '')}{required}", ""]


def _usage(parser: argparse.ArgumentParser) -> str:
    """The usage line at a fixed width (``--help`` wraps at the terminal's)."""
    formatter = argparse.HelpFormatter(parser.prog, width=88)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups)
    return formatter.format_help().strip()


def render(parser: argparse.ArgumentParser, level: int = 2) -> str:
    """The Markdown reference of ``parser``: usage, then each group's options
    under headings of ``level``."""
    hashes = "#" * level
    lines = ["```text", _usage(parser), "```", "", _escape(parser.description or ""), ""]
    for group in parser._action_groups:  # argparse keeps no public list of groups
        actions = [a for a in group._group_actions if a.help is not argparse.SUPPRESS]
        if not actions:
            continue
        lines += [f"{hashes} {(group.title or 'options').capitalize()}", ""]
        for action in actions:
            lines += _option(action)
    if parser.epilog:  # laid out as --help prints it (lists, examples, exit status)
        lines += [f"{hashes} More from --help", "", "```text", parser.epilog.strip(), "```", ""]
    return "\n".join(lines)


_HEADER = """\
<!-- Written by `python docs/_hooks/cli_reference.py` from the parsers: edit
the parsers' help, then rerun it (tests/docs/test_site.py checks the page). -->
# Command-line reference

`python -m kurenai` (or `kurenai`) takes these options; `python -m kurenai
--help` prints the same. This page is written from the command line's own
parsers. The [command-line guide](../guides/cli.md) shows them at work; the
subcommands follow ({links}).
"""

_ROUGE155 = """\
`kurenai rouge155` (or `python -m kurenai.rouge155`) takes the options of
ROUGE-1.5.5.pl itself (`-e`, `-n`, `-a`, `-c`, ...) and prints its report byte
for byte; `kurenai rouge155 files2rouge REFERENCES SUMMARIES` takes
files2rouge's. [The Perl ROUGE-1.5.5, without Perl](../guides/perl-rouge155.md)
lists the options it takes and the ones it refuses.
"""


def _subcommand_parser(name: str) -> argparse.ArgumentParser | None:
    """The parser of the command ``name`` runs (None: rouge155, whose options
    are the Perl script's)."""
    import importlib

    from kurenai.cli._commands import COMMANDS

    module = importlib.import_module(COMMANDS[name].module)
    if name == "rouge155":
        return None
    if COMMANDS[name].named:  # kurenai.compat.cli serves several packages
        return module._parser(name, name)  # type: ignore[no-any-return]
    return module._parser()  # type: ignore[no-any-return]


def subcommands() -> list[tuple[str, str, argparse.ArgumentParser | None]]:
    """(name, its line in --help, its parser) of each subcommand, as
    ``kurenai.cli._commands.COMMANDS`` lists them."""
    from kurenai.cli._commands import COMMANDS

    return [(name, entry.summary, _subcommand_parser(name)) for name, entry in COMMANDS.items()]


def _section(name: str, summary: str, parser: argparse.ArgumentParser | None) -> str:
    from kurenai.cli._commands import COMMANDS

    aliases = "".join(f" (also spelled `{alias}`)" for alias in COMMANDS[name].aliases)
    body = _ROUGE155 if parser is None else render(parser, level=3)
    return f"## `kurenai {name}`\n\n{summary}{aliases}.\n\n{body}"


def page() -> str:
    """The whole of ``docs/reference/cli.md``, from the parsers in use."""
    from kurenai.cli._args import _parser

    commands = subcommands()
    links = ", ".join(f"[`kurenai {name}`](#kurenai-{name})" for name, _, _ in commands)
    parts = [_HEADER.format(links=links), render(_parser())]
    parts += [_section(*command) for command in commands]
    return "\n".join(part.rstrip("\n") + "\n" for part in parts)


def fence_doctests(lines: list[str]) -> list[str]:
    """``lines`` with each doctest paragraph (from a ``>>>`` line to the next
    blank line) outside a fenced block put inside a ``pycon`` fence."""
    out: list[str] = []
    fence: str | None = None  # the opening fence of the block we are in
    in_doctest = False
    for line in lines:
        stripped = line.lstrip()
        if in_doctest and not stripped:
            out.append("```")
            in_doctest = False
        elif fence is None and not in_doctest and stripped.startswith(">>>"):
            out.append("```pycon")
            in_doctest = True
        elif not in_doctest and stripped.startswith(("```", "~~~")):
            marker = stripped[:3]
            fence = marker if fence is None else (None if stripped.startswith(fence) else fence)
        out.append(line)
    return [*out, "```"] if in_doctest else out


def on_config(config: Any, **_: Any) -> Any:
    """MkDocs event: register the doctest preprocessor with Markdown."""
    from markdown import Extension
    from markdown.preprocessors import Preprocessor

    class _Doctests(Preprocessor):
        def run(self, lines: list[str]) -> list[str]:
            return fence_doctests(lines)

    class _DoctestExtension(Extension):
        def extendMarkdown(self, md: Any) -> None:
            # After whitespace normalisation (30), before fenced blocks (25).
            md.preprocessors.register(_Doctests(md), "kurenai_doctests", 28)

    config["markdown_extensions"].append(_DoctestExtension())
    return config


def main(argv: list[str]) -> int:
    """Write the page; with ``--check``, only say whether it is current (exit 1 if not)."""
    text = page()
    if "--check" in argv:
        current = PAGE.read_text(encoding="utf-8") == text
        if not current:
            print(f"{PAGE} is stale: run python docs/_hooks/cli_reference.py", file=sys.stderr)
        return 0 if current else 1
    PAGE.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(PAGE.parents[2]))  # the checkout's kurenai
    raise SystemExit(main(sys.argv[1:]))

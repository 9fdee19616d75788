"""MkDocs hook: the command-line reference, rendered from the CLI's own parser,
and docstring doctests shown as code.

``docs/reference/cli.md`` holds a marker line; on each build this hook
replaces it with the options of ``kurenai.cli._args._parser()`` (the parser
that ``python -m kurenai`` runs), group by group, so the page cannot drift
from ``--help``.  ``render`` is plain Python, tested in ``tests/docs``.

The docstrings' ``>>>`` examples are bare doctest paragraphs, which Markdown
would read as nested block quotes: :func:`fence_doctests` puts each in a
fenced ``pycon`` block, through a Markdown preprocessor that mkdocstrings'
renderer runs too.
"""

from __future__ import annotations

import argparse
import re
from typing import Any

MARKER = "<!-- cli-reference -->"
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


def render(parser: argparse.ArgumentParser) -> str:
    """The Markdown reference of ``parser``: usage, then each group's options."""
    lines = ["```text", _usage(parser), "```", "", _escape(parser.description or ""), ""]
    for group in parser._action_groups:  # argparse keeps no public list of groups
        actions = [a for a in group._group_actions if a.help is not argparse.SUPPRESS]
        if not actions:
            continue
        lines += [f"## {(group.title or 'options').capitalize()}", ""]
        for action in actions:
            lines += _option(action)
    if parser.epilog:
        lines += ["## Exit status", "", _escape(parser.epilog), ""]
    return "\n".join(lines)


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


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """MkDocs event: fill the marker of the page that has one."""
    if MARKER not in markdown:
        return markdown
    from kurenai.cli._args import _parser  # imported at build time: the parser in use

    return markdown.replace(MARKER, render(_parser()))

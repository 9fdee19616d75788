"""The command lines' argument parser: argparse, stricter and with suggestions.

``python -m kurenai`` and its subcommands (``rouge``, ``rouge-chinese``,
``xlsum``) build their parsers from :class:`Parser`: no option is taken by
a prefix of its name (``--rouge-type`` is not ``--rouge-types``: a prefix
would stop working when another option shares it), and a misspelt choice
or option name is answered with the likely one
(:func:`kurenai._data.spelling.did_you_mean`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from kurenai._data.spelling import did_you_mean

__all__ = ["Parser"]


class Parser(argparse.ArgumentParser):
    """An ArgumentParser without abbreviations, whose refusals suggest.

    >>> parser = Parser(prog="demo")
    >>> _ = parser.add_argument("--format", choices=["text", "jsonl"])
    >>> parser.parse_args(["--format", "jsnl"])  # doctest: +SKIP
    demo: error: argument --format: invalid choice: 'jsnl' (did you mean 'jsonl'?) ...
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        # An unknown long option first: argparse would name a missing required
        # argument instead, and a misspelt option is the likelier mistake.
        given = list(sys.argv[1:] if args is None else args)
        words = given[: given.index("--")] if "--" in given else given
        unknown = [w for w in words if w.startswith("--") and self._option(w) is None]
        if unknown:
            self.error(self.unrecognized(unknown))
        parsed, extras = self.parse_known_args(given, namespace)
        if extras:
            self.error(self.unrecognized(extras))
        return parsed

    def _option(self, word: str) -> str | None:
        name = word.split("=", 1)[0]
        return name if name in self._option_string_actions else None

    def unrecognized(self, extras: Sequence[str]) -> str:
        """argparse's message for arguments no option takes, with the option
        the first unknown one likely means."""
        message = f"unrecognized arguments: {' '.join(extras)}"
        for extra in extras:
            if extra.startswith("-") and len(extra) > 1:
                return message + did_you_mean(extra.split("=", 1)[0], self._option_string_actions)
        return message

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        # argparse's check of choices (private, as ever since Python 2.7),
        # with the likely choice in its message.
        choices = action.choices
        if choices is None or value in choices:
            return
        listed = ", ".join(map(repr, choices))  # as argparse lists them
        meant = did_you_mean(value, map(str, choices))
        raise argparse.ArgumentError(
            action, f"invalid choice: {value!r}{meant} (choose from {listed})"
        )

"""The command lines' argument parser: argparse, stricter and with suggestions.

``python -m kurenai`` and its subcommands (``rouge``, ``rouge-chinese``,
``xlsum``) build their parsers from :class:`Parser`: no option is taken by
a prefix of its name (``--rouge-type`` is not ``--rouge-types``: a prefix
would stop working when another option shares it), and a misspelt choice
or option name is answered with the likely one
(:func:`kurenai._core.spelling.did_you_mean`).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from kurenai._core.spelling import did_you_mean

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
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            self.error(self.unrecognized(extras))
        return parsed

    def unrecognized(self, extras: Sequence[str]) -> str:
        """argparse's message for arguments no option takes, with the option
        the first unknown one likely means."""
        message = f"unrecognized arguments: {' '.join(extras)}"
        options = [o for action in self._actions for o in action.option_strings]
        for extra in extras:
            if extra.startswith("-") and len(extra) > 1:
                return message + did_you_mean(extra.split("=", 1)[0], options)
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

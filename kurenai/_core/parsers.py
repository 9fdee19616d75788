"""The command lines' argument parser: argparse, stricter and with suggestions.

``python -m kurenai`` and its subcommands (``rouge``, ``rouge-chinese``,
``xlsum``) build their parsers from :class:`Parser`: no option is taken by
a prefix of its name (``--rouge-type`` is not ``--rouge-types``: a prefix
would stop working when another option shares it), a misspelt choice
or option name is answered with the likely one
(:func:`kurenai._data.spelling.did_you_mean`), and a usage error raises
:class:`~kurenai._core.runner.CommandError` (status 2) instead of exiting,
for :func:`kurenai._core.runner.run` to print in one line.
:func:`add_rouge_types` is every command's ``--rouge-types``: a comma list,
separate words, or both.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from kurenai._core.paths import MAX_LINE_BYTES
from kurenai._core.runner import USAGE, CommandError, ExitRequest
from kurenai._data.spelling import did_you_mean

__all__ = ["Parser", "add_max_line_bytes", "add_rouge_types", "int_in", "words"]

# A word after --rouge-types that is a type (or a comma list of them), not a file.
_TYPE = re.compile(r"(?i)rouge[\w-]*(,[\w-]*)*\Z")


class Parser(argparse.ArgumentParser):
    """An ArgumentParser without abbreviations, whose refusals suggest.

    >>> parser = Parser(prog="demo")
    >>> _ = parser.add_argument("--format", choices=["text", "jsonl"])
    >>> try:  # doctest: +ELLIPSIS
    ...     parser.parse_args(["--format", "jsnl"])
    ... except CommandError as error:
    ...     print(error.exit_code, error)
    2 argument --format: invalid choice: 'jsnl' (did you mean 'jsonl'?) (choose from ...)
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise CommandError(message, USAGE)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            sys.stderr.write(message)
        raise ExitRequest(status)

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        # An unknown long option first: argparse would name a missing required
        # argument instead, and a misspelt option is the likelier mistake.
        given = self._joined(list(sys.argv[1:] if args is None else args))
        words = given[: given.index("--")] if "--" in given else given
        unknown = [w for w in words if w.startswith("--") and self._option(w) is None]
        if unknown:
            self.error(self.unrecognized(unknown))
        parsed, extras = self.parse_known_args(given, namespace)
        if extras:
            self.error(self.unrecognized(extras))
        return parsed

    def _joined(self, given: list[str]) -> list[str]:
        """``given`` with the separate words of a list option (``--rouge-types
        rouge1 rougeL``) joined as one comma list; where the command also takes
        positional arguments (files), only the words shaped like a ROUGE type."""
        lists = {o for o, a in self._option_string_actions.items() if getattr(a, "joins", False)}
        if not lists:
            return given
        positional = any(not action.option_strings for action in self._actions)
        out: list[str] = []
        rest = iter(given)
        for word in rest:
            out.append(word)
            if word == "--":
                out.extend(rest)
                break
            if word not in lists:
                continue
            taken: list[str] = []
            for value in rest:
                if value.startswith("-") or (taken and positional and not _TYPE.match(value)):
                    out += [",".join(taken), value] if taken else [value]
                    break
                taken.append(value)
            else:
                out += [",".join(taken)] if taken else []
        return out

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


def words(values: Sequence[str]) -> list[str]:
    """The names of an option given as a comma list, as separate words, or both.

    >>> words(["rouge1,rouge2", "rougeL", " rougeLsum ,"])
    ['rouge1', 'rouge2', 'rougeL', 'rougeLsum']
    """
    return [word.strip() for value in values for word in value.split(",") if word.strip()]


def add_rouge_types(
    group: argparse._ActionsContainer,
    default: Sequence[str],
    check: Callable[[list[str]], list[str]] | None = None,
    help: str = "",
) -> None:
    """Every command's ``--rouge-types``: ``rouge1,rougeL``, ``rouge1 rougeL``
    or both, read by :func:`words` and then ``check`` (its ValueError is the
    option's usage error); the value is a list of names."""

    class RougeTypes(argparse.Action):
        joins = True  # Parser._joined: separate words become one comma list

        def __call__(
            self,
            parser: argparse.ArgumentParser,
            namespace: argparse.Namespace,
            values: Any,
            option_string: str | None = None,
        ) -> None:
            names = words([values])
            try:
                names = check(names) if check is not None else names
            except (ValueError, argparse.ArgumentTypeError) as error:
                raise argparse.ArgumentError(self, str(error)) from None
            if not names:
                raise argparse.ArgumentError(self, "name at least one ROUGE type")
            setattr(namespace, self.dest, names)

    listed = ",".join(default)
    group.add_argument(
        "--rouge-types",
        action=RougeTypes,
        default=list(default),
        metavar="TYPE",
        help=f"{help + '; ' if help else ''}a comma list or separate words (default: {listed})",
    )


def add_max_line_bytes(group: Any) -> None:
    """``--max-line-bytes N``, as ``kurenai correlate`` and ``kurenai xlsum`` take it
    (the scoring command's adds what ``--max-chars`` does to a long line)."""
    group.add_argument(
        "--max-line-bytes",
        type=int_in(1),
        default=MAX_LINE_BYTES,
        metavar="N",
        help="refuse a line of more than N bytes as it is read, before it is held "
        f"(default: {MAX_LINE_BYTES:,}, 256 MiB)",
    )


def int_in(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer from ``minimum`` to ``maximum`` (every
    command's counts: ``--jobs``, ``--seed``, ``--max-line-bytes``...)."""
    wanted = f">= {minimum}" if maximum is None else f"from {minimum} to {maximum}"

    def parse(text: str) -> int:
        try:
            value = int(text) if len(text) < 100 else minimum - 1
        except ValueError:
            value = minimum - 1
        if value < minimum or (maximum is not None and value > maximum):
            raise argparse.ArgumentTypeError(f"expected an integer {wanted}, got {text[:40]!r}")
        return value

    return parse

"""The command line's input and output files: records in, CSV/JSON out.

Inputs are read as a stream of records, never whole: a plain-text file holds
one record per line (split on ``\\n`` only, UTF-8), a JSONL file one JSON
object per line, from which a named field is taken.  Every problem becomes a
:class:`CliError` whose message names the file and line.  Output to a file
goes through :func:`atomic_output`, so a failed run never leaves a partial or
truncated file behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Union

__all__ = [
    "CliError",
    "Pair",
    "Source",
    "atomic_output",
    "count_records",
    "read_pairs",
    "unescape_newlines",
]

Target = Union[str, list[str]]
Pair = tuple[Target, str]

_ESCAPE = re.compile(r"\\([\\n])")
# What bytes.strip() removes, so that counting and reading skip the same lines.
_BLANK = " \t\n\r\x0b\x0c"


class CliError(Exception):
    """A failure the user can fix; ``exit_code`` 2 means a usage error."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code


@dataclass(frozen=True)
class Source:
    """Where one side's texts come from.

    ``path`` is a file name or ``-`` (stdin); ``fmt`` is ``text`` or
    ``jsonl``; ``field`` names the JSONL field; ``escapes`` turns ``\\n`` in
    plain-text records into newlines.
    """

    path: str
    fmt: str
    field: str
    escapes: bool = False

    @property
    def name(self) -> str:
        """The name to use in messages."""
        return "<stdin>" if self.path == "-" else self.path


def unescape_newlines(text: str) -> str:
    r"""Turn the two-character escape ``\n`` into a newline and ``\\`` into ``\``.

    >>> unescape_newlines(r"one.\ntwo \\n")
    'one.\ntwo \\n'
    """
    return _ESCAPE.sub(lambda m: "\n" if m.group(1) == "n" else "\\", text)


def read_pairs(targets: Source, predictions: Source) -> Iterator[Pair]:
    """(target or list of targets, prediction) per record, streamed in order.

    When both sides are fields of the same JSONL file (or stdin), it is read
    once.  Raises CliError if the two sides hold different numbers of records.
    """
    if _same_jsonl(targets, predictions):
        for number, obj in _json_objects(targets):
            yield _target_field(obj, targets, number), _text_field(obj, predictions, number)
        return
    target_texts = _targets(targets)
    prediction_texts = _predictions(predictions)
    count = 0
    for target in target_texts:
        prediction = next(prediction_texts, None)
        if not isinstance(prediction, str):
            raise _count_error(targets, count + 1 + _drain(target_texts), predictions, count)
        count += 1
        yield target, prediction
    rest = _drain(prediction_texts)
    if rest:
        raise _count_error(targets, count, predictions, count + rest)


def count_records(targets: Source, predictions: Source) -> int | None:
    """The number of records, counted before scoring, or None for a stream.

    Counting first reports a count mismatch or an empty input before any
    output, and gives the progress bar its total.  Raises CliError.
    """
    sources = [targets] if _same_jsonl(targets, predictions) else [targets, predictions]
    counts = [_count(source) for source in sources]
    if len(counts) == 2 and None not in counts and counts[0] != counts[1]:
        raise _count_error(targets, counts[0] or 0, predictions, counts[1] or 0)
    return None if None in counts else counts[0]


@contextlib.contextmanager
def atomic_output(path: str) -> Iterator[IO[str]]:
    """A text stream that becomes ``path`` only if the block succeeds.

    It writes a temporary file in the same directory and renames it over
    ``path`` at the end, so an existing file is untouched by a failed run.
    ``-`` means stdout.
    """
    if path == "-":
        yield sys.stdout
        sys.stdout.flush()
        return
    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, temporary = tempfile.mkstemp(
            dir=directory, prefix=f".{os.path.basename(path)}.", suffix=".tmp"
        )
    except OSError as error:
        raise CliError(f"cannot write {path}: {error.strerror}") from None
    try:
        with open(fd, "w", encoding="utf-8", newline="") as stream:
            yield stream
        os.chmod(temporary, _mode_for(path))
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


# ------------------------------------------------------------ reading


def _same_jsonl(targets: Source, predictions: Source) -> bool:
    if targets.fmt != "jsonl" or predictions.fmt != "jsonl":
        return False
    if targets.path == predictions.path:
        return True
    try:
        return os.path.samefile(targets.path, predictions.path)
    except OSError:
        return False


def _targets(source: Source) -> Iterator[Target]:
    if source.fmt != "jsonl":
        return _text_records(source)
    return (_target_field(obj, source, number) for number, obj in _json_objects(source))


def _predictions(source: Source) -> Iterator[str]:
    if source.fmt != "jsonl":
        return _text_records(source)
    return (_text_field(obj, source, number) for number, obj in _json_objects(source))


def _text_records(source: Source) -> Iterator[str]:
    for _, line in _lines(source):
        yield unescape_newlines(line) if source.escapes else line


def _drain(texts: Iterator[object]) -> int:
    return sum(1 for _ in texts)


def _lines(source: Source) -> Iterator[tuple[int, str]]:
    """(line number, decoded line without its ``\\n``), split on ``\\n`` only."""
    with _open(source) as stream:
        for number, raw in enumerate(stream, 1):
            if raw.endswith(b"\n"):
                raw = raw[:-1]
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                raise CliError(
                    f"{source.name}: line {number}: invalid UTF-8 "
                    f"(byte 0x{raw[error.start]:02x} at column {error.start + 1})"
                ) from None
            # A byte-order mark would otherwise stick to the first token.
            yield number, line[1:] if number == 1 and line.startswith("\ufeff") else line


def _json_objects(source: Source) -> Iterator[tuple[int, dict[str, object]]]:
    for number, line in _lines(source):
        if not line.strip(_BLANK):
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as error:
            raise CliError(
                f"{source.name}: line {number}: malformed JSON ({error.msg}, column {error.colno})"
            ) from None
        if not isinstance(obj, dict):
            raise CliError(f"{source.name}: line {number}: expected a JSON object")
        yield number, obj


def _target_field(obj: dict[str, object], source: Source, number: int) -> Target:
    """The reference, or the non-empty list of references, in ``source.field``."""
    value = obj.get(source.field)
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return value
    return _text_field(obj, source, number, "a string or a non-empty list of strings")


def _text_field(
    obj: dict[str, object], source: Source, number: int, wanted: str = "a string"
) -> str:
    """The text in ``source.field``; CliError naming the line if there is none."""
    value = obj.get(source.field)
    if isinstance(value, str):
        return value
    where = f"{source.name}: line {number}"
    if source.field not in obj:
        fields = ", ".join(map(repr, obj)) or "none"
        raise CliError(f"{where}: no field {source.field!r} (fields: {fields})")
    raise CliError(f"{where}: field {source.field!r} must be {wanted}")


@contextlib.contextmanager
def _open(source: Source) -> Iterator[IO[bytes]]:
    if source.path == "-":
        yield sys.stdin.buffer
        return
    try:
        stream = open(source.path, "rb")  # noqa: SIM115 - closed below
    except OSError as error:
        raise CliError(f"cannot read {source.path}: {error.strerror}") from None
    with stream:
        yield stream


def _count(source: Source) -> int | None:
    if source.path == "-" or not os.path.isfile(source.path):
        return None  # stdin, a pipe or a missing file: find out while reading
    with _open(source) as stream:
        if source.fmt == "jsonl":
            return sum(1 for line in stream if line.strip())
        return sum(1 for _ in stream)


def _count_error(
    targets: Source, n_targets: int, predictions: Source, n_predictions: int
) -> CliError:
    return CliError(
        f"{targets.name} has {n_targets} records but {predictions.name} has {n_predictions}"
    )


def _mode_for(path: str) -> int:
    """The existing file's permissions, or what ``open(path, "w")`` would give."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        mask = os.umask(0)  # the only way to read the umask
        os.umask(mask)
        return 0o666 & ~mask

"""Where the command line's texts come from: files, formats and compression.

A :class:`Source` names a file (or ``-``, stdin), its format and the fields
to take.  :func:`rows` streams the file's rows, never the whole file: a line
of plain text, or the object of a JSONL line or of a CSV/TSV row (a dict).
``.gz``, ``.bz2`` and ``.xz`` files are decompressed on the fly.  Every
problem is a :class:`CliError` naming the file and the line.
"""

from __future__ import annotations

import bz2
import collections
import contextlib
import csv
import decimal
import gzip
import json
import lzma
import os
import sys
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Callable, Union, cast

from kurenai._core import paths as _paths
from kurenai._core import runner as _runner

__all__ = [
    "BELOW_GATE",
    "INPUT_FORMATS",
    "MAX_LINE_BYTES",
    "CliError",
    "Row",
    "Source",
    "count",
    "detect_format",
    "ends_blank",
    "line_limits",
    "raw_blocks",
    "rows",
]

INPUT_FORMATS = ("auto", "text", "jsonl", "csv", "tsv")
Row = Union[str, dict[str, object]]
# The streams are closed by _open's with statement.
_OPENERS: dict[str, Callable[[str], IO[bytes]]] = {
    ".gz": lambda path: cast("IO[bytes]", gzip.open(path, "rb")),  # noqa: SIM115
    ".bz2": lambda path: bz2.open(path, "rb"),  # noqa: SIM115
    ".xz": lambda path: lzma.open(path, "rb"),  # noqa: SIM115
}
_EXTENSIONS = {".jsonl": "jsonl", ".csv": "csv", ".tsv": "tsv"}
# What a damaged file raises while it is read: gzip's BadGzipFile is an
# OSError, but a corrupt deflate stream is a zlib.error and a truncated one an
# EOFError; xz's are LZMAError.
_READ_ERRORS = (OSError, EOFError, zlib.error, lzma.LZMAError)
# Bytes read at a time by raw_blocks: many short lines, little memory.
_BLOCK_BYTES = 1 << 18
# The longest line read (--max-line-bytes): a longer one is refused as it is
# read, before it is held whole (a gzip of gigabytes of NUL bytes is one line).
MAX_LINE_BYTES = _paths.MAX_LINE_BYTES
# The csv module's field limit is a C long (32 bits on Windows).
_C_LONG_MAX = (1 << 31) - 1
# The most bytes UTF-8 (and a \n escape: 2 bytes for one) spends on a character.
_UTF8_MOST = 4


# The exit status of a run whose scores miss a gate (kurenai._core.runner's table).
BELOW_GATE = _runner.BELOW_GATE
# A failure the user can fix; ``exit_code`` 2 means a usage error.
CliError = _runner.CommandError


@dataclass(frozen=True)
class Source:
    """Where one side's texts come from.

    ``path`` is a file name or ``-`` (stdin); ``fmt`` is ``text``, ``jsonl``,
    ``csv`` or ``tsv``; ``field`` names the field holding the text;
    ``escapes`` turns ``\\n`` in plain-text records into newlines;
    ``id_field`` names the field holding each record's id, if any;
    ``max_line`` and ``cut``: :func:`line_limits`.
    """

    path: str
    fmt: str
    field: str
    escapes: bool = False
    id_field: str | None = None
    max_line: int = 0  # bytes of a line at most (0: MAX_LINE_BYTES); a longer one is refused
    cut: int | None = None  # see line_limits

    @property
    def name(self) -> str:
        """The name to use in messages."""
        return "<stdin>" if self.path == "-" else self.path

    @property
    def structured(self) -> bool:
        """Whether records are objects with named fields (JSONL, CSV, TSV)."""
        return self.fmt != "text"


def line_limits(fmt: str, max_line_bytes: int, max_chars: int | None) -> tuple[int, int | None]:
    """A source's ``max_line`` and ``cut``: plain text with ``--max-chars N``
    keeps at most ``4 (N + 1)`` bytes (and a character's worth) of a line
    longer than a block; the line is over the limit anyway (null in the
    output), and the rest of it is skipped without being held.  Any other
    line longer than ``max_line_bytes`` is refused.

    >>> line_limits("text", 1 << 20, 1000), line_limits("jsonl", 1 << 20, 1000)
    ((1048576, 4008), (1048576, None))
    """
    cut = None
    if fmt == "text" and max_chars is not None:
        cut = _UTF8_MOST * (max_chars + 1) + _UTF8_MOST  # + a character cut in two
    if cut is not None and cut >= max_line_bytes:
        cut = None
    return max_line_bytes, cut


def detect_format(path: str, fmt: str) -> str:
    """The format of ``path``: ``fmt`` unless it is ``auto``, else by extension.

    >>> detect_format("dev.jsonl.gz", "auto"), detect_format("dev.tsv", "auto")
    ('jsonl', 'tsv')
    >>> detect_format("dev.txt", "auto"), detect_format("dev.jsonl", "text")
    ('text', 'text')
    """
    if fmt != "auto":
        return fmt
    stem, extension = os.path.splitext(path.lower())
    if extension in _OPENERS:
        extension = os.path.splitext(stem)[1]
    if extension == ".json":
        raise CliError(
            f"{path}: a .json file is one JSON document; kurenai reads JSONL, one object "
            f"per line (convert it with e.g. jq -c '.[]' {path} > records.jsonl)"
        )
    return _EXTENSIONS.get(extension, "text")


def rows(source: Source) -> Iterator[tuple[int, Row]]:
    """(line number, row) of each record of ``source``, in order."""
    if source.fmt == "jsonl":
        return _json_objects(source)
    if source.fmt in ("csv", "tsv"):
        return _csv_rows(source)
    return _lines(source)


def count(source: Source) -> int | None:
    """The number of records, or None for stdin, a pipe or a missing file."""
    if source.path == "-" or not os.path.isfile(source.path):
        return None
    if source.fmt in ("csv", "tsv"):
        return sum(1 for _ in _csv_rows(source))
    found = 0
    for block in raw_blocks(source):
        if source.fmt == "jsonl":  # the non-blank lines
            found += sum(map(bool, map(bytes.strip, block.split(b"\n"))))
        else:
            found += block.count(b"\n") + (not block.endswith(b"\n"))
    return found


def raw_blocks(source: Source) -> Iterator[bytes]:
    """Consecutive blocks of whole lines of ``source``, each with its lines'
    ``\\n`` (the file's last line may have none); a few hundred kilobytes
    each, never empty.  A line longer than a block is gathered only up to
    its bound (:func:`line_limits`): cut there, or refused."""
    bound = _LineBound(source)
    with _open(source) as stream:
        read = getattr(stream, "read1", stream.read)
        pending: list[bytes] = []  # the start of a line longer than a block
        held = 0
        skipping = False  # the rest of a cut line
        for data in iter(lambda: read(_BLOCK_BYTES), b""):
            if skipping:
                start = data.find(b"\n")
                if start < 0:
                    continue
                data, skipping = data[start:], False  # from the "\n" ending the cut line
            end = data.rfind(b"\n") + 1
            if not end:  # a line longer than a block
                pending.append(data)
                held += len(data)
                if held > bound.most:
                    bound.check(held if source.cut is None else 0)  # before a copy
                    pending, held, skipping = [bound.cut(b"".join(pending))], bound.most, True
                continue
            if pending:
                bound.check(held + data.find(b"\n"))
                block = b"".join([*pending, data[:end]])
            else:
                block = data[:end]
            if source.cut is None and len(block) > bound.max_line:  # a line may be too long
                bound.check_lines(block)
            bound.lines += block.count(b"\n")
            yield block
            pending = [data[end:]] if end < len(data) else []
            held = len(data) - end
        if pending:  # the last line, without a newline: bounded as every other
            tail = b"".join(pending)
            yield bound.cut(tail) if len(tail) > bound.most else tail


class _LineBound:
    """A source's bound on a line (:func:`line_limits`), and the count of
    lines read, for the message."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.max_line = source.max_line or MAX_LINE_BYTES
        self.most = source.cut if source.cut is not None else self.max_line
        self.lines = 0  # whole lines read so far

    def check(self, size: int) -> None:
        """Refuse the next line if ``size`` (its bytes) is over the bound."""
        if size > self.max_line:
            raise _paths.line_too_long(self.source.name, self.lines + 1, self.max_line)

    def check_lines(self, block: bytes) -> None:
        """Refuse the first line of ``block`` (whole lines) over the bound."""
        for number, size in enumerate(map(len, block.split(b"\n")), 1):
            if size > self.max_line:
                self.lines += number - 1
                self.check(size)

    def cut(self, start: bytes) -> bytes:
        """The kept start of a line over the bound, or CliError if lines are not cut."""
        if self.source.cut is None:
            self.check(len(start))
        end = self.most
        while end and start[end] & 0xC0 == 0x80:  # not inside a character
            end -= 1
        return start[:end]

    def lines_of(self, stream: IO[bytes]) -> Iterator[bytes]:
        """The lines of ``stream`` (each with its ``\\n``), none held beyond the bound."""
        while raw := stream.readline(self.most + 1):
            if len(raw) > self.most and not raw.endswith(b"\n"):
                raw = self.cut(raw)
                rest = b""
                while (rest := stream.readline(_BLOCK_BYTES)) and not rest.endswith(b"\n"):
                    pass
                raw += b"\n" if rest else b""
            self.lines += 1
            yield raw


def ends_blank(source: Source) -> bool:
    """Whether ``source`` is a plain-text file whose last line is blank: a
    record of its own, which the other side often lacks.  False for stdin."""
    if source.fmt != "text" or source.path == "-" or not os.path.isfile(source.path):
        return False
    with _open(source) as stream:
        last = collections.deque(_LineBound(source).lines_of(stream), maxlen=1)
    return bool(last) and not last[0].strip()


# ------------------------------------------------------------ formats


def _lines(source: Source, keep_ends: bool = False) -> Iterator[tuple[int, str]]:
    """(line number, decoded line), split on ``\\n`` only; without the
    ``\\n`` unless ``keep_ends``."""
    with _open(source) as stream:
        for number, raw in enumerate(_LineBound(source).lines_of(stream), 1):
            if raw.endswith(b"\n") and not keep_ends:
                raw = raw[:-1]
            line = _decoded(source, number, raw)
            # A byte-order mark would otherwise stick to the first token.
            yield number, line[1:] if number == 1 and line.startswith("\ufeff") else line


def _decoded(source: Source, number: int, raw: bytes) -> str:
    """Line ``number`` of ``source`` as text; CliError if it is no UTF-8."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise CliError(
            f"{source.name}: line {number}: invalid UTF-8 "
            f"(byte 0x{raw[error.start]:02x} at column {error.start + 1})"
        ) from None


def _json_objects(source: Source) -> Iterator[tuple[int, Row]]:
    """Each non-blank line's object (see :func:`_json_row`)."""
    fast = _orjson_loads()
    with _open(source) as stream:
        for number, raw in enumerate(_LineBound(source).lines_of(stream), 1):
            obj = _json_row(source, number, raw, fast)
            if obj is not None:
                yield number, obj


def _json_row(
    source: Source, number: int, raw: bytes, fast: Callable[[bytes], object] | None
) -> dict[str, object] | None:
    """The object of line ``number`` (``raw``, with its ``\\n``), or None if
    it is blank.  With orjson installed (``fast``), lines are parsed from
    their bytes by orjson; a line it refuses goes to the json module, which
    gives the same objects and the messages of :func:`_json_object`."""
    if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]  # a byte-order mark
    if not raw.strip():
        return None
    try:
        obj = fast(raw) if fast is not None else None
    except Exception:  # every refusal gets the json module's verdict
        obj = None
    if obj is None:
        obj = _json_object(source, number, raw)
    if not isinstance(obj, dict):
        raise CliError(f"{source.name}: line {number}: expected a JSON object")
    return obj


def _json_object(source: Source, number: int, raw: bytes) -> object:
    """One line, decoded and parsed with the json module; CliError naming the line."""
    where = f"{source.name}: line {number}"
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise CliError(
            f"{where}: invalid UTF-8 (byte 0x{raw[error.start]:02x} at column {error.start + 1})"
        ) from None
    try:
        return json.loads(line, parse_int=_json_int)
    except json.JSONDecodeError as error:
        raise CliError(f"{where}: malformed JSON ({error.msg}, column {error.colno})") from None
    except RecursionError:
        raise CliError(f"{where}: JSON nested too deeply") from None
    except ValueError as error:  # e.g. an integer of more than 4300 digits
        raise CliError(f"{where}: malformed JSON ({_first_line(error)})") from None


def _json_int(digits: str) -> int | decimal.Decimal:
    """A JSON integer: an ``int``, or past Python's digit limit for ``int``
    (4,300 digits by default) the exact ``Decimal``, so that a huge number in
    a field the run never reads does not fail it (orjson refuses integers
    past 64 bits: such a line comes here)."""
    try:
        return int(digits)
    except ValueError:
        return decimal.Decimal(digits)


def _orjson_loads() -> Callable[[bytes], object] | None:
    """orjson's parser if it is installed (the ``cli`` extra): several times
    faster than the json module on JSONL input."""
    if os.environ.get("KURENAI_NO_ORJSON"):
        return None
    try:
        import orjson
    except ImportError:
        return None
    return orjson.loads


def _csv_rows(source: Source) -> Iterator[tuple[int, Row]]:
    _allow_csv_fields(source.max_line or MAX_LINE_BYTES)
    lines = _lines(source, keep_ends=True)
    reader = csv.reader((line for _, line in lines), delimiter="," if source.fmt == "csv" else "\t")
    try:
        header = next(reader, None)
        if header is None:
            return
        if len(set(header)) != len(header):
            raise CliError(f"{source.name}: line 1: repeated column names in the header")
        start = reader.line_num + 1
        for values in reader:
            if len(values) != len(header):
                if not any(values):
                    start = reader.line_num + 1
                    continue  # a blank line
                raise CliError(
                    f"{source.name}: line {start}: {len(values)} columns, "
                    f"but the header has {len(header)}"
                )
            yield start, dict(zip(header, values))
            start = reader.line_num + 1
    except csv.Error as error:
        raise CliError(f"{source.name}: line {reader.line_num}: malformed CSV ({error})") from None


def _allow_csv_fields(max_line: int) -> None:
    """Let the csv module read a field as long as a line may be (its default
    limit is 131,072 characters): a text field of a few hundred kilobytes is
    ordinary input.  The limit is process-wide and only ever raised here, so
    two sources read side by side never lower it under each other; a field
    longer than that (quoted over many lines) is still refused as malformed."""
    wanted = min(max_line, _C_LONG_MAX)
    if csv.field_size_limit() < wanted:
        csv.field_size_limit(wanted)


def _first_line(error: BaseException) -> str:
    return str(error).splitlines()[0] if str(error) else type(error).__name__


# ------------------------------------------------------------ files


@contextlib.contextmanager
def _open(source: Source) -> Iterator[IO[bytes]]:
    if source.path == "-":
        yield _stdin()
        return
    extension = os.path.splitext(source.path.lower())[1]
    opener = _OPENERS.get(extension, _open_plain)
    try:
        stream = opener(source.path)
        peek = getattr(stream, "peek", None)
        if peek is not None:
            peek(1)  # a file that is not what its extension says fails here
    except _READ_ERRORS as error:
        raise CliError(f"cannot read {source.path}: {_reason(error)}") from None
    with stream:
        try:
            yield stream
        except _READ_ERRORS as error:
            if isinstance(error, BrokenPipeError):
                raise
            raise CliError(f"cannot read {source.path}: {_reason(error)}") from None


def _open_plain(path: str) -> IO[bytes]:
    return open(path, "rb")


def _stdin() -> IO[bytes]:
    return sys.stdin.buffer


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return _first_line(error) if str(error) else "truncated or corrupt compressed data"

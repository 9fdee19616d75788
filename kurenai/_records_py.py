"""The pure twin of ``kurenai._records``: the command line's fast paths for records, readable.

:func:`simple_columns` reads a block of JSONL lines whose objects are string
members only, without escapes or control characters: such a string's JSON
value is its bytes decoded, so the requested fields are taken without a JSON
parser.  Anything else gives None, and the caller parses the block with its
general reader (orjson or the json module), which decides.  :func:`records_text`
writes records' scores as lines of JSON or CSV, each distinct float formatted once.
"""

from __future__ import annotations

import math
import re
import typing

if typing.TYPE_CHECKING:  # NumPy loads on first use: ``import kurenai`` imports this module
    import numpy as np
    import numpy.typing as npt

__all__ = ["records_text", "simple_columns"]

_BLANK = "[ \t\r]*"  # JSON's whitespace (a line has no \n)
_STRING = '"[^"\\\\\x00-\x1f]*"'  # no escape, no control character
_MEMBER = f"{_STRING}{_BLANK}:{_BLANK}{_STRING}"
_OBJECT = re.compile(
    f"{_BLANK}\\{{{_BLANK}(?:{_MEMBER}{_BLANK}(?:,{_BLANK}{_MEMBER}{_BLANK})*)?\\}}{_BLANK}"
)
_STRINGS = re.compile('"([^"]*)"')


def simple_columns(block: bytes, fields: tuple[str, ...]) -> list[list[str]] | None:
    """Per field of ``fields``, the text of each line, if every line of
    ``block`` (lines split on ``\n``, the last one with or without it) is a
    JSON object of string members without escapes or control characters, in
    which each field appears once, and the block is UTF-8; None otherwise."""
    if not 0 < len(fields) <= 8:
        return None
    try:
        text = block.decode("utf-8")
    except UnicodeDecodeError:
        return None
    lines = text.split("\n")
    if text.endswith("\n") or not text:
        lines.pop()
    wanted = set(fields)
    columns: list[list[str]] = [[] for _ in fields]
    for line in lines:
        if not _OBJECT.fullmatch(line):
            return None
        strings = _STRINGS.findall(line)  # keys and values, alternately
        row: dict[str, str] = {}
        for key, value in zip(strings[::2], strings[1::2]):
            if key in wanted:
                if key in row:
                    return None  # a repeated field
                row[key] = value
        if len(row) != len(wanted):
            return None
        for column, field in zip(columns, fields):
            column.append(row[field])
    return columns


def records_text(
    values: npt.NDArray[np.float64], ids: list[str], pieces: list[str], fixed6: bool = False
) -> str | None:
    """Per record ``r``, ``pieces[0] + ids[r] + pieces[1] + v[0] + pieces[2] +
    ... + v[k - 1] + pieces[k + 1]`` as one string, with ``v[i]`` the JSON of
    ``values[i, r]`` (``float.__repr__``; NaN is ``null``, infinities
    ``Infinity`` and ``-Infinity``), or with ``fixed6`` its ``"%f" %`` (NaN:
    empty).  None if an id or a piece is not ASCII, or a ``%f`` is longer than
    32 characters.  ``values`` is (k, records), ``pieces`` has k + 2 strings."""
    import numpy as np

    k, count = values.shape
    if len(pieces) != k + 2 or len(ids) != count:
        raise ValueError("records_text: pieces must be k + 2 strings and ids one per record")
    if not all(isinstance(text, str) for text in [*pieces, *ids]):
        raise TypeError("records_text: ids and pieces must be strings")
    if not all(piece.isascii() for piece in pieces) or not all(i.isascii() for i in ids):
        return None
    # Each distinct value (by its bits: -0.0 is not 0.0) formatted once.
    values = np.ascontiguousarray(values, dtype=np.float64)
    distinct, where = np.unique(values.view(np.int64).ravel(), return_inverse=True)
    format_one = _fixed6 if fixed6 else _json
    strings = [format_one(v) for v in distinct.view(np.float64).tolist()]
    if any(len(string) > 32 for string in strings):
        return None
    table = np.empty((count, 2 * k + 3), dtype=object)
    table[:, 0] = pieces[0]
    table[:, 1] = ids
    table[:, 2 : 2 * k + 2 : 2] = pieces[1 : k + 1]
    table[:, 3 : 2 * k + 3 : 2] = np.array(strings, dtype=object)[where.reshape(values.shape)].T
    table[:, 2 * k + 2] = pieces[k + 1]
    return "".join(table.ravel().tolist())


def _json(value: float) -> str:
    if value != value:
        return "null"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)


def _fixed6(value: float) -> str:
    return "" if value != value else "%f" % value  # noqa: UP031 - the reference's own %

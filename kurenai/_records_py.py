"""The pure twin of ``kurenai._records``: the command line's fast paths for records, readable.

:func:`simple_columns` reads a block of JSONL lines whose objects are string
members only, without escapes or control characters (such a string's JSON
value is its bytes decoded: the compiled module takes the fields without a
JSON parser; here each line is parsed, by orjson if installed, and the shape
checked).  Anything else gives None, and the caller parses the block with its
general reader, which decides.  :func:`records_text`
writes records' scores as lines of JSON or CSV, each distinct float formatted once.
"""

from __future__ import annotations

import itertools
import json
import operator
import typing
from typing import Any, Callable

if typing.TYPE_CHECKING:  # NumPy loads on first use: ``import kurenai`` imports this module
    import numpy as np
    import numpy.typing as npt

__all__ = ["records_text", "simple_columns"]


def simple_columns(block: bytes, fields: tuple[str, ...]) -> list[list[str]] | None:
    """Per field of ``fields``, the text of each line, if every line of
    ``block`` (lines split on ``\\n``, the last one with or without it) is a
    JSON object of string members without escapes or control characters, in
    which each field appears once, and the block is UTF-8; None otherwise."""
    if not 0 < len(fields) <= 8:
        return None
    try:
        text = block.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if "\\" in text:  # an escape (outside a string, a backslash is no JSON)
        return None
    lines = text.split("\n")
    if text.endswith("\n") or not text:
        lines.pop()
    try:  # (a string without escapes holds no control character, or JSON refuses it)
        objects = list(map(_loads(), lines))
    except Exception:  # any refusal: no JSON, or nested too deeply
        return None
    if lines and set(map(type, objects)) != {dict}:
        return None
    members = itertools.chain.from_iterable(map(dict.values, objects))
    if not set(map(type, members)) <= {str}:  # another value: a number, null, nested...
        return None
    for field in fields:
        if not all(map(operator.contains, objects, itertools.repeat(field))):
            return None  # a missing field
        if text.count(f'"{field}"') != len(lines) and _repeats(lines, field):
            return None  # a repeated field (a parser keeps the last one)
    return [list(map(operator.itemgetter(field), objects)) for field in fields]


def _repeats(lines: list[str], field: str) -> bool:
    """Whether a line has ``field`` as a key more than once."""
    for line in lines:
        pairs = json.loads(line, object_pairs_hook=list)  # its (key, text) pairs
        if [key for key, _ in pairs].count(field) > 1:
            return True
    return False


def _loads() -> Callable[[str], Any]:
    """orjson's parser if it is installed, else the json module's: the
    same objects from strict JSON."""
    try:
        import orjson
    except ImportError:
        return json.loads
    return orjson.loads


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
    # A record's NaN (a score with no value) is null; json.dumps spells the rest.
    return "null" if value != value else json.dumps(value)


def _fixed6(value: float) -> str:
    return "" if value != value else "%f" % value  # noqa: UP031 - the reference's own %

"""The command line's record kernels against JSON parsers and Python's own formatting.

``simple_columns`` reads JSONL without a parser: whenever it answers, its
texts must be what ``json.loads`` (and orjson) read from each line, and it
must answer for the simple lines it is for.  ``records_text`` writes scores:
each value as ``json.dumps`` or ``"%f" %`` writes it, also across calls (its
table of formatted floats is kept, emptied and grown).  The compiled module
and its twin are held to the same answers.
"""

from __future__ import annotations

import json
import math
import random
import struct
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kurenai import _records_py

try:
    from kurenai import _records
except ImportError:  # the pure-Python run
    _records = None  # type: ignore[assignment]

try:
    import orjson
except ImportError:  # the cli extra is optional
    orjson = None

MODULES = [
    pytest.param(_records_py, id="python"),
    pytest.param(_records, id="compiled", marks=pytest.mark.compiled_only),
]
FIELDS = [("target",), ("target", "prediction"), ("prediction", "target", "id"), ("tärget",)]

# ------------------------------------------------------------ JSONL lines

JSON_BLANKS = st.text(st.sampled_from(" \t\r"), max_size=2)
# Around a token: JSON's whitespace, rarely a character JSON does not allow there.
BLANKS = JSON_BLANKS | st.sampled_from(["\x0b", "\x0c", "\u00a0", "\ufeff", "\n"])
KEYS = st.sampled_from(["target", "prediction", "id", "x", "tärget", 't"a', "t\\a", ""])
AWKWARD = st.text(
    st.characters(codec=None)
    | st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)  # lone surrogates
    | st.sampled_from(['"', "\\", "\n", "\x00", "\x1f", "\x7f", "\u2028", "é", "猫", "😀"]),
    max_size=12,
)
PLAIN = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters='"\\', min_codepoint=32)
    | st.sampled_from(["a", " ", "é", "猫", "😀", "\x7f", "\u2028"]),
    max_size=16,
)
OTHER_VALUES = st.none() | st.booleans() | st.integers() | st.floats() | st.just([]) | st.just({})
OTHER_VALUES |= st.lists(st.text(max_size=3), max_size=2) | st.just({"target": "nested"})


def _dumps(value: Any, ascii_only: bool) -> str:
    return json.dumps(value, ensure_ascii=ascii_only)


@st.composite
def json_line(draw: st.DrawFn) -> bytes:
    """One line: an object whose members are drawn (any key, repeated or not;
    strings with escapes, surrogates and any character; other JSON values),
    spaced by drawn blanks; sometimes cut, or no object at all."""
    members = draw(
        st.lists(st.tuples(KEYS | st.text(max_size=4), AWKWARD | OTHER_VALUES), max_size=4)
    )
    ascii_only = draw(st.booleans())
    blank = lambda: draw(BLANKS if draw(st.integers(0, 9)) == 0 else JSON_BLANKS)  # noqa: E731
    parts = [
        blank() + _dumps(key, ascii_only) + blank() + ":" + blank() + _dumps(value, ascii_only)
        for key, value in members
    ]
    line = blank() + "{" + blank() + ("," + blank()).join(parts) + blank() + "}" + blank()
    shape = draw(st.integers(0, 19))
    if shape == 0:
        line = line[: draw(st.integers(0, len(line)))]  # cut
    elif shape == 1:
        line = draw(st.sampled_from(["", " ", "[]", '"a"', "null", "{}", '{"target": "a"} x']))
    return line.encode("utf-8", "surrogatepass")  # a raw surrogate: no UTF-8


@st.composite
def simple_line(draw: st.DrawFn, fields: tuple[str, ...]) -> bytes:
    """A line of the simple shape with every field once: plain strings only."""
    others = draw(st.lists(st.tuples(st.sampled_from(["x", "y", "éz"]), PLAIN), max_size=2))
    members = [(field, draw(PLAIN)) for field in fields] + others
    members = draw(st.permutations(members))
    ascii_only = draw(st.booleans())
    parts = [
        draw(JSON_BLANKS) + _dumps(k, False) + draw(JSON_BLANKS) + ":" + draw(JSON_BLANKS)
        + _dumps(v, ascii_only and not k) + draw(JSON_BLANKS)
        for k, v in members
    ]  # fmt: skip
    line = draw(JSON_BLANKS) + "{" + ",".join(parts) + "}" + draw(JSON_BLANKS)
    return line.encode("utf-8")


def _block(lines: list[bytes], end: bytes) -> bytes:
    return b"\n".join(lines) + end


def _lines(block: bytes) -> list[bytes]:
    lines = block.split(b"\n")
    if block.endswith(b"\n") or not block:
        lines.pop()
    return lines


@pytest.mark.parametrize("module", MODULES)
@settings(max_examples=200, deadline=None)
@given(
    lines=st.lists(json_line(), min_size=1, max_size=5),
    end=st.sampled_from([b"", b"\n", b"\r\n"]),
    fields=st.sampled_from(FIELDS),
)
def test_simple_columns_are_what_a_json_parser_reads(
    module: ModuleType, lines: list[bytes], end: bytes, fields: tuple[str, ...]
) -> None:
    block = _block(lines, end)
    found = module.simple_columns(block, fields)
    assert found == _records_py.simple_columns(block, fields)
    if found is None:
        return
    objects = [json.loads(line.decode("utf-8")) for line in _lines(block)]
    assert found == [[obj[field] for obj in objects] for field in fields]
    if orjson is not None:
        assert found == [[orjson.loads(line)[field] for line in _lines(block)] for field in fields]


@pytest.mark.parametrize("module", MODULES)
@settings(max_examples=150, deadline=None)
@given(data=st.data(), fields=st.sampled_from(FIELDS), end=st.sampled_from([b"", b"\n"]))
def test_simple_lines_are_read_without_a_parser(
    module: ModuleType, data: st.DataObject, fields: tuple[str, ...], end: bytes
) -> None:
    lines = data.draw(st.lists(simple_line(fields), min_size=1, max_size=6))
    block = _block(lines, end)
    objects = [json.loads(line) for line in lines]
    assert module.simple_columns(block, fields) == [[o[f] for o in objects] for f in fields]


@pytest.mark.parametrize("module", MODULES)
def test_what_simple_columns_leaves_to_the_parser(module: ModuleType) -> None:
    fields = ("target", "prediction")
    simple = b'{"target": "a", "prediction": "b"}'
    assert module.simple_columns(simple + b"\n" + simple, fields) == [["a", "a"], ["b", "b"]]
    for odd in [
        b'{"target": "a\\nb", "prediction": "b"}',  # an escape
        b'{"target": "a", "prediction": "b", "target": "c"}',  # a repeated field
        b'{"target": "a"}',  # a missing field
        b'{"target": "a", "prediction": 1}',  # a number
        b'{"target": "a", "prediction": "b", "n": null}',  # another value
        b'{"target": "caf\xc3", "prediction": "b"}',  # no UTF-8
        b'{"target": "\xed\xa0\x80", "prediction": "b"}',  # an encoded surrogate
        b'{"target": "a\tb", "prediction": "b"}',  # a control character
        b"",  # a blank line
        b'\xef\xbb\xbf{"target": "a", "prediction": "b"}',  # a byte-order mark
        b'{"target": "a", "prediction": "b"},',
        b'{"target": "a", "prediction": "b",}',
    ]:
        assert module.simple_columns(simple + b"\n" + odd + b"\n", fields) is None, odd
    assert module.simple_columns(simple, ()) is None
    assert module.simple_columns(simple, tuple(f"f{i}" for i in range(9))) is None
    assert module.simple_columns(b"", fields) == [[], []]


# ------------------------------------------------------------ writing


def _reference(values: np.ndarray, ids: list[str], pieces: list[str], fixed6: bool) -> str | None:
    def one(value: float) -> str:
        if fixed6:
            return "" if value != value else "%f" % value  # noqa: UP031 - the reference's own %
        return "null" if value != value else json.dumps(value)

    rows = values.T.tolist()
    texts = [[one(v) for v in row] for row in rows]
    if any(len(text) > 32 for row in texts for text in row):
        return None
    lines = []
    for record_id, row in zip(ids, texts):
        parts = [pieces[0], record_id]
        for piece, text in zip(pieces[1:], row):
            parts += [piece, text]
        lines.append("".join([*parts, pieces[-1]]))
    return "".join(lines)


# Pieces and ids: short and long (copied in slots of 32 bytes), rarely not ASCII.
ASCII_MOSTLY = st.text(st.characters(max_codepoint=127), max_size=70) | st.text(max_size=3)
FLOATS = st.floats() | st.sampled_from([0.0, -0.0, 1.0, 1 / 3, 2 / 3, 1e-5, 1e-7, 5e-7, 2**-7])
FLOATS |= st.integers(0, 40).flatmap(lambda b: st.integers(0, b).map(lambda a: a / max(b, 1)))


@pytest.mark.parametrize("module", MODULES)
@settings(max_examples=150, deadline=None)
@given(
    data=st.data(),
    k=st.integers(1, 6),
    count=st.integers(0, 20),
    fixed6=st.booleans(),
)
def test_records_text_writes_each_value_as_python_does(
    module: ModuleType, data: st.DataObject, k: int, count: int, fixed6: bool
) -> None:
    values = np.array(data.draw(st.lists(FLOATS, min_size=k * count, max_size=k * count)))
    values = values.reshape(k, count)
    ids = data.draw(st.lists(ASCII_MOSTLY.map(lambda t: t[:40]), min_size=count, max_size=count))
    pieces = data.draw(st.lists(ASCII_MOSTLY, min_size=k + 2, max_size=k + 2))
    found = module.records_text(values, ids, pieces, fixed6)
    assert found == _records_py.records_text(values, ids, pieces, fixed6)
    ascii_only = all(s.isascii() for s in [*ids, *pieces])
    assert found == (_reference(values, ids, pieces, fixed6) if ascii_only else None)


@pytest.mark.parametrize("module", MODULES)
def test_records_text_keeps_the_same_characters_as_its_table_fills_and_grows(
    module: ModuleType,
) -> None:
    rng = random.Random(5)
    for count in (3, 50_000, 7, 20_000, 20_000, 1):  # beyond 2**15 floats: emptied, grown
        bits = [rng.getrandbits(64) for _ in range(3 * count)]
        floats = [struct.unpack("<d", struct.pack("<Q", b))[0] for b in bits]
        floats = [f if rng.random() < 0.5 else rng.randint(0, 30) / 31 for f in floats]
        values = np.array(floats).reshape(3, count)
        ids = [str(i) for i in range(count)]
        pieces = ["{", ": ", ", ", ", ", "}\n"]
        for fixed6 in (False, True):
            expected = _reference(values, ids, pieces, fixed6)
            assert module.records_text(values, ids, pieces, fixed6) == expected


@pytest.mark.parametrize("module", MODULES)
def test_records_text_declines_what_it_cannot_write(module: ModuleType) -> None:
    values = np.array([[0.5, math.nan, math.inf, -0.0]])
    pieces = ["", ",", "\n"]
    assert module.records_text(values, ["a", "b", "c", "d"], pieces) == (
        "a,0.5\nb,null\nc,Infinity\nd,-0.0\n"
    )
    assert module.records_text(values, ["a", "b", "c", "d"], pieces, True) == (
        "a,0.500000\nb,\nc,inf\nd,-0.000000\n"
    )
    assert module.records_text(values, ["a", "b", "c", "é"], pieces) is None  # not ASCII
    assert module.records_text(values, ["a", "b", "c", "d"], ["", "é", "\n"]) is None
    assert module.records_text(np.array([[1e40]]), ["a"], pieces, True) is None  # 47 characters
    assert module.records_text(np.array([[1e40]]), ["a"], pieces) == "a,1e+40\n"
    with pytest.raises(ValueError, match="pieces"):
        module.records_text(values, ["a"], pieces)
    with pytest.raises(TypeError, match="strings"):
        module.records_text(values, ["a", "b", "c", 4], pieces)
    with pytest.raises(TypeError, match="strings"):
        module.records_text(values, ["a", "b", "c", "d"], ["", b",", "\n"])

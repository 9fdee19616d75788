"""The command line's block paths give the bytes of the record-by-record ones.

The reference is the command line as it was before it read, scored and
wrote in blocks: records from ``read_records`` one at a time, each CSV row
written with one ``%`` (``%f`` per score), each JSON record with
``json.dumps``.  The block paths (reading in blocks of lines, simple JSONL
objects read as columns without a parser, floats formatted per block) must
give the same bytes, the same messages and the same exit codes, for every
input form, ids, several types, baselines and corpus reports, also when
blocks end in the middle of a chunk, and on drawn JSONL that mixes simple
lines with odd ones.
"""

from __future__ import annotations

import json
import math
import random
import struct
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO

import numpy as np
import pytest
from cli_support import Result, call_main
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kurenai import _backend, cli
from kurenai.cli import _chunks, _floats, _output, _sources
from kurenai.cli._io import read_records
from kurenai.cli._output import MEASURE_COLUMNS, Block, OutputFormat

# ------------------------------------------------------------ the reference writers


class _ReferenceCsv:
    """The CSV record writer before block formatting: one ``%`` per row."""

    def __init__(self, stream: IO[str], rouge_types: Sequence[str], signature: str) -> None:
        self._stream = stream
        self._row = "%s," + ",".join(["%f"] * (3 * len(rouge_types))) + "\n"
        header = [f"{t}-{letter}" for t in rouge_types for letter, _ in MEASURE_COLUMNS]
        stream.write(",".join(["id", *_output._csv_cells(header)]) + "\n")

    def add(self, block: Block) -> None:
        rows = block.values.reshape(-1, block.values.shape[-1]).T.tolist()
        ids = [str(i) for i in block.ids]
        ids = ids if isinstance(block.ids, range) else _output._csv_cells(ids)
        # A record over --max-tokens/--max-chars scores NaN and gets empty cells.
        cells = (
            [i, *("" if v != v else "%f" % v for v in values)]  # noqa: UP031 - the reference's %
            for i, values in zip(ids, rows)
        )
        self._stream.write("".join(",".join(line) + "\n" for line in cells))

    def close(self) -> None:
        pass


class _ReferenceJson:
    """The JSON and JSONL record writer before block formatting: ``json.dumps`` per record."""

    def __init__(
        self, stream: IO[str], rouge_types: Sequence[str], signature: str, lines: bool
    ) -> None:
        self._stream, self._types, self._lines, self._count = stream, list(rouge_types), lines, 0
        if not lines:
            stream.write(f'{{"signature": {json.dumps(signature)}, "records": [\n')

    def add(self, block: Block) -> None:
        values = block.values.tolist()
        parts = []
        for column, record_id in enumerate(block.ids):
            record: dict[str, object] = {"id": record_id}
            for t, rouge_type in enumerate(self._types):
                record[rouge_type] = {  # NaN (over a size limit): null
                    name: None if (v := values[t][m][column]) != v else v
                    for m, (_, name) in enumerate(MEASURE_COLUMNS)
                }
            parts.append(json.dumps(record, ensure_ascii=False))
        if not parts:
            return
        if self._lines:
            self._stream.write("\n".join(parts) + "\n")
        else:
            self._stream.write((",\n" if self._count else "") + ",\n".join(parts))
        self._count += len(parts)

    def close(self) -> None:
        if not self._lines:
            self._stream.write("\n]}\n" if self._count else "]}\n")


REFERENCE_FORMATS = {
    "csv": OutputFormat(_ReferenceCsv, _output._csv_corpus, _output._csv_leaderboard),
    "json": OutputFormat(
        lambda stream, types, sign: _ReferenceJson(stream, types, sign, lines=False),
        _output._json_corpus,
        _output._json_leaderboard,
    ),
    "jsonl": OutputFormat(
        lambda stream, types, sign: _ReferenceJson(stream, types, sign, lines=True),
        _output._jsonl_corpus,
        _output._jsonl_leaderboard,
    ),
}


def _reference_chunks(sides: object, size: int) -> Iterator[_chunks.Chunk]:
    return _chunks.chunked(read_records(sides), size)  # type: ignore[arg-type]


# ------------------------------------------------------------ floats

SPECIAL = [0.0, 1.0, 5e-324, 2.2250738585072014e-308, 1e-300, 1e-7, 4.9999999e-7, 5e-7]
SPECIAL += [5.000001e-7, 0.0078125, 2**-20, 0.5, 0.1, 1 / 3, 2 / 3, 0.9999995, 0.99999949999]
SPECIAL += [1 - 2**-53, 0.123456500000, 0.1234565, 0.0000005, 0.0000015, 0.0000025]


def _floats_in_unit() -> list[float]:
    """Scores and the floats nearest the rounding boundaries of six decimals."""
    rng = random.Random(7)
    values = list(SPECIAL)
    values += [a / b for b in range(1, 120) for a in range(b + 1)]  # what ROUGE gives
    values += [2 * p * r / (p + r) for p, r in zip(values[:3000], values[1:3001]) if p + r]
    values += [rng.random() for _ in range(20_000)]
    values += [rng.random() * 10.0 ** -rng.randint(1, 320) for _ in range(2_000)]
    values += [k / 2**m for m in range(1, 24) for k in range(1, 2**m, max(1, 2**m // 97))]
    halves = [(k + 0.5) / 1e6 for k in range(0, 10**6, 331)]  # ties of %f, nearly
    values += (
        halves + [math.nextafter(h, 0.0) for h in halves] + [math.nextafter(h, 1) for h in halves]
    )
    bits = [struct.unpack("<d", struct.pack("<q", rng.getrandbits(62)))[0] for _ in range(2000)]
    values += [b for b in bits if 0.0 <= b <= 1.0]
    return [v for v in values if 0.0 <= v <= 1.0]


def test_fixed6_rows_give_the_characters_of_percent_f() -> None:
    values = _floats_in_unit()
    values += [0.0] * (-len(values) % 9)
    table = np.array(values).reshape(-1, 9)
    expected = ["".join("," + "%f" % v for v in row) + "\n" for row in table.tolist()]  # noqa: UP031
    assert _floats.fixed6_rows(table) == expected
    assert _floats.fixed6_rows(table.T.copy().T) == expected  # any memory layout
    assert _floats.fixed6_rows(np.empty((0, 9))) == []


@pytest.mark.parametrize("odd", [math.nan, -0.0, -1e-300, 1.0000000000000002, 2.0, math.inf])
def test_fixed6_rows_leave_values_outside_the_unit_interval_to_percent(odd: float) -> None:
    assert _floats.fixed6_rows(np.array([[0.5, odd]])) is None


def test_json_floats_give_the_characters_of_json_dumps() -> None:
    values = [*_floats_in_unit(), math.nan, math.inf, -math.inf, -0.0, 1e16, 1e-5, -2.5, 123.0]
    values += [0.0] * (-len(values) % 9)
    table = np.array(values).reshape(3, 3, -1)
    found = _floats.json_floats(table)
    assert found.shape == table.shape
    assert found.ravel().tolist() == [json.dumps(v) for v in table.ravel().tolist()]


# ------------------------------------------------------------ the writers


def _blocks(count: int, types: int, ids: str, seed: int) -> list[Block]:
    rng = np.random.default_rng(seed)
    blocks, start = [], 0
    for size in (count, 1, count // 3 + 1):
        values = rng.integers(0, 30, (types, 3, size)) / rng.integers(1, 30, (types, 3, size))
        values = np.where(values > 1, rng.random(values.shape), values)
        if ids == "range":
            block_ids: Sequence[object] = range(start, start + size)
        elif ids == "int":
            block_ids = [int(i) for i in rng.integers(-(10**12), 10**12, size)]
        elif ids == "str":
            pool = ["a,1", 'say "hi"', "line\nbreak", "いぬ", "\u2028", "plain", "tab\there", ""]
            block_ids = [pool[i % len(pool)] + str(i) for i in range(start, start + size)]
        else:  # mixed
            block_ids = [i if i % 2 else f"r{i}" for i in range(start, start + size)]
        blocks.append(Block(block_ids, values))  # type: ignore[arg-type]
        start += size
    return blocks


def _written(
    formats: dict[str, OutputFormat], fmt: str, types: list[str], blocks: list[Block]
) -> str:
    import io

    stream = io.StringIO()
    report = formats[fmt].records(stream, types, "sig")
    for block in blocks:
        report.add(block)
    report.close()
    return stream.getvalue()


@pytest.mark.parametrize("fmt", ["csv", "json", "jsonl"])
@pytest.mark.parametrize("ids", ["range", "int", "str", "mixed"])
@pytest.mark.parametrize("types", [["rouge1"], ["rouge1", "rouge2", "rougeL", "rougeLsum"]])
def test_record_writers_write_the_reference_bytes(fmt: str, ids: str, types: list[str]) -> None:
    blocks = _blocks(300, len(types), ids, seed=len(types) + len(ids))
    assert _written(_output.FORMATS, fmt, types, blocks) == _written(
        REFERENCE_FORMATS, fmt, types, blocks
    )


@pytest.mark.parametrize("fmt", ["csv", "json", "jsonl"])
def test_scores_over_a_size_limit_are_empty_cells_or_null(fmt: str) -> None:
    values = np.array([[[0.5, math.nan, 1.0], [0.25, math.nan, 1.0], [1 / 3, math.nan, 1.0]]])
    blocks = [Block(range(3), values)]
    assert _written(_output.FORMATS, fmt, ["rouge1"], blocks) == _written(
        REFERENCE_FORMATS, fmt, ["rouge1"], blocks
    )


# ------------------------------------------------------------ end to end

WORDS = ["the", "cat", "sat", "on", "a", "mat", "dog", "ran", "far", "away", "and", "back"]


def _text(rng: random.Random) -> str:
    return " ".join(rng.choices(WORDS, k=rng.randint(0, 12)))


def _inputs(tmp_path: Path, count: int = 257) -> dict[str, list[str]]:
    """The same records in every input form, with ids; a baseline beside."""
    rng = random.Random(3)
    targets = [_text(rng) for _ in range(count)]
    predictions = [_text(rng) for _ in range(count)]
    baseline = [_text(rng) for _ in range(count)]
    ids = [f"doc,{i}" if i % 3 else i for i in range(count)]
    (tmp_path / "t.txt").write_text("".join(t + "\n" for t in targets), encoding="utf-8")
    (tmp_path / "p.txt").write_text("".join(p + "\n" for p in predictions), encoding="utf-8")
    (tmp_path / "b.txt").write_text("".join(b + "\n" for b in baseline), encoding="utf-8")
    records = [
        {"id": i, "target": t, "prediction": p, "baseline": b}
        for i, t, p, b in zip(ids, targets, predictions, baseline)
    ]
    multi = [
        dict(r, target=[r["target"], "the cat"]) if k % 5 == 0 else r for k, r in enumerate(records)
    ]
    lines = [json.dumps(r, ensure_ascii=False) for r in records]
    (tmp_path / "r.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "m.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in multi), encoding="utf-8"
    )
    (tmp_path / "preds.jsonl").write_text(
        "".join(json.dumps({"id": r["id"], "prediction": r["prediction"]}) + "\n" for r in records)
    )
    (tmp_path / "b.jsonl").write_text(
        "".join(json.dumps({"id": r["id"], "prediction": r["baseline"]}) + "\n" for r in records)
    )
    simple = [  # string members only: read without a JSON parser
        {"id": f"doc {i}", "target": t, "prediction": p, "baseline": b}
        for i, t, p, b in zip(ids, targets, predictions, baseline)
    ]
    (tmp_path / "s.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in simple), encoding="utf-8"
    )
    (tmp_path / "s-preds.jsonl").write_text(
        "".join(json.dumps({"prediction": r["prediction"], "id": r["id"]}) + "\n" for r in simple)
    )
    csv_lines = ["id,target,prediction"] + [
        f'"{r["id"]}",{r["target"]},{r["prediction"]}' for r in records
    ]
    (tmp_path / "r.csv").write_text("\n".join(csv_lines) + "\n", encoding="utf-8")
    folder = str(tmp_path)
    return {
        "text": ["--target-file", f"{folder}/t.txt", "--prediction-file", f"{folder}/p.txt"],
        "jsonl": ["--target-file", f"{folder}/r.jsonl", "--prediction-file", f"{folder}/r.jsonl"],
        "jsonl+ids": [
            *("--target-file", f"{folder}/r.jsonl", "--prediction-file", f"{folder}/preds.jsonl"),
            *("--id-field", "id"),
        ],
        "multi-ref": [
            "--target-file",
            f"{folder}/m.jsonl",
            "--prediction-file",
            f"{folder}/m.jsonl",
        ],
        "simple-jsonl+ids": [
            *("--target-file", f"{folder}/s.jsonl", "--prediction-file", f"{folder}/s-preds.jsonl"),
            *("--id-field", "id"),
        ],
        "simple-jsonl+baseline": [
            *("--target-file", f"{folder}/s.jsonl", "--prediction-file", f"{folder}/s.jsonl"),
            *("--baseline-file", f"{folder}/s.jsonl", "--id-field", "id"),
            *("--bootstrap-samples", "30", "--seed", "2"),
        ],
        "csv+ids": [
            *("--target-file", f"{folder}/r.csv", "--prediction-file", f"{folder}/r.csv"),
            *("--id-field", "id"),
        ],
        "text+baseline": [
            *("--target-file", f"{folder}/t.txt", "--prediction-file", f"{folder}/p.txt"),
            *("--baseline-file", f"{folder}/b.txt", "--bootstrap-samples", "30", "--seed", "2"),
        ],
        "jsonl+baseline": [
            *("--target-file", f"{folder}/r.jsonl", "--prediction-file", f"{folder}/r.jsonl"),
            *("--baseline-file", f"{folder}/b.jsonl"),
            *("--bootstrap-samples", "30", "--seed", "2"),
        ],
    }


def _both(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *argv: str
) -> tuple[Result, Result]:
    """The run on the block paths, and the run on the reference paths."""
    fast = call_main(capsys, *argv)
    with monkeypatch.context() as patch:
        patch.setattr(cli, "read_chunks", _reference_chunks)
        patch.setattr(_output, "FORMATS", REFERENCE_FORMATS)
        reference = call_main(capsys, *argv)
    return fast, reference


BLOCK_FORMS = [
    *("text", "jsonl", "jsonl+ids", "simple-jsonl+ids", "multi-ref", "csv+ids"),
    *("text+baseline", "jsonl+baseline", "simple-jsonl+baseline"),
]
BLOCK_OPTIONS = {
    "records": [],
    "several-types": [
        *("--rouge-types", "rouge1,rouge2,rougeL,rougeLsum,rougeW,rougeSU4"),
        *("--chunk-size", "50"),
    ],
    "mean": ["--aggregate", "mean"],
    "bootstrap": ["--aggregate", "bootstrap", "--bootstrap-samples", "30", "--seed", "1"],
}


@pytest.mark.parametrize(
    ("form", "options"),
    [
        pytest.param(form, options, id=f"{name}-{form}")
        for name, options in BLOCK_OPTIONS.items()
        for form in BLOCK_FORMS
        # A comparison with a baseline is its own corpus report: no --aggregate.
        if not ("baseline" in form and options[:1] == ["--aggregate"])
    ],
)
@pytest.mark.parametrize("fmt", ["csv", "jsonl", "json"])
def test_the_block_paths_write_the_reference_bytes(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    form: str,
    fmt: str,
    options: list[str],
) -> None:
    inputs = _inputs(tmp_path)
    monkeypatch.setattr(_sources, "_BLOCK_BYTES", 1000)  # blocks end inside chunks
    argv = [*inputs[form], "--output-format", fmt, "--quiet", *options]
    fast, reference = _both(capsys, monkeypatch, *argv)
    assert fast == reference
    assert fast.code == 0 and fast.out


@pytest.mark.parametrize("block_bytes", [1, 7, 64, 1 << 18])
def test_blocks_of_any_size_read_the_same_records(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    block_bytes: int,
) -> None:
    inputs = _inputs(tmp_path, count=40)
    monkeypatch.setattr(_sources, "_BLOCK_BYTES", block_bytes)
    for form in ("text", "jsonl", "jsonl+ids", "simple-jsonl+ids", "multi-ref"):
        fast, reference = _both(capsys, monkeypatch, *inputs[form], "--chunk-size", "3")
        assert fast == reference and fast.code == 0


# Inputs that take the per-line readers, and their verdicts.
UNUSUAL = {
    "bom and no final newline": (b"\xef\xbb\xbfthe cat\nsat\r\non", b"the cat\nmat\nsat"),
    "blank lines of JSONL": (b'{"target": "a"}\n\n  \n{"target": "b c"}\n', None),
    "a byte-order mark in JSONL": (b'\xef\xbb\xbf{"target": "a"}\n{"target": "b"}', None),
    "bad UTF-8 late in a file": (b"a b\n" * 300 + b"caf\xc3\n" + b"x\n" * 5, b"a\n" * 306),
    "bad UTF-8 in JSONL": (b'{"target": "a"}\n' * 300 + b'{"target": "\xff"}\n', None),
    "malformed JSON late": (b'{"target": "a"}\n' * 300 + b'{"target": "a",\n', None),
    "a JSON array": (b'{"target": "a"}\n' * 3 + b'["a"]\n', None),
    "a number as target": (b'{"target": "a"}\n' * 3 + b'{"target": 3}\n', None),
    "a missing field": (b'{"target": "a"}\n' * 3 + b'{"other": "a"}\n', None),
    "a NaN literal": (b'{"target": "a", "x": NaN}\n' * 3, None),
    "a lone surrogate": (b'{"target": "\\ud800 a"}\n' * 3, None),
    "different counts": (b"a\n" * 300, b"a\n" * 301),
    "a blank last line": (b"a\n" * 3 + b"\n", b"a\n" * 3),
    "empty": (b"", b""),
}


@pytest.mark.parametrize("case", sorted(UNUSUAL))
@pytest.mark.parametrize("block_bytes", [16, 1 << 18])
def test_unusual_inputs_give_the_reference_records_and_messages(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    case: str,
    block_bytes: int,
) -> None:
    targets, predictions = UNUSUAL[case]
    if predictions is None:  # JSONL: predictions from the same file
        path = tmp_path / "records.jsonl"
        path.write_bytes(targets)
        argv = ["--target-file", str(path), "--prediction-file", str(path)]
        argv += ["--prediction-field", "target"]
    else:
        (tmp_path / "t.txt").write_bytes(targets)
        (tmp_path / "p.txt").write_bytes(predictions)
        argv = [
            "--target-file",
            str(tmp_path / "t.txt"),
            "--prediction-file",
            str(tmp_path / "p.txt"),
        ]
    monkeypatch.setattr(_sources, "_BLOCK_BYTES", block_bytes)
    for fmt in ("csv", "jsonl"):
        fast, reference = _both(capsys, monkeypatch, *argv, "--output-format", fmt, "--quiet")
        assert fast == reference


@pytest.mark.parametrize("parser", ["orjson", "json"])
def test_both_json_parsers_take_the_block_path_alike(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    parser: str,
) -> None:
    if parser == "json":
        monkeypatch.setenv("KURENAI_NO_ORJSON", "1")
    inputs = _inputs(tmp_path, count=60)
    for form in ("jsonl", "jsonl+ids", "simple-jsonl+ids", "multi-ref"):
        fast, reference = _both(capsys, monkeypatch, *inputs[form], "--output-format", "jsonl")
        assert fast == reference and fast.code == 0


# ------------------------------------------------------------ simple JSONL, drawn

SIMPLE_TEXTS = st.lists(st.sampled_from([*WORDS, "é", "猫", "😀"]), max_size=6).map(" ".join)
# Lines the general reader takes (or refuses), between the simple ones.
ODD_LINES = [
    '{"id": "r", "target": "a\\nb", "prediction": "a"}',  # an escape
    '{"id": "r", "target": "say \\"hi\\"", "prediction": "hi"}',
    '{"id": "r", "target": "\\ud800 a", "prediction": "a"}',  # a lone surrogate
    '{"id": 7, "target": "a", "prediction": "a"}',  # an integer id
    '{"id": "r", "target": ["a", "b c"], "prediction": "a"}',  # two references
    '{"id": "r", "target": "a", "prediction": "a", "n": 1.5, "m": null}',
    '{"id": "r", "target": "a", "target": "b", "prediction": "a"}',  # a repeated field
    '{"id": "r", "prediction": "a"}',  # no target
    '{"id": "r", "target": "a", "prediction": 3}',
    "",
    "   ",
    '["a"]',
    '{"id": "r", "target": "a", "prediction": "a"',  # cut
    '{"id": "r", "target": "a", "prediction": "a"} x',
    '\ufeff{"id": "r", "target": "a", "prediction": "a"}',  # a byte-order mark, not first
]


@st.composite
def simple_jsonl(draw: st.DrawFn) -> bytes:
    """Mostly simple lines (string members, keys in any order, any JSON
    spacing), and now and then an odd one: escapes, other values, repeated
    or missing fields, blank lines, bad UTF-8, malformed lines."""
    lines = []
    for index in range(draw(st.integers(1, 30))):
        if draw(st.integers(0, 9)):
            members = [("id", f"r{index % 7}"), ("target", draw(SIMPLE_TEXTS))]
            members += [("prediction", draw(SIMPLE_TEXTS))]
            if draw(st.booleans()):
                members.append(("extra", draw(SIMPLE_TEXTS)))
            members = draw(st.permutations(members))
            colon, comma = draw(st.sampled_from([(": ", ", "), (":", ","), (" :\t", "\r, ")]))
            ascii_only = draw(st.booleans())
            body = comma.join(
                json.dumps(k) + colon + json.dumps(v, ensure_ascii=ascii_only) for k, v in members
            )
            lines.append(("{" + body + "}").encode("utf-8"))
        elif draw(st.integers(0, 5)):
            lines.append(draw(st.sampled_from(ODD_LINES)).encode("utf-8"))
        else:
            lines.append(b'{"id": "r", "target": "caf\xc3", "prediction": "a"}')  # no UTF-8
    bom = b"\xef\xbb\xbf" if draw(st.integers(0, 9)) == 0 else b""
    return bom + b"\n".join(lines) + draw(st.sampled_from([b"", b"\n", b"\r\n"]))


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    content=simple_jsonl(),
    block_bytes=st.sampled_from([16, 100, 1 << 18]),
    chunk=st.sampled_from(["1", "4", "1000"]),
    ids=st.booleans(),
    fmt=st.sampled_from(["csv", "jsonl"]),
)
def test_simple_jsonl_gives_the_reference_records_and_messages(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    content: bytes,
    block_bytes: int,
    chunk: str,
    ids: bool,
    fmt: str,
) -> None:
    path = tmp_path / "records.jsonl"
    path.write_bytes(content)
    argv = ["--target-file", str(path), "--prediction-file", str(path), "--chunk-size", chunk]
    argv += [*(["--id-field", "id"] if ids else []), "--output-format", fmt, "--quiet"]
    with monkeypatch.context() as patch:
        patch.setattr(_sources, "_BLOCK_BYTES", block_bytes)
        fast, reference = _both(capsys, monkeypatch, *argv)
        patch.setattr(_backend, "records", _GENERAL)
        general = call_main(capsys, *argv)
    assert fast == general  # the same bytes, messages and exit, failing or not
    # The record-by-record reference gives the same records; on bad input it
    # may name another line (the block paths read ahead and fail first on a
    # line the reference has not reached), or have written more to stdout.
    assert fast.code or fast == reference


class _General:
    """``kurenai._records`` declining everything: the general paths."""

    @staticmethod
    def simple_columns(block: bytes, fields: tuple[str, ...]) -> None:
        return None

    @staticmethod
    def records_text(*args: object, **options: object) -> None:
        return None


_GENERAL = _General()

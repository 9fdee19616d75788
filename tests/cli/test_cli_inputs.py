"""The command line's inputs: record ids, compressed files, CSV/TSV, .json, unspaced text."""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import re
from pathlib import Path
from typing import Callable

import pytest
from cli_support import Run, call_main
from hypothesis import given
from hypothesis import strategies as st

from kurenai.cli._io import unescape_newlines

RECORDS = [
    {"id": "a,1", "target": "the cat sat", "prediction": "the cat"},
    {"id": 7, "target": "いぬ ねこ", "prediction": "いぬ"},
]
ROWS = """\
id,rouge1-P,rouge1-R,rouge1-F
"a,1",1.000000,0.666667,0.800000
7,1.000000,0.500000,0.666667
"""


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    def call(*argv: str) -> object:
        result = call_main(capsys, *argv)
        if result.code:
            assert result.err.count("\n") == 1 and result.err.startswith("kurenai: "), result.err
        return result

    return call  # type: ignore[return-value]


def jsonl(records: list[dict[str, object]]) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode()


def both(path: Path, *options: str) -> list[str]:
    return ["--target-file", str(path), "--prediction-file", str(path), "--rouge-types", "rouge1",
            "--quiet", *options]  # fmt: skip


# ------------------------------------------------------------ ids


def test_id_field_reaches_every_output_format(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_bytes(jsonl(RECORDS))
    assert run(*both(path, "--id-field", "id")).out == ROWS
    lines = run(*both(path, "--id-field", "id", "--output-format", "jsonl")).out.splitlines()
    assert [json.loads(line)["id"] for line in lines] == ["a,1", 7]
    document = json.loads(run(*both(path, "--id-field", "id", "--output-format", "json")).out)
    assert [record["id"] for record in document["records"]] == ["a,1", 7]
    assert run(*both(path)).out.splitlines()[1].startswith("0,")  # without it: 0..n-1


def test_ids_from_the_prediction_file_when_targets_are_text(run: Run, tmp_path: Path) -> None:
    (tmp_path / "t.txt").write_text("the cat sat\nいぬ ねこ\n", encoding="utf-8")
    (tmp_path / "p.jsonl").write_bytes(jsonl(RECORDS))
    files = [
        "--target-file",
        str(tmp_path / "t.txt"),
        "--prediction-file",
        str(tmp_path / "p.jsonl"),
    ]
    result = run(*files, "--rouge-types", "rouge1", "--id-field", "id")
    assert result.out == ROWS


def test_ids_of_two_files_must_agree(run: Run, tmp_path: Path) -> None:
    (tmp_path / "t.jsonl").write_bytes(jsonl(RECORDS))
    swapped = [dict(RECORDS[1], id="x"), RECORDS[0]]
    (tmp_path / "p.jsonl").write_bytes(jsonl([RECORDS[0], swapped[0]]))
    result = run("--target-file", str(tmp_path / "t.jsonl"), "--prediction-file",
                 str(tmp_path / "p.jsonl"), "--id-field", "id")  # fmt: skip
    assert result.code == 1
    assert result.err == (
        f"kurenai: error: records out of step: {tmp_path / 't.jsonl'} line 2 has id 7 "
        f"but {tmp_path / 'p.jsonl'} line 2 has id 'x'\n"
    )


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"target": "a", "prediction": "a"}, "line 2: no id field 'id'"),
        ({"id": [1], "target": "a", "prediction": "a"}, "line 2: id field 'id' must be a string"),
        ({"id": True, "target": "a", "prediction": "a"}, "line 2: id field 'id' must be a string"),
    ],
)
def test_bad_ids_name_the_line(run: Run, tmp_path: Path, record: dict, message: str) -> None:
    path = tmp_path / "r.jsonl"
    path.write_bytes(jsonl([RECORDS[0], record]))
    result = run(*both(path, "--id-field", "id"))
    assert result.code == 1
    assert f"{path}: {message}" in result.err


def test_id_field_needs_structured_input(run: Run, tmp_path: Path) -> None:
    (tmp_path / "t.txt").write_text("a\n")
    result = run(*both(tmp_path / "t.txt", "--id-field", "id"))
    assert result.code == 2
    assert "--id-field needs JSONL, CSV or TSV input" in result.err


# ------------------------------------------------------------ compressed files

COMPRESSORS: dict[str, Callable[[bytes], bytes]] = {
    ".gz": gzip.compress,
    ".bz2": bz2.compress,
    ".xz": lzma.compress,
}


@pytest.mark.parametrize("suffix", list(COMPRESSORS))
def test_compressed_text_and_jsonl(run: Run, tmp_path: Path, suffix: str) -> None:
    compress = COMPRESSORS[suffix]
    path = tmp_path / f"r.jsonl{suffix}"
    path.write_bytes(compress(jsonl(RECORDS)))
    assert run(*both(path, "--id-field", "id")).out == ROWS
    (tmp_path / f"t.txt{suffix}").write_bytes(compress("the cat sat\nいぬ ねこ\n".encode()))
    (tmp_path / f"p{suffix}").write_bytes(compress("the cat\nいぬ\n".encode()))
    result = run("--target-file", str(tmp_path / f"t.txt{suffix}"), "--prediction-file",
                 str(tmp_path / f"p{suffix}"), "--rouge-types", "rouge1")  # fmt: skip
    assert result.out == ROWS.replace('"a,1"', "0").replace("\n7,", "\n1,")


@pytest.mark.parametrize("suffix", list(COMPRESSORS))
def test_corrupt_compressed_file_is_one_line(run: Run, tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"t{suffix}"
    path.write_bytes(b"this is not compressed at all\n")
    result = run(*both(path))
    assert result.code == 1
    assert result.err.startswith(f"kurenai: error: cannot read {path}: ")


def test_truncated_gzip_is_one_line(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "t.gz"
    path.write_bytes(gzip.compress(b"a b\n" * 10000)[:-20])
    result = run(*both(path))
    assert result.code == 1
    assert f"cannot read {path}" in result.err


# ------------------------------------------------------------ CSV and TSV


def test_csv_with_quoted_newlines_and_ids(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_text(
        'id,target,prediction\r\n"a,1",the cat sat,the cat\r\n7,"いぬ\nねこ","いぬ"\r\n',
        encoding="utf-8",
    )
    result = run(*both(path, "--id-field", "id", "--rouge-types", "rouge1,rougeLsum"))
    assert result.code == 0
    assert result.out.splitlines()[2].startswith("7,1.000000,0.500000,0.666667,")


def test_tsv_and_format_option(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "r.data"
    path.write_text("target\tprediction\tid\nthe cat sat\tthe cat\ta,1\nいぬ ねこ\tいぬ\t7\n")
    assert run(*both(path, "--format", "tsv", "--id-field", "id")).out == ROWS
    renamed = path.rename(tmp_path / "r.tsv")
    assert run(*both(renamed, "--id-field", "id")).out == ROWS


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("target,prediction\na,b\nc\n", "line 3: 1 columns, but the header has 2"),
        ("target,text\na,b\n", "line 2: no field 'prediction' (fields: 'target', 'text')"),
        ("target,target\na,b\n", "line 1: repeated column names"),
    ],
)
def test_bad_csv_names_the_line(run: Run, tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "r.csv"
    path.write_text(content)
    result = run(*both(path))
    assert result.code == 1
    assert f"{path}: {message}" in result.err


def test_json_file_gets_a_hint(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "records.json"
    path.write_text(json.dumps(RECORDS))
    result = run(*both(path))
    assert result.code == 1
    assert f"{path}: a .json file is one JSON document; kurenai reads JSONL" in result.err


def test_unknown_extension_is_plain_text(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "r.dat"
    path.write_text('{"target": "x"}\n')
    assert run(*both(path)).out.splitlines()[1] == "0,1.000000,1.000000,1.000000"


# ------------------------------------------------------------ unspaced text


@pytest.mark.parametrize(
    ("texts", "options", "warned"),
    [
        (["今日はとても良い天気だ", "明日は雨が降るでしょう"], [], True),
        (["今日はとても良い天気だ", "明日は雨が降るでしょう"], ["--tokenizer", "char"], False),
        (["今日はとても良い天気だ", "明日は雨が降るでしょう"], ["--quiet"], False),
        (["今日 は とても 良い 天気 だ", "明日 は 雨"], [], False),
        (["วันนี้อากาศดีมาก", "พรุ่งนี้ฝนจะตก"], [], True),
        (["the quick brown fox", "한국어 문장 입니다"], [], False),
    ],
)
def test_unspaced_text_warning(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, texts: list[str], options: list[str],
    warned: bool,
) -> None:  # fmt: skip
    path = tmp_path / "t.txt"
    path.write_text("\n".join(texts) + "\n", encoding="utf-8")
    result = call_main(capsys, "--target-file", str(path), "--prediction-file", str(path), *options)
    assert result.code == 0
    assert ("--tokenizer char" in result.err) is warned
    assert result.err.count("\n") == int(warned)


# ------------------------------------------------------------ orjson and json agree


def test_orjson_and_json_read_the_same_records(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import orjson  # the cli extra; a test dependency, so never skipped

    assert orjson.loads(b"{}") == {}
    path = tmp_path / "r.jsonl"
    path.write_bytes(
        b"\xef\xbb\xbf"  # a byte-order mark
        + b'{"target": "caf\\u00e9 \\ud83d\\ude00 x", "prediction": "caf\xc3\xa9 x", "n": NaN}\n'
        + b'{"target": "a", "target": "b c", "prediction": "b", "big": 123456789012345678901234}\n'
        + b"   \n"
        + b'{"target": ["x y", "y"], "prediction": "y", "f": 1.5e308}\n'
    )
    argv = ["--target-file", str(path), "--prediction-file", str(path), "--output-format", "jsonl"]
    fast = call_main(capsys, *argv)
    monkeypatch.setenv("KURENAI_NO_ORJSON", "1")
    slow = call_main(capsys, *argv)
    assert fast == slow
    assert fast.code == 0 and len(fast.out.splitlines()) == 3


# ------------------------------------------------------------ --newline-escape


ESCAPE = re.compile(r"\\([\\n])")


@given(st.text(alphabet="\\na \n", max_size=30))
def test_unescape_equals_a_left_to_right_scan(text: str) -> None:
    expected = ESCAPE.sub(lambda m: "\n" if m.group(1) == "n" else "\\", text)
    assert unescape_newlines(text) == expected

"""Valid input the readers must take: a CSV field longer than the csv
module's default limit (131,072 characters), and a JSON integer past Python's
digit limit for ``int`` in a field the run never reads."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from cli_support import call_main

from kurenai.cli import _sources

_LONG = 200_000  # characters: past csv's default field limit of 131,072


def _csv_argv(path: Path, *extra: str) -> list[str]:
    return [
        "--target-file", str(path), "--prediction-file", str(path), "--format", "csv",
        "--target-field", "target", "--prediction-field", "prediction",
        "--rouge-types", "rouge1", "--output-format", "jsonl", "--quiet", *extra,
    ]  # fmt: skip


def test_a_csv_field_longer_than_the_csv_default_is_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "long.csv"
    long_text = " ".join(["cat"] * (_LONG // 4))
    path.write_text(f"target,prediction\n{long_text},cat dog\nthe cat,the cat\n")
    result = call_main(capsys, *_csv_argv(path))
    assert result.code == 0, result.err
    scores = [json.loads(line)["rouge1"] for line in result.out.splitlines()]
    assert len(scores) == 2
    assert scores[1]["fmeasure"] == 1.0
    assert 0 < scores[0]["fmeasure"] < 0.01  # the long field was read whole


def test_the_csv_field_limit_is_only_raised() -> None:
    before = csv.field_size_limit()
    _sources._allow_csv_fields(10)  # never lowered: another reader may rely on it
    assert csv.field_size_limit() == before
    _sources._allow_csv_fields(1 << 40)  # capped at a C long
    assert csv.field_size_limit() == (1 << 31) - 1
    csv.field_size_limit(before)


@pytest.mark.parametrize("orjson", [True, False])
def test_a_huge_integer_in_an_unused_json_field_is_read(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    orjson: bool,
) -> None:
    if not orjson:
        monkeypatch.setenv("KURENAI_NO_ORJSON", "1")
    path = tmp_path / "big.jsonl"
    big = "9" * 5000  # past int's 4,300 digits
    path.write_text(
        f'{{"target": "the cat", "prediction": "the cat", "meta": {big}}}\n'
        '{"target": "a dog", "prediction": "a cat", "meta": 1}\n'
    )
    result = call_main(
        capsys,
        "--target-file", str(path), "--prediction-file", str(path),
        "--target-field", "target", "--prediction-field", "prediction",
        "--rouge-types", "rouge1", "--output-format", "jsonl", "--quiet",
    )  # fmt: skip
    assert result.code == 0, result.err
    scores = [json.loads(line)["rouge1"]["fmeasure"] for line in result.out.splitlines()]
    assert scores == [1.0, 0.5]


def test_a_huge_json_integer_keeps_its_value() -> None:
    source = _sources.Source("x.jsonl", "jsonl", "target")
    big = "-" + "7" * 5000
    row = _sources._json_row(source, 1, f'{{"n": {big}, "m": 12}}\n'.encode(), None)
    assert row is not None
    assert str(row["n"]) == big and row["m"] == 12 and type(row["m"]) is int

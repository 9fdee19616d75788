"""Judgments whose value is text: a quoted number is an error, a text member a
note, never a criterion that silently disappears."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kurenai.cli import main
from kurenai.stats import judgment_matrices

pytest.importorskip("scipy")


def _records(values: list[object]) -> list[dict[str, object]]:
    return [
        {"system": f"s{i}", "document": "d", "quality": value, "fluency": 0.1 * i}
        for i, value in enumerate(values)
    ]


def test_a_quoted_number_is_an_error() -> None:
    with pytest.raises(ValueError, match=r"judgment 2: 'quality' is the string '3\.2'"):
        judgment_matrices(_records([1.0, "3.2", 2.0]))


def test_a_criterion_of_numbers_and_text_is_an_error() -> None:
    with pytest.raises(ValueError, match="'quality' is a number in some judgments and text"):
        judgment_matrices(_records([1.0, "good", 2.0]))


def test_a_text_member_is_named_in_a_note() -> None:
    notes: list[str] = []
    _, _, human = judgment_matrices(_records(["good", "bad", "good"]), notes=notes)
    assert list(human) == ["fluency"]
    assert notes == ["members holding text, not scores, are not criteria: 'quality'"]
    # Negative control: numbers throughout make it a criterion, and no note.
    notes.clear()
    _, _, human = judgment_matrices(_records([1.0, 2.0, 3.0]), notes=notes)
    assert list(human) == ["quality", "fluency"] and notes == []


def test_the_texts_of_a_one_file_layout_are_no_note() -> None:
    notes: list[str] = []
    records = [dict(r, prediction="a b", reference="a c") for r in _records([1.0, 2.0, 3.0])]
    judgment_matrices(records, notes=notes)
    assert notes == []


def test_the_command_line_prints_the_note_and_refuses_a_quoted_score(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = []
    for i in range(4):
        for j in range(3):
            text = "a b c"[: i + 1]
            rows.append({"system": f"s{i}", "document": f"d{j}", "prediction": text,
                         "reference": "a b c", "quality": float(i + j), "grade": "ok"})  # fmt: skip
    path = tmp_path / "judged.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    options = ["--bootstrap-samples", "0", "--tests", "--rouge-types", "rouge1"]
    assert main(["correlate", "--judgments", str(path), *options]) == 0
    err = capsys.readouterr().err
    assert (
        "kurenai correlate: note: members holding text, not scores, are not criteria: 'grade'"
        in err
    )
    rows[5]["quality"] = "3.5"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert main(["correlate", "--judgments", str(path), *options]) == 1
    assert "'quality' is the string '3.5'" in capsys.readouterr().err

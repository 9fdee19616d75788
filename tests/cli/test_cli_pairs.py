"""``kurenai pairs``: the library's numbers as JSON lines, and the command
lines' contract (usage errors 2, bad input 1, output whole or not at all)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kurenai import pairs
from kurenai.cli import main
from kurenai.rouge_scorer import RougeScorer

RECORDS = [
    {"g": "a", "text": "the cat sat on the mat", "reference": "the cat sat"},
    {"g": "a", "text": "a cat sat on a mat", "reference": "the cat sat"},
    {"g": "a", "text": "dogs bark", "reference": "the cat sat"},
    {"g": "b", "text": "x y", "reference": "x"},
    {"g": "b", "text": "x z", "reference": "x w"},
]


@pytest.fixture
def samples(tmp_path: Path) -> Path:
    path = tmp_path / "samples.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
    return path


def run(tmp_path: Path, *argv: str) -> tuple[int, list[dict[str, object]]]:
    out = tmp_path / "out.jsonl"
    status = main(["pairs", *argv, "--output", str(out)])
    lines = out.read_text(encoding="utf-8").splitlines() if out.exists() else []
    return status, [json.loads(line) for line in lines]


def test_each_task_gives_the_librarys_numbers(tmp_path: Path, samples: Path) -> None:
    scorer = RougeScorer(["rouge1", "rougeL"], tokenizer="whitespace")
    common = ["--input", str(samples), "--group-field", "g", "--rouge-types", "rouge1,rougeL"]
    status, found = run(tmp_path, "--task", "mbr", *common)
    assert status == 0 and [line["group"] for line in found] == ["a", "b"]
    texts = [r["text"] for r in RECORDS[:3]]
    assert found[0]["rougeL"]["index"] == pairs.mbr_select(texts, "rougeL", scorer=scorer)
    status, found = run(tmp_path, "--task", "self-rouge", *common)
    assert found[1]["rouge1"] == pairs.self_rouge(["x y", "x z"], "rouge1", scorer=scorer)
    status, found = run(tmp_path, "--task", "one-to-many", *common)
    assert status == 0 and len(found) == 5
    last = scorer.score("x w", "x z")["rougeL"]
    assert found[4]["rougeL"] == last._asdict()


def test_refusals(tmp_path: Path, samples: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        run(tmp_path, "--task", "mbr", "--input", str(samples), "--rouge-types", "rougeX")[0] == 2
    )
    assert "invalid ROUGE type 'rougeX'" in capsys.readouterr().err
    assert run(tmp_path, "--task", "mbr", "--input", str(tmp_path / "none.jsonl"))[0] == 1
    assert "cannot read" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "a"}\n{"text": 3}\n', encoding="utf-8")
    status, found = run(tmp_path, "--task", "mbr", "--input", str(bad))
    assert (status, found) == (1, [])  # nothing half-written
    assert "bad.jsonl:2: 'text' must be a string" in capsys.readouterr().err
    one = tmp_path / "one.txt"
    one.write_text("only\n", encoding="utf-8")
    assert run(tmp_path, "--task", "self-rouge", "--input", str(one))[0] == 1
    assert "self-ROUGE needs two" in capsys.readouterr().err
    assert main(["pairs", "--task", "mbr", "--input", str(samples), "--output", str(samples)]) == 1

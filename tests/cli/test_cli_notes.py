"""The note on stderr when the default tokenizer meets punctuation glued to
ASCII words: once per run, from a bounded sample, naming ``--tokenizer
rouge-score``, and never when the tokenizer was chosen or ``--quiet``."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from cli_support import Run, call_main, punctuation_note
from hypothesis import given, settings
from hypothesis import strategies as st
from optional import missing

from kurenai.cli._notes import glued_punctuation


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return lambda *argv: call_main(capsys, *argv)


def _files(tmp_path: Path, targets: list[str], predictions: list[str]) -> list[str]:
    (tmp_path / "t.txt").write_text("\n".join(targets) + "\n", encoding="utf-8")
    (tmp_path / "p.txt").write_text("\n".join(predictions) + "\n", encoding="utf-8")
    return ["--target-file", str(tmp_path / "t.txt"), "--prediction-file", str(tmp_path / "p.txt")]


def test_the_default_tokenizer_on_glued_punctuation_notes_it_once(run: Run, tmp_path: Path) -> None:
    files = _files(tmp_path, ["the cat sat down"] * 5, ["The cat sat."] * 5)
    result = run(*files, "--chunk-size", "2")  # three chunks, one note
    assert (result.code, result.err) == (0, punctuation_note("sat."))
    assert "--tokenizer rouge-score" in result.err


def test_the_note_is_true(run: Run, tmp_path: Path) -> None:
    """The issue's example: the default's F 0.571, rouge-score's 0.857 with
    ``--tokenizer rouge-score``."""
    try:
        from rouge_score import rouge_scorer as rouge_score
    except ImportError:
        missing("rouge-score is not installed (the test extra)")
    files = _files(tmp_path, ["The cat sat."], ["the cat sat down"])
    expected = rouge_score.RougeScorer(["rouge1"]).score("The cat sat.", "the cat sat down")
    default = run(*files, "--rouge-types", "rouge1", "--output-format", "jsonl")
    chosen = run(*files, "--rouge-types", "rouge1", "--output-format", "jsonl",
                 "--tokenizer", "rouge-score")  # fmt: skip
    assert f'"fmeasure": {expected["rouge1"].fmeasure}' in chosen.out
    assert f'"fmeasure": {expected["rouge1"].fmeasure}' not in default.out
    assert chosen.err == "" and default.err == punctuation_note("sat.")


@pytest.mark.parametrize(
    "chosen",
    [["--quiet"], ["--tokenizer", "whitespace"], ["--tokenizer", "rouge-score"], ["--lang", "en"]],
)
def test_no_note_when_the_tokenizer_is_chosen_or_quiet(
    run: Run, tmp_path: Path, chosen: list[str]
) -> None:
    result = run(*_files(tmp_path, ["the cat sat"], ["The cat sat."]), *chosen)
    assert result.code == 0 and "note:" not in result.err, result.err


def test_the_leaderboard_notes_it_too(run: Run, tmp_path: Path) -> None:
    files = _files(tmp_path, ["the cat sat down"] * 3, ["the cat sat"] * 3)
    other = tmp_path / "other.txt"
    other.write_text("(the cat sat\n" * 3, encoding="utf-8")
    result = run(*files, "--systems", str(other), "--bootstrap-samples", "10")
    # The first system's texts are looked at (three equal records: the paired
    # test's no-evidence note is the only one).
    notes = [line for line in result.err.splitlines() if "note:" in line]
    assert all("no evidence" in line for line in notes)
    files = _files(tmp_path, ["the cat sat down"] * 3, ["the cat, sat"] * 3)
    result = run(*files, "--systems", str(other), "--bootstrap-samples", "10")
    assert result.err.count(punctuation_note("cat,")) == 1


@pytest.mark.parametrize(
    ("targets", "predictions"),
    [
        (["the cat sat"], ["a - b & well-known e-mail"]),  # punctuation alone or inside
        (["l'été, enfin."], ["l'été enfin"]),  # not ASCII: rouge-score drops é anyway
        (["the cat"] * 201, ["the cat"] * 200 + ["The cat."]),  # past the sample
        (["x " * 600 + "sat."], ["sat"]),  # past the characters looked at
    ],
)
def test_no_note_without_glued_punctuation_in_the_sample(
    run: Run, tmp_path: Path, targets: list[str], predictions: list[str]
) -> None:
    result = run(*_files(tmp_path, targets, predictions))
    assert result.code == 0 and "note:" not in result.err, result.err


_PUNCTUATION = set(string.punctuation)


def _naive(texts: list[str]) -> str | None:
    """The first whitespace-separated word with ASCII punctuation at an edge
    next to an ASCII letter or digit, in the ASCII texts (the reference)."""
    for text in texts:
        if not text.isascii():
            continue
        for word in text.split():
            end, start = word.rstrip(string.punctuation), word.lstrip(string.punctuation)
            if (end != word and end[-1:].isalnum()) or (start != word and start[:1].isalnum()):
                return word
    return None


@settings(max_examples=80, deadline=None)
@given(st.lists(st.text(alphabet="ab1 .,(\"'-é\t", max_size=20), max_size=6))
def test_the_sample_finds_what_a_naive_scan_finds(texts: list[str]) -> None:
    assert glued_punctuation(texts) == _naive(texts)


def test_the_naive_scan_can_disagree() -> None:
    """Negative control: a scan that missed leading punctuation would differ."""
    assert glued_punctuation(["(the cat"]) == _naive(["(the cat"]) == "(the"
    assert glued_punctuation(["the ( cat"]) is None

"""Significance from no evidence, and bounded work: one rule for every paired
test in the library, the command line, the leaderboard and the report.

Records that carry no evidence of a difference (a single record; every
record differing by the same amount, identical systems included) give
p = 1 with a note, never a "significant" p = 1/(draws + 1); a NaN score is
a ValueError; draw counts are capped.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from kurenai.cli import main
from kurenai.report import leaderboard
from kurenai.stats import MAX_DRAWS, TESTS, _bootstrap, paired_test

NAMES = [test.name for test in TESTS]


@pytest.mark.parametrize("test", NAMES)
@pytest.mark.parametrize(
    ("system", "baseline", "why"),
    [
        ([0.9], [0.1], "at least 2 records"),
        ([0.31, 0.45, 0.52, 0.28], [0.21, 0.35, 0.42, 0.18], "the same amount"),
        ([0.5, 0.7, 0.2], [0.5, 0.7, 0.2], "the same amount"),
    ],
)
def test_no_evidence_gives_p_one_with_a_note(
    test: str, system: list[float], baseline: list[float], why: str
) -> None:
    found = paired_test({"rouge1": system}, {"rouge1": baseline}, test, 200, seed=1)["rouge1"]
    assert found.p_value == 1.0
    assert why in found.note and found.test == test
    assert found.as_dict()["note"] == found.note


@pytest.mark.parametrize("test", NAMES)
def test_evidence_gives_a_small_p_and_no_note(test: str) -> None:
    # Negative control: the rule does not swallow a real difference.
    rng = np.random.default_rng(2)
    base = rng.random(200) * 0.5
    better = base + 0.1 + rng.normal(0, 0.02, 200)
    found = paired_test({"rouge1": better}, {"rouge1": base}, test, 500, seed=1)["rouge1"]
    assert found.p_value < 0.01 and found.note == "" and "note" not in found.as_dict()


def test_before_the_rule_constant_differences_were_significant() -> None:
    """What the rule replaces: the bootstrap's count alone gives 1/(n+1)."""
    differences = np.full((4, 1), 0.1)
    with _bootstrap._drawing(_bootstrap.random_state(1)) as draws:
        sums = _bootstrap._resampled_sums(differences, 1000, draws, None) / 4
    centred = np.abs(sums - sums.mean())
    assert (int(np.count_nonzero(centred >= 0.1 - 1e-12)) + 1) / 1001 == 1 / 1001


@pytest.mark.parametrize("test", NAMES)
@pytest.mark.parametrize("bad", [math.nan, math.inf])
def test_a_nan_score_is_an_error(test: str, bad: float) -> None:
    with pytest.raises(ValueError, match=r"record 1 is (nan|inf): a paired test needs a finite"):
        paired_test({"rouge1": [0.2, bad, 0.4]}, {"rouge1": [0.1, 0.2, 0.3]}, test, 50, seed=1)


@pytest.mark.parametrize("test", NAMES)
def test_draw_counts_are_capped(test: str) -> None:
    with pytest.raises(ValueError, match="at most 1,000,000"):
        paired_test({"r": [0.1, 0.5]}, {"r": [0.2, 0.3]}, test, MAX_DRAWS + 1, seed=1)


def test_the_leaderboard_calls_no_evidence_insignificant() -> None:
    # Two systems differing by the same amount on every record: no gate.
    a = np.array([[[0.5, 0.5, 0.5, 0.6]] * 3])
    b = a - 0.1
    board = leaderboard({"a": a, "b": b}, ["rouge1"], 200, seed=1)
    (second,) = [s for s in board.standings if s.system == "b"]
    assert second.comparison["rouge1"].p_value == 1.0
    assert "no evidence" in second.comparison["rouge1"].note


def test_the_command_line_notes_no_evidence_and_does_not_gate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "t.txt").write_text("a b c d\n", encoding="utf-8")
    (tmp_path / "p.txt").write_text("a b c\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("a b\n", encoding="utf-8")
    files = ["--target-file", str(tmp_path / "t.txt"), "--prediction-file"]
    base = [*files, str(tmp_path / "b.txt"), "--rouge-types", "rouge1", "--seed", "1"]
    code = main([*base, "--systems", str(tmp_path / "p.txt"), "--output-format", "json"])
    captured = capsys.readouterr()
    assert code == 0  # one record: "significantly worse" would exit 3
    assert "kurenai: note: b.txt against p.txt, rouge1: no evidence" in captured.err
    board = json.loads(captured.out)
    (worse,) = [s for s in board["standings"] if s["compared_to"]]
    assert worse["comparison"]["rouge1"]["p_value"] == 1.0
    code = main([*files, str(tmp_path / "p.txt"), "--baseline-file", str(tmp_path / "b.txt"),
                 "--rouge-types", "rouge1", "--paired-test", "sacrebleu-bs"])  # fmt: skip
    captured = capsys.readouterr()
    assert code == 0 and "kurenai: note: rouge1: no evidence" in captured.err

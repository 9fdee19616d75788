"""``--max-tokens`` and ``--max-chars``: the library's limits, on the command line.

A record over a limit is null in the output (empty CSV cells, JSON null),
left out of corpus scores and counted on stderr; the exit status does not
change.  The reference is the library: ``score_batch`` with the same limit.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import call_main
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kurenai.rouge_scorer import RougeScorer

TARGETS = ["the cat sat on the mat", "a " * 40, "short one", "猫 が いる"]
PREDICTIONS = ["the cat sat", "a b", "short", "猫 が"]
TYPES = ["rouge1", "rouge2", "rougeL"]


@pytest.fixture
def files(tmp_path: Path) -> list[str]:
    (tmp_path / "t.txt").write_text("".join(t + "\n" for t in TARGETS))
    (tmp_path / "p.txt").write_text("".join(p + "\n" for p in PREDICTIONS))
    return ["--target-file", str(tmp_path / "t.txt"), "--prediction-file", str(tmp_path / "p.txt")]


@pytest.mark.parametrize(("option", "limit"), [("--max-tokens", 10), ("--max-chars", 25)])
def test_over_limit_records_are_null_and_counted(
    backend: str, capsys: pytest.CaptureFixture[str], files: list[str], option: str, limit: int
) -> None:
    keyword = option[2:].replace("-", "_")
    expected = RougeScorer(TYPES, tokenizer="whitespace").score_batch(
        TARGETS, PREDICTIONS, **{keyword: limit}
    )
    assert expected[1] is None and expected[0] is not None  # the reference drops one
    code = call_main(capsys, *files, option, str(limit), "--output-format", "jsonl", "--quiet")
    assert code.code == 0 and code.err == ""
    records = [json.loads(line) for line in code.out.splitlines()]
    for record, scores in zip(records, expected):
        for rouge_type in TYPES:
            got = record[rouge_type]
            if scores is None:
                assert got == {"precision": None, "recall": None, "fmeasure": None}
            else:
                assert got["fmeasure"] == scores[rouge_type].fmeasure
    csv = call_main(capsys, *files, option, str(limit), "--quiet").out.splitlines()
    assert csv[2] == "1" + "," * 9
    assert csv[1].startswith("0,1.000000")
    # The summary line counts them (the run's own line is checked by call_main).
    counted = call_main(capsys, *files, option, str(limit))
    assert counted.code == 0
    assert "kurenai: 1 records over --max-tokens or --max-chars" in counted.err


def test_corpus_scores_leave_over_limit_records_out(
    backend: str, capsys: pytest.CaptureFixture[str], files: list[str]
) -> None:
    scorer = RougeScorer(["rouge1"], tokenizer="whitespace")
    kept = [i for i in range(len(TARGETS)) if len(TARGETS[i].split()) <= 10]
    scores = scorer.score_batch([TARGETS[i] for i in kept], [PREDICTIONS[i] for i in kept])
    mean = sum(s["rouge1"].fmeasure for s in scores) / len(scores)
    found = call_main(capsys, *files, "--rouge-types", "rouge1", "--max-tokens", "10",
                      "--aggregate", "mean", "--output-format", "json", "--quiet")  # fmt: skip
    document = json.loads(found.out)
    assert document["count"] == len(kept)
    assert document["mean"]["rouge1"]["fmeasure"] == pytest.approx(mean, abs=1e-15)
    none_left = call_main(capsys, *files, "--max-chars", "0", "--aggregate", "mean")
    assert none_left.code == 1
    assert "every record is over --max-tokens or --max-chars" in none_left.err


@pytest.mark.parametrize("value", ["-1", "x", "1.5"])
def test_limits_are_checked_as_usage(
    capsys: pytest.CaptureFixture[str], files: list[str], value: str
) -> None:
    for option in ("--max-tokens", "--max-chars"):
        assert call_main(capsys, *files, option, value).code == 2


# ------------------------------------------------------------ leaderboards


def _board(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[object, str]:
    result = call_main(capsys, *argv, "--output-format", "json", "--seed", "0",
                       "--bootstrap-samples", "50")  # fmt: skip
    assert result.code in (0, 3), result.err
    board = json.loads(result.out)
    board.pop("signature", None)
    return board, result.err


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(
    lengths=st.lists(st.tuples(*[st.integers(1, 30)] * 3), min_size=2, max_size=8),
    option=st.sampled_from(["--max-tokens", "--max-chars"]),
    limit=st.integers(3, 40),
)
def test_a_leaderboard_leaves_over_limit_records_out(
    capsys: pytest.CaptureFixture[str], tmp_path_factory: pytest.TempPathFactory,
    lengths: list[tuple[int, int, int]], option: str, limit: int,
) -> None:  # fmt: skip
    # Every system is ranked on the records within the limit on every side:
    # the board of the same run on those records only.
    directory = tmp_path_factory.mktemp("board")
    words = ["the", "cat", "sat", "on", "a", "mat", "and", "dog", "ran"]
    sides = [[" ".join(words[(k + i) % 9] for i in range(n[s])) for k, n in enumerate(lengths)]
             for s in range(3)]  # fmt: skip
    size = (lambda text: len(text.split())) if option == "--max-tokens" else len
    within = [k for k in range(len(lengths)) if all(size(side[k]) <= limit for side in sides)]
    if not within:
        return
    for name, side in zip("tpq", sides):
        (directory / f"{name}.txt").write_text("".join(text + "\n" for text in side))
        (directory / f"{name}.kept").mkdir()
        (directory / f"{name}.kept" / f"{name}.txt").write_text(
            "".join(side[k] + "\n" for k in within)
        )
    full = [str(directory / f"{name}.txt") for name in "tpq"]
    kept = [str(directory / f"{name}.kept" / f"{name}.txt") for name in "tpq"]
    board, err = _board(capsys, "--target-file", full[0], "--prediction-file", full[1],
                        "--systems", full[2], option, str(limit))  # fmt: skip
    expected, expected_err = _board(capsys, "--target-file", kept[0], "--prediction-file", kept[1],
                         "--systems", kept[2])  # fmt: skip
    assert board == expected
    left_out = len(lengths) - len(within)
    note = f"kurenai: {left_out} records over --max-tokens or --max-chars: left out of the "
    assert err == (note + "leaderboard\n" if left_out else "") + expected_err


def test_a_leaderboard_with_every_record_over_a_limit_is_an_error(
    capsys: pytest.CaptureFixture[str], files: list[str]
) -> None:
    result = call_main(capsys, *files, "--systems", files[3], "--max-chars", "1")
    assert (result.code, result.out) == (1, "")
    assert result.err == (
        "kurenai: error: every record is over --max-tokens or --max-chars: nothing to rank\n"
    )

"""Approximate randomization on every surface of the paired bootstrap: --baseline-file,
--systems (the leaderboard and its gate), the HTML report, the signature."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from cli_support import Run, call_main

from kurenai import __version__
from kurenai.report import leaderboard
from kurenai.signature import Randomization, Signature
from kurenai.stats._randomization import paired_randomization

WORDS = ["the", "cat", "dogs", "run", "x", "sat", "mat", "on"]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return lambda *argv: call_main(capsys, *argv)


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """80 JSONL records: a target, a good prediction and a poor one."""
    rng = random.Random(7)
    lines = []
    for _ in range(80):
        target = [rng.choice(WORDS) for _ in range(rng.randint(3, 8))]
        good = [w if rng.random() < 0.8 else "x" for w in target]
        poor = [w if rng.random() < 0.3 else "zz" for w in target]
        record = {"target": " ".join(target), "prediction": " ".join(good), "old": " ".join(poor)}
        lines.append(json.dumps(record) + "\n")
    path = tmp_path / "corpus.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    return path


def old_file(corpus: Path, tmp_path: Path) -> Path:
    """The poor predictions as a baseline file of their own."""
    baseline = tmp_path / "old.jsonl"
    rows = [json.loads(line) for line in corpus.read_text().splitlines()]
    baseline.write_text("".join(json.dumps({"prediction": r["old"]}) + "\n" for r in rows))
    return baseline


def on(corpus: Path, *options: str) -> list[str]:
    return ["--target-file", str(corpus), "--prediction-file", str(corpus), "--quiet", *options]


def f_column(run: Run, corpus: Path, field: str, rouge_type: str) -> list[float]:
    result = run(
        *on(
            corpus,
            "--rouge-types",
            rouge_type,
            "--prediction-field",
            field,
            "--output-format",
            "jsonl",
        )
    )
    return [json.loads(line)[rouge_type]["fmeasure"] for line in result.out.splitlines()]


def test_baseline_comparison_equals_the_library(run: Run, corpus: Path, tmp_path: Path) -> None:
    baseline = old_file(corpus, tmp_path)
    options = on(
        corpus,
        "--rouge-types",
        "rouge1,rougeL",
        "--baseline-file",
        str(baseline),
        "--paired-ar",
        "--ar-trials",
        "999",
        "--seed",
        "3",
        "--output-format",
        "json",
    )
    document = json.loads(run(*options).out)
    assert document["signature"].endswith(f"|ar:999,seed:3|version:{__version__}")
    assert "paired:" not in document["signature"]  # no bootstrap was drawn
    system = {t: f_column(run, corpus, "prediction", t) for t in ("rouge1", "rougeL")}
    old = {t: f_column(run, corpus, "old", t) for t in ("rouge1", "rougeL")}
    expected = paired_randomization(system, old, 999, seed=3)
    for t in ("rouge1", "rougeL"):
        assert document["comparison"][t] == expected[t].as_dict()
        assert set(document["comparison"][t]) == {
            "system",
            "baseline",
            "difference",
            "p_value",
            "test",
        }
    assert document["comparison"]["rouge1"]["p_value"] == 1 / 1000  # a clear difference


def test_identical_baseline_gives_p_one_and_csv_has_no_interval(run: Run, corpus: Path) -> None:
    result = run(
        *on(
            corpus,
            "--baseline-file",
            str(corpus),
            "--paired-ar",
            "--seed",
            "1",
            "--output-format",
            "csv",
        )
    )
    lines = result.out.splitlines()
    assert lines[0] == "score_type,system,baseline,difference,p_value"
    assert all(line.endswith(",0.000000,1.000000") for line in lines[1:])


def test_leaderboard_gate_uses_the_randomization_test(run: Run, corpus: Path) -> None:
    options = on(
        corpus,
        "--prediction-field",
        "old",
        "--system-fields",
        "prediction",
        "--rouge-types",
        "rouge1",
        "--seed",
        "2",
        "--output-format",
        "json",
    )
    result = run(*options, "--paired-ar", "--ar-trials", "500")
    assert result.code == 3 and "significantly worse than prediction" in result.err
    document = json.loads(result.out)
    assert "|boot:1000,0.95,seed:2|ar:500,seed:2|" in document["signature"]
    (worse,) = [s for s in document["standings"] if s["system"] == "old"]
    assert set(worse["comparison"]["rouge1"]) == {
        "system",
        "baseline",
        "difference",
        "p_value",
        "test",
    }
    assert worse["comparison"]["rouge1"]["p_value"] == 1 / 501


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--paired-ar"], "--paired-ar tests a comparison"),
        (["--ar-trials", "10"], "--ar-trials only applies with --paired-ar"),
        (["--baseline-file", "X", "--paired-ar", "--ar-trials", "0"], "--ar-trials"),
    ],
)
def test_usage_errors(run: Run, corpus: Path, options: list[str], message: str) -> None:
    result = run(*on(corpus, *[str(corpus) if o == "X" else o for o in options]))
    assert result.code == 2 and message in result.err


def test_leaderboard_library_pairs_and_signature() -> None:
    rng = np.random.default_rng(0)
    a = rng.random((1, 3, 50))
    b = a * 0.9
    board = leaderboard({"a": a, "b": b}, ["rouge1"], 100, 0.95, 4, True, "ar", 300)
    (pair,) = board.pairs.values()
    expected = paired_randomization({"r": a[0, 2]}, {"r": b[0, 2]}, 300, seed=4)["r"]
    assert pair["rouge1"].p_value == expected.p_value
    assert board.standings[1].comparison["rouge1"].p_value == 1 / 301
    with pytest.raises(ValueError, match="invalid paired test 'x'"):
        leaderboard({"a": a}, ["rouge1"], test="x")
    signature = Signature(
        ("rouge1",), "whitespace", "no", "newline", "V", randomization=Randomization(10000, None)
    )
    assert (
        str(signature)
        == "rouge:rouge1|tok:whitespace|stem:no|split:newline|ar:10000,seed:none|version:V"
    )


def test_report_shows_the_randomization_test(run: Run, corpus: Path, tmp_path: Path) -> None:
    pytest.importorskip("jinja2")
    pytest.importorskip("plotly")
    from report_support import page_data

    page = tmp_path / "r.html"
    baseline = old_file(corpus, tmp_path)
    result = run(
        *on(
            corpus,
            "--rouge-types",
            "rouge1",
            "--baseline-file",
            str(baseline),
            "--paired-ar",
            "--ar-trials",
            "400",
            "--seed",
            "1",
            "--report",
            str(page),
        )
    )
    assert result.code == 0, result.err
    data = page_data(page)
    assert (data["resampling"]["test"], data["resampling"]["trials"]) == ("ar", 400)
    paired = data["comparison"]["rouge1"]["paired"]
    assert "low" not in paired and paired["p_value"] == 1 / 401
    html = page.read_text(encoding="utf-8")
    assert (
        "paired tests: approximate randomization (paired permutation), two-sided, 400 trials"
        in html
        and "nan" not in html.lower().split("<script")[0]
    )

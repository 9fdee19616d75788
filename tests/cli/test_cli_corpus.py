"""The command line's corpus scores: mean, bootstrap, --fail-under, --baseline-file."""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path

import numpy as np
import pytest
from cli_support import Run, call_main

from kurenai import __version__
from kurenai.rouge_scorer import RougeScorer
from kurenai.scoring import BootstrapAggregator

WORDS = ["猫", "犬", "が", "the", "cat", "dogs", "run", "x", "."]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return lambda *argv: call_main(capsys, *argv)


def text(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 7)))


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """120 JSONL records, some with several references, a baseline field too."""
    rng = random.Random(4)
    lines = []
    for i in range(120):
        refs = [text(rng) for _ in range(rng.randint(1, 3))]
        target: object = refs if i % 4 == 0 else refs[0]
        record = {"id": f"r{i}", "target": target, "prediction": text(rng), "old": text(rng)}
        lines.append(json.dumps(record, ensure_ascii=False) + "\n")
    path = tmp_path / "corpus.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    return path


def on(corpus: Path, *options: str) -> list[str]:
    return ["--target-file", str(corpus), "--prediction-file", str(corpus), "--quiet", *options]


def jsonl_rows(run: Run, corpus: Path, *options: str) -> list[dict]:
    result = run(*on(corpus, "--output-format", "jsonl", *options))
    assert result.code == 0, result.err
    return [json.loads(line) for line in result.out.splitlines()]


# ------------------------------------------------------------ mean


def test_mean_is_the_mean_of_the_per_record_rows(run: Run, corpus: Path) -> None:
    types = ["rouge1", "rouge2", "rougeL"]
    rows = jsonl_rows(run, corpus, "--rouge-types", ",".join(types))
    result = run(*on(corpus, "--rouge-types", ",".join(types), "--aggregate", "mean",
                     "--output-format", "json"))  # fmt: skip
    document = json.loads(result.out)
    assert document["count"] == 120
    for rouge_type in types:
        for measure in ("precision", "recall", "fmeasure"):
            expected = float(np.mean([row[rouge_type][measure] for row in rows]))
            assert document["mean"][rouge_type][measure] == expected


def test_mean_csv_rows_are_in_the_bootstrap_reports_order(run: Run, corpus: Path) -> None:
    options = ["--rouge-types", "rougeL,rouge1"]
    mean = run(*on(corpus, *options, "--aggregate", "mean")).out.splitlines()
    boot = run(*on(corpus, *options, "--aggregate", "bootstrap")).out.splitlines()
    assert mean[0] == "score_type,mean"
    assert [line.split(",")[0] for line in mean[1:]] == [line.split(",")[0] for line in boot[1:]]
    assert [line.split(",")[0] for line in mean[1:]][:3] == ["rouge1-R", "rouge1-P", "rouge1-F"]


def test_mean_jsonl_has_one_line_per_type(run: Run, corpus: Path) -> None:
    result = run(*on(corpus, "--rouge-types", "rouge2,rouge1", "--aggregate", "mean",
                     "--output-format", "jsonl"))  # fmt: skip
    lines = [json.loads(line) for line in result.out.splitlines()]
    assert [line["score_type"] for line in lines] == ["rouge1", "rouge2"]
    assert set(lines[0]) == {"score_type", "precision", "recall", "fmeasure"}


# ------------------------------------------------------------ bootstrap


def test_bootstrap_equals_rouge_score_in_the_scorers_type_order(run: Run, corpus: Path) -> None:
    types = ["rougeL", "rouge1", "rouge2"]  # rouge-score resamples in this order
    result = run(*on(corpus, "--rouge-types", ",".join(types), "--aggregate", "bootstrap",
                     "--seed", "9", "--bootstrap-samples", "300", "--confidence-interval", "0.9",
                     "--output-format", "json"))  # fmt: skip
    got = json.loads(result.out)["aggregate"]
    scorer = RougeScorer(types)
    aggregator = BootstrapAggregator(0.9, 300)
    for line in corpus.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        target = record["target"]
        multi = isinstance(target, list)
        score = scorer.score_multi if multi else scorer.score
        aggregator.add_scores(score(target, record["prediction"]))  # type: ignore[operator]
    np.random.seed(9)
    expected = aggregator.aggregate()
    for rouge_type in types:
        for bound in ("low", "mid", "high"):
            assert got[rouge_type][bound] == getattr(expected[rouge_type], bound)._asdict()


# ------------------------------------------------------------ --fail-under


@pytest.mark.parametrize("aggregate", ["none", "mean", "bootstrap"])
def test_fail_under_passes_and_fails(run: Run, corpus: Path, aggregate: str) -> None:
    options = on(corpus, "--rouge-types", "rouge1,rougeL", "--aggregate", aggregate, "--seed", "1")
    if aggregate != "bootstrap":
        options = options[:-2]
    rows = jsonl_rows(run, corpus, "--rouge-types", "rouge1,rougeL")
    mean_l = float(np.mean([row["rougeL"]["fmeasure"] for row in rows]))
    ok = run(*options, "--fail-under", f"rougeL={mean_l - 0.05:.4f},rouge1=0")
    assert (ok.code, ok.err) == (0, "")
    failed = run(*options, "--fail-under", f"rouge1=0,rougeL={mean_l + 0.05:.4f}")
    assert failed.code == 3
    assert failed.err.startswith("kurenai: rougeL-F 0.")
    assert failed.err.endswith(f" < {mean_l + 0.05:.4f}\n")
    assert failed.out == ok.out != ""  # the report is written anyway


def test_fail_under_uses_the_bootstrap_mid(run: Run, corpus: Path) -> None:
    options = on(corpus, "--rouge-types", "rouge1", "--use-aggregator", "--seed", "3")
    report = run(*options).out.splitlines()
    mid = float(next(r for r in csv.reader(report) if r[0] == "rouge1-F")[2])
    assert run(*options, "--fail-under", f"rouge1={mid - 1e-6}").code == 0
    assert run(*options, "--fail-under", f"rouge1={mid + 1e-6}").code == 3


def test_fail_under_report_goes_to_the_output_file(run: Run, corpus: Path, tmp_path: Path) -> None:
    output = tmp_path / "rouge.csv"
    result = run(*on(corpus, "--aggregate", "mean", "--fail-under", "rouge1=1",
                     "--output", str(output)))  # fmt: skip
    assert result.code == 3
    assert output.read_text(encoding="utf-8").startswith("score_type,mean\n")


def test_fail_under_shows_the_digits_that_make_it_fail(run: Run, tmp_path: Path) -> None:
    (tmp_path / "t.txt").write_text("a b c\n")
    (tmp_path / "p.txt").write_text("a b c d e f\n")  # rouge1-F = 2/3
    files = ["--target-file", str(tmp_path / "t.txt"), "--prediction-file", str(tmp_path / "p.txt")]
    result = run(*files, "--rouge-types", "rouge1", "--quiet", "--fail-under", "rouge1=0.66667")
    assert result.err == "kurenai: rouge1-F 0.6666666666666666 < 0.66667\n"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("rouge2=0.3", "--fail-under: rouge2 is not scored (--rouge-types rouge1,rougeL)"),
        ("rougeL", "expected TYPE=VALUE[,TYPE=VALUE...]"),
        ("rougeX=0.3", "invalid ROUGE type 'rougeX'; valid types: "),
        ("rougeL=1.5", "expected a number from 0 to 1, got '1.5'"),
        ("rougeL=high", "expected a number from 0 to 1"),
    ],
)
def test_fail_under_usage_errors(run: Run, corpus: Path, value: str, message: str) -> None:
    result = run(*on(corpus, "--rouge-types", "rouge1,rougeL", "--fail-under", value))
    assert result.code == 2
    assert message in result.err
    assert result.out == ""


# ------------------------------------------------------------ --baseline-file


def test_identical_baseline_differs_by_zero_with_p_one(run: Run, corpus: Path) -> None:
    result = run(*on(corpus, "--rouge-types", "rouge1,rougeL", "--baseline-file", str(corpus),
                     "--output-format", "json"))  # fmt: skip
    document = json.loads(result.out)
    assert document["count"] == 120
    assert document["signature"].endswith(f"|paired:1000,0.95,seed:none|version:{__version__}")
    for comparison in document["comparison"].values():
        assert comparison["difference"] == comparison["low"] == comparison["high"] == 0.0
        assert comparison["p_value"] == 1.0
        assert comparison["system"] == comparison["baseline"]


def test_baseline_from_another_field_and_its_numbers(
    run: Run, corpus: Path, tmp_path: Path
) -> None:
    records = [json.loads(line) for line in corpus.read_text(encoding="utf-8").splitlines()]
    baseline = tmp_path / "old.jsonl"
    baseline.write_text("".join(json.dumps({"prediction": r["old"]}) + "\n" for r in records))
    options = on(corpus, "--rouge-types", "rouge1", "--baseline-file", str(baseline))
    first = run(*options, "--seed", "5", "--output-format", "jsonl")
    again = run(*options, "--seed", "5", "--output-format", "jsonl")
    other = run(*options, "--seed", "6", "--output-format", "jsonl")
    assert first == again and first.out != other.out
    (line,) = [json.loads(x) for x in first.out.splitlines()]
    system = jsonl_rows(run, corpus, "--rouge-types", "rouge1")
    old = jsonl_rows(run, corpus, "--rouge-types", "rouge1", "--prediction-field", "old")
    assert line["system"] == float(np.mean([r["rouge1"]["fmeasure"] for r in system]))
    assert line["baseline"] == float(np.mean([r["rouge1"]["fmeasure"] for r in old]))
    assert line["difference"] == line["system"] - line["baseline"]
    assert line["low"] <= line["difference"] <= line["high"]
    assert 0 < line["p_value"] <= 1


def test_baseline_with_fail_under_gates_the_predictions(run: Run, corpus: Path) -> None:
    options = on(corpus, "--rouge-types", "rouge1", "--baseline-file", str(corpus))
    assert run(*options, "--fail-under", "rouge1=0").code == 0
    result = run(*options, "--fail-under", "rouge1=1")
    # (the baseline is the predictions themselves: the paired test's no-evidence note comes first)
    gate = [line for line in result.err.splitlines() if line.startswith("kurenai: rouge1-F ")]
    assert (result.code, len(gate)) == (3, 1)


def test_baseline_record_count_must_match(run: Run, corpus: Path, tmp_path: Path) -> None:
    short = tmp_path / "short.txt"
    short.write_text("a\nb\n")
    result = run(*on(corpus, "--baseline-file", str(short)))
    assert result.code == 1
    assert result.err == f"kurenai: error: {corpus} has 120 records but {short} has 2\n"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--baseline-file", "b.txt", "--aggregate", "mean"], "--baseline-file reports a compar"),
        (["--use-aggregator", "--aggregate", "mean"], "--use-aggregator means --aggregate boot"),
        (["--aggregate", "mean", "--seed", "1"], "--seed only applies with --aggregate bootstrap"),
        (["--seed", "1", "--bootstrap-samples", "9"], "--seed and --bootstrap-samples only apply"),
    ],
)
def test_corpus_option_conflicts(run: Run, corpus: Path, options: list[str], message: str) -> None:
    result = run(*on(corpus, *options))
    assert result.code == 2
    assert message in result.err


def test_seed_applies_to_the_comparison(run: Run, corpus: Path, tmp_path: Path) -> None:
    baseline = tmp_path / "b.txt"
    baseline.write_text("x\n" * 120)
    result = run(*on(corpus, "--baseline-file", str(baseline), "--seed", "2",
                     "--bootstrap-samples", "50", "--confidence-interval", "0.9"))  # fmt: skip
    assert result.code == 0
    assert result.out.startswith("score_type,system,baseline,difference,low,high,p_value\n")
    assert len(list(csv.reader(io.StringIO(result.out)))) == 4  # header + 3 default types

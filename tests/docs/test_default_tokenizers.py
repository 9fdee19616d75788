"""docs/compatibility.md's table of default tokenizers is what each entry
point does: every row's entry point, given no tokenizer, scores the page's
pair as the tokenizer the row names, with the F the row prints; the rows
naming ``rouge-score`` equal rouge-score's own scorer."""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from optional import missing

from kurenai.rouge_scorer import RougeScorer

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "compatibility.md"
TARGET, PREDICTION = "The naïve cat sat.", "the naive cat sat down"


def _table() -> dict[str, tuple[str, str]]:
    """entry point cell -> (tokenizer name, printed F) of each row."""
    text = PAGE.read_text(encoding="utf-8")
    start, end = (
        text.index("<!-- default-tokenizers -->"),
        text.index("<!-- /default-tokenizers -->"),
    )
    rows = [line for line in text[start:end].splitlines() if line.startswith("| `")]
    cells = [[cell.strip() for cell in row.strip("|").split("|")] for row in rows]
    return {entry: (name.strip("`"), f) for entry, name, f, _ in cells}


def _need(module: str) -> None:
    try:
        importlib.import_module(module)
    except ImportError:
        missing(f"{module} is not installed (pip install -e '.[test]')")


def _scorer() -> float:
    return float(RougeScorer(["rouge1"]).score(TARGET, PREDICTION)["rouge1"].fmeasure)


def _command_line(tmp_path: Path) -> float:
    from kurenai.cli import main

    (tmp_path / "t.txt").write_text(TARGET + "\n", encoding="utf-8")
    (tmp_path / "p.txt").write_text(PREDICTION + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    argv = ["--rouge-types", "rouge1", "--quiet", "--output-format", "jsonl"]
    argv += ["--target-file", str(tmp_path / "t.txt"), "--prediction-file", str(tmp_path / "p.txt")]
    assert main([*argv, "--output", str(out)]) == 0
    [record] = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    return float(record["rouge1"]["fmeasure"])


def _frames_and_spark() -> float:
    """Spark's workers, DuckDB's function and polars' expression: each one's
    scorer, built from the arguments the entry point was given (the three
    must agree; Spark's JVM is not needed to build its workers' scorer)."""
    from kurenai.frames._scoring import Options, single
    from kurenai.spark import _spec, _worker

    spec = _spec(["rouge1"], False, None, False, (None, None), False)
    spark = _worker.scorer(spec, False).score(TARGET, PREDICTION)["rouge1"].fmeasure
    _need("pyarrow")
    import pyarrow as pa

    result = single(Options(), "rouge1", pa.array([PREDICTION]), pa.array([TARGET]))
    frames = result.to_pylist()[0]["fmeasure"]
    assert spark == frames
    return float(frames)


def _metrics() -> float:
    from kurenai import metrics

    scores = metrics.compute([PREDICTION], [TARGET], ["rouge1"], use_aggregator=False)
    return float(scores["rouge1"][0])  # type: ignore[index]


def _patched() -> float:
    from rouge_score import rouge_scorer

    from kurenai.compat import patch_rouge_score, unpatch_rouge_score

    patch_rouge_score()
    try:
        scorer = rouge_scorer.RougeScorer(["rouge1"])
        assert type(scorer).__module__.startswith("kurenai.")
        return float(scorer.score(TARGET, PREDICTION)["rouge1"].fmeasure)
    finally:
        unpatch_rouge_score()


def _pltrdy() -> float:
    from kurenai.compat import Rouge

    [scores] = Rouge(metrics=["rouge-1"], mode="rouge-score").get_scores(PREDICTION, TARGET)
    return float(scores["rouge-1"]["f"])


def _rouge_chinese() -> float:
    from kurenai.compat.rouge_chinese import Rouge

    [scores] = Rouge(metrics=["rouge-1"], mode="rouge-score").get_scores(PREDICTION, TARGET)
    return float(scores["rouge-1"]["f"])


ENTRY_POINTS: dict[str, Callable[..., float]] = {
    "`RougeScorer`": _scorer,
    "`python -m kurenai`": _command_line,
    "`kurenai.spark`, `kurenai.frames.duckdb`, `kurenai.frames.polars`": _frames_and_spark,
    "`kurenai.metrics`": _metrics,
    "`patch_rouge_score()`": _patched,
    '`kurenai.compat.Rouge(mode="rouge-score")`': _pltrdy,
    '`kurenai.compat.rouge_chinese.Rouge(mode="rouge-score")`': _rouge_chinese,
}


def test_the_table_has_a_row_per_entry_point() -> None:
    assert list(_table()) == list(ENTRY_POINTS)


@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
def test_each_entry_point_scores_as_its_row_says(entry: str, tmp_path: Path) -> None:
    name, printed = _table()[entry]
    function = ENTRY_POINTS[entry]
    got = function(tmp_path) if function is _command_line else function()
    named = RougeScorer(["rouge1"], tokenizer=name).score(TARGET, PREDICTION)["rouge1"].fmeasure
    assert got == named
    assert printed == f"{got:.3f}"
    if name == "rouge-score":
        from rouge_score.rouge_scorer import RougeScorer as Google

        assert got == Google(["rouge1"]).score(TARGET, PREDICTION)["rouge1"].fmeasure


def test_the_pair_tells_the_three_tokenizers_apart() -> None:
    """Negative control: a row naming the wrong tokenizer would fail."""
    scores = {
        name: RougeScorer(["rouge1"], tokenizer=name).score(TARGET, PREDICTION)["rouge1"].fmeasure
        for name in ("whitespace", "unicode", "rouge-score")
    }
    assert len(set(scores.values())) == 3
    assert re.fullmatch(r"\d\.\d{3}", f"{max(scores.values()):.3f}")

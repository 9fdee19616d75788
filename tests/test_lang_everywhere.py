"""``lang=`` means the same on every surface: ``RougeScorer``,
``kurenai.metrics``, DuckDB, polars, Spark's workers and the command line's
``--lang`` score as ``RougeScorer(..., lang=...)`` does, and record it.
(Spark's Columns on a JVM: ``tests/spark/test_spark.py``; the errors:
``tests/core/test_checks.py``.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import call_main

from kurenai import metrics
from kurenai.rouge_scorer import RougeScorer

TARGETS = ["Die Häuser laufen schnell", "Красивые домами стоят"]
PREDICTIONS = ["Das Haus läuft schnell", "красивый дом стоит"]
LANGS = {0: "de", 1: "ru"}


def expected(rouge_type: str, lang: str, index: int) -> dict[str, float]:
    scorer = RougeScorer([rouge_type], use_stemmer=True, lang=lang)
    return scorer.score(TARGETS[index], PREDICTIONS[index])[rouge_type]._asdict()


def test_the_language_changes_the_numbers() -> None:
    """Negative control: the surfaces below would not pass unstemmed."""
    plain = RougeScorer(["rouge1"], lang="de").score(TARGETS[0], PREDICTIONS[0])["rouge1"]
    assert plain._asdict() != expected("rouge1", "de", 0)


@pytest.mark.parametrize("index", sorted(LANGS))
def test_metrics(index: int) -> None:
    lang = LANGS[index]
    got = metrics.compute(
        [PREDICTIONS[index]], [TARGETS[index]], ["rouge1"], use_stemmer=True, lang=lang,
        aggregate="mean",
    )  # fmt: skip
    assert got["rouge1"] == expected("rouge1", lang, index)["fmeasure"]
    metric = metrics.Rouge(["rouge1"], use_stemmer=True, lang=lang)
    assert f"|lang:{lang}|" in str(metric.signature())
    with pytest.raises(ValueError, match="set up differently"):
        metric.merge(metrics.Rouge(["rouge1"], use_stemmer=True))


@pytest.mark.parametrize("index", sorted(LANGS))
def test_duckdb(index: int) -> None:
    duckdb = pytest.importorskip("duckdb")
    from kurenai.frames.duckdb import register

    con = duckdb.connect()
    register(con, use_stemmer=True, lang=LANGS[index])
    query = "SELECT rouge_score(?, ?, 'rougeL')"
    [(row,)] = con.execute(query, [PREDICTIONS[index], TARGETS[index]]).fetchall()
    assert row == expected("rougeL", LANGS[index], index)


def test_polars() -> None:
    pl = pytest.importorskip("polars")
    import kurenai.frames.polars  # noqa: F401

    df = pl.DataFrame({"p": PREDICTIONS[:1], "t": TARGETS[:1]})
    got = df.select(pl.col("p").rouge.score("t", "rouge1", use_stemmer=True, lang="german"))
    assert got.to_series().to_list() == [expected("rouge1", "de", 0)]


def test_spark_workers() -> None:
    from kurenai.spark import _spec
    from kurenai.spark import _worker as _spark_worker

    spec = _spec(["rouge1"], True, None, False, (None, None), False, "russian")
    scorer = _spark_worker.scorer(spec, False)
    assert scorer.lang == "ru" and spec.key.endswith("|lang:ru")
    assert scorer.score(TARGETS[1], PREDICTIONS[1])["rouge1"]._asdict() == expected(
        "rouge1", "ru", 1
    )


def test_cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "pairs.jsonl"
    row = {"target": TARGETS[0], "prediction": PREDICTIONS[0]}
    path.write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    files = ["--target-file", str(path), "--prediction-file", str(path)]
    result = call_main(
        capsys, *files, "--rouge-types", "rouge1", "--use-stemmer", "--lang", "de",
        "--output-format", "jsonl", "--signature",
    )  # fmt: skip
    assert result.code == 0, result.err
    [line] = [json.loads(text) for text in result.out.splitlines() if text.startswith("{")]
    want = expected("rouge1", "de", 0)
    assert line["rouge1"]["fmeasure"] == pytest.approx(want["fmeasure"], abs=1e-6)
    assert "|lang:de|tok:unicode|stem:german(" in result.out + result.err

"""The output formats: one table, every report in every format, one order of
the measures, and the signature the outputs carry."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import IO

import numpy as np
import pytest
from cli_support import Run, call_main

from kurenai._core.multiref import MODES
from kurenai.cli import _output, parse_args, signature
from kurenai.cli._output import FORMATS, Block, Corpus, OutputFormat, record_report
from kurenai.cli._sources import BELOW_GATE, CliError
from kurenai.report import Leaderboard
from kurenai.rouge_scorer import RougeScorer

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FILES = [
    "--target-file",
    str(EXAMPLES / "targets.txt"),
    "--prediction-file",
    str(EXAMPLES / "predictions.txt"),
]
BASELINE = ["--baseline-file", str(EXAMPLES / "baseline.txt")]
SYSTEMS = ["--systems", str(EXAMPLES / "baseline.txt"), "--seed", "1", "--bootstrap-samples", "20"]
REPORTS = {
    "records": [],
    "mean": ["--aggregate", "mean"],
    "bootstrap": ["--aggregate", "bootstrap", "--seed", "1", "--bootstrap-samples", "20"],
    "comparison": [*BASELINE, "--seed", "1", "--bootstrap-samples", "20"],
}


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return lambda *argv: call_main(capsys, *argv)


class _Lines:
    """A test format: ``type measure value`` lines, records and corpus alike."""

    def __init__(self, stream: IO[str], rouge_types: Sequence[str], signature: str) -> None:
        self._stream, self._types = stream, list(rouge_types)
        stream.write(f"# {signature}\n")

    def add(self, block: Block) -> None:
        for column, record in enumerate(block.ids):
            for t, rouge_type in enumerate(self._types):
                values = " ".join(f"{v:.3f}" for v in block.values[t, :, column])
                self._stream.write(f"{record} {rouge_type} {values}\n")

    def close(self) -> None:
        self._stream.write("# end\n")


def _lines_corpus(stream: IO[str], corpus: Corpus, signature: str) -> None:
    for label, values in corpus.rows:
        stream.write(f"{corpus.name} {label} {' '.join(f'{v:.3f}' for v in values)}\n")


def _lines_leaderboard(stream: IO[str], board: Leaderboard, count: int, signature: str) -> None:
    for standing in board.standings:
        stream.write(f"{standing.rank} {standing.system} of {count}\n")


@pytest.fixture
def lines_format(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new output format, registered by one entry in the table."""
    monkeypatch.setitem(FORMATS, "lines", OutputFormat(_Lines, _lines_corpus, _lines_leaderboard))


def test_a_new_format_is_one_entry_for_every_report(run: Run, lines_format: None) -> None:
    records = run("--rouge-types", "rouge1", *FILES, "--output-format", "lines")
    assert records.code == 0, records.err
    assert records.out.splitlines()[1:] == [
        "0 rouge1 0.667 0.667 0.667",
        "1 rouge1 0.750 0.667 0.706",
        "# end",
    ]
    mean = run("--rouge-types", "rouge1", *FILES, "--aggregate", "mean", "--output-format", "lines")
    assert mean.out.splitlines() == [
        "mean rouge1-R 0.667",
        "mean rouge1-P 0.708",
        "mean rouge1-F 0.686",
    ]
    board = run(*FILES, *SYSTEMS, "--output-format", "lines")
    assert board.out.splitlines() == ["1 predictions.txt of 2", "2 baseline.txt of 2"]


def _leaderboard_rows(fmt: str, text: str) -> list[dict[str, str]]:
    """The (system, type) rows of a leaderboard written in ``fmt``."""
    if fmt == "csv":
        return list(csv.DictReader(io.StringIO(text)))
    standings = (
        json.loads(text)["standings"]
        if fmt == "json"
        else [json.loads(line) for line in text.splitlines()]
    )
    return [
        {"system": s["system"], "score_type": t, "mid": f"{v[1]:f}"}
        for s in standings
        for t, v in s["intervals"].items()
    ]


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_leaderboard_in_every_format(run: Run, fmt: str) -> None:
    def rows(fmt: str) -> list[dict[str, str]]:
        found = run(*FILES, *SYSTEMS, "--rouge-types", "rouge1,rougeL", "--output-format", fmt)
        assert found.code == 0, found.err
        return [{key: row[key] for key in ("system", "score_type", "mid")} for row in
                _leaderboard_rows(fmt, found.out)]  # fmt: skip

    written = rows(fmt)
    assert [(r["system"], r["score_type"]) for r in written] == [
        (system, t) for system in ("predictions.txt", "baseline.txt") for t in ("rouge1", "rougeL")
    ]
    assert written == rows("json")  # the same numbers in every format


def test_a_leaderboard_not_given_a_format_is_its_text_table(run: Run) -> None:
    result = run(*FILES, *SYSTEMS)
    assert result.out.splitlines()[0] == str(signature(parse_args([*FILES, *SYSTEMS])))
    assert result.out.splitlines()[1].split()[:2] == ["rank", "system"]


def test_a_leaderboards_missed_threshold_is_never_shown_equal(run: Run) -> None:
    scores = RougeScorer(["rouge1"]).score_batch(*_texts(), columnar=True)["rouge1"]
    mean = float(np.mean(scores.fmeasure))
    threshold = round(mean, 4)
    assert threshold > mean  # the mean rounds up to the threshold it misses
    result = run(*FILES, *SYSTEMS, "--rouge-types", "rouge1", "--fail-under", f"rouge1={threshold}")
    assert result.code == BELOW_GATE
    assert f"kurenai: predictions.txt rouge1-F {mean!r} < {threshold}\n" in result.err


def _texts() -> tuple[list[str], list[str]]:
    return tuple(  # type: ignore[return-value]
        (EXAMPLES / name).read_text(encoding="utf-8").splitlines()
        for name in ("targets.txt", "predictions.txt")
    )


def test_the_choices_are_the_tables_names(run: Run, lines_format: None) -> None:
    result = run(*FILES, "--output-format", "yaml")
    assert result.code == 2
    assert "(choose from 'csv', 'json', 'jsonl', 'lines')" in result.err


def test_an_unknown_format_is_an_error_not_json() -> None:
    with pytest.raises(CliError, match=r"unknown output format 'yaml'; choose from csv, json"):
        record_report(io.StringIO(), "yaml", ["rouge1"], "sig")
    with pytest.raises(CliError, match="unknown output format 'xml'"):
        _output.write_corpus(io.StringIO(), "xml", Corpus("mean", (), [], {}, 0), "sig")


def _first_scores(found: object) -> list[str] | None:
    """The keys of the first object holding scores, depth first."""
    if isinstance(found, dict):
        if "recall" in found or "system" in found:
            return [key for key in found if key != "score_type"]
        found = list(found.values())
    if isinstance(found, list):
        for value in found:
            keys = _first_scores(value)
            if keys is not None:
                return keys
    return None


def _measures(fmt: str, out: str) -> list[str] | None:
    """The measures of rouge1, in the order the output gives them."""
    if fmt == "csv":
        rows = list(csv.reader(io.StringIO(out)))
        if rows[0][0] == "id":
            return [cell.split("-")[1] for cell in rows[0] if cell.startswith("rouge1-")]
        return [row[0].split("-")[1] for row in rows[1:] if row[0].startswith("rouge1-")]
    if fmt == "jsonl":
        return _first_scores([json.loads(line) for line in out.splitlines()])
    return _first_scores(json.loads(out))


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("report", sorted(REPORTS))
def test_every_output_gives_the_measures_in_rouge_scores_order(
    run: Run, fmt: str, report: str
) -> None:
    """rouge-score's CSV: per-record columns P, R, F, a corpus table's rows
    R, P, F (its aggregate CSV); JSON names them in ``Score``'s order."""
    result = run("--rouge-types", "rouge1", *FILES, *REPORTS[report], "--output-format", fmt)
    assert result.code == 0, result.err
    measures = _measures(fmt, result.out)
    if report == "comparison":  # F only: the systems' F, difference, interval, p
        fields = ["system", "baseline", "difference", "low", "high", "p_value", "test"]
        assert measures in (["F"], fields)
    elif fmt != "csv":
        assert measures == ["precision", "recall", "fmeasure"]
    else:
        assert measures == (["P", "R", "F"] if report == "records" else ["R", "P", "F"])


def test_json_outputs_carry_the_printed_signature(run: Run) -> None:
    for options in ([], ["--aggregate", "mean"], REPORTS["bootstrap"]):
        result = run(*FILES, *options, "--output-format", "json", "--signature")
        signature = result.err.splitlines(keepends=True)[-1]  # after the tokenizer's note
        assert json.loads(result.out)["signature"] + "\n" == signature


def test_the_cli_signature_is_the_scorers_with_the_runs_settings() -> None:
    args = parse_args([*FILES, "--rouge-types", "rougeL", "--tokenizer", "char",
                       "--multi-ref-mode", "mean", *REPORTS["bootstrap"]])  # fmt: skip
    scorer = RougeScorer(["rougeL"], tokenizer="char")
    expected = str(scorer.signature(mode="mean")).replace(
        "|version:", "|boot:20,0.95,seed:1|version:"
    )
    assert str(signature(args)) == expected
    assert str(signature(args, scorer)) == expected


def test_the_cli_signature_records_every_multi_reference_mode() -> None:
    # The default mode too: each gives other numbers on several references.
    printed = set()
    for mode in MODES:
        for name in (mode.name, *mode.aliases):
            args = parse_args([*FILES, "--rouge-types", "rougeL", "--multi-ref-mode", name])
            assert signature(args).multi_ref_mode == mode.name
        printed.add(str(signature(args)))
    assert len(printed) == len(MODES)
    assert signature(parse_args(FILES)).multi_ref_mode == "best"  # the default, said

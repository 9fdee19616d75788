"""The command line's --report, and its leaderboard of several systems."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from cli_support import call_main
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from report_support import ENGLISH, page_data

from kurenai.rouge_scorer import RougeScorer

pytest.importorskip("jinja2")
pytest.importorskip("plotly")


def _write(path: Path, lines: list[str]) -> str:
    path.write_text("".join(line.replace("\n", "\\n") + "\n" for line in lines), encoding="utf-8")
    return str(path)


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    targets, predictions, baseline = (list(x) for x in zip(*ENGLISH))
    return {
        "t": _write(tmp_path / "t.txt", targets),
        "p": _write(tmp_path / "p.txt", predictions),
        "b": _write(tmp_path / "b.txt", baseline),
        "dir": str(tmp_path),
    }


def _scores(data: dict[str, object], system: str) -> list[list[list[float]]]:
    return data["scores"][system]  # type: ignore[index,no-any-return]


@pytest.mark.parametrize(
    "extra",
    [[], ["--aggregate", "bootstrap", "--seed", "1"], ["--output-format", "json"]],
    ids=["records", "bootstrap", "json"],
)
def test_report_with_any_output(
    capsys: pytest.CaptureFixture[str], files: dict[str, str], extra: list[str]
) -> None:
    report = Path(files["dir"]) / "r.html"
    base = ["--target-file", files["t"], "--prediction-file", files["p"], "--newline-escape"]
    result = call_main(capsys, *base, "--report", str(report), *extra)
    assert result.code == 0, result.err
    data = page_data(report)
    scorer = RougeScorer(["rouge1", "rouge2", "rougeL"])
    assert data["count"] == len(ENGLISH)
    assert data["systems"] == ["p.txt"]
    assert data["targets"][0] == ENGLISH[0][0]  # the escaped newline, read as one
    expected = scorer.score(ENGLISH[1][0], ENGLISH[1][1])["rouge2"]
    assert [_scores(data, "p.txt")[1][m][1] for m in range(3)] == [round(x, 6) for x in expected]
    assert data["signature"].startswith("rouge:rouge1,rouge2,rougeL|tok:whitespace")


def test_report_of_a_comparison_from_jsonl_on_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    rows = [{"id": f"r{i}", "target": t, "prediction": p} for i, (t, p, _) in enumerate(ENGLISH)]
    rows[0]["target"] = [ENGLISH[0][0], "a second reference"]  # type: ignore[assignment]
    lines = "".join(json.dumps(r) + "\n" for r in rows)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(lines.encode())))
    baseline = tmp_path / "b.jsonl"
    baseline.write_text(
        "".join(
            json.dumps({"id": f"r{i}", "prediction": b}) + "\n"
            for i, (_, _, b) in enumerate(ENGLISH)
        )
    )
    report = tmp_path / "r.html"
    argv = ["--target-file", "-", "--prediction-file", "-", "--format", "jsonl"]
    argv += ["--baseline-file", str(baseline), "--id-field", "id", "--seed", "2"]
    result = call_main(capsys, *argv, "--report", str(report))
    assert result.code == 0, result.err
    data = page_data(report)
    assert data["ids"] == [f"r{i}" for i in range(len(ENGLISH))]
    # As on a leaderboard: the predictions by their field (on stdin), the baseline by its file.
    assert data["systems"] == ["prediction", "b.jsonl"]
    assert data["baseline"] == "b.jsonl" and "comparison" in data
    assert data["targets"][0] == ENGLISH[0][0] + "\n\na second reference"
    assert data["resampling"]["seed"] == 2


def test_a_leaderboard_in_text_and_json(
    capsys: pytest.CaptureFixture[str], files: dict[str, str]
) -> None:
    base = ["--target-file", files["t"], "--prediction-file", files["p"], "--seed", "0"]
    result = call_main(capsys, *base, "--systems", files["b"], files["t"], "--newline-escape")
    # The first system is worse than the references themselves: the gate fails.
    assert result.code == 3
    assert "p.txt is significantly worse than t.txt" in result.err
    lines = result.out.splitlines()
    assert lines[0].startswith("rouge:") and "boot:1000,0.95,seed:0" in lines[0]
    assert [line.split()[1] for line in lines[2:-1]] == ["t.txt", "p.txt", "b.txt"]
    assert lines[-1].startswith("Ranked by the mean rouge1 F (the first type)")
    report = Path(files["dir"]) / "board.html"
    result = call_main(
        capsys,
        *base,
        "--systems",
        files["b"],
        "--output-format",
        "json",
        "--all-pairs",
        "--report",
        str(report),
        "--newline-escape",
    )
    assert result.code == 0, result.err
    board = json.loads(result.out)
    assert [s["system"] for s in board["standings"]] == ["p.txt", "b.txt"]
    assert board["standings"][1]["comparison"]["rouge1"]["p_value"] <= 1
    assert len(board["pairs"]) == 1
    assert page_data(report)["systems"] == ["p.txt", "b.txt"]


def test_systems_as_jsonl_fields(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    path.write_text(
        "".join(
            json.dumps({"target": t, "prediction": p, "other": b}) + "\n" for t, p, b in ENGLISH
        )
    )
    argv = ["--target-file", str(path), "--prediction-file", str(path)]
    result = call_main(capsys, *argv, "--system-fields", "other", "--output-format", "json")
    assert result.code == 0, result.err
    assert {s["system"] for s in json.loads(result.out)["standings"]} == {"prediction", "other"}


def test_the_gate_reads_fail_under(
    capsys: pytest.CaptureFixture[str], files: dict[str, str]
) -> None:
    argv = ["--target-file", files["t"], "--prediction-file", files["t"], "--systems", files["p"]]
    argv += ["--newline-escape", "--seed", "0"]
    assert call_main(capsys, *argv).code == 0  # the first system is the best one
    result = call_main(capsys, *argv, "--fail-under", "rouge1=0.5")
    assert result.code == 0, result.err
    argv[3] = files["b"]
    result = call_main(capsys, *argv, "--fail-under", "rouge2=0.9")
    assert result.code == 3
    assert "b.txt rouge2-F" in result.err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--systems", "x", "--baseline-file", "y"], "give the baseline as one of them"),
        (["--all-pairs"], "--all-pairs needs --systems"),
        (["--report-explain", "-2", "--report", "r.html"], "--report-explain"),
        (["--system-fields", "a"], "--system-fields needs JSONL"),
    ],
)
def test_bad_combinations_are_usage_errors(
    capsys: pytest.CaptureFixture[str], files: dict[str, str], argv: list[str], message: str
) -> None:
    result = call_main(capsys, "--target-file", files["t"], "--prediction-file", files["p"], *argv)
    assert result.code == 2
    assert message in result.err


def test_a_system_named_baseline_keeps_its_scores(
    capsys: pytest.CaptureFixture[str], files: dict[str, str]
) -> None:
    folder = Path(files["dir"])
    system = folder / "baseline"
    system.write_text(Path(files["p"]).read_text(encoding="utf-8"), encoding="utf-8")
    report = folder / "r.html"
    argv = ["--target-file", files["t"], "--prediction-file", str(system)]
    result = call_main(capsys, *argv, "--baseline-file", files["b"], "--report", str(report))
    assert result.code == 0, result.err
    data = page_data(report)
    assert data["systems"] == ["baseline", "b.txt"] and data["baseline"] == "b.txt"
    assert data["scores"]["baseline"] != data["scores"]["b.txt"]


def test_systems_in_files_of_one_name_are_told_apart_by_their_folders(
    capsys: pytest.CaptureFixture[str], files: dict[str, str]
) -> None:
    folder = Path(files["dir"])
    for run, source in (("new", files["p"]), ("old", files["b"])):
        (folder / run).mkdir()
        (folder / run / "pred.txt").write_text(Path(source).read_text(encoding="utf-8"))
    report = folder / "r.html"
    argv = ["--target-file", files["t"], "--prediction-file", str(folder / "new" / "pred.txt")]
    argv += ["--baseline-file", str(folder / "old" / "pred.txt"), "--report", str(report)]
    result = call_main(capsys, *argv, "--newline-escape")
    assert result.code == 0, result.err
    data = page_data(report)
    assert data["systems"] == ["new/pred.txt", "old/pred.txt"]
    assert data["baseline"] == "old/pred.txt"
    board = folder / "board.html"
    argv = ["--target-file", files["t"], "--prediction-file", str(folder / "new" / "pred.txt")]
    argv += ["--systems", str(folder / "old" / "pred.txt"), files["b"], "--report", str(board)]
    result = call_main(capsys, *argv, "--newline-escape", "--output-format", "json")
    assert result.code == 0, result.err
    assert page_data(board)["systems"] == ["new/pred.txt", "old/pred.txt", "b.txt"]


# ------------------------------------------------------------ records over a size limit


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(
    lengths=st.lists(st.tuples(st.integers(1, 12), st.integers(1, 12)), min_size=2, max_size=6),
    limit=st.integers(2, 10),
    surrogate=st.booleans(),
    baseline=st.booleans(),
)
def test_the_report_leaves_over_limit_records_out_as_the_cli_does(
    capsys: pytest.CaptureFixture[str], tmp_path_factory: pytest.TempPathFactory,
    lengths: list[tuple[int, int]], limit: int, surrogate: bool, baseline: bool,
) -> None:  # fmt: skip
    # The corpus numbers of the page are the command line's (its bootstrap,
    # same seed) over the records within --max-tokens; the others are null in
    # the table; a lone surrogate (a JSON escape) does not stop the writer.
    directory = tmp_path_factory.mktemp("limits")
    words = ["the", "cat", "sat", "on", "a", "mat", "and", "dog", "ran", "far", "away"]
    rows = []
    for k, (n, m) in enumerate(lengths):
        target = " ".join(words[(k + i) % 11] for i in range(n))
        prediction = " ".join(words[(2 * k + i) % 11] for i in range(m))
        rows.append({"id": f"r{k}", "target": target + (" \ud800" if surrogate and not k else ""),
                     "prediction": prediction})  # fmt: skip
    path = directory / "d.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    argv = ["--target-file", str(path), "--prediction-file", str(path), "--id-field", "id",
            "--max-tokens", str(limit), "--seed", "4", "--bootstrap-samples", "200"]  # fmt: skip
    if baseline:  # the same predictions: a comparison of equals
        argv += ["--baseline-file", str(path)]
    # The default tokenizer keeps every character: the lone surrogate is a
    # token of its own.
    within = [k for k, (n, m) in enumerate(lengths)
              if n + (surrogate and not k) <= limit and m <= limit]  # fmt: skip
    report = directory / "r.html"
    result = call_main(capsys, *argv, "--report", str(report), "--output-format", "json",
                       *([] if baseline else ["--aggregate", "bootstrap"]), "--quiet")  # fmt: skip
    if not within:
        assert result.code == 1
        assert result.err.startswith("kurenai: error: every record is over --max-tokens")
        return
    assert result.code == 0, result.err
    data = page_data(report)
    name = data["main"]
    for k in range(len(lengths)):
        cells = [data["scores"][name][t][m][k] for t in range(3) for m in range(3)]
        assert (None not in cells) == (k in within), (k, cells)
    page = report.read_text(encoding="utf-8")
    assert "NaN" not in page.split('id="report-data"')[1].split("</script>")[0]
    cli = json.loads(result.out)
    for rouge_type, (low, mid, high) in data["leaderboard"]["standings"][0]["intervals"].items():
        if not baseline:
            interval = cli["aggregate"][rouge_type]
            assert [low, mid, high] == [interval[x]["fmeasure"] for x in ("low", "mid", "high")]


def test_a_file_holding_one_system_beside_the_references_names_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    dev, old = tmp_path / "dev.jsonl", tmp_path / "old.jsonl"
    dev.write_text(
        "".join(json.dumps({"target": t, "prediction": p}) + "\n" for t, p, _ in ENGLISH)
    )
    old.write_text("".join(json.dumps({"prediction": b}) + "\n" for _, _, b in ENGLISH))
    report = tmp_path / "r.html"
    argv = ["--target-file", str(dev), "--prediction-file", str(dev), "--baseline-file", str(old)]
    result = call_main(capsys, *argv, "--report", str(report))
    assert result.code == 0, result.err
    assert page_data(report)["systems"] == ["dev.jsonl", "old.jsonl"]


def _several_references(tmp_path: Path) -> tuple[str, list[list[str]], dict[str, list[str]]]:
    """Records of three references each, a system that copies the first and
    two that copy the second or third: which is best depends on the draw."""
    targets = [[t, b, p] for t, p, b in ENGLISH]
    systems = {"prediction": [t[0] for t in targets], "other": [t[1] for t in targets],
               "third": [t[2] for t in targets]}  # fmt: skip
    path = tmp_path / "multi.jsonl"
    rows = [{"target": t, **{s: v[k] for s, v in systems.items()}} for k, t in enumerate(targets)]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return str(path), targets, systems


def test_a_leaderboard_reports_the_rank_stability_under_the_references(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from kurenai.stats import rank_stability

    path, targets, systems = _several_references(tmp_path)
    argv = ["--target-file", path, "--prediction-file", path, "--system-fields", "other,third"]
    argv += ["--seed", "3", "--bootstrap-samples", "20", "--reference-resamples", "40"]
    scorer = RougeScorer(["rouge1", "rouge2", "rougeL"])
    expected = rank_stability(scorer, targets, systems, 40, seed=3)
    assert 0 < max(expected.swaps.values()) < 1, "the records were chosen to make systems swap"
    report = tmp_path / "board.html"
    result = call_main(capsys, *argv, "--output-format", "json", "--report", str(report))
    assert result.code in (0, 3), result.err
    assert json.loads(result.out)["rank_stability"] == json.loads(json.dumps(expected.as_dict()))
    page = report.read_text(encoding="utf-8")
    assert (
        page_data(report)["leaderboard"]["rank_stability"]
        == json.loads(result.out)["rank_stability"]
    )
    assert page.count('<tr><td class="num">') >= 3 and 'class="chart swaps"' in page
    result = call_main(capsys, *argv, "--output-format", "jsonl")
    last = json.loads(result.out.splitlines()[-1])
    assert last == {"rank_stability": json.loads(json.dumps(expected.as_dict()))}
    result = call_main(capsys, *argv)
    assert expected.text() in result.out
    result = call_main(capsys, *argv[:-2])  # not asked for: none
    assert "rank stability" not in result.out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--multi-ref-mode", "average"], "by best or mean"),
        (["--output-format", "csv"], "the csv leaderboard has no rank stability"),
    ],
)
def test_the_rank_stability_refuses_what_it_cannot_report(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, extra: list[str], message: str
) -> None:
    path, _, _ = _several_references(tmp_path)
    argv = ["--target-file", path, "--prediction-file", path, "--system-fields", "other"]
    result = call_main(capsys, *argv, "--reference-resamples", "10", *extra)
    assert result.code == 2 and message in result.err, result.err


def test_the_rank_stability_needs_several_references_and_systems(
    capsys: pytest.CaptureFixture[str], files: dict[str, str]
) -> None:
    argv = ["--target-file", files["t"], "--prediction-file", files["p"], "--newline-escape"]
    result = call_main(capsys, *argv, "--reference-resamples", "10")
    assert result.code == 2 and "give --systems or --system-fields" in result.err
    report = Path(files["dir"]) / "none.html"
    argv += ["--systems", files["b"], "--reference-resamples", "10", "--report", str(report)]
    result = call_main(capsys, *argv)
    assert result.code == 2, result.err
    assert "needs records with several references: every record has one" in result.err
    assert result.out == "" and not report.exists()  # nothing half-written

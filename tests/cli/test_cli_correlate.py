"""``kurenai correlate``, in process: the library's numbers, its errors as
exit statuses with one line on stderr, and the HTML page."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from optional import missing
from report_support import page_data

from kurenai.cli import main
from kurenai.cli._correlate import parse_variant
from kurenai.report import correlate

DATA = Path(__file__).resolve().parents[1] / "data" / "realsumm"
JUDGMENTS, REFERENCES = str(DATA / "judgments.jsonl"), str(DATA / "references.jsonl")
SAMPLE = ["--judgments", JUDGMENTS, "--references", REFERENCES]


@pytest.fixture(autouse=True)
def _scipy() -> None:
    try:
        import scipy.stats  # noqa: F401
    except ImportError:  # pragma: no cover - the correlate extra is in the test extra
        missing("scipy (the correlate extra) is not installed")


def _jsonl(path: str) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["correlate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_output_is_the_librarys(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(
        capsys,
        *SAMPLE,
        "--rouge-types",
        "rouge1",
        "rouge2",
        "--variants",
        "default",
        "stem",
        "--measure",
        "recall",
        "--bootstrap-samples",
        "20",
        "--seed",
        "3",
        "--output-format",
        "json",
    )
    assert (code, err) == (0, "")
    found = json.loads(out)
    references = {r["document"]: r["reference"] for r in _jsonl(REFERENCES)}
    judgments = _jsonl(JUDGMENTS)
    predictions: dict[str, dict[str, str]] = {}
    for j in judgments:
        predictions.setdefault(j["system"], {})[j["document"]] = j["prediction"]
    expected = correlate(
        references,
        predictions,
        judgments,
        ["rouge1", "rouge2"],
        variants={"default": {}, "stem": {"use_stemmer": True}},
        measure="recall",
        n_samples=20,
        seed=3,
    )
    assert found == json.loads(json.dumps(expected.as_dict()))
    assert found["metrics"] == [
        "rouge1 (default)",
        "rouge2 (default)",
        "rouge1 (stem)",
        "rouge2 (stem)",
    ]


def test_text_output_and_the_report(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    code, out, err = _run(
        capsys,
        *SAMPLE,
        "--rouge-types",
        "rouge2",
        "rougeL",
        "--bootstrap-samples",
        "20",
        "--seed",
        "0",
        "--coefficients",
        "kendall",
        "--tests",
        "williams",
        "--report",
        str(page),
    )
    assert (code, err) == (0, "")
    assert out.startswith("correlations (95% bootstrap intervals, resampling both):")
    assert "litepyramid_recall  summary  rouge2" in out
    assert "williams" in out and "permutation" not in out
    assert page_data(page)["criteria"] == ["litepyramid_recall"]


@pytest.mark.parametrize(
    ("argv", "status", "message"),
    [
        (["--judgments", "missing.jsonl"], 1, "No such file"),
        (["--judgments", JUDGMENTS], 1, "no 'reference' member|needs 'reference'"),
        (["--judgments", JUDGMENTS, "--references", JUDGMENTS], 1, "needs 'reference'"),
        (["--judgments", REFERENCES, "--references", REFERENCES], 1, "no 'system' member"),
        (
            [*SAMPLE, "--variants", "lang=xx"],
            2,
            "variant 'lang=xx': unknown language 'xx'",
        ),
        (
            [*SAMPLE, "--variants", "speed=9"],
            2,
            "bad variant 'speed=9'",
        ),
        (
            [*SAMPLE, "--criteria", "prediction"],
            1,
            "'prediction' must be a number",
        ),
    ],
)
def test_errors_are_one_line_and_a_status(
    capsys: pytest.CaptureFixture[str], argv: list[str], status: int, message: str
) -> None:
    code, out, err = _run(capsys, *argv, "--bootstrap-samples", "0")
    assert code == status and out == ""
    assert err.startswith("kurenai correlate: error: ") and err.count("\n") == 1
    assert re.search(message, err)


def test_bad_json_names_the_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"system": "a", "document": "b", "x": 1}\n[1, 2]\n', encoding="utf-8")
    code, _, err = _run(capsys, "--judgments", str(bad))
    assert code == 1 and f"{bad}:2: not a JSON object" in err


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["correlate", "--judgments", JUDGMENTS, "--resample", "rows"]) == 2
    assert "invalid choice: 'rows'" in capsys.readouterr().err


def test_an_input_is_never_an_output(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    judgments = tmp_path / "judgments.jsonl"
    judgments.write_bytes(Path(JUDGMENTS).read_bytes())
    for option in ("--output", "--report"):
        code, out, err = _run(
            capsys, "--judgments", str(judgments), "--references", REFERENCES,
            option, str(judgments),
        )  # fmt: skip
        assert (code, out) == (1, "") and "refusing to replace it" in err, err
        assert judgments.read_bytes() == Path(JUDGMENTS).read_bytes()


def test_a_missing_report_extra_is_said_before_reading(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kurenai.report import _render

    monkeypatch.setattr(_render, "_spec", lambda name: None)
    absent = str(tmp_path / "absent.jsonl")  # read first, it would be its error
    code, out, err = _run(capsys, "--judgments", absent, "--report", str(tmp_path / "r.html"))
    assert (code, out) == (1, "") and "--report: the HTML report needs jinja2" in err, err
    assert list(tmp_path.iterdir()) == []


def test_an_interrupt_while_writing_leaves_no_part(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import kurenai.report

    def interrupted(stream: Any, *args: Any, **kwargs: Any) -> None:
        stream.write("<html>")
        raise KeyboardInterrupt

    monkeypatch.setattr(kurenai.report, "write_correlation_report", interrupted)
    report = tmp_path / "r.html"
    report.write_text("precious\n")
    output = tmp_path / "out.txt"
    outputs = ["--output", str(output), "--report", str(report)]
    code, out, err = _run(capsys, *SAMPLE, "--bootstrap-samples", "5", *outputs)
    assert (code, out, err) == (130, "", "kurenai correlate: interrupted\n")
    assert report.read_text() == "precious\n"  # untouched: no half page
    assert output.read_text().startswith("correlations")  # finished before the page began
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt", "r.html"]


def test_variants() -> None:
    assert parse_variant("default") == {}
    assert parse_variant("tokenizer=whitespace+stem=german") == {
        "tokenizer": "whitespace",
        "use_stemmer": "german",
    }
    with pytest.raises(ValueError, match="bad variant 'lang='"):
        parse_variant("lang=")

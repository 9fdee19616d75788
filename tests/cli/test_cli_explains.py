"""A command line that explains itself: its help, its errors, its progress
display and its closing summary."""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from cli_support import SUMMARY, Run, call_main

from kurenai import cli
from kurenai._core.plan import ROUGE_TYPE_GRAMMAR
from kurenai.cli import _progress
from kurenai.cli._progress import Progress
from kurenai.tokenizers import available_tokenizers, tokenizer_info

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FILES = [
    "--target-file",
    str(EXAMPLES / "targets.txt"),
    "--prediction-file",
    str(EXAMPLES / "predictions.txt"),
]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return lambda *argv: call_main(capsys, *argv)


@pytest.fixture(scope="module")
def help_text() -> str:
    stream = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stdout", stream)
        assert cli.main(["--help"]) == 0
    return " ".join(stream.getvalue().split())  # unwrapped


def test_help_starts_with_the_required_options(help_text: str) -> None:
    assert help_text.startswith(
        "usage: kurenai --target-file FILE --prediction-file FILE [options]"
    )
    required = help_text.index("required: --target-file FILE")
    assert required < help_text.index("--prediction-file FILE the predictions")
    assert required < help_text.index("scoring: --rouge-types") < help_text.index("-h, --help")


def test_help_shows_examples_and_the_type_grammar(help_text: str) -> None:
    assert "examples: kurenai --target-file refs.txt --prediction-file predictions.txt" in (
        help_text
    )
    assert " ".join(ROUGE_TYPE_GRAMMAR.split()) in help_text
    assert "rougeSU{k}" in ROUGE_TYPE_GRAMMAR and "rouge9" in ROUGE_TYPE_GRAMMAR


def test_help_lists_each_tokenizer_with_its_extra(help_text: str) -> None:
    for name in available_tokenizers():
        info = tokenizer_info(name)
        line = f"{name} {' '.join(info.summary.split())}"
        assert line in help_text, name
        if info.extra:
            assert f"{line}; needs the {info.extra} extra" in help_text
    assert "Japanese, Chinese or Thai without spaces between words needs char" in help_text


def test_an_unknown_id_field_lists_the_fields(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "pairs.jsonl"
    path.write_text('{"idx": 1, "target": "a", "prediction": "a"}\n', encoding="utf-8")
    result = run("--target-file", str(path), "--prediction-file", str(path), "--id-field", "id")
    assert result.code == 1
    assert result.err == (
        f"kurenai: error: {path}: line 1: no id field 'id' (fields: 'idx', 'target', "
        "'prediction')\n"
    )


def test_unknown_choices_are_listed(run: Run) -> None:
    for option, choices in (
        ("--output-format", "'csv', 'json', 'jsonl'"),
        ("--format", "'auto', 'text', 'jsonl', 'csv', 'tsv'"),
    ):
        result = run(*FILES, option, "nope")
        assert result.code == 2 and f"(choose from {choices})" in result.err, result.err
    # The tokenizers as the registry lists them, in the library's message.
    result = run(*FILES, "--tokenizer", "nope")
    listed = f"unknown tokenizer 'nope'; available: {', '.join(available_tokenizers())}"
    assert result.code == 2 and listed in result.err, result.err


def _texts(tmp_path: Path, targets: str, predictions: str) -> list[str]:
    (tmp_path / "t.txt").write_text(targets, encoding="utf-8")
    (tmp_path / "p.txt").write_text(predictions, encoding="utf-8")
    return ["--target-file", str(tmp_path / "t.txt"), "--prediction-file", str(tmp_path / "p.txt")]


def test_a_trailing_blank_line_is_named_as_the_likely_reason(run: Run, tmp_path: Path) -> None:
    result = run(*_texts(tmp_path, "a\nb\n", "a\nb\n\n"))
    assert result.code == 1
    assert result.err == (
        f"kurenai: error: {tmp_path / 't.txt'} has 2 records but {tmp_path / 'p.txt'} has 3; "
        f"{tmp_path / 'p.txt'} ends with a blank line, which is a record of its own: most "
        "likely the reason\n"
    )


@pytest.mark.parametrize(
    ("targets", "predictions"),
    [
        ("a\nb\nc\n", "a\n\n"),  # the shorter side ends blank
        ("a\n", "a\nb\n\n"),  # two more records
        ("a\nb\n", "a\nb\nc\n"),  # no blank line
    ],
)
def test_no_blank_line_hint_otherwise(
    run: Run, tmp_path: Path, targets: str, predictions: str
) -> None:
    result = run(*_texts(tmp_path, targets, predictions))
    assert result.code == 1 and "records but" in result.err
    assert "blank line" not in result.err


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_bootstrap_progress_counts_samples_per_type() -> None:
    terminal = Terminal()
    progress = Progress(1000, enabled=True, stream=terminal, interval=0)
    progress.update(1000)
    progress.phase("bootstrap", 1000, "samples", types=4)
    for _ in range(3):
        progress.step(500)
    shown = terminal.getvalue().split("\r")[2:5]
    assert shown == [
        "kurenai: bootstrap, type 1 of 4: 500/1000 samples (12%)\x1b[K",
        "kurenai: bootstrap, type 1 of 4: 1000/1000 samples (25%)\x1b[K",
        "kurenai: bootstrap, type 2 of 4: 500/1000 samples (37%)\x1b[K",
    ]


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[float], None]]:
    """``advance(seconds)``: the progress display's clock, moved by hand."""
    now = [100.0]
    monkeypatch.setattr(_progress.time, "monotonic", lambda: now[0])

    def advance(seconds: float) -> None:
        now[0] += seconds

    yield advance


def test_the_summary_times_loading_scoring_and_bootstrap_apart(
    clock: Callable[[float], None],
) -> None:
    stream = io.StringIO()
    progress = Progress(11, enabled=False, stream=stream, loading=1.5)
    clock(0.02)
    progress.update(11)
    progress.phase("bootstrap", 1000, "samples", types=3)
    clock(0.28)
    progress.close(summary=True)
    line = "kurenai: 11 records in 0.02 s (550 records/s); loading 1.50 s; bootstrap 0.28 s\n"
    assert stream.getvalue() == line
    assert SUMMARY.fullmatch(line)


def test_a_quick_load_is_not_mentioned(clock: Callable[[float], None]) -> None:
    stream = io.StringIO()
    progress = Progress(2, enabled=False, stream=stream, loading=0.004)
    clock(1.0)
    progress.update(2)
    progress.close(summary=True)
    assert stream.getvalue() == "kurenai: 2 records in 1.00 s (2 records/s)\n"


def test_the_tokenizer_loads_before_scoring_and_is_timed_apart(
    capsys: pytest.CaptureFixture[str], registered_tokenizer: Callable[..., None]
) -> None:
    events: list[str] = []

    class Slow:
        def __init__(self, use_stemmer: bool = False) -> None:
            pass

        def load(self) -> None:
            events.append("load")
            time.sleep(0.03)  # a dictionary: at least 30 ms, so the summary shows it

        def tokenize(self, text: str) -> list[str]:
            events.append("tokenize")
            return text.split()

    registered_tokenizer("test-slow", Slow)
    assert cli.main([*FILES, "--tokenizer", "test-slow"]) == 0
    err = capsys.readouterr().err
    assert events[0] == "load" and events.count("load") == 1 and "tokenize" in events
    assert SUMMARY.fullmatch(err) and "; loading 0.0" in err, err


def test_a_bootstrap_run_times_its_bootstrap_apart(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([*FILES, "--use-aggregator", "--bootstrap-samples", "50"]) == 0
    summary = capsys.readouterr().err.splitlines(keepends=True)[-1]  # after the notes
    assert SUMMARY.fullmatch(summary) and "; bootstrap " in summary, summary
    assert cli.main([*FILES, "--baseline-file", FILES[3], "--bootstrap-samples", "50"]) == 0
    assert "; comparison " in capsys.readouterr().err

"""The exit statuses of the guide's table (docs/guides/cli.md, "Exit status"):
a test per row, and each option checked before any input is read.

The table is read from the guide: a row without cases here fails, and so
does a case whose row is gone.  Every run reads its targets from a stdin
that fails the test if anything reads it before the options are checked
(a usage error and a missing extra must be found first).
"""

from __future__ import annotations

import io
import re
import signal
import sys
from pathlib import Path
from typing import Callable

import pytest
from cli_support import Result, call_main

from kurenai import cli as kurenai_cli
from kurenai._core import runner as _runner
from kurenai._data.extras import pip_install
from kurenai.sentences import _punkt_english

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guides" / "cli.md"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PREDICTIONS = str(EXAMPLES / "predictions.txt")


def _table_rows() -> list[str]:
    """The statuses of the guide's exit-status table, in its order."""
    section = GUIDE.read_text(encoding="utf-8").split("## Exit status", 1)[1]
    return re.findall(r"^\| (\S+) \| ", section.split("\n## ", 1)[0], re.M)[1:]  # less the head


class _Unread(io.StringIO):
    """A stdin that must not be read."""

    def read(self, *args: object) -> str:
        raise AssertionError("stdin was read before the options were checked")

    readline = read  # type: ignore[assignment]

    def __iter__(self) -> _Unread:
        raise AssertionError("stdin was read before the options were checked")

    @property
    def buffer(self) -> _Unread:  # type: ignore[override]
        return self


# A case: the argv after the files, and what it sets up (monkeypatch -> None).
Setup = Callable[[pytest.MonkeyPatch], None]


def _missing(module: str) -> Setup:
    """``module`` not installed, as far as an import in the run can tell."""

    def setup(monkeypatch: pytest.MonkeyPatch) -> None:
        for name in [m for m in sys.modules if m.split(".")[0] == module] or [module]:
            monkeypatch.setitem(sys.modules, name, None)
        _punkt_english.cache_clear()  # the model an earlier test loaded: loaded again after

    return setup


def _none(monkeypatch: pytest.MonkeyPatch) -> None:
    pass


UNREAD_CASES: dict[str, list[tuple[list[str], Setup, str]]] = {
    "1": [
        (["--report", "r.html"], _missing("jinja2"), "--report: the HTML report needs jinja2: "
         + pip_install("report")),
        (["--report", "r.html"], _missing("plotly"), "needs plotly: " + pip_install("report")),
        (["--tokenizer", "jieba"], _missing("jieba"), pip_install("zh")),
        (["--lang", "th"], _missing("pythainlp"), pip_install("th")),
        (["--split-summaries", "punkt", "--rouge-types", "rougeLsum"], _missing("nltk"),
         pip_install("punkt")),
        (["--output", PREDICTIONS], _none, "--output"),  # the output is an input
    ],
    "2": [
        (["--rouge-type", "rouge1"], _none, "unrecognized arguments: --rouge-type"),
        (["--rouge-types", "rougeLSum"], _none, "(did you mean 'rougeLsum'?)"),
        (["--tokenizer", "nope"], _none, "unknown tokenizer 'nope'"),
        (["--lang", "klingon"], _none, "unknown language 'klingon'"),
        (["--format", "yaml"], _none, "invalid choice: 'yaml'"),
        (["--jobs", "-2"], _none, "expected an integer >= -1"),
        (["--seed", "1"], _none, "--seed only applies with"),
        (["--fail-under", "rouge2=0.5", "--rouge-types", "rouge1"], _none, "is not scored"),
        # A usage error before a missing extra: status 2, not 1.
        (["--report", "r.html", "--all-pairs"], _missing("jinja2"), "--all-pairs needs"),
    ],
}  # fmt: skip


def _run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *argv: str) -> Result:
    monkeypatch.setattr(sys, "stdin", _Unread())
    return call_main(capsys, "--target-file", "-", "--prediction-file", PREDICTIONS, *argv)


def test_the_table_has_the_rows_tested_here() -> None:
    assert _table_rows() == ["0", "1", "2", "3", "128+N"]


def test_row_0_success(capsys: pytest.CaptureFixture[str]) -> None:
    result = call_main(capsys, "--target-file", str(EXAMPLES / "targets.txt"),
                       "--prediction-file", PREDICTIONS, "--quiet")  # fmt: skip
    assert (result.code, result.err) == (0, "") and result.out.startswith("id,rouge1-P")


@pytest.mark.parametrize(("argv", "setup", "message"), UNREAD_CASES["1"])
def test_row_1_a_missing_extra_or_a_bad_file_before_any_input_is_read(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    setup: Setup,
    message: str,
    tmp_path: Path,
) -> None:
    monkeypatch.chdir(tmp_path)
    setup(monkeypatch)
    result = _run(capsys, monkeypatch, *argv)
    assert (result.code, result.out) == (1, ""), result
    assert result.err.startswith("kurenai: error: ") and result.err.count("\n") == 1
    assert message in result.err, result.err
    assert not (tmp_path / "r.html").exists()


def test_row_1_a_missing_input_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    result = call_main(capsys, "--target-file", str(tmp_path / "none.txt"),
                       "--prediction-file", PREDICTIONS)  # fmt: skip
    assert (result.code, result.out) == (1, "") and "none.txt" in result.err


@pytest.mark.parametrize(("argv", "setup", "message"), UNREAD_CASES["2"])
def test_row_2_a_usage_error_before_any_input_is_read(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    setup: Setup,
    message: str,
) -> None:
    setup(monkeypatch)
    result = _run(capsys, monkeypatch, *argv)
    assert (result.code, result.out) == (2, ""), result
    assert result.err.startswith("kurenai: error: ") and result.err.endswith(" (see --help)\n")
    assert message in result.err, result.err


def test_the_unread_stdin_fails_a_run_that_reads_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Negative control: a run with good options reads stdin, and the test's
    stdin says so."""
    with pytest.raises(AssertionError, match="stdin was read"):
        _run(capsys, monkeypatch, "--quiet")


def test_row_3_a_score_below_fail_under(capsys: pytest.CaptureFixture[str]) -> None:
    result = call_main(capsys, "--target-file", str(EXAMPLES / "targets.txt"),
                       "--prediction-file", PREDICTIONS, "--aggregate", "mean", "--quiet",
                       "--rouge-types", "rouge1", "--fail-under", "rouge1=0.99")  # fmt: skip
    assert result.code == 3 and result.out.startswith("score_type,mean\n")
    assert re.fullmatch(r"kurenai: rouge1-F 0\.\d+ < 0\.99\n", result.err), result.err


@pytest.mark.parametrize(
    ("signum", "said"),
    [("SIGTERM", "terminated by signal 15"), ("SIGHUP", "terminated by signal 1"),
     ("SIGINT", "interrupted")],
)  # fmt: skip
def test_row_128_plus_n_a_signal_leaves_the_output_as_it_was(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    signum: str,
    said: str,
) -> None:
    """The signal arrives in this process while the run reads its input; the
    run's handler turns it into the exit status (never the test's death)."""
    number = getattr(signal, signum)
    count_records = kurenai_cli.count_records

    def count_then_signal(*args: object, **kwargs: object) -> int:
        # The run's handler (SIGINT: Python's, raising KeyboardInterrupt), or no signal.
        expected = signal.default_int_handler if signum == "SIGINT" else _runner._raise
        assert signal.getsignal(number) is expected
        signal.raise_signal(number)
        return count_records(*args, **kwargs)

    monkeypatch.setattr(kurenai_cli, "count_records", count_then_signal)
    out = tmp_path / "scores.csv"
    out.write_text("old\n", encoding="utf-8")
    result = call_main(capsys, "--target-file", str(EXAMPLES / "targets.txt"),
                       "--prediction-file", PREDICTIONS, "--output", str(out))  # fmt: skip
    assert (result.code, result.out, result.err) == (128 + number, "", f"kurenai: {said}\n")
    assert out.read_text(encoding="utf-8") == "old\n"

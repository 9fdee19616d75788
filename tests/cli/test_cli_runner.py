"""One contract at every command line (kurenai._core.runner): options checked
before any input, one exit-status table, Ctrl-C one line and 130, one
spelling of ``--rouge-types``, one refusal of mismatched line counts.

Self-contained (no helper modules): each test runs against whichever kurenai
is first on ``sys.path``, so that it can be shown failing on an older tree.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import pytest

import kurenai
from kurenai.cli import main

ROOT = Path(kurenai.__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parents[1] / "data" / "realsumm"
JUDGMENTS, REFERENCES = str(DATA / "judgments.jsonl"), str(DATA / "references.jsonl")
_DEFAULT_SIGINT = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])"
)
posix = pytest.mark.skipif(os.name == "nt", reason="POSIX signals and FIFOs")


def _command(*argv: str) -> list[str]:
    return [sys.executable, "-c", _DEFAULT_SIGINT, "-u", "-m", "kurenai", *argv]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _files(tmp_path: Path, predictions: str, references: str) -> tuple[str, str]:
    (tmp_path / "p.txt").write_text(predictions, encoding="utf-8")
    (tmp_path / "r.txt").write_text(references, encoding="utf-8")
    return str(tmp_path / "p.txt"), str(tmp_path / "r.txt")


# ------------------------------------------------------------ Ctrl-C


def _wait_for(child: subprocess.Popen[bytes], library: bytes) -> None:
    """Until the child has mapped ``library`` (so kurenai's start-up handler
    is set: before, a SIGINT is the interpreter's own start)."""
    maps = Path(f"/proc/{child.pid}/maps")
    started = time.monotonic()
    while child.poll() is None and time.monotonic() - started < 30:
        try:
            if library in maps.read_bytes():
                return
        except OSError:
            time.sleep(1)
            return
        time.sleep(0.001)


@pytest.mark.slow
@posix
@pytest.mark.parametrize("delay", [0.0, 0.05, 0.15, 0.3, 0.6, 1.0])
@pytest.mark.parametrize("command", ["xlsum", "files2rouge"])
def test_ctrl_c_at_any_moment_is_one_line_and_130(
    tmp_path: Path, command: str, delay: float
) -> None:
    # From NumPy's loading on: the subcommand's imports (scipy's docstrings,
    # NLTK), the reading of the files, the scoring.
    line = "the cat sat on the mat . a dog ran away from the cat .\n"
    predictions, references = _files(tmp_path, line * 20_000, line * 20_000)
    argv = (
        ["xlsum", predictions, references]
        if command == "xlsum"
        else ["rouge155", "files2rouge", references, predictions]
    )
    child = subprocess.Popen(
        _command(*argv), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    _wait_for(child, b"_multiarray_umath")
    time.sleep(delay)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=120)
    text = err.decode()
    assert "Traceback" not in text, text
    # -SIGINT: the one line was written and the run ended, then CPython's exit
    # re-raised the signal (its rule after an interrupt inside an extension
    # module's initialisation, here scipy's); a shell reports 130 for either.
    assert child.returncode in (0, 130, -signal.SIGINT), (child.returncode, text)
    if child.returncode:
        # (While kurenai itself loads, its start-up handler says "kurenai: ...".)
        prog = "kurenai( xlsum)?" if command == "xlsum" else "(kurenai( rouge155)?|files2rouge)"
        assert re.fullmatch(f"{prog}: interrupted", text.splitlines()[-1]), text
        assert text.count("\n") == 1, text


@pytest.mark.parametrize(
    "argv",
    [
        ["--target-file", "{r}", "--prediction-file", "{p}"],
        ["correlate", "--judgments", JUDGMENTS, "--references", REFERENCES],
        ["xlsum", "{p}", "{r}"],
        ["rouge", "-f", "{p}", "{r}"],
        ["rouge155", "files2rouge", "{r}", "{p}"],
    ],
    ids=["kurenai", "correlate", "xlsum", "rouge", "files2rouge"],
)
def test_an_interrupt_anywhere_in_a_command_is_one_line_and_130(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    argv: list[str],
) -> None:
    # Wherever a command reads its first file: a KeyboardInterrupt there.
    predictions, references = _files(tmp_path, "the cat\n", "the cat sat\n")
    real_open = open

    def interrupted(file: Any, *args: Any, **kwargs: Any) -> Any:
        if str(file) in (predictions, references, JUDGMENTS, REFERENCES):
            raise KeyboardInterrupt
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr("builtins.open", interrupted)
    monkeypatch.setattr("io.open", interrupted)
    filled = [word.format(p=predictions, r=references) for word in argv]
    code, out, err = _run(capsys, *filled)
    # (files2rouge says "Preparing documents... " on stdout first, as its own does.)
    assert (code, out.replace("Preparing documents... ", "")) == (130, "")
    assert err.count("\n") == 1 and err.endswith(": interrupted\n"), err


# ------------------------------------------------------------ correlate


@pytest.mark.slow
@posix
@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--rouge-types", "rougeLSum"], "invalid ROUGE type 'rougeLSum'"),
        (["--variants", "lang=xx"], "unknown language 'xx'"),
        (["--variants", "stem=germn"], "germn"),
    ],
)
def test_correlate_refuses_an_option_before_reading_its_input(
    tmp_path: Path, options: list[str], message: str
) -> None:
    fifo = tmp_path / "judgments.jsonl"
    os.mkfifo(fifo)  # reading it would block: no writer ever comes
    child = subprocess.run(
        _command("correlate", "--judgments", str(fifo), *options),
        cwd=ROOT,
        capture_output=True,
        timeout=60,
    )
    err = child.stderr.decode()
    assert child.returncode == 2, err
    assert err.startswith("kurenai correlate: error: ") and err.count("\n") == 1, err
    assert message in err


def test_correlate_stems_with_a_named_stemmer(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["correlate", "--judgments", JUDGMENTS, "--references", REFERENCES]
    found = {}
    for variant in ("stem=german", "stem=porter", "stem"):
        code, out, err = _run(
            capsys, *argv, "--variants", variant, "--bootstrap-samples", "0", "--rouge-types",
            "rouge1", "--output-format", "json",
        )  # fmt: skip
        assert (code, err) == (0, ""), err
        found[variant] = out.replace(variant, "VARIANT")
    assert found["stem=german"] != found["stem"]  # the German stemmer, not Porter's


def test_correlate_bounds_a_json_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    long = tmp_path / "long.jsonl"
    long.write_text('{"system": "a", "document": "d", "x": "' + "y" * 5000 + '"}\n')
    code, out, err = _run(capsys, "correlate", "--judgments", str(long), "--max-line-bytes", "1000")
    assert (code, out) == (1, "")
    assert err == (
        f"kurenai correlate: error: {long}: line 1: longer than 1,000 bytes (--max-line-bytes)\n"
    )


# ------------------------------------------------------------ one spelling


@pytest.mark.parametrize(
    ("command", "files"),
    [
        (
            [],
            ["--aggregate", "mean", "--quiet", "--target-file", "{r}", "--prediction-file", "{p}"],
        ),
        (["xlsum"], ["{p}", "{r}"]),
    ],
    ids=["kurenai", "xlsum"],
)
def test_rouge_types_as_a_comma_list_or_as_words(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str], files: list[str]
) -> None:
    predictions, references = _files(tmp_path, "the cat sat\na dog\n", "the cat\na dog ran\n")
    filled = [word.format(p=predictions, r=references) for word in files]
    comma = _run(capsys, *command, *filled, "--rouge-types", "rouge1,rougeL")
    words = _run(capsys, *command, *filled, "--rouge-types", "rouge1", "rougeL")
    before = _run(capsys, *command, "--rouge-types", "rouge1", "rougeL", *filled)
    assert comma[0] == 0, comma
    assert comma == words == before
    assert "rougeL" in comma[1] and "rouge2" not in comma[1]


def test_correlate_takes_a_comma_list_of_types(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["correlate", "--judgments", JUDGMENTS, "--references", REFERENCES]
    argv += ["--bootstrap-samples", "0", "--output-format", "json", "--seed", "0"]
    comma = _run(capsys, *argv, "--rouge-types", "rouge1,rougeL")
    words = _run(capsys, *argv, "--rouge-types", "rouge1", "rougeL")
    assert comma[0] == 0 and comma == words


def _mismatch(tmp_path: Path) -> tuple[str, str]:
    return _files(tmp_path, "the cat\n", "the cat\na dog\n")


@pytest.mark.parametrize(
    ("argv", "prog"),
    [
        (["--target-file", "{r}", "--prediction-file", "{p}"], "kurenai"),
        (["xlsum", "{p}", "{r}"], "kurenai xlsum"),
        (["rouge", "-f", "{p}", "{r}"], "kurenai rouge"),
        (["rouge155", "files2rouge", "{r}", "{p}"], "files2rouge"),
    ],
)
def test_mismatched_line_counts_are_one_status_and_one_message(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], prog: str
) -> None:
    predictions, references = _mismatch(tmp_path)
    code, _, err = _run(capsys, *[word.format(p=predictions, r=references) for word in argv])
    assert code == 1 and err.count("\n") == 1, err
    names = f"({re.escape(predictions)}|{re.escape(references)})"
    assert re.fullmatch(
        f"{re.escape(prog)}: error: {names} has [12] records but {names} has [12]\n", err
    ), err


# ------------------------------------------------------------ xlsum


def test_xlsum_reads_an_iso_code_as_its_language_with_a_note(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    predictions, references = _files(tmp_path, "আমি ভাত খাই।\n", "আমি ভাত খেয়েছি\n")
    by_code = _run(capsys, "xlsum", "--lang", "bn", predictions, references)
    by_name = _run(capsys, "xlsum", "--lang", "bengali", predictions, references)
    assert by_code[:2] == by_name[:2] and by_code[0] == 0
    assert by_code[2] == "kurenai xlsum: note: --lang bn is XL-Sum's 'bengali'\n"
    assert by_name[2] == ""


@pytest.mark.parametrize(
    ("lang", "meant"), [("klingon", ""), ("jp", " (did you mean 'japanese'?)")]
)
def test_xlsum_refuses_a_language_it_does_not_know(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, lang: str, meant: str
) -> None:
    predictions, references = _files(tmp_path, "a b\n", "a c\n")
    code, out, err = _run(capsys, "xlsum", "--lang", lang, predictions, references)
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert err.startswith(
        f"kurenai xlsum: error: XL-Sum does not know the language {lang!r}{meant};"
    )


def test_xlsum_says_the_packages_warnings_as_notes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("jieba")
    predictions, references = _files(tmp_path, "中国人民银行。今天宣布降息。\n", "中国人民银行。\n")
    code, _, err = _run(capsys, "xlsum", "--lang", "chinese", predictions, references)
    assert code == 0 and "Warning" not in err
    assert err.splitlines() == [
        "kurenai xlsum: note: XL-Sum's package warns: unknown stemmer language-> chinese",
        "kurenai xlsum: note: rougeLsum counts whole lines here: XL-Sum's package splits "
        "chinese lines at spaces only (no segmenter), so an unspaced line is one word and only "
        "identical lines match",
    ]


def test_xlsum_says_when_rougelsum_is_zero_by_construction(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("jieba")
    predictions, references = _files(tmp_path, "中国人民银行宣布降息\n", "中国人民银行今天宣布\n")
    code, out, err = _run(capsys, "xlsum", "--lang", "chinese", predictions, references)
    assert code == 0 and "rougeLsum 0.0\n" in out and "rouge1 0.0" not in out
    assert "note: rougeLsum is 0 by construction here" in err


def test_xlsum_has_the_scoring_commands_line_limit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    predictions, references = _files(tmp_path, "a b\n" + "x" * 2000 + "\n", "a\nb\n")
    code, out, err = _run(capsys, "xlsum", "--max-line-bytes", "1000", predictions, references)
    assert (code, out) == (1, "")
    assert err == (
        f"kurenai xlsum: error: {predictions}: line 2: longer than 1,000 bytes (--max-line-bytes)\n"
    )


@pytest.mark.slow
@posix
def test_xlsum_refuses_an_endless_line_in_one_line() -> None:
    child = subprocess.run(
        [sys.executable, "-m", "kurenai", "xlsum", "--max-line-bytes", "1000000", "/dev/zero",
         "/dev/null"],
        cwd=ROOT, capture_output=True, timeout=120,
    )  # fmt: skip
    assert child.returncode == 1
    assert child.stderr.decode() == (
        "kurenai xlsum: error: /dev/zero: line 1: longer than 1,000,000 bytes (--max-line-bytes)\n"
    )


@pytest.mark.parametrize("option", ["--max-chars", "--max-tokens"])
def test_xlsum_leaves_out_a_record_over_a_limit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, option: str
) -> None:
    predictions, references = _files(tmp_path, "the cat\n" + "x " * 50 + "\n", "the cat\nx\n")
    (tmp_path / "alone").mkdir()
    alone = _files(tmp_path / "alone", "the cat\n", "the cat\n")
    code, out, err = _run(capsys, "xlsum", option, "20", predictions, references)
    assert code == 0
    assert err == (
        "kurenai xlsum: note: 1 records over --max-tokens or --max-chars: left out of the scores\n"
    )
    assert out == _run(capsys, "xlsum", *alone)[1]


# ------------------------------------------------------------ the table


@pytest.mark.parametrize(
    "entry",
    [
        lambda: main(["xlsum", "--no-such"]),
        lambda: main(["correlate", "--no-such"]),
        lambda: main(["rouge", "--no-such", "a", "b"]),
        lambda: main(["rouge155", "files2rouge", "--no-such"]),
        lambda: main(["--no-such"]),
    ],
    ids=["xlsum", "correlate", "rouge", "files2rouge", "kurenai"],
)
def test_a_usage_error_is_one_line_and_2_everywhere(
    capsys: pytest.CaptureFixture[str], entry: Callable[[], int]
) -> None:
    assert entry() == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1, err
    assert re.fullmatch(r"\S[^:]*: error: unrecognized arguments: --no-such \(see --help\)\n", err)


def test_files2rouge_checks_the_scripts_options_before_reading(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = str(tmp_path / "missing.txt")  # never opened: the options come first
    code, out, err = _run(capsys, "rouge155", "files2rouge", missing, missing, "--args=-n x")
    assert (code, out) == (2, "")
    assert err == "files2rouge: error: --args: -n takes an integer, got 'x' (see --help)\n"


def test_the_patched_runner_is_the_same_runner(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kurenai.compat import patched

    monkeypatch.setattr(sys, "argv", list(sys.argv))
    monkeypatch.setattr(sys, "path", list(sys.path))
    script = tmp_path / "user.py"
    script.write_text("raise KeyboardInterrupt\n")
    assert patched.main([str(script)]) == 130
    assert capsys.readouterr().err == "kurenai.compat.patched: interrupted\n"
    assert patched.main([]) == 2
    assert capsys.readouterr().err.startswith("kurenai.compat.patched: error: name a script")
    script.write_text("raise ValueError('its own')\n")
    with pytest.raises(ValueError, match="its own"):  # its own traceback
        patched.main([str(script)])


_FINALIZER_INTERRUPTED = """
import sys, time
from kurenai._core import runner

class Finalizer:
    def __del__(self):
        raise KeyboardInterrupt  # Ctrl-C landing in a library's __del__

def body():
    Finalizer()  # collected at once: Python swallows what its __del__ raises
    for _ in range(500):
        time.sleep(0.01)
    print("ran on")
    return 0

sys.exit(runner.run("demo", body))
"""


@pytest.mark.slow
@posix
def test_ctrl_c_swallowed_by_a_finalizer_still_ends_the_run() -> None:
    # Python reports an exception raised in __del__ as "Exception ignored" and
    # runs on; the runner delivers that interrupt again (one line, 130).
    done = subprocess.run(
        [sys.executable, "-c", _FINALIZER_INTERRUPTED], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "demo: interrupted\n")

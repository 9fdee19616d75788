"""The command line end to end: entry points, documented examples, whole corpora vs the library."""

from __future__ import annotations

import json
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import sysconfig
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_support import call_main, kurenai_command, punctuation_note, without_summary
from corpora import records_or_skip, shared_file

import kurenai
from kurenai import cli
from kurenai.rouge_scorer import RougeScorer

ROOT = Path(__file__).resolve().parents[2]
# Where the kurenai under test is imported from (the checkout, or site-packages).
TESTED = Path(kurenai.__file__).resolve().parents[1]
SPEC_OUTPUT = """\
id,rouge1-P,rouge1-R,rouge1-F,rougeL-P,rougeL-R,rougeL-F
0,0.666667,0.666667,0.666667,0.666667,0.666667,0.666667
1,0.750000,0.666667,0.705882,0.625000,0.555556,0.588235
"""
ARGS = ["--rouge-types", "rouge1,rougeL", "--target-file", "examples/targets.txt"]


# ------------------------------------------------------------ entry points


def test_python_dash_m_kurenai_reading_stdin() -> None:
    predictions = (ROOT / "examples" / "predictions.txt").read_bytes()
    result = subprocess.run(
        [sys.executable, "-m", "kurenai", *ARGS, "--prediction-file", "-"],
        cwd=ROOT,
        input=predictions,
        capture_output=True,
        check=False,
    )
    stderr = without_summary(result.stderr.decode(), 0)
    assert (result.returncode, stderr) == (0, punctuation_note("log."))
    assert result.stdout.decode().replace("\r\n", "\n") == SPEC_OUTPUT


def _console_script() -> str | None:
    name = "kurenai.exe" if os.name == "nt" else "kurenai"
    beside_python = Path(sysconfig.get_path("scripts")) / name
    return str(beside_python) if beside_python.exists() else shutil.which("kurenai")


def test_kurenai_console_script() -> None:
    script = _console_script()
    if script is None:
        pytest.skip("the kurenai script is not installed (pip install -e .)")
    ok = subprocess.run(
        [script, *ARGS, "--prediction-file", "examples/predictions.txt"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (ok.returncode, ok.stdout.replace("\r\n", "\n")) == (0, SPEC_OUTPUT)
    assert without_summary(ok.stderr, 0) == punctuation_note("log.")
    bad = subprocess.run(
        [script, *ARGS, "--prediction-file", "absent.txt"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 1
    assert bad.stderr == "kurenai: error: cannot read absent.txt: No such file or directory\n"


@pytest.mark.skipif(os.name == "nt", reason="SIGINT to a child process is POSIX-only")
def test_ctrl_c_in_a_real_process(tmp_path: Path) -> None:
    targets = tmp_path / "t.txt"
    targets.write_text("a\nb\n")
    child = subprocess.Popen(
        kurenai_command(
            *("--target-file", str(targets), "--prediction-file", "-"),
            *("--chunk-size", "1", "--output-format", "jsonl"),
        ),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(b"a\n")
    child.stdin.flush()
    assert child.stdout.readline().startswith(b'{"id": 0')  # now blocked reading record 2
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=30)
    assert (child.returncode, err) == (130, b"kurenai: interrupted\n")


# ------------------------------------------------------------ README


def documentation() -> str:
    """README.md, then every page of the documentation site (docs/)."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return "\n".join(page.read_text(encoding="utf-8") for page in pages)


def readme_examples() -> Iterator[tuple[str, str, int]]:
    """(command, expected output, exit status) for each ``$ python -m kurenai``
    in README.md and docs/; a command ending in ``; echo $?`` shows its exit
    status on the last line of the output, the others exit with 0."""
    text = documentation()
    for block in re.findall(r"^```sh\n(.*?)^```", text, flags=re.M | re.S):
        for command in re.split(r"^(?=\$ )", block, flags=re.M):
            if not command.startswith("$ python -m kurenai "):
                continue
            lines = command.splitlines(keepends=True)
            end = next(i for i, line in enumerate(lines) if not line.rstrip().endswith("\\"))
            command_line = "".join(lines[: end + 1]).replace("\\\n", " ").strip()
            expected, code = "".join(lines[end + 1 :]), 0
            if command_line.endswith("; echo $?"):
                command_line = command_line[: -len("; echo $?")]
                expected, status = expected.rstrip("\n").rsplit("\n", 1)
                expected, code = expected + "\n", int(status)
            yield command_line, expected, code


def readme_ci_steps() -> list[str]:
    """The ``run:`` commands of the documentation's GitHub Actions-style YAML steps."""
    text = documentation()
    commands = []
    for block in re.findall(r"^```yaml\n(.*?)^```", text, flags=re.M | re.S):
        for body in re.findall(r"run: \|\n((?:(?: {4,}.*)?\n)+)", block):
            commands.append(textwrap.dedent(body).replace("\\\n", " ").strip())
    return commands


EXAMPLES = list(readme_examples())


def test_readme_has_the_cli_examples() -> None:
    commands = [" ".join(shlex.split(command[2:])) for command, _, _ in EXAMPLES]
    assert len(commands) >= 8
    assert commands[0] == (
        "python -m kurenai --rouge-types rouge1,rougeL "
        "--target-file examples/targets.txt --prediction-file examples/predictions.txt"
    )
    for option in ("--use-aggregator", "--aggregate mean", "--fail-under", "--baseline-file"):
        assert any(option in c for c in commands), option
    assert any(code == 3 for _, _, code in EXAMPLES)


@pytest.mark.parametrize(
    ("command", "expected", "code"), EXAMPLES, ids=[f"example{i}" for i in range(len(EXAMPLES))]
)
def test_readme_example(
    command: str,
    expected: str,
    code: int,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(ROOT)
    argv = shlex.split(command[2:])[3:]  # drop "$", "python -m kurenai"
    result = call_main(capsys, *argv)
    # stderr: the signature or the thresholds missed, printed last; the
    # summary line and the default tokenizer's note on the examples' "log."
    # are left out of the README.
    err = result.err.replace(punctuation_note("log."), "", 1)
    assert (result.code, result.out + err) == (code, expected)


def test_readme_ci_steps_run_through_python_dash_m(tmp_path: Path) -> None:
    steps = readme_ci_steps()
    assert len(steps) >= 2
    # In a copy of the examples: the steps write their reports to the working directory.
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    for step in steps:
        for command in step.split("\n"):
            argv = shlex.split(command)
            assert argv[:3] == ["python", "-m", "kurenai"]
            result = subprocess.run(
                [sys.executable, *argv[1:]], cwd=tmp_path, capture_output=True, text=True,
                check=False, env={**os.environ, "PYTHONPATH": str(TESTED)},
            )  # fmt: skip
            assert result.returncode == 0, result.stderr
            assert "--fail-under" in command or "--baseline-file" in command
    assert (tmp_path / "rouge.csv").read_text().startswith("score_type,mean\n")
    comparison = json.loads((tmp_path / "comparison.json").read_text())
    assert set(comparison["comparison"]) == {"rouge1", "rougeL"}


# ------------------------------------------------------------ corpora vs the library


WORDS = ["猫", "犬", "が", "は", "the", "cat", "dogs", "running", "run", "한국", "x", "."]


def _text(rng: random.Random, max_sentences: int) -> str:
    sentences = [
        " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 8)))
        for _ in range(rng.randint(1, max_sentences))
    ]
    return "\n".join(sentences)


def _corpus(seed: int, size: int) -> list[dict[str, object]]:
    rng = random.Random(seed)
    records: list[dict[str, object]] = []
    for _ in range(size):
        refs = [_text(rng, 3) for _ in range(rng.randint(1, 3))]
        target: object = refs if rng.random() < 0.3 else refs[0]
        records.append({"target": target, "prediction": _text(rng, 3)})
    return records


def _library_scores(
    records: list[dict[str, object]], rouge_types: list[str], **options: object
) -> list[dict[str, dict[str, float]]]:
    scorer = RougeScorer(rouge_types, **options)  # type: ignore[arg-type]
    result = []
    for record in records:
        target, prediction = record["target"], str(record["prediction"])
        scores = (
            scorer.score_multi(target, prediction)
            if isinstance(target, list)
            else scorer.score(str(target), prediction)
        )
        result.append({t: {k: float(v) for k, v in s._asdict().items()} for t, s in scores.items()})
    return result


def _cli_jsonl(path: Path, capsys: pytest.CaptureFixture[str], *options: str) -> list[dict]:
    argv = ["--target-file", str(path), "--prediction-file", str(path), "--output-format", "jsonl"]
    assert cli.main([*argv, *options]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


@pytest.mark.parametrize(
    "options",
    [{}, {"use_stemmer": True}, {"tokenizer": "rouge-score"}, {"split_summaries": True}],
    ids=str,
)
def test_generated_corpus_equals_the_library(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: dict[str, object]
) -> None:
    records = _corpus(seed=len(options), size=300)
    path = tmp_path / "corpus.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), "utf-8")
    rouge_types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    flags = [f"--{k.replace('_', '-')}" for k, v in options.items() if v is True]
    flags += [f"--tokenizer={v}" for k, v in options.items() if k == "tokenizer"]
    got = _cli_jsonl(
        path, capsys, "--rouge-types", ",".join(rouge_types), "--chunk-size", "64", *flags
    )
    expected = _library_scores(records, rouge_types, **options)
    assert [r.pop("id") for r in got] == list(range(len(records)))
    assert got == expected


def test_generated_corpus_csv_is_the_library_rounded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = [r for r in _corpus(seed=9, size=200) if isinstance(r["target"], str)]
    escape = {ord("\\"): "\\\\", ord("\n"): "\\n"}
    for side in ("target", "prediction"):
        lines = (str(r[side]).translate(escape) for r in records)
        (tmp_path / f"{side}.txt").write_text("".join(f"{line}\n" for line in lines), "utf-8")
    argv = [
        "--target-file",
        str(tmp_path / "target.txt"),
        "--newline-escape",
        "--quiet",
        "--prediction-file",
        str(tmp_path / "prediction.txt"),
        "--rouge-types",
        "rouge1,rougeLsum",
    ]
    assert cli.main(argv) == 0
    rows = capsys.readouterr().out.splitlines()[1:]
    expected = _library_scores(records, ["rouge1", "rougeLsum"])
    assert len(rows) == len(expected)
    for i, (row, scores) in enumerate(zip(rows, expected)):
        values = [f"{s[k]:f}" for s in scores.values() for k in ("precision", "recall", "fmeasure")]
        assert row == ",".join([str(i), *values])


def test_english_scitldr_corpus_equals_the_library(capsys: pytest.CaptureFixture[str]) -> None:
    records = records_or_skip("en_scitldr_test.jsonl")
    path = shared_file("en_scitldr_test.jsonl")
    assert path is not None
    rouge_types = ["rouge1", "rouge2", "rougeLsum"]
    got = _cli_jsonl(
        path,
        capsys,
        "--rouge-types",
        ",".join(rouge_types),
        "--use-stemmer",
        "--tokenizer",
        "rouge-score",
        "--jobs",
        "2",
    )
    assert len(got) == len(records) >= 40  # 618 in the corpus, 45 in its sample
    expected = _library_scores(records, rouge_types, use_stemmer=True, tokenizer="rouge-score")
    assert [{t: r[t] for t in rouge_types} for r in got] == expected


def test_exit_statuses_through_python_dash_m(tmp_path: Path) -> None:
    def kurenai(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "kurenai", *ARGS, "--prediction-file",
             "examples/predictions.txt", "--quiet", *argv],
            cwd=ROOT, capture_output=True, text=True, check=False,
        )  # fmt: skip

    below = kurenai("--aggregate", "mean", "--fail-under", "rougeL=0.7")
    assert (below.returncode, below.stderr) == (3, "kurenai: rougeL-F 0.6275 < 0.7\n")
    assert below.stdout.startswith("score_type,mean\n")
    assert kurenai("--fail-under", "rouge2=0.1").returncode == 2
    assert kurenai("--target-file", str(tmp_path / "absent.txt")).returncode == 1
    same = kurenai("--baseline-file", "examples/predictions.txt", "--seed", "3")
    assert same.returncode == 0
    assert (
        same.stdout.splitlines()[1]
        == "rouge1-F,0.686275,0.686275,0.000000,0.000000,0.000000,1.000000"
    )

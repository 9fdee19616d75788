"""``kurenai rouge`` / ``kurenai rouge-chinese``: the packages' command lines,
output for output against the real ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from compat_references import started

from kurenai.cli import main


def _ours(capsys: pytest.CaptureFixture[str], command: str, args: list[str]) -> tuple[int, str]:
    code = main([command, *args])
    return code, capsys.readouterr().out


@pytest.mark.index
@pytest.mark.parametrize(
    "args",
    [
        ["the cat sat. on the mat", "the cat. sat on a mat"],
        ["the cat sat", "a cat", "--avg", "--metrics", "1", "l", "--stats", "f", "R"],
        ["-f", "{hyp}", "{ref}"],  # an empty line: both fail
        ["-f", "{ref}", "{hyp}", "--metrics", "2"],
        ["-f", "{hyp}", "{ref}", "-a", "--ignore_empty"],
    ],
)
def test_the_command_lines_print_what_theirs_print(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str]
) -> None:
    rouge_100 = started("rouge_100")
    rouge_101 = started("rouge_101")
    rouge_chinese_103 = started("rouge_chinese_103")
    (tmp_path / "h").write_text("我 爱 北京 。 你 好\n\nthe cat sat\n", encoding="utf-8")
    (tmp_path / "r").write_text("我 爱 上海 。\nx\nthe cat\n", encoding="utf-8")
    args = [a.format(hyp=tmp_path / "h", ref=tmp_path / "r") for a in args]
    for reference, command in (
        (rouge_100, "rouge"),
        (rouge_101, "rouge"),
        (rouge_chinese_103, "rouge-chinese"),
    ):
        version = ["--rouge-version", reference.version] if command == "rouge" else []
        theirs = reference.cli(args)
        code, out = _ours(capsys, command, [*args, *version])
        assert out == theirs.stdout
        # Their failures are tracebacks (exit 1), ours one line (exit 1).
        assert code == theirs.returncode, theirs.stderr


def test_errors_are_one_line_and_an_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rouge", "...", "a"]) == 1
    assert capsys.readouterr().err == "kurenai rouge: error: Hypothesis is empty.\n"
    assert main(["rouge", "-f", "absent", "a"]) == 1
    assert capsys.readouterr().err == "kurenai rouge: error: not a file: absent\n"
    assert main(["rouge", "a", "b", "--metrics", "7"]) == 2
    assert "invalid choice: '7'" in capsys.readouterr().err


def test_rouge_score_mode_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _ours(
        capsys,
        "rouge-chinese",
        ["猫が好き", "猫は好き", "--mode", "rouge-score", "--tokenizer", "char", "--metrics", "1"],
    )
    assert code == 0
    assert json.loads(out) == [{"rouge-1": {"r": 0.75, "p": 0.75, "f": 0.75}}]


def test_python_dash_m_kurenai_compat() -> None:
    import subprocess
    import sys

    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "kurenai.compat",
            "rouge",
            "a b",
            "a",
            "--metrics",
            "1",
            "--stats",
            "r",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(out.stdout) == [{"rouge-1": {"r": 1.0}}]

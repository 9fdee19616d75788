"""Commands that can be found: ``kurenai --help`` lists every subcommand from
the registry, every command line answers ``-h``/``--help`` with status 0,
no parser takes an option by a prefix of its name, and a misspelt name is
refused with the one it likely means (the library's refusals too)."""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path
from typing import Any, Callable

import pytest
from cli_support import Run, call_main
from hypothesis import given, settings
from hypothesis import strategies as st

import kurenai
from kurenai._core.parsers import Parser
from kurenai._core.runner import CommandError
from kurenai._data.spelling import closest, did_you_mean
from kurenai.cli import _args, _commands
from kurenai.compat import cli as compat_cli
from kurenai.compat import patched, xlsum_cli
from kurenai.rouge155 import _files2rouge
from kurenai.rouge155 import cli as rouge155_cli
from kurenai.rouge_scorer import RougeScorer
from kurenai.tokenizers import get_tokenizer

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FILES = ["--target-file", str(EXAMPLES / "targets.txt"),
         "--prediction-file", str(EXAMPLES / "predictions.txt")]  # fmt: skip


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return lambda *argv: call_main(capsys, *argv)


# ------------------------------------------------------------ --help


def test_the_help_lists_every_command_on_one_line(run: Run) -> None:
    result = run("--help")
    assert result.code == 0 and result.err == ""
    section = result.out.split("\ncommands (kurenai COMMAND --help", 1)[1].split("\n\n")[0]
    lines = section.splitlines()[1:]
    assert len(lines) == len(_commands.COMMANDS)
    assert f"(COMMAND: {', '.join(_commands.COMMANDS)})" in result.out  # in the usage too
    for name, entry in _commands.COMMANDS.items():
        mine = [line for line in lines if line.startswith(f"  {name} ")]
        assert len(mine) == 1 and mine[0].split(None, 1)[1] == entry.summary, name
        assert len(mine[0]) <= 79


def test_a_command_added_to_the_registry_is_listed_and_runs(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    added = _commands.Command("kurenai.compat.xlsum_cli", False, "a command of a later release")
    monkeypatch.setitem(_commands.COMMANDS, "later", added)
    monkeypatch.setitem(_commands._BY_NAME, "later", added)
    assert "  later          a command of a later release" in run("--help").out
    assert run("later", "--help").out.startswith("usage: kurenai xlsum")


# Every command line, as ``kurenai ARGS`` runs it, and the prog its usage names.
COMMAND_LINES: list[tuple[list[str], str]] = [
    ([], "kurenai"),
    *(
        ([name], "rouge155" if name == "rouge155" else f"kurenai {name}")
        for name in [*_commands.COMMANDS, "rouge_chinese"]
    ),
    (["rouge155", "files2rouge"], "files2rouge"),
]


@pytest.mark.parametrize(("command", "prog"), COMMAND_LINES)
@pytest.mark.parametrize("asked", ["-h", "--help"])
def test_every_command_line_answers_help_with_status_0(
    run: Run, command: list[str], prog: str, asked: str
) -> None:
    result = run(*command, asked)
    assert result.code == 0 and result.err == ""
    assert result.out.startswith(f"usage: {prog}")


def test_the_compat_module_answers_help_and_suggests(capsys: pytest.CaptureFixture[str]) -> None:
    for asked in ("-h", "--help"):
        assert compat_cli.main([asked]) == 0
        out, err = capsys.readouterr()
        assert out.startswith("usage: python -m kurenai.compat {rouge,") and err == ""
    assert compat_cli.main(["roug", "a", "b"]) == 2
    assert "(did you mean 'rouge'?)" in capsys.readouterr().err
    for asked in ("-h", "--help"):  # python -m kurenai.compat.patched
        assert patched.main([asked]) == 0
        assert capsys.readouterr().out.startswith("usage: python -m kurenai.compat.patched")


def test_the_perl_drop_in_keeps_its_usage_and_its_refusals(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for asked in (["-h"], ["-H"], ["--help"], ["-a", "-h", "config.xml"]):
        assert rouge155_cli.main(asked) == 0
        out, err = capsys.readouterr()
        assert (out.startswith("usage: rouge155 "), err) == (True, "")
    assert rouge155_cli.main([]) == 255  # no configuration: the script's die $usage
    out, err = capsys.readouterr()
    assert (out, err.startswith("usage: rouge155 ")) == ("", True)
    assert rouge155_cli.main(["--hlep"]) == 255
    assert "unknown option --hlep (did you mean '--help'?)" in capsys.readouterr().err


def _parsers() -> list[argparse.ArgumentParser]:
    return [
        _args._parser(),
        compat_cli._parser("rouge", "rouge"),
        compat_cli._parser("rouge-chinese", "rouge-chinese"),
        xlsum_cli._parser(),
        _files2rouge._parser(),
    ]


def test_no_parser_takes_an_option_by_a_prefix() -> None:
    for parser in _parsers():
        assert isinstance(parser, Parser) and parser.allow_abbrev is False, parser.prog


def test_every_parser_of_the_package_is_the_strict_one() -> None:
    """No module builds an argparse parser of its own (it would take prefixes)."""
    package = Path(kurenai.__file__).resolve().parent
    found = []
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "ArgumentParser":
                found.append(path.relative_to(package).as_posix())
    assert found == []


def test_argparse_alone_would_take_the_prefix() -> None:
    """Negative control: what the strict parser refuses, argparse's default takes."""
    plain, strict = argparse.ArgumentParser(), Parser()
    for parser in (plain, strict):
        parser.add_argument("--rouge-types")
    assert plain.parse_args(["--rouge-type", "rouge1"]).rouge_types == "rouge1"
    with pytest.raises(CommandError, match="did you mean '--rouge-types'") as refused:
        strict.parse_args(["--rouge-type", "rouge1"])
    assert refused.value.exit_code == 2


@pytest.mark.parametrize(
    ("argv", "refused"),
    [
        (["--rouge-type", "rouge1"], "unrecognized arguments: --rouge-type "
         "(did you mean '--rouge-types'?)"),
        (["--rouge-types", "rouge1", "--quie"], "--quie (did you mean '--quiet'?)"),
        (["--target", "x"], "unrecognized arguments: --target (did you mean '--target-file'?)"),
        (["--rouge", "x"], "unrecognized arguments: --rouge (see"),
    ],
)  # fmt: skip
def test_a_prefix_of_an_option_is_refused_with_the_option(
    run: Run, argv: list[str], refused: str
) -> None:
    result = run(*FILES, *argv)
    assert (result.code, result.out) == (2, "") and refused in result.err, result.err


def test_prefixes_are_refused_by_the_other_command_lines(run: Run) -> None:
    for argv in (
        ["rouge", "--avgg", "a", "b"],
        ["rouge", "--ignore", "a", "b"],
        ["xlsum", "--no-stem", "a", "b"],
        ["rouge155", "files2rouge", "--no_stem", "a", "b"],
    ):
        result = run(*argv)
        assert result.code == 2 and "unrecognized arguments: " + argv[-3] in result.err, argv


# ------------------------------------------------------------ did you mean

MISSPELT = [
    (["--rouge-types", "rougeLSum"], "invalid ROUGE type 'rougeLSum' (did you mean 'rougeLsum'?)"),
    (["--tokenizer", "rouge_score"], "tokenizer 'rouge_score' (did you mean 'rouge-score'?)"),
    (["--lang", "germna"], "unknown language 'germna' (did you mean 'german'?)"),
    (["--format", "jsnl"], "invalid choice: 'jsnl' (did you mean 'jsonl'?)"),
    (["--output-format", "jsnol"], "invalid choice: 'jsnol' (did you mean 'jsonl'?)"),
    (["--multi-ref-mode", "best_recall"], "mode 'best_recall' (did you mean 'best-recall'?)"),
    (["--aggregate", "bootstarp"], "invalid choice: 'bootstarp' (did you mean 'bootstrap'?)"),
    (["--fail-under", "rougel=0.3"], "invalid ROUGE type 'rougel' (did you mean 'rougeL'?)"),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "meant"), MISSPELT)
def test_a_misspelt_name_is_refused_with_the_likely_one(
    run: Run, argv: list[str], meant: str
) -> None:
    result = run(*FILES, *argv)
    assert (result.code, result.out) == (2, "") and meant in result.err, result.err


@pytest.mark.parametrize(
    "argv",
    [["--rouge-types", "rougeX"], ["--tokenizer", "nope"], ["--lang", "xx"],
     ["--format", "yaml"], ["--multi-ref-mode", "worst"]],
)  # fmt: skip
def test_a_name_far_from_any_gets_no_suggestion(run: Run, argv: list[str]) -> None:
    """Negative control: only a likely name is suggested."""
    result = run(*FILES, *argv)
    assert result.code == 2 and "did you mean" not in result.err, result.err


def test_a_misspelt_command_is_refused_with_the_likely_one(run: Run) -> None:
    result = run("rouge-chines", "a", "b")
    assert (result.code, result.out) == (2, "")
    assert "unknown command 'rouge-chines' (did you mean 'rouge-chinese'?)" in result.err
    result = run("refs.txt", "predictions.txt")
    assert result.code == 2 and "did you mean" not in result.err
    assert "--target-file and --prediction-file" in result.err


LIBRARY: list[tuple[Callable[[], Any], str]] = [
    (lambda: RougeScorer(["rougeLSum"]), "(did you mean 'rougeLsum'?)"),
    (lambda: RougeScorer(["rouge1"], tokenizer="whitspace"), "(did you mean 'whitespace'?)"),
    (lambda: RougeScorer(["rouge1"], lang="germna"), "(did you mean 'german'?)"),
    (lambda: get_tokenizer("unicode", use_stemmer="germna"), "(did you mean 'german'?)"),
    (lambda: RougeScorer(["rouge1"]).score_multi(["a"], "a", "Best"), "(did you mean 'best'?)"),
]  # fmt: skip


@pytest.mark.parametrize(("call", "meant"), LIBRARY)
def test_the_library_suggests_where_the_registries_refuse(
    call: Callable[[], Any], meant: str
) -> None:
    with pytest.raises(ValueError) as raised:
        call()
    assert meant in str(raised.value)


NAMES = ["whitespace", "rouge-score", "unicode", "char", "jsonl", "best-recall", "german"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(NAMES), st.data())
def test_a_name_in_another_case_or_with_underscores_means_itself(name: str, data: Any) -> None:
    flips = data.draw(st.lists(st.booleans(), min_size=len(name), max_size=len(name)))
    spelt = "".join(c.upper() if flip else c for c, flip in zip(name, flips)).replace("-", "_")
    assert closest(spelt, NAMES) == (None if spelt == name else name)


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="xyzqv0", min_size=1, max_size=12))
def test_a_name_sharing_nothing_with_the_choices_gets_none(name: str) -> None:
    assert did_you_mean(name, NAMES) == ""


def test_xlsum_checks_its_options_before_reading_the_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = [str(tmp_path / "none.txt"), str(tmp_path / "none.txt")]
    assert xlsum_cli.main(["--no-stemmer", "--rouge-types", "rougeX", "--", *missing]) == 2
    assert "Invalid rouge type: rougeX" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "jieba", None)
    assert xlsum_cli.main(["--lang", "chinese_simplified", *missing]) == 1
    assert "jieba" in capsys.readouterr().err and not (tmp_path / "none.txt").exists()

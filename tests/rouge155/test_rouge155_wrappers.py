"""pyrouge's class, files2rouge's two files, the library calls and the
``kurenai rouge155`` subcommand, against the real script where it matters."""

from __future__ import annotations

import io
import json
import re
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import perl_rouge
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from perl_rouge import perl  # noqa: F401  (the fixture)
from rouge155_corpus import records, write_setup

from kurenai.cli import main as kurenai_main
from kurenai.rouge155 import Rouge155, evaluate, files2rouge, report, score_corpus
from kurenai.rouge155._files2rouge import split_files
from kurenai.rouge155.cli import main as rouge155_main


def _plain_dirs(root: Path) -> tuple[Path, Path]:
    systems, models = root / "systems", root / "models"
    systems.mkdir()
    models.mkdir()
    for index, (references, summaries) in enumerate(records(12)):
        (systems / f"doc.{index:03d}.txt").write_text(summaries["lead"], encoding="utf-8")
        for number, reference in enumerate(references):
            (models / f"ref.{chr(65 + number)}.{index:03d}.txt").write_text(reference)
    return systems, models


@pytest.mark.slow
@pytest.mark.usefixtures("perl")
def test_pyrouge_convert_and_evaluate_prints_the_scripts_report(tmp_path: Path) -> None:
    systems, models = _plain_dirs(tmp_path)
    rouge = Rouge155()
    rouge.system_dir, rouge.model_dir = str(systems), str(models)
    rouge.system_filename_pattern = r"doc.(\d+).txt"
    rouge.model_filename_pattern = "ref.[A-Z].#ID#.txt"
    data = str(perl_rouge.data_dir())
    args = f"-e {data} -c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a"
    with redirect_stderr(io.StringIO()):
        output = rouge.convert_and_evaluate(rouge_args=args)
    assert rouge.config_file is not None
    script = perl_rouge.run_script([*args.split(), "-m", rouge.config_file])
    assert output == script.stdout.decode()
    scores = rouge.output_to_dict(output)
    assert {"rouge_1_recall", "rouge_su*_f_score_ce", "rouge_w_1.2_precision_cb"} <= set(scores)


@pytest.mark.slow
@pytest.mark.usefixtures("perl")
def test_files2rouge_scores_line_by_line_like_the_script(tmp_path: Path) -> None:
    rows = records(10)
    (tmp_path / "refs.txt").write_text("".join(r[0][0].replace("\n", " ") + "\n" for r in rows))
    (tmp_path / "sums.txt").write_text(
        "".join(r[1]["lead"].replace("\n", " ") + "\n" for r in rows)
    )
    data = str(perl_rouge.data_dir())
    ours = files2rouge(str(tmp_path / "sums.txt"), str(tmp_path / "refs.txt"), data_dir=data)
    # The script on the files files2rouge writes, through pyrouge's conversion.
    split = tmp_path / "split"
    (split / "m").mkdir(parents=True)
    (split / "s").mkdir()
    split_files(
        str(tmp_path / "refs.txt"), str(tmp_path / "sums.txt"), str(split / "m"), str(split / "s")
    )
    rouge = Rouge155()
    rouge.system_dir, rouge.model_dir = str(split / "s"), str(split / "m")
    rouge.system_filename_pattern, rouge.model_filename_pattern = r"s.(\d+).txt", "m.[A-Z].#ID#.txt"
    rouge.convert_summaries_to_rouge_format(str(split / "s"), str(split / "S"))
    rouge.convert_summaries_to_rouge_format(str(split / "m"), str(split / "M"))
    rouge.system_dir, rouge.model_dir = str(split / "S"), str(split / "M")
    rouge.write_config(system_id=1)
    assert rouge.config_file is not None
    script = perl_rouge.run_script(
        ["-e", data, *["-c", "95", "-r", "1000", "-n", "2", "-a", "-m"], rouge.config_file]
    )
    assert ours == script.stdout.decode()


def test_files2rouge_refuses_empty_lines_unless_asked(tmp_path: Path) -> None:
    (tmp_path / "r").write_text("a cat\n\n")
    (tmp_path / "s").write_text("a cat\nthe dog\n")
    with pytest.raises(ValueError, match="Empty reference at line 2"):
        files2rouge(str(tmp_path / "s"), str(tmp_path / "r"))
    found = files2rouge(str(tmp_path / "s"), str(tmp_path / "r"), ignore_empty_reference=True)
    assert "1 ROUGE-1 Average_R: 1.00000" in found


def test_memory_and_files_give_the_same_report(tmp_path: Path) -> None:
    rows = records(6)
    config, _ = write_setup(tmp_path, [(refs, {"1": s["lead"]}) for refs, s in rows])
    args = "-n 2 -w 1.2 -2 4 -U -r 200 -d"
    on_disk = report(f"-a {args} {config}")
    in_memory = score_corpus([s["lead"] for _, s in rows], [r for r, _ in rows], args, text=True)
    assert in_memory == on_disk
    numbers = evaluate(f"-a {args} {config}")["1"]
    assert set(numbers) == {"ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-S4", "ROUGE-SU4"}
    assert f"{numbers['ROUGE-2']['F'][0]:.5f}" in on_disk


def test_counts_come_back_as_integers(tmp_path: Path) -> None:
    found = score_corpus(["a b c"], [["a b", "c"]], "-n 1 -t 2 -x")
    assert found == {"1": {"ROUGE-1": {"M_count": 3, "P_count": 6, "H_count": 3}}}


def test_the_kurenai_command_runs_the_subcommand(tmp_path: Path) -> None:
    config, _ = write_setup(tmp_path, [(["the cat sat"], {"A": "the cat"})])
    out = io.StringIO()
    with redirect_stdout(out):
        assert kurenai_main(["rouge155", "-a", "-n", "1", "-r", "10", str(config)]) == 0
    assert "A ROUGE-1 Average_R: 0.66667" in out.getvalue()


def test_cjk_counts_with_a_kurenai_tokenizer_as_an_extension(tmp_path: Path) -> None:
    config, _ = write_setup(tmp_path, [(["猫がマットの上にいる"], {"A": "猫がいる"})])
    plain = report(f"-a -n 1 -r 10 {config}")
    assert "A ROUGE-1 Average_R: 0.00000" in plain  # the script deletes CJK text
    extended = report(f"-a -n 1 -r 10 --tokenizer char {config}")
    assert extended.startswith("kurenai extension: words from kurenai's 'char' tokenizer")
    assert "A ROUGE-1 Average_P: 1.00000" in extended
    assert json.dumps(evaluate(f"-a -n 1 -r 10 --tokenizer=char {config}"))


_ELAPSED = re.compile(r"Elapsed time: \d+\.\d{3} seconds\n\Z")


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    lines=st.lists(
        st.tuples(st.sampled_from(["", "a cat sat .", "the dog"]), st.sampled_from(["", "a cat"])),
        min_size=1,
        max_size=6,
    )
)
def test_files2rouge_command_prints_its_progress_lines(
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    lines: list[tuple[str, str]],
) -> None:
    """files2rouge's ``run`` prints ``Preparing documents... N line(s) ignored``
    and ``Running ROUGE...`` before the report, then the elapsed time."""
    root = tmp_path_factory.mktemp("f2r")
    (root / "r").write_text("".join(r + "\n" for r, _ in lines))
    (root / "s").write_text("".join(s + "\n" for _, s in lines))
    ignored = sum(1 for r, s in lines if not r or not s)
    args = ["files2rouge", str(root / "r"), str(root / "s"), "-ir", "-is"]
    if ignored == len(lines):
        return  # nothing left to score
    assert rouge155_main(args) == 0
    out = capsys.readouterr().out
    report = files2rouge(
        str(root / "s"), str(root / "r"), ignore_empty_reference=True, ignore_empty_summary=True
    )
    head = f"Preparing documents... {ignored} line(s) ignored\nRunning ROUGE...\n"
    assert out.startswith(head + report + "\n")
    assert _ELAPSED.fullmatch(out[len(head + report + "\n") :])


def test_files2rouge_command_stops_after_preparing_on_an_empty_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "r").write_text("a cat\n\n")
    (tmp_path / "s").write_text("a cat\nthe dog\n")
    assert rouge155_main(["files2rouge", str(tmp_path / "r"), str(tmp_path / "s")]) == 1
    out, err = capsys.readouterr()
    assert out == "Preparing documents... "
    assert "Empty reference at line 2" in err

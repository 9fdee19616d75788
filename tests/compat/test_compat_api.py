"""kurenai.compat's own surface: the modes and their signature, clear errors
for bad input, and the inputs the packages cannot score."""

from __future__ import annotations

import random
from typing import Any

import pytest
from compat_references import started
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

from kurenai.compat import FilesRouge, Rouge, RougeChinese
from kurenai.compat.rouge_chinese import Rouge as ChineseAlias

words = st.lists(
    st.sampled_from(["a", "b", "the", "cat", "Cats", "running", "x1", "."]), max_size=12
)
texts = words.map(" ".join).filter(lambda t: t.replace(".", "") != "")


@settings(max_examples=60, deadline=None)
@given(pairs=st.lists(st.tuples(texts, texts), min_size=1, max_size=5), stem=st.booleans())
def test_rouge_score_mode_gives_rouge_scores_numbers(pairs: list[tuple[str, str]], stem: bool):
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    rouge = Rouge(metrics=["rouge-1", "rouge-3", "rouge-l"], mode="rouge-score", use_stemmer=stem)
    reference = rouge_scorer.RougeScorer(["rouge1", "rouge3", "rougeL"], use_stemmer=stem)
    for ours, hyp, ref in zip(rouge.get_scores(hyps, refs), hyps, refs):
        theirs = reference.score(ref, hyp)
        for metric, rouge_type in (
            ("rouge-1", "rouge1"),
            ("rouge-3", "rouge3"),
            ("rouge-l", "rougeL"),
        ):
            score = theirs[rouge_type]
            assert ours[metric] == {"r": score.recall, "p": score.precision, "f": score.fmeasure}
    averaged = rouge.get_scores(hyps, refs, avg=True)
    singles = rouge.get_scores(hyps, refs)
    # Added one after another from 0, as the package adds (not sum(), which
    # compensates its rounding from Python 3.12 on), then divided once.
    total = 0.0
    for single in singles:
        total += single["rouge-1"]["f"]
    assert averaged["rouge-1"]["f"] == total / len(singles)


def test_rouge_score_mode_with_a_kurenai_tokenizer() -> None:
    from kurenai.rouge_scorer import RougeScorer

    rouge = RougeChinese(mode="rouge-score", n_jobs=2)
    scores = rouge.get_scores(["我 爱 北京 。", "猫 在 这里"], ["我 爱 上海 。", "猫 不 在"])
    kurenai = RougeScorer(["rouge1", "rouge2", "rougeL"], tokenizer="whitespace")
    expected = kurenai.score("我 爱 上海 。", "我 爱 北京 。")["rougeL"]
    assert scores[0]["rouge-l"] == {
        "r": expected.recall,
        "p": expected.precision,
        "f": expected.fmeasure,
    }
    assert "tok:whitespace" in rouge.signature
    char = Rouge(mode="rouge-score", tokenizer="char")
    assert char.get_scores("猫が好き", "猫は好き")[0]["rouge-1"]["r"] == 0.75
    assert "tok:char" in char.signature


def test_signature_records_the_numbers() -> None:
    assert Rouge(version="1.0.0").signature.startswith(
        "api:rouge==1.0.0|numbers:rouge==1.0.0|exclusive:no|metrics:rouge-1,rouge-2,rouge-l|"
    )
    assert RougeChinese().signature.startswith("api:rouge-chinese==1.0.3|numbers:rouge-chinese")
    stemmed = Rouge(mode="rouge-score", use_stemmer=True).signature
    assert "|numbers:rouge-score|tok:rouge-score|stem:yes|" in stemmed
    assert ChineseAlias is RougeChinese


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"version": "0.3.2"}, ValueError, "unknown rouge version '0.3.2'; kurenai reproduces"),
        ({"mode": "kurenai"}, ValueError, "unknown mode 'kurenai'"),
        ({"metrics": ["rouge-3"], "version": "1.0.0"}, ValueError, "Unknown metric 'rouge-3'"),
        ({"metrics": "rouge-1"}, TypeError, r"metrics must be a list of names, e.g. \['rouge-1'\]"),
        ({"stats": ["q"]}, ValueError, "Unknown stat 'q'"),
        ({"mode": "rouge-score", "raw_results": True}, ValueError, "need mode='compat'"),
        ({"mode": "rouge-score", "exclusive": False}, ValueError, "need mode='compat'"),
        ({"tokenizer": "char"}, ValueError, "mode='compat' splits words as rouge does"),
        ({"mode": "rouge-score", "tokenizer": "nope"}, ValueError, "unknown tokenizer"),
    ],
)
def test_bad_arguments_give_one_clear_error(kwargs: dict[str, Any], error: type, match: str):
    with pytest.raises(error, match=match):
        Rouge(**kwargs)


@pytest.mark.parametrize(
    ("hyps", "refs", "error", "match"),
    [
        ("a", ["a"], TypeError, "hyps is one str, so refs must be one str too, got list"),
        (["a", 3], ["a", "b"], TypeError, r"hyps\[1\] must be a str, got int"),
        (["a"], [None], TypeError, r"refs\[0\] must be a str, got NoneType"),
        ({"a"}, ["a"], TypeError, "hyps must be a str or a list of str, got set"),
        (["a", "b"], ["a"], AssertionError, "hyps and refs differ in length: 2 and 1"),
        (["a"], ("a",), AssertionError, "hyps and refs must be of one type, got list and tuple"),
    ],
)
def test_bad_input_gives_one_clear_error(hyps: Any, refs: Any, error: type, match: str) -> None:
    for mode in ("compat", "rouge-score"):
        with pytest.raises(error, match=match):
            Rouge(mode=mode).get_scores(hyps, refs)


def test_empty_sides_raise_the_same_errors_in_both_modes() -> None:
    for mode in ("compat", "rouge-score"):
        with pytest.raises(ValueError, match=r"^Hypothesis is empty\.$"):
            Rouge(mode=mode).get_scores(["..."], ["a"])
        with pytest.raises(ValueError, match=r"^Collections must contain at least 1 sentence\.$"):
            Rouge(metrics=["rouge-l"], mode=mode).get_scores(["a"], [""])
        kept = Rouge(mode=mode).get_scores(["", "a b"], ["a", "a"], ignore_empty=True)
        assert len(kept) == 1
        with pytest.raises(ValueError, match="ignore_empty=True left no pair"):
            Rouge(mode=mode).get_scores([""], ["a"], ignore_empty=True)


def test_files_rouge_errors(tmp_path: Any) -> None:
    (tmp_path / "h").write_text("a\nb\n")
    (tmp_path / "r").write_text("a\n")
    with pytest.raises(AssertionError, match="has 2 records but"):
        FilesRouge().get_scores(str(tmp_path / "h"), str(tmp_path / "r"))
    with pytest.raises(AssertionError, match="not a file"):
        FilesRouge().get_scores(str(tmp_path / "h"), str(tmp_path / "absent"))


def _long(words: int, seed: int) -> str:
    rng = random.Random(seed)
    vocabulary = [f"w{i}" for i in range(300)]
    return " ".join(rng.choice(vocabulary) for _ in range(words))


@pytest.mark.index
def test_a_long_sentence_that_rouge_cannot_score() -> None:
    rouge_101 = started("rouge_101")
    rouge_100 = started("rouge_100")
    # One sentence of 800 words a side: rouge's ROUGE-L backtracks by
    # recursion, one Python frame per step, past the default limit of 1000.
    hyp, ref = _long(800, 1), _long(800, 2)
    call = ([[hyp], [ref]], {})
    for reference in (rouge_100, rouge_101):
        failed = reference.call(([], {"metrics": ["rouge-l"]}), call)
        assert failed["error"][0] == "RecursionError"
        theirs = reference.call(([], {"metrics": ["rouge-l"]}), call, recursion_limit=20_000)
        ours = Rouge(metrics=["rouge-l"], version=reference.version).get_scores([hyp], [ref])
        assert theirs["ok"] == ours


@pytest.mark.index
def test_a_long_document_that_rouge_chinese_scores_slowly() -> None:
    rouge_chinese_103 = started("rouge_chinese_103")
    # rouge-chinese's ROUGE-L fills a dict of (n+1)(m+1) cells: 1000 words a
    # side is a million cells (~0.1 GB); kurenai's LCS needs a few kilobytes.
    hyp, ref = _long(1000, 3), _long(1000, 4)
    theirs = rouge_chinese_103.call(([], {"metrics": ["rouge-l"]}), ([[hyp], [ref]], {}))
    assert theirs["ok"] == RougeChinese(metrics=["rouge-l"]).get_scores([hyp], [ref])


def test_metric_functions_are_callable_like_the_packages() -> None:
    rouge = Rouge()
    assert list(rouge.AVAILABLE_METRICS) == [
        "rouge-1",
        "rouge-2",
        "rouge-3",
        "rouge-4",
        "rouge-5",
        "rouge-l",
    ]
    metric = rouge.AVAILABLE_METRICS["rouge-l"]
    assert metric(["a b c", "d"], ["a c"], raw_results=True) == {"hyp": 4, "ref": 2, "overlap": 2}
    with pytest.raises(ValueError, match="Collections must contain at least 1 sentence"):
        metric([], ["a"])
    assert Rouge(version="1.0.0").DEFAULT_STATS == ["f", "p", "r"]


def test_importing_the_compat_modules_loads_no_optional_package() -> None:
    import subprocess
    import sys

    code = (
        "import sys, kurenai, kurenai.compat, kurenai.compat.cli, kurenai.frames.duckdb\n"
        "from kurenai.compat import Rouge; Rouge().get_scores('a b', 'a')\n"
        "bad = {'duckdb', 'polars', 'pyarrow', 'rouge', 'rouge_chinese', 'lm_eval',"
        " 'rouge_score.rouge_scorer'} & set(sys.modules)\n"
        "print(sorted(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "[]\n"


def test_the_old_name_of_the_modes_table_still_reads_it_with_a_warning() -> None:
    import kurenai.compat

    with pytest.warns(DeprecationWarning, match="COMPAT_MODES"):
        assert kurenai.compat.MODES is kurenai.compat.COMPAT_MODES
    with pytest.raises(AttributeError, match="NO_SUCH"):
        kurenai.compat.NO_SUCH  # noqa: B018

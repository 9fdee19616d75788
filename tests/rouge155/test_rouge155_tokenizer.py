"""``tokenizer="rouge155"``: the script's words on every kurenai surface."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kurenai.rouge155._summary import Limits, summary_of
from kurenai.rouge155._tokenizer import Rouge155Tokenizer, Words
from kurenai.rouge_scorer import RougeScorer
from kurenai.tokenizers import get_tokenizer


def test_the_name_makes_the_tokenizer_with_its_options() -> None:
    tokenizer = get_tokenizer("rouge155", use_stemmer=True, remove_stopwords=True)
    assert isinstance(tokenizer, Rouge155Tokenizer)
    assert tokenizer.tokenize("The mice were running to the Bank") == ["mouse", "run", "bank"]


@pytest.mark.usefixtures("backend")
def test_scores_count_the_scripts_words() -> None:
    scorer = RougeScorer(["rouge1", "rougeLsum"], tokenizer="rouge155", use_stemmer=True)
    score = scorer.score("The dogs sat.\nWell-known!", "the dog sat; well known")
    assert score["rouge1"].recall == 1.0
    assert score["rougeLsum"].fmeasure == 1.0
    # An exception's base form is not stemmed again: geese -> goose, goose -> goos.
    assert scorer.score("geese", "goose")["rouge1"].recall == 0
    # Only ASCII letters are lower-cased: İ and the Kelvin sign separate (rouge-score's
    # str.lower() turns them into "i" and "k").
    assert Rouge155Tokenizer().tokenize("\u0130stanbul \u212aelvin") == ["stanbul", "elvin"]


@given(st.text())
def test_the_tokenizer_on_text_equals_the_file_path_on_its_bytes(text: str) -> None:
    data = text.encode("utf-8", "surrogatepass")
    summary = summary_of(data, "SPL", Limits(), Words())
    assert Rouge155Tokenizer().tokenize(text) == summary.whole


def test_it_pickles_by_its_options() -> None:
    tokenizer = Rouge155Tokenizer(use_stemmer=True)
    copy = pickle.loads(pickle.dumps(tokenizer))
    assert copy.tokenize("dogs ran geese") == ["dog", "ran", "goose"]  # ran: 3 letters
    assert len(pickle.dumps(tokenizer)) < 300  # not the exception table


def test_a_non_str_is_refused_by_name() -> None:
    with pytest.raises(TypeError, match=r"Rouge155Tokenizer\.tokenize takes a str"):
        Rouge155Tokenizer().tokenize(b"bytes")  # type: ignore[arg-type]

"""The built-in sentence splitter, and ``RougeScorer(split_summaries=True)`` with it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kurenai.rouge_scorer import RougeScorer
from kurenai.sentences import split_sentences

PIECES = [*'猫 。．.!？「」()"“”\n3', "cat", "  "]
texts = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=40) | st.lists(
    st.sampled_from(PIECES), max_size=30
).map("".join)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", []),
        (" \n\n \t", []),
        ("One sentence without a stop", ["One sentence without a stop"]),
        ("今日は晴れ。明日は雨！", ["今日は晴れ。", "明日は雨！"]),
        ("本当？うん！そう。", ["本当？", "うん！", "そう。"]),
        ("すごい!本当に?はい", ["すごい!", "本当に?", "はい"]),
        ("The cat sat. The dog ran.", ["The cat sat.", "The dog ran."]),
        ("What?! Really?? Yes...", ["What?!", "Really??", "Yes..."]),
        ("line one\nline two\r\nline three", ["line one", "line two", "line three"]),
        # "." needs a space or the end after it; numbers and domains stay whole.
        ("Pi is 3.14. See example.com now.", ["Pi is 3.14.", "See example.com now."]),
        ("必要がある．次に値は１．５です．", ["必要がある．", "次に値は１．５です．"]),
        # No abbreviation list: documented difference from punkt.
        ("Mr. Smith left.", ["Mr.", "Smith left."]),
        # Closing quotes and brackets stay with their sentence.
        ('He said "stop." Then he left.', ['He said "stop."', "Then he left."]),
        ("「はい。」「いいえ。」", ["「はい。」", "「いいえ。」"]),
        ("（続く。） 次の文。", ["（続く。）", "次の文。"]),
        # A quoted sentence followed directly by more text is part of that text.
        ("「はい。」と言った。", ["「はい。」と言った。"]),
        ('"Yes."と彼は言った。', ['"Yes."と彼は言った。']),
        # Nothing splits inside a matched pair of brackets or quotes.
        ("「はい。そうです。」と言った。次。", ["「はい。そうです。」と言った。", "次。"]),
        ("It works (see Fig. 1). Next.", ["It works (see Fig. 1).", "Next."]),
        ("“One. Two.” Three.", ["“One. Two.”", "Three."]),
        # Unmatched brackets are ignored rather than swallowing the line.
        ("1) First point. 2) Second point.", ["1) First point.", "2) Second point."]),
        ("（注：未完。次の文。", ["（注：未完。", "次の文。"]),
        ("「開いたまま。次。」閉じた」。後。", ["「開いたまま。次。」閉じた」。", "後。"]),
        # Other scripts' stops.
        ("क्या? हाँ। ठीक है।", ["क्या?", "हाँ।", "ठीक है।"]),
        ("هل أنت بخير؟ نعم.", ["هل أنت بخير؟", "نعم."]),
    ],
)
def test_split_sentences(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected


@settings(max_examples=300, deadline=None)
@given(text=texts)
def test_sentences_keep_every_character_and_respect_lines(text: str) -> None:
    sentences = split_sentences(text)
    assert all(s and s == s.strip() and len(s.splitlines()) == 1 for s in sentences)
    assert "".join("".join(sentences).split()) == "".join(text.split())
    per_line = [s for line in text.splitlines() for s in split_sentences(line)]
    assert sentences == per_line


def test_rouge_lsum_uses_the_built_in_splitter() -> None:
    scorer = RougeScorer(["rougeL", "rougeLsum"], split_summaries=True, tokenizer="char")
    scores = scorer.score("今日は晴れ。明日は雨。", "明日は雨。今日は晴れ。")
    assert scores["rougeLsum"].fmeasure == 1.0
    assert scores["rougeL"].fmeasure == pytest.approx(5 / 9)  # LCS 今日は晴れ of 9


def test_quoted_speech_is_one_lsum_sentence() -> None:
    target, prediction = "「はい。」と言った。", "と言った「はい」"
    scorer = RougeScorer(["rougeLsum"], split_summaries=True, tokenizer="char")
    # One target sentence はいと言った: only と言った matches in order.
    assert scorer.score(target, prediction)["rougeLsum"].fmeasure == pytest.approx(4 / 6)
    # Split at every 。, each half would match on its own.
    naive = RougeScorer(
        ["rougeLsum"], split_summaries=True, tokenizer="char", sentence_splitter=_split_at_stops
    )
    assert naive.score(target, prediction)["rougeLsum"].fmeasure == 1.0


def _split_at_stops(text: str) -> list[str]:
    return text.replace("。", "。\n").splitlines()


def test_a_custom_splitter_is_called() -> None:
    calls: list[str] = []

    def by_semicolon(text: str) -> list[str]:
        calls.append(text)
        return text.split(";")

    scorer = RougeScorer(
        ["rougeLsum"], split_summaries=True, tokenizer="unicode", sentence_splitter=by_semicolon
    )
    assert scorer.score("a b; c d", "c d; a b")["rougeLsum"].fmeasure == 1.0
    assert calls == ["a b; c d", "c d; a b"]

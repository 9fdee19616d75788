"""Long unbroken input reaches every morphological analyser in pieces it takes.

fugashi (MeCab) crashes the process (SIGSEGV) on one call of ~194,000
characters; SudachiPy refuses 49,149 bytes.  The adapters cut such input at
whitespace or punctuation (or anywhere, past a piece's size without either),
so a score or a command line never dies.  jieba's fragments are glued in
linear time: the tokens are those of gluing one by one.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from robustness_support import require

from kurenai.rouge_scorer import RougeScorer
from kurenai.tokenizers._analysed_words import _HAS_WORD_CHARACTER, _jieba_words, _kept_words
from kurenai.tokenizers._analyser_calls import MECAB_PIECE, RUN_BOUND, _natural_pieces
from kurenai.tokenizers._morphological import mecab_tagger
from kurenai.tokenizers._unicode import is_marks

# The crash needs a fresh process: in this one it would end the test run.
LONG_BATCH = """
from kurenai.rouge_scorer import RougeScorer
scorer = RougeScorer(['rouge1'], tokenizer='mecab')
print(scorer.score_batch([{text}], ['a'], max_tokens=10))
"""
LONG_TEXTS = ["'a' * 200_000", "'a' * 100_000 + ' ' + 'a' * 100_000", "'a。' * 150_000"]


@pytest.mark.parametrize("text", LONG_TEXTS)
def test_mecab_scores_a_long_unbroken_text_in_a_process(backend: str, text: str) -> None:
    require("mecab")
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    env["KURENAI_IMPLEMENTATION"] = "python" if backend == "python" else "compiled"
    run = subprocess.run(
        [sys.executable, "-c", LONG_BATCH.format(text=text)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert run.returncode == 0, (run.returncode, run.stderr[-2000:])
    assert run.stdout.strip() == "[None]"  # the pair is over max_tokens: null out


def test_mecab_pieces_end_after_whitespace_or_punctuation() -> None:
    text = ("今日は良い天気だ、" * 4 + " ") * 4_000  # 148,000 characters
    pieces = _natural_pieces(text, MECAB_PIECE)
    assert "".join(pieces) == text
    assert len(pieces) > 1
    assert all(len(piece) <= MECAB_PIECE for piece in pieces)
    assert all(piece.endswith(("、", " ")) for piece in pieces[:-1])
    unbroken = "あ" * (2 * MECAB_PIECE + 5)
    assert [len(p) for p in _natural_pieces(unbroken, MECAB_PIECE)] == [
        MECAB_PIECE,
        MECAB_PIECE,
        5,
    ]
    lines = "今日は、天気だ。\n" * MECAB_PIECE  # a line break wins over punctuation
    assert all(piece.endswith("\n") for piece in _natural_pieces(lines, MECAB_PIECE)[:-1])
    comma_only = "ab、" * MECAB_PIECE
    assert all(piece.endswith("、") for piece in _natural_pieces(comma_only, MECAB_PIECE)[:-1])


def test_mecab_gives_the_same_tokens_on_ordinary_and_on_long_text(backend: str) -> None:
    require("mecab")
    tokenizer = RougeScorer(["rouge1"], tokenizer="mecab").tokenizer
    sentence = "今日は良い天気だ。明日は雨が降るでしょう。\n"
    assert tokenizer.tokenize(sentence) == [
        "今日",
        "は",
        "良い",
        "天気",
        "だ",
        "明日",
        "は",
        "雨",
        "が",
        "降る",
        "でしょう",
    ]
    repeats = 3 * MECAB_PIECE // len(sentence)
    assert tokenizer.tokenize(sentence * repeats) == tokenizer.tokenize(sentence) * repeats


def test_mecab_analyses_text_up_to_a_piece_as_fugashi_does() -> None:
    require("mecab")
    import fugashi

    sentence = "東京都に住んでいる。I'm reading naïve texts, ok?\n"
    text = sentence * (MECAB_PIECE // len(sentence))
    assert len(text) <= MECAB_PIECE
    tokenizer = RougeScorer(["rouge1"], tokenizer="mecab").tokenizer
    alone = _kept_words(word.surface for word in mecab_tagger(fugashi, "")(text))
    assert tokenizer.tokenize(text) == alone


@pytest.mark.parametrize(
    "analysed",
    [
        [("é", i, i + 1) for i in range(50_000)],
        [("na", 0, 2), ("ï", 2, 3), ("ve", 3, 5), ("今天", 5, 7), ("ï", 7, 8), ("x", 9, 10)],
        [("a", 0, 1), ("b", 2, 3), ("c", 3, 4), ("天", 4, 5), ("d", 5, 6)],
        [],
    ],
    ids=["long-run", "mixed", "gaps", "empty"],
)
def test_jieba_gluing_gives_the_one_by_one_words(analysed: list[tuple[str, int, int]]) -> None:
    assert _jieba_words(analysed) == glued_one_by_one(analysed)


def glued_one_by_one(analysed: list[tuple[str, int, int]]) -> list[str]:
    """The reference: each touching spaced fragment appended to the last word."""
    from kurenai.tokenizers._unicode import is_spaced_word

    words: list[str] = []
    previous_end, previous_spaced = -1, False
    for word, start, end in analysed:
        spaced = is_spaced_word(word)
        if spaced and previous_spaced and start == previous_end:
            words[-1] = words[-1] + word
        else:
            words.append(word)
        previous_end, previous_spaced = end, spaced
    return words


def test_jieba_glues_a_long_run_of_latin_letters(backend: str) -> None:
    require("jieba")
    tokenizer = RougeScorer(["rouge1"], tokenizer="jieba").tokenizer
    # One call per RUN_BOUND code points of the run (the guard on unbroken
    # runs), each glued back into its one word.
    assert tokenizer.tokenize("é" * 200_000) == ["é" * RUN_BOUND] * (200_000 // RUN_BOUND) + [
        "é" * (200_000 % RUN_BOUND)
    ]
    assert tokenizer.tokenize("今天 naïve café 天气") == ["今天", "naïve", "café", "天气"]


@pytest.mark.parametrize(
    "analysed",
    [
        ["a"] + ["\u0301"] * 20_000,
        ["Ca", "\u0301", "\u0327", "!", "\u0301", "Fé", "\u0301"],
        ["\u0301", "x", "…", "Y"],
        [],
    ],
    ids=["long-marks", "mixed", "leading-mark", "empty"],
)
def test_marks_glue_onto_their_word_as_one_by_one(analysed: list[str]) -> None:
    expected: list[str] = []
    previous_kept = False
    for word in analysed:  # the reference: appended to the last word one by one
        if previous_kept and is_marks(word):
            expected[-1] = expected[-1] + word
        elif _HAS_WORD_CHARACTER.search(word):
            expected.append(word.lower())
            previous_kept = True
        else:
            previous_kept = False
    assert _kept_words(analysed) == expected

"""Hypothesis over kurenai's public API, run by tests/robustness/test_robustness_fuzz.py.

It runs in its own ``python -X faulthandler`` process, so that a crash in the
compiled code is a failed test with a traceback rather than a dead test run.
Every text (any code point, lone surrogates included), every ROUGE type
choice and every option must give scores that agree between ``score``,
``score_multi`` and ``score_batch`` (one thread and two), equal rouge-score's
with its tokenizer, and never raise; any number in a type's name gives a
scorer or one ValueError.

    python -X faulthandler tests/support/robustness_fuzz.py [EXAMPLES]
"""

from __future__ import annotations

import functools
import math
import sys
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kurenai.rouge_scorer import ROUGE_TYPES, RougeScorer
from kurenai.scoring import Score
from kurenai.tokenizers import get_tokenizer

NAMES = [
    "burmese", "char", "jieba", "khmer", "kiwi", "lao", "mecab", "rouge-score", "sudachi", "thai",
    "unicode", "whitespace",
]  # fmt: skip

# Any code point, weighted towards the separators and scripts the scans treat
# specially (newlines, spaces, CJK, combining marks, astral characters).
characters = st.one_of(
    st.characters(codec=None, categories=None),
    st.sampled_from(list("\n \t\u3000a1Zé\u0308今日は한국어😀\U00020000\U000e0100\ud800.,")),
    st.sampled_from(list("กรัภาษไทย่ๆ๑ພາສາລາວ່ໆខ្ញុំស្រលាញ់\u17d2\u200b")),
    st.sampled_from(list("မြန်ာသ္တ။\u103a\u1037\u1039\u200c")),
)
texts = st.text(characters, max_size=60)
types = st.lists(st.sampled_from(list(ROUGE_TYPES)), min_size=1, max_size=5)


@functools.cache
def tokenizer(name: str, stem: bool) -> Any:
    """One instance per setting: the analysers load once per process."""
    return get_tokenizer(name, use_stemmer=stem)


def check_score(score: Score) -> None:
    assert isinstance(score, Score)
    for value in score:
        assert isinstance(value, (int, float)) and not math.isnan(value)
        assert 0 <= value <= 1


@given(
    targets=st.lists(texts, min_size=1, max_size=3),
    prediction=texts,
    rouge_types=types,
    name=st.sampled_from(NAMES),
    stem=st.booleans(),
    split=st.booleans(),
    max_tokens=st.one_of(st.none(), st.integers(0, 40)),
)
def agree(
    targets: list[str],
    prediction: str,
    rouge_types: list[str],
    name: str,
    stem: bool,
    split: bool,
    max_tokens: int | None,
) -> None:
    scorer = RougeScorer(rouge_types, tokenizer=tokenizer(name, stem), split_summaries=split)
    alone = [scorer.score(target, prediction) for target in targets]
    for scores in alone:
        assert list(scores) == list(dict.fromkeys(rouge_types))
        for score in scores.values():
            check_score(score)
    predictions = [prediction] * len(targets)
    assert scorer.score_batch(targets, predictions) == alone
    assert scorer.score_batch(targets * 20, predictions * 20, n_jobs=2) == alone * 20
    best = scorer.score_multi(targets, prediction)
    assert all(best[t] in [s[t] for s in alone] for t in best)
    limited = scorer.score_batch(targets, predictions, max_tokens=max_tokens)
    assert all(row is None or row == full for row, full in zip(limited, alone))
    nulls = scorer.score_batch([None, *targets], [prediction, *predictions], allow_none=True)
    assert nulls == [None, *alone]


@given(target=texts, prediction=texts, rouge_types=types, stem=st.booleans())
def equals_rouge_score(target: str, prediction: str, rouge_types: list[str], stem: bool) -> None:
    from rouge_score import rouge_scorer

    ours = RougeScorer(rouge_types, use_stemmer=stem, tokenizer="rouge-score")
    theirs = rouge_scorer.RougeScorer(rouge_types, use_stemmer=stem)
    assert ours.score(target, prediction) == theirs.score(target, prediction)


@given(name=st.from_regex(r"\A(rouge|ROUGE-|rouge_)(S|SU|s|su|L|Lsum|W)?[0-9]{0,40}\Z"))
def names_or_one_error(name: str) -> None:
    # Any number in a type's name: a scorer, or the ValueError naming it;
    # never an OverflowError from the kernels (rougeS99999999999).
    try:
        scorer = RougeScorer([name])
    except ValueError as error:
        assert str(error).startswith("invalid ROUGE type "), error
        return
    for score in scorer.score("a b c d", "a c b e").values():
        check_score(score)


def main(examples: int) -> None:
    options = settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,  # the same examples every run: CI failures reproduce
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    for prop in (agree, equals_rouge_score, names_or_one_error):
        options(prop)()
        print(f"{prop.__name__}: {examples} examples passed", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)

"""Size limits hold before the tokenizer's work grows: ``max_chars`` is read
on the raw text, ``max_tokens`` is exact and stops the tokenizer soon after
the limit; the analysers get unbroken runs of at most ``RUN_BOUND`` code
points, so a long run costs linear time and ordinary text keeps its tokens.

The reference of every limit is the tokenizer's own ``tokenize``: a pair is
None exactly when a side has more tokens (or code points) than the limit.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from robustness_support import PAIRS, require

from kurenai import metrics
from kurenai.rouge_scorer import RougeScorer
from kurenai.spark import tokenizer_key
from kurenai.spark._worker import Spec, score_tables
from kurenai.tokenizers._analysed_words import _kept_within, _kept_words
from kurenai.tokenizers._analyser_calls import (
    MECAB_PIECE,
    RUN_BOUND,
    SUDACHI_PIECE,
    _run_pattern,
    _runs_cut,
)
from kurenai.tokenizers._stemming import porter_stemmer, stemmed

TYPES = ["rouge1", "rougeL", "rougeLsum"]
ANALYSERS = ["mecab", "sudachi", "jieba", "kiwi", "thai", "lao", "khmer"]
WORDS = st.sampled_from(["a", "cat", "running", "猫", "今日は", "天気", "é", "\u0301", "!", " "])
TEXTS = st.lists(st.one_of(WORDS, st.just("\n")), max_size=30).map("".join)


def _size(scorer: RougeScorer, text: str) -> int:
    """The tokens ``max_tokens`` compares: the whole text's, or its
    lines' together for rougeLsum, whichever is more (the reference)."""
    tokenize = scorer.tokenizer.tokenize
    lines = sum(len(tokenize(line)) for line in text.split("\n") if line)
    return max(len(tokenize(text)), lines)


@settings(max_examples=60, deadline=None)
@given(pairs=st.lists(st.tuples(TEXTS, TEXTS), min_size=1, max_size=6), limit=st.integers(0, 12))
def test_max_tokens_drops_exactly_the_pairs_over_it(
    backend: str, pairs: list[tuple[str, str]], limit: int
) -> None:
    for tokenizer in ("unicode", "whitespace", "char"):
        scorer = RougeScorer(TYPES, tokenizer=tokenizer)
        targets, predictions = map(list, zip(*pairs))
        found = scorer.score_batch(targets, predictions, max_tokens=limit)
        for (target, prediction), scores in zip(pairs, found):
            over = max(_size(scorer, target), _size(scorer, prediction)) > limit
            assert scores == (None if over else scorer.score(target, prediction))


@settings(max_examples=40, deadline=None)
@given(pairs=st.lists(st.tuples(TEXTS, TEXTS), min_size=1, max_size=6), limit=st.integers(0, 40))
def test_max_chars_drops_exactly_the_pairs_over_it(
    backend: str, pairs: list[tuple[str, str]], limit: int
) -> None:
    scorer = RougeScorer(TYPES)
    targets, predictions = map(list, zip(*pairs))
    found = scorer.score_batch(targets, predictions, max_chars=limit)
    multi = scorer.score_multi_batch([[t, t] for t in targets], predictions, max_chars=limit)
    for (target, prediction), scores, best in zip(pairs, found, multi):
        over = max(len(target), len(prediction)) > limit
        assert scores == (None if over else scorer.score(target, prediction))
        assert best == (None if over else scorer.score_multi([target, target], prediction))


def test_max_chars_is_read_before_any_tokenizer_runs(backend: str) -> None:
    seen: list[str] = []

    class Spy:
        def tokenize(self, text: str) -> list[str]:
            seen.append(text)
            return text.split()

    scorer = RougeScorer(["rouge1"], tokenizer=Spy())
    found = scorer.score_batch(["a " * 10**6, "a b"], ["a", "a"], max_chars=100)
    assert found[0] is None and found[1] is not None
    assert all(len(text) <= 100 for text in seen)


def test_limits_reach_every_library_surface(backend: str) -> None:
    pa = pytest.importorskip("pyarrow")
    scorer = RougeScorer(["rouge1"])
    targets, predictions = ["a b c d", "a b"], ["a", "a"]
    arrow = scorer.score_arrow(targets, predictions, max_chars=5)
    assert arrow.is_null().to_pylist() == [True, False]
    arrow = scorer.score_arrow(targets, predictions, max_tokens=3)
    assert isinstance(arrow, pa.StructArray) and arrow.null_count == 1
    columns = scorer.score_batch(targets, predictions, columnar=True, max_chars=5)
    assert math.isnan(columns["rouge1"].fmeasure[0]) and columns["rouge1"].fmeasure[1] == 2 / 3
    spec = Spec((("", "rouge1", False),), False, None, None, False, tokenizer_key(None), 5)
    _, nulls = score_tables(spec, predictions, targets)
    assert nulls.tolist() == [True, False]
    metric = metrics.Rouge(["rouge1"], max_tokens=3)
    metric.add_batch(predictions, targets)
    assert metric.skipped == 1 and len(metric) == 2
    assert metric.compute(aggregate="mean") == {"rouge1": 2 / 3}
    assert math.isnan(metric.compute(use_aggregator=False)["rouge1"][0])
    with pytest.raises(ValueError, match="max_chars must be"):
        metrics.Rouge(["rouge1"], max_chars=-1)


def test_limits_reach_duckdb_and_polars() -> None:
    pytest.importorskip("pyarrow")
    duckdb = pytest.importorskip("duckdb")
    from kurenai.frames.duckdb import register

    con = duckdb.connect()
    register(con, max_chars=5)
    rows = con.execute(
        "SELECT rouge_score(p, t, 'rouge1') IS NULL"
        " FROM (VALUES ('a', 'a b c d'), ('a', 'a b')) v(p, t)"
    ).fetchall()
    assert rows == [(True,), (False,)]
    pl = pytest.importorskip("polars")
    import kurenai.frames.polars  # noqa: F401  (the .rouge namespace)

    frame = pl.DataFrame({"p": ["a", "a"], "t": ["a b c d", "a b"]})
    scored = frame.select(pl.col("p").rouge.score("t", "rouge1", max_tokens=3))
    assert scored.to_series().is_null().to_list() == [True, False]


# ------------------------------------------------------------ the analysers


@pytest.mark.parametrize("name", ANALYSERS)
@pytest.mark.parametrize("use_stemmer", [False, True])
def test_tokenize_within_is_tokenize_or_none(name: str, use_stemmer: bool) -> None:
    require(name)
    tokenizer = RougeScorer(["rouge1"], use_stemmer=use_stemmer, tokenizer=name).tokenizer
    for text in [*(side for pair in PAIRS for side in pair), "a" * 5000, "naïve" + "\u0301" * 3]:
        tokens = tokenizer.tokenize(text)
        for limit in {0, max(0, len(tokens) - 1), len(tokens), len(tokens) + 1}:
            expected = tokens if len(tokens) <= limit else None
            assert tokenizer.tokenize_within(text, limit) == expected, (text[:20], limit)


@settings(max_examples=200, deadline=None)
@given(words=st.lists(WORDS, max_size=40), limit=st.integers(0, 20), stem=st.booleans())
def test_kept_within_counts_only_final_words(words: list[str], limit: int, stem: bool) -> None:
    stemmer = porter_stemmer(stem, "unicode")
    tokens = stemmed(_kept_words(words), stemmer)
    assert _kept_within(iter(words), stemmer, limit) == (tokens if len(tokens) <= limit else None)


@pytest.mark.parametrize("name", ANALYSERS)
def test_an_over_limit_text_stops_the_analyser_early(backend: str, name: str) -> None:
    require(name)
    scorer = RougeScorer(["rouge1"], tokenizer=name)
    tokenizer = scorer.tokenizer
    tokenizer.load()
    seen: list[int] = []
    analyse = tokenizer._analyser(tokenizer._shared_resource())

    def spy(piece: str) -> Any:
        seen.append(len(piece))
        return analyse(piece)

    tokenizer._shared = spy  # the analyser every call then takes
    text = "今日は 良い 天気 a b c " * 50_000  # 800,000 code points
    assert scorer.score_batch([text], ["今日"], max_tokens=50) == [None]
    assert 0 < sum(seen) <= 2 * max(MECAB_PIECE, SUDACHI_PIECE)  # a piece or two, not all


@pytest.mark.parametrize("name", ANALYSERS)
def test_no_call_holds_a_run_longer_than_the_bound(name: str) -> None:
    require(name)
    tokenizer = RougeScorer(["rouge1"], tokenizer=name).tokenizer
    text = "a" * 1_000_000 + " 今日は" + "가" * 3000 + "。" + "中" * (RUN_BOUND + 1)
    calls = tokenizer._calls(text)
    assert "".join(calls) == text  # linear: every code point in exactly one call
    longest = max(len(run) for call in calls for run in _run_pattern().findall(call))
    assert longest <= RUN_BOUND


@pytest.mark.parametrize("name", ANALYSERS)
def test_ordinary_text_keeps_its_tokens(name: str) -> None:
    """No run over the bound: the calls are the analyser's size pieces alone
    (one call for a text within them), so the tokens are the analyser's."""
    require(name)
    tokenizer = RougeScorer(["rouge1"], tokenizer=name).tokenizer
    sentences = [side for pair in PAIRS for side in pair] * 40  # ~2,000 code points each
    text = " ".join(sentences)[: MECAB_PIECE - 1]
    assert len(text) > RUN_BOUND
    assert tokenizer._calls(text) == tokenizer._sized(text)
    assert _runs_cut(text) == [text]
    tokenizer.load()
    with tokenizer._analyse() as analyse:
        alone = _kept_words(w for piece in tokenizer._sized(text) for w in analyse(piece))
    assert tokenizer.tokenize(text) == alone


def test_a_cut_lands_only_inside_a_run_longer_than_the_bound() -> None:
    run = "x" * (2 * RUN_BOUND + 3)
    text = "a b。" + run + "。" + "y" * RUN_BOUND
    parts = _runs_cut(text)
    assert "".join(parts) == text
    starts = np.cumsum([0, *map(len, parts)])[1:-1]
    run_start = text.index("x")
    assert starts.tolist() == [run_start + RUN_BOUND, run_start + 2 * RUN_BOUND]


@pytest.mark.parametrize("mode", ["best", "average", "mean", "best-recall"])
def test_every_row_over_the_limit_gives_a_table_of_nan(backend: str, mode: str) -> None:
    # Found by the command line's fuzz: columnar multi-reference scoring
    # with every row over max_tokens raised IndexError (no picks to take).
    scorer = RougeScorer(["rouge1", "rougeL"])
    found = scorer.score_multi_batch(
        [["a b", "c"], ["d e f"]], ["a", "b"], columnar=True, max_tokens=0, mode=mode
    )
    assert all(np.isnan(np.stack(score)).all() for score in found.values())
    assert scorer.score_multi_batch([["a b"]], ["a"], max_tokens=0, mode=mode) == [None]

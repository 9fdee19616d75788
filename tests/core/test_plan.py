"""Plans: the two twins agree, the types are parsed once, the choice is made in one place."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from conftest import on_compiled_plan
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer as rs

from kurenai import _backend, _lcs_py, _variants_py
from kurenai._core.choice import make_plan
from kurenai._core.plan import LCS, LSUM, NGRAM, SKIP, WLCS, parse_types
from kurenai._core.python_plan import PythonPlan
from kurenai._data import rules as _rules
from kurenai.rouge_scorer import ROUGE_TYPES, RougeScorer
from kurenai.scoring import Score
from kurenai.tokenizers import (
    AllCharacterSupportTokenizer,
    UnicodeTokenizer,
    available_tokenizers,
    get_tokenizer,
    register_tokenizer,
)
from kurenai.tokenizers._stemming import compiled_porter_agrees

WORDS = ["the", "cats", "running", "Runs", "猫", "今日は", "a1", "x", "ΣΑΣ", "dogs.", "e\u0301"]


def texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return [
        "".join(rng.choice(WORDS) + rng.choice(" \n") for _ in range(rng.randint(0, 30)))
        for _ in range(count)
    ]


def test_types_are_parsed_once_with_shared_ngram_counts() -> None:
    spec = parse_types(["rouge2", "rougeL", "rouge2", "rouge1", "rougeLsum"])
    assert spec.kinds == (NGRAM, LCS, NGRAM, NGRAM, LSUM)
    assert spec.orders == (2, 1)
    assert spec.slots == (0, -1, 0, 1, -1)
    assert spec.want_lcs and spec.want_lsum and spec.want_whole


def test_rouge_1_5_5_types_are_kinds_with_their_parameters() -> None:
    spec = parse_types(["rougeW", "rougeS4", "rougeSU", "rougeSU12", "rouge1"], w_weight=2)
    assert spec.kinds == (WLCS, SKIP, SKIP, SKIP, NGRAM)
    assert spec.gaps[1:4] == (4, -1, 12)
    assert spec.unigrams[1:4] == (False, True, True)
    assert spec.w_weight == 2.0 and spec.slots == (-1, -1, -1, -1, 0)
    # ROUGE-W reads the sentences only; skip-bigrams the whole text.
    only_w = parse_types(["rougeW"])
    assert only_w.want_sentences and not only_w.want_whole
    assert parse_types(["rougeS"]).want_whole and not parse_types(["rougeS"]).want_sentences


def test_every_kind_has_the_compiled_plan(backend: str) -> None:
    scorer = RougeScorer(["rouge1", "rougeW", "rougeSU4", "rougeS"])
    assert on_compiled_plan(scorer) == (backend == "fused")


@pytest.mark.parametrize(
    "types",
    [["rouge1"] * 17, ["rouge1", "rougeL", "rouge1"], [*ROUGE_TYPES, *ROUGE_TYPES], []],
    ids=["17-same", "duplicates", "22-types", "none"],
)
def test_any_number_of_types_scores_as_rouge_score(backend: str, types: list[str]) -> None:
    # More than 16 distinct n-gram orders (the compiled kernels once stopped at 16).
    theirs = rs.RougeScorer(types)
    scorer = RougeScorer(types, tokenizer="rouge-score")
    for target, prediction in zip(texts(3, 20), texts(4, 20)):
        assert scorer.score(target, prediction) == theirs.score(target, prediction)
    assert scorer.score_batch(texts(3, 20), texts(4, 20), n_jobs=2) == [
        theirs.score(t, p) for t, p in zip(texts(3, 20), texts(4, 20))
    ]


@pytest.mark.compiled_only
@pytest.mark.parametrize("name", ["whitespace", "rouge-score", "char", "unicode"])
@pytest.mark.parametrize("stem", [False, True], ids=["plain", "stemmer"])
def test_the_twins_agree_on_every_method(
    monkeypatch: pytest.MonkeyPatch, name: str, stem: bool
) -> None:
    from kurenai import _fused

    monkeypatch.setattr(_backend, "fused", _fused)
    tokenizer = get_tokenizer(name, use_stemmer=stem)
    types = ["rouge1", "rouge3", "rougeL", "rougeLsum", "rouge1", "rougeW", "rougeS4"]
    types += ["rougeSU4", "rougeS", "rougeSU", "rougeS1"]
    spec = parse_types(types, w_weight=1.5)
    compiled = make_plan(spec, tokenizer, None)
    assert isinstance(compiled, _fused.FusedPlan)
    pure = PythonPlan(spec, tokenizer, _lcs_py, None, _variants_py)
    targets, predictions = texts(5, 60), texts(6, 60)
    for target, prediction in zip(targets, predictions):
        assert compiled.score(target, prediction) == pure.score(target, prediction)
        assert compiled.tallies(target, prediction) == pure.tallies(target, prediction)
    assert compiled.score_many(targets, predictions, 12) == pure.score_many(
        targets, predictions, 12
    )
    outs = [np.full((len(types), 3, 60), np.nan) for _ in range(2)]
    compiled.score_many(targets, predictions, 12, outs[0])
    pure.score_many(targets, predictions, 12, outs[1])
    np.testing.assert_array_equal(outs[0], outs[1])
    shared = [[np.full((len(types), 3, 60), np.nan)] for _ in range(2)]
    compiled.score_shared(targets, [predictions], shared[0])
    pure.score_shared(targets, [predictions], shared[1])
    np.testing.assert_array_equal(shared[0][0], shared[1][0])


def test_systems_score_against_shared_targets_as_pairs(backend: str) -> None:
    # More pairs than the compiled plan's chunk: the chunks' seams too.
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW", "rougeSU4"]
    scorer = RougeScorer(types, tokenizer="rouge-score")
    targets, systems = texts(7, 70), [texts(8, 70), texts(9, 70)]
    tables = [np.full((len(types), 3, 70), np.nan) for _ in systems]
    scorer.plan.score_shared(targets, systems, tables)
    for predictions, table in zip(systems, tables):
        expected = scorer.score_batch(targets, predictions, columnar=True)
        np.testing.assert_array_equal(table, np.array([expected[t] for t in types]))


@pytest.mark.compiled_only
@pytest.mark.parametrize("name", sorted(_rules.SCANS))
@pytest.mark.parametrize("stem", [False, True], ids=["plain", "stemmer"])
@settings(max_examples=40, deadline=None)
@given(
    text=st.lists(st.sampled_from([*WORDS, " ", "\n", "1990s", "Café"]), max_size=20).map("".join)
)
def test_the_twins_find_the_same_tokens(name: str, stem: bool, text: str) -> None:
    from kurenai import _fused

    tokenizer = get_tokenizer(name, use_stemmer=stem)
    spec = parse_types(["rouge1"])
    mode = _fused.SCAN_MODES[tokenizer.scan_mode]  # type: ignore[attr-defined]
    compiled = _fused.FusedPlan(spec, mode, getattr(tokenizer, "stemmer", None), Score)
    pure = PythonPlan(spec, tokenizer, _lcs_py, None)
    for stemmed in (False, True):
        assert compiled.tokens(text, stemmed) == pure.tokens(text, stemmed), stemmed
    assert pure.tokens(text, stemmed=True) == tokenizer.tokenize(text)


def test_a_process_plan_finds_its_local_plans_tokens() -> None:
    from kurenai._core.processes import ProcessPlan

    local = PythonPlan(
        parse_types(["rouge1"]), get_tokenizer("rouge-score", use_stemmer=True), _lcs_py, None
    )
    plan = ProcessPlan(local, b"")  # no worker starts before score_many
    for stemmed in (False, True):
        assert plan.tokens("The cats ran", stemmed) == local.tokens("The cats ran", stemmed)
    assert plan.tokens("The cats ran") != plan.tokens("The cats ran", True)


def test_a_plan_cannot_unstem_a_tokenizer_without_a_scan_mode() -> None:
    class Stemming:
        stemmer = staticmethod(str.upper)

        def tokenize(self, text: str) -> list[str]:
            return [self.stemmer(word) for word in text.split()]

    plan = PythonPlan(parse_types(["rouge1"]), Stemming(), _lcs_py, None)
    assert plan.tokens("a b", stemmed=True) == ["A", "B"]
    with pytest.raises(ValueError, match="Stemming stems without a scan mode"):
        plan.tokens("a b")


# Words of every case around the ASCII letters, and texts of 1-, 2- and
# 4-byte code points: the compiled scan lowercases ASCII texts itself, and
# str.lower() the others (Latin-1 ones too: "É" is 1-byte but not ASCII).
PIECES = ["a", "A", "Z", "z", "@", "[", "`", "{", "Run", "RUNS", "É", "ÿ", "ß", "İ", "ΣΑΣ"]
CASED = st.lists(st.sampled_from([*PIECES, "猫", "𠮷", " ", "\n", "\t"]), max_size=24).map("".join)


@pytest.mark.compiled_only
@pytest.mark.parametrize("name", ["whitespace", "rouge-score", "unicode"])
@pytest.mark.parametrize("stem", [False, True], ids=["plain", "stemmer"])
@settings(max_examples=60, deadline=None)
@given(pairs=st.lists(st.tuples(CASED, CASED), min_size=1, max_size=5), limit=st.integers(-1, 8))
def test_the_twins_lowercase_alike(
    name: str, stem: bool, pairs: list[tuple[str, str]], limit: int
) -> None:
    from kurenai import _fused, _lcs

    tokenizer = get_tokenizer(name, use_stemmer=stem)
    spec = parse_types(["rouge1", "rouge2", "rougeL", "rougeLsum"])
    mode = _fused.SCAN_MODES[tokenizer.scan_mode]  # type: ignore[attr-defined]
    compiled = _fused.FusedPlan(spec, mode, getattr(tokenizer, "stemmer", None), Score)
    pure = PythonPlan(spec, tokenizer, _lcs, None)
    targets, predictions = [t for t, _ in pairs], [p for _, p in pairs]
    for target, prediction in pairs:
        assert compiled.score(target, prediction) == pure.score(target, prediction)
    assert compiled.score_many(targets, predictions, limit) == pure.score_many(
        targets, predictions, limit
    )


def test_plan_choice_reads_the_declared_scan_mode(backend: str) -> None:
    fused = backend == "fused"
    assert on_compiled_plan(RougeScorer(["rouge1"], tokenizer="char")) == fused
    # A subclass may tokenize differently: it does not inherit the scan mode.

    class Shouting(UnicodeTokenizer):
        def tokenize(self, text: str) -> list[str]:
            return [t.upper() for t in super().tokenize(text)]

    shouting = RougeScorer(["rouge1"], tokenizer=Shouting())
    assert not on_compiled_plan(shouting)
    assert shouting.score("a b", "A c")["rouge1"].fmeasure == 0.5
    # Sentences from a splitter, or normalisation, are not what the scan does.
    assert not on_compiled_plan(RougeScorer(["rougeLsum"], split_summaries=True))
    normalizing = get_tokenizer("unicode", normalize="NFKC")
    assert normalizing.scan_mode is None
    assert not on_compiled_plan(RougeScorer(["rouge1"], tokenizer=normalizing))


def test_tokenizers_declare_mode_and_stemmer_publicly() -> None:
    for name, mode in [("whitespace", "whitespace"), ("rouge-score", "rouge-score")]:
        tokenizer = get_tokenizer(name, use_stemmer=True)
        assert tokenizer.scan_mode == mode  # type: ignore[attr-defined]
        assert tokenizer.stemmer("running") == "run"  # type: ignore[attr-defined]
    assert AllCharacterSupportTokenizer().stemmer is None
    # The rouge-score filter drops stems that are not [a-z0-9]+; whitespace keeps all.
    assert get_tokenizer("rouge-score", use_stemmer=True).stemmer("abcs") == "abc"  # type: ignore[attr-defined]


@pytest.mark.compiled_only
def test_the_compiled_scan_reads_the_rules_module() -> None:
    from kurenai import _fused
    from kurenai.tokenizers._unicode import char_classes

    # (SCAN_MODES equal to _rules.SCAN_MODES is checked by the module's import itself.)
    assert len(char_classes()) == _rules.CLASS_TABLE_SIZE
    with pytest.raises(ValueError, match="CLASS_TABLE_SIZE"):
        _fused.set_char_classes(b"\0" * 10)


def test_rules() -> None:
    assert _rules.is_stemmable("cats") and not _rules.is_stemmable("cat")
    assert not _rules.is_stemmable("café") and not _rules.is_rouge_word("")
    assert _rules.keeps_stem("whitespace")("a.b")
    assert not _rules.keeps_stem("rouge-score")("a.b")
    assert not _rules.keeps_stem("unicode")("a.b") and _rules.keeps_stem("char")("naïve.")


def test_register_tokenizer_is_public_and_reversible() -> None:
    import kurenai.tokenizers

    assert "register_tokenizer" in kurenai.tokenizers.__all__

    class Letters:
        def __init__(self, use_stemmer: bool = False) -> None:
            self.use_stemmer = use_stemmer

        def tokenize(self, text: str) -> list[str]:
            return [c for c in text if not c.isspace()]

    register_tokenizer("test-letters", Letters)
    try:
        assert "test-letters" in available_tokenizers()
        scorer = RougeScorer(["rouge1"], tokenizer="test-letters")
        assert scorer.score("abc", "ab")["rouge1"].recall == 2 / 3
    finally:
        register_tokenizer("test-letters", None)
    assert "test-letters" not in available_tokenizers()
    with pytest.raises(TypeError, match="callable"):
        register_tokenizer("x", 3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="non-empty str"):
        register_tokenizer("", Letters)


def test_columns_of_duplicate_types(backend: str) -> None:
    scorer = RougeScorer(["rouge1", "rougeL", "rouge1"])
    columns = scorer.score_batch(["a b", "c"], ["a", "d"], columnar=True)
    assert list(columns) == ["rouge1", "rougeL"]
    assert columns["rouge1"].recall.tolist() == [0.5, 0.0]
    assert not any(math.isnan(v) for v in columns["rougeL"].fmeasure)


@pytest.mark.compiled_only
def test_the_compiled_scan_stems_through_its_cache_then_compiled_porter_or_the_stemmer() -> None:
    from kurenai import _fused

    spec = parse_types(["rouge1"])
    tokenizer = get_tokenizer("whitespace", use_stemmer=True)
    stemmer = tokenizer.stemmer  # type: ignore[attr-defined]
    plan = _fused.FusedPlan(spec, _fused.SCAN_MODES["whitespace"], stemmer, Score)
    assert plan.score("running dogs", "runs")["rouge1"].precision == 1.0
    stemmer.__self__.memo["walking"] = "run"
    if not compiled_porter_agrees():
        # NLTK before 3.10 (its irregular forms differ): a miss is the memo's, then NLTK's.
        assert plan.score("running", "walking")["rouge1"].precision == 1.0
    else:
        # A token new to the plan is stemmed by the compiled Porter (NLTK 3.10's
        # rules in C): the registry's Porter memo is neither read nor called.
        assert plan.score("running", "walking")["rouge1"].precision == 0.0
        assert plan.score("walk", "walking")["rouge1"].precision == 1.0
        assert stemmer.__self__.memo == {"walking": "run"}  # nothing added by the scan
        assert plan._stem_cache()[0] == 5  # running, dogs, runs, walking, walk
        plan._stem_cache(_fused.STEM_CACHE_BYTES)  # emptied: stemmed again, the same way
        assert plan.score("walk", "walking")["rouge1"].precision == 1.0
    calls: list[str] = []

    def shout(token: str) -> str:
        calls.append(token)
        return token.upper()

    other = _fused.FusedPlan(spec, _fused.SCAN_MODES["whitespace"], shout, Score)
    assert other.score("abcd efgh", "ABCD")["rouge1"].recall == 0.5
    assert other.score("efgh abcd", "EFGH")["rouge1"].recall == 0.5
    assert sorted(calls) == ["abcd", "efgh"]  # once per token per plan

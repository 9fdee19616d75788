"""kurenai.explain: the explained counts give score()'s numbers bit for bit, and the
matches and spans are what each type's definition says."""

from __future__ import annotations

import dataclasses
import importlib.util
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kurenai import _lcs_py, _variants_py
from kurenai._core import kinds
from kurenai._core.kinds import CODES, SKIP, kind_of
from kurenai._core.multiref import MODES, Groups, Mode
from kurenai.explain import explain, explain_multi, token_spans
from kurenai.rouge_scorer import RougeScorer
from kurenai.sentences import split_sentences

TYPES = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum", "rougeW", "rougeS2", "rougeSU"]
# Pieces that stress the spans: case changes of length (İ), NFKC (ﬁ, full width),
# stemmable words, CJK and kana, Hangul, RTL scripts, combining marks, emoji.
PIECES = [
    "the",
    "The",
    "cat",
    "cats",
    "running",
    "runs",
    "ran",
    "a",
    "A",
    "İstanbul",
    "ﬁne",
    "ＡＢＣ",
    "naïve",
    "nai\u0308ve",
    "Cafe\u0301",
    "東京",
    "ภาษาไทย",
    "ພາສາລາວ",
    "ខ្មែរ",
    "タワー",
    "に",
    "行った",
    "했다",
    "좋아요",
    "친구다",  # Kiwi: a zero-length copula 이 between 친구 and 다
    "나야",
    "שלום",
    "مرحبا",
    "😀",
    "x\ufe0f",
    "1990s",
    "don't",
    "e.g.",
    "—",
]
SEPARATORS = [" ", " ", " ", "  ", "\n", "", "\t", ". ", "。"]


@st.composite
def texts(draw: Any) -> str:
    words = draw(st.lists(st.sampled_from(PIECES), max_size=14))
    gaps = draw(st.lists(st.sampled_from(SEPARATORS), min_size=len(words), max_size=len(words)))
    return "".join(w + g for w, g in zip(words, gaps))


def _available(tokenizer: str) -> bool:
    needs = {
        "mecab": "fugashi", "sudachi": "sudachipy", "jieba": "jieba", "kiwi": "kiwipiepy",
        "thai": "pythainlp", "lao": "laonlp", "khmer": "khmernltk",
    }  # fmt: skip
    return tokenizer not in needs or importlib.util.find_spec(needs[tokenizer]) is not None


REGEX_TOKENIZERS = ["whitespace", "rouge-score", "unicode", "char"]
MORPHOLOGICAL = ["mecab", "sudachi", "jieba", "kiwi", "thai", "lao", "khmer"]
_SCORERS: dict[tuple[Any, ...], RougeScorer] = {}


def _scorer(tokenizer: Any, stem: bool, split: bool = False) -> RougeScorer:
    key = (tokenizer, stem, split)
    if key not in _SCORERS:
        if not _available(tokenizer):
            pytest.skip(f"{tokenizer} is not installed")
        _SCORERS[key] = RougeScorer(
            TYPES, use_stemmer=stem, tokenizer=tokenizer, split_summaries=split
        )
    return _SCORERS[key]


def _check_pair(scorer: RougeScorer, target: str, prediction: str) -> None:
    found = explain(scorer, target, prediction)
    expected = scorer.score(target, prediction)
    for name in TYPES:
        ours, theirs = found[name].score, expected[name]
        # Bit for bit: the same floats, and the int zeros of an empty side.
        assert tuple(map(repr, ours)) == tuple(map(repr, theirs)), name
        assert [type(x) for x in ours] == [type(x) for x in theirs], name
    _check_matches(found)
    for side, text in (("target", target), ("prediction", prediction)):
        for name in TYPES:
            tokens = getattr(found[name], f"{side}_tokens")
            for token in tokens:
                assert 0 <= token.start < token.end <= len(text), (token, text)


def _check_matches(found: Any) -> None:
    """Every match pairs equal tokens, and the counts are the kernels' counts."""
    for name, typed in found.types.items():
        t = [token.text for token in typed.target_tokens]
        p = [token.text for token in typed.prediction_tokens]
        for match in typed.matches:
            assert [t[k] for k in match.target] == [p[k] for k in match.prediction], name
            assert list(match.target) == sorted(set(match.target))
            if name != "rougeW":  # a run's tokens may pair with different sentences
                assert list(match.prediction) == sorted(set(match.prediction))
        hits = typed.counts[0]
        if name != "rougeW":
            assert hits == len(typed.matches), name
    t_whole = [x.text for x in found["rouge1"].target_tokens]
    p_whole = [x.text for x in found["rouge1"].prediction_tokens]
    assert found["rouge2"].counts[0] == _lcs_py.ngram_overlap(t_whole, p_whole, 2)
    assert found["rougeL"].counts[0] == (
        _lcs_py.lcs_length(t_whole, p_whole) if t_whole and p_whole else 0
    )
    lcs = [m.target[0] for m in found["rougeL"].matches]
    if t_whole and p_whole:
        assert lcs == _lcs_py.lcs_indices(t_whole, p_whole)  # rouge-score's tie-break
    assert found["rougeSU"].counts == _variants_py.skip_bigram_counts(t_whole, p_whole, -1, True)


@pytest.mark.parametrize("stem", [False, True], ids=["plain", "stemmed"])
@pytest.mark.parametrize("tokenizer", REGEX_TOKENIZERS)
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(target=texts(), prediction=texts())
def test_explained_counts_give_the_scores(
    backend: str, tokenizer: str, stem: bool, target: str, prediction: str
) -> None:
    _check_pair(_scorer(tokenizer, stem), target, prediction)


@pytest.mark.parametrize("stem", [False, True], ids=["plain", "stemmed"])
@pytest.mark.parametrize("tokenizer", MORPHOLOGICAL)
@settings(max_examples=15, deadline=None)
@given(target=texts(), prediction=texts())
def test_morphological_tokenizers_are_explained(
    tokenizer: str, stem: bool, target: str, prediction: str
) -> None:
    _check_pair(_scorer(tokenizer, stem), target, prediction)


@settings(max_examples=40, deadline=None)
@given(target=texts(), prediction=texts())
def test_split_summaries_and_normalization(target: str, prediction: str) -> None:
    _check_pair(_scorer("whitespace", True, split=True), target, prediction)
    scorer = _SCORERS.setdefault(
        ("nfkc",), RougeScorer(TYPES, tokenizer=_nfkc_unicode(), use_stemmer=True)
    )
    _check_pair(scorer, target, prediction)


def _nfkc_unicode() -> Any:
    from kurenai.tokenizers import UnicodeTokenizer

    return UnicodeTokenizer(use_stemmer=True, normalize="NFKC")


@pytest.mark.parametrize("tokenizer", REGEX_TOKENIZERS)
@settings(max_examples=60, deadline=None)
@given(text=texts())
def test_a_span_reads_back_as_its_token(tokenizer: str, text: str) -> None:
    """Without stemming, each span tokenizes alone to exactly its token."""
    scorer = _scorer(tokenizer, False)
    for token in token_spans(scorer.tokenizer, text):
        assert scorer.tokenizer.tokenize(text[token.start : token.end]) == [token.text]


def test_spans_cover_the_original_characters() -> None:
    from kurenai.tokenizers import get_tokenizer

    nfkc = get_tokenizer("whitespace", normalize="NFKC")
    text = "ﬁne ＡＢＣ İx"
    assert [(t.text, text[t.start : t.end]) for t in token_spans(nfkc, text)] == [
        ("fine", "ﬁne"),
        ("abc", "ＡＢＣ"),
        ("i̇x", "İx"),
    ]
    stemmed = get_tokenizer("rouge-score", use_stemmer=True)
    text = "İstanbul runners RUNNING"
    found = [(t.text, text[t.start : t.end]) for t in token_spans(stemmed, text)]
    assert found == [("i", "İ"), ("stanbul", "stanbul"), ("runner", "runners"), ("run", "RUNNING")]


def test_a_japanese_dictionary_form_spans_its_surface() -> None:
    scorer = _scorer("mecab", True)
    text = "東京に行った"
    found = {t.text: text[t.start : t.end] for t in token_spans(scorer.tokenizer, text)}
    assert found["行く"] == "行っ"


@pytest.mark.parametrize(
    ("text", "surface"),
    [("그는 좋은 친구다", "다"), ("친구죠", "죠"), ("그건 나야", "야"), ("학생이다", "이")],
)
def test_a_kiwi_copula_spans_the_syllable_it_came_from(text: str, surface: str) -> None:
    """Kiwi reports the copula 이 contracted into an ending (친구 + 이 + 다 =
    친구다) with no length: its span is the ending's syllable, never empty."""
    scorer = _scorer("kiwi", False)
    found = [(t.text, text[t.start : t.end]) for t in token_spans(scorer.tokenizer, text)]
    assert ("이", surface) in found
    assert all(span for _, span in found)


def test_an_unknown_tokenizer_is_searched_left_to_right() -> None:
    class Pairs:
        def tokenize(self, text: str) -> list[str]:
            return [*text.lower().split(), "missing"]

    found = token_spans(Pairs(), "Aa b aa")
    assert [(t.start, t.end) for t in found] == [(0, 2), (3, 4), (5, 7), (-1, -1)]


def test_lsum_hits_follow_the_per_token_counters() -> None:
    scorer = RougeScorer(["rougeLsum"])
    found = explain(scorer, "a b\nb a", "a b")
    # Each reference sentence has an LCS of one or two tokens; the counters
    # let the prediction's a and b be used once each.
    assert found["rougeLsum"].counts == (2, 4, 2)
    assert found["rougeLsum"].spans("target") == [(0, 1), (2, 3)]
    assert found["rougeLsum"].score == scorer.score("a b\nb a", "a b")["rougeLsum"]


def test_multi_reference_names_the_chosen_reference() -> None:
    scorer = RougeScorer(["rouge1", "rougeL"])
    found = explain_multi(scorer, ["x y", "a b c", "a b c"], "a b c")
    assert found.chosen == {"rouge1": 1, "rougeL": 1}  # the first of the tied best
    assert found.scores == scorer.score_multi(["x y", "a b c", "a b c"], "a b c")
    assert explain_multi(scorer, ["a"], "a", mode="average").chosen == {
        "rouge1": None,
        "rougeL": None,
    }


@pytest.mark.parametrize("mode", MODES, ids=lambda mode: mode.name)
def test_multi_reference_names_the_reference_of_every_mode_that_picks_one(mode: Mode) -> None:
    scorer = RougeScorer(["rouge1", "rougeL"])
    references, prediction = ["a b x", "a"], "a b"  # the first has the best F, the second recall
    found = explain_multi(scorer, references, prediction, mode.name)
    assert found.scores == scorer.score_multi(references, prediction, mode.name)
    groups = Groups(scorer.plan, [2], references, [prediction] * 2)
    picks = mode.combine(groups).picks
    if picks is None:
        assert found.chosen == {"rouge1": None, "rougeL": None}
        return
    assert found.chosen == {"rouge1": picks[0][0], "rougeL": picks[1][0]}
    for name, k in found.chosen.items():
        assert k is not None and found.references[k].scores[name] == found.scores[name]


def test_best_recall_names_the_reference_of_the_highest_recall() -> None:
    scorer = RougeScorer(["rouge1"])
    assert explain_multi(scorer, ["a b x", "a"], "a b").chosen == {"rouge1": 0}
    assert explain_multi(scorer, ["a b x", "a"], "a b", "best-recall").chosen == {"rouge1": 1}


def test_a_kind_without_an_explanation_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # A kind added to the registry before explain learns it: NotImplementedError
    # naming it (not an assertion, which python -O would skip).
    new = dataclasses.replace(kind_of(SKIP), code=max(CODES) + 1, title="ROUGE-Z")
    monkeypatch.setitem(kinds._BY_CODE, new.code, new)
    scorer = RougeScorer(["rouge1"])
    spec = dataclasses.replace(scorer.plan.spec, rouge_types=("rougeZ",), kinds=(new.code,))
    monkeypatch.setattr(scorer, "_plan", SimpleNamespace(spec=spec))
    with pytest.raises(NotImplementedError, match=r"cannot explain rougeZ \(ROUGE-Z\)"):
        explain(scorer, "a b", "a b")


def test_bad_input_gets_one_clear_error() -> None:
    scorer = RougeScorer(["rouge1"])
    with pytest.raises(TypeError, match="prediction must be a str"):
        explain(scorer, "a", None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="mode"):
        explain_multi(scorer, ["a"], "a", mode="nope")


def test_the_splitter_sentences_are_located() -> None:
    text = "One cat. Two dogs! 三匹の猫。"
    scorer = RougeScorer(["rougeLsum"], split_summaries=True, sentence_splitter=split_sentences)
    found = explain(scorer, text, "two cats")
    assert [text[s:e] for s, e in found["rougeLsum"].spans("target")] == ["Two"]

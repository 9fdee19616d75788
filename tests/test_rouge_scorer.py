"""RougeScorer's own behaviour: non-ASCII text, the default tokenizer, errors."""

from __future__ import annotations

import sys
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kurenai._core.names import valid_types
from kurenai.rouge_scorer import ROUGE_TYPES, RougeScorer
from kurenai.scoring import Score
from kurenai.tokenizers import AllCharacterSupportTokenizer, RougeScoreTokenizer

CAT_TARGET = "猫 は マット の 上 に いる"
CAT_PREDICTION = "猫 が マット に いる"


def test_japanese_worked_example(backend: str) -> None:
    scores = RougeScorer(["rouge1", "rouge2"]).score(CAT_TARGET, CAT_PREDICTION)
    assert scores["rouge1"].precision == 4 / 5
    assert scores["rouge1"].recall == 4 / 7
    assert scores["rouge2"].precision == 1 / 4
    assert scores["rouge2"].recall == 1 / 6
    assert scores["rouge2"].fmeasure == pytest.approx(0.2)


@pytest.mark.parametrize("text", [CAT_TARGET, "今日 は 晴れ\n明日 は 雨", "Ünïcödé ça va"])
def test_identical_texts_score_one(backend: str, text: str) -> None:
    scores = RougeScorer([*list(ROUGE_TYPES[:3]), "rougeL", "rougeLsum"]).score(text, text)
    for rouge_type, score in scores.items():
        if rouge_type == "rouge3" and len(text.split()) < 3:
            continue
        assert score == Score(1.0, 1.0, 1.0), rouge_type


def test_empty_texts_score_zero_like_rouge_score(backend: str) -> None:
    scores = RougeScorer(["rouge1", "rougeL", "rougeLsum"]).score("", "")
    assert scores["rouge1"] == Score(0.0, 0.0, 0.0)
    assert scores["rougeL"] == Score(0, 0, 0)
    assert type(scores["rougeL"].precision) is int
    assert scores["rougeLsum"] == Score(0, 0, 0)


def test_default_tokenizer_keeps_every_character() -> None:
    tokenizer = AllCharacterSupportTokenizer()
    assert tokenizer.tokenize("  いぬ\u3000ねこ\tDOG.  ") == ["いぬ", "ねこ", "dog."]
    assert tokenizer.tokenize("") == []
    assert tokenizer.tokenize(" \n ") == []


def test_default_stemmer_only_touches_ascii_words() -> None:
    tokenizer = AllCharacterSupportTokenizer(use_stemmer=True)
    assert tokenizer.tokenize("Running dogs. はしる cats 2024s abc") == [
        "run",
        "dogs.",
        "はしる",
        "cat",
        "2024",
        "abc",
    ]


def test_spec_stemmer_example(backend: str) -> None:
    scorer = RougeScorer(["rouge1"], use_stemmer=True)
    assert scorer.score("The dogs are running", "The dog runs") == {
        "rouge1": Score(precision=1.0, recall=0.75, fmeasure=0.8571428571428571)
    }


def test_rouge_score_tokenizer_by_name_drops_non_ascii(backend: str) -> None:
    scorer = RougeScorer(["rouge1"], tokenizer="rouge-score")
    assert isinstance(scorer.tokenizer, RougeScoreTokenizer)
    assert scorer.score("你好", "你好")["rouge1"] == Score(0.0, 0.0, 0.0)
    assert scorer.score("cat dog", "cat你好dog")["rouge1"] == Score(1.0, 1.0, 1.0)


def test_score_multi_takes_best_reference_per_type(backend: str) -> None:
    scorer = RougeScorer(["rouge1", "rouge2"])
    best = scorer.score_multi(["a b c d", "c d a b x"], "a b x")
    assert best["rouge1"] == scorer.score("c d a b x", "a b x")["rouge1"]
    assert best["rouge2"] == scorer.score("c d a b x", "a b x")["rouge2"]


def test_score_batch_keeps_order(backend: str) -> None:
    scorer = RougeScorer(["rouge1", "rougeL"])
    targets = [f"a b {i}" for i in range(20)]
    predictions = [f"{i} b a" for i in range(20)]
    expected = [scorer.score(t, p) for t, p in zip(targets, predictions)]
    assert scorer.score_batch(targets, predictions) == expected
    with pytest.raises(ValueError, match="3 targets but 2 predictions"):
        scorer.score_batch(["a"] * 3, ["a"] * 2)


def test_shared_scorer_is_thread_safe(backend: str) -> None:
    scorer = RougeScorer(list(ROUGE_TYPES), use_stemmer=True)
    pairs = [(f"the cats {i}\nwere running {i % 3}", f"a cat {i} runs\nthe end") for i in range(40)]
    expected = [scorer.score(*pair) for pair in pairs]
    results: list[list[dict[str, Score]]] = []

    def work() -> None:
        results.append([scorer.score(*pair) for pair in pairs])

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [expected] * 4


# ------------------------------------------------------------ bad input


@pytest.mark.parametrize("bad", [None, b"bytes", 3, ["a"]])
def test_non_str_texts_raise_type_error_naming_the_argument(bad: object) -> None:
    scorer = RougeScorer(["rouge1"])
    with pytest.raises(TypeError, match="target must be a str"):
        scorer.score(bad, "a")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="prediction must be a str"):
        scorer.score("a", bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad_type", ["rouge0", "rouge10", "rougeX", "ROUGE1", "rouge-l", 1])
def test_unknown_type_fails_at_construction_listing_valid_ones(bad_type: object) -> None:
    with pytest.raises(ValueError) as raised:
        RougeScorer(["rouge1", bad_type])  # type: ignore[list-item]
    meant = {"ROUGE1": " (did you mean 'rouge1'?)", "rouge-l": " (did you mean 'rougeL'?)"}
    hint = meant.get(bad_type, "") if isinstance(bad_type, str) else ""
    assert (
        str(raised.value) == f"invalid ROUGE type {bad_type!r}{hint}; valid types: {valid_types()}"
    )
    for listed in ("rouge1 to rouge9", "rougeL", "rougeLsum", "rougeW", "rougeSU{k}", "ROUGE-L"):
        assert listed in valid_types()


def test_bare_string_rouge_types_is_rejected() -> None:
    with pytest.raises(TypeError, match=r"\['rouge1'\]"):
        RougeScorer("rouge1")
    with pytest.raises(TypeError, match="list of str"):
        RougeScorer(None)  # type: ignore[arg-type]


def test_score_multi_input_errors() -> None:
    scorer = RougeScorer(["rouge1"])
    with pytest.raises(ValueError, match="at least one target"):
        scorer.score_multi([], "a")
    with pytest.raises(TypeError, match="not a single string"):
        scorer.score_multi("a b", "a")
    with pytest.raises(TypeError, match=r"targets\[1\] must be a str"):
        scorer.score_multi(["a", None], "a")  # type: ignore[list-item]


def test_bad_tokenizer_arguments() -> None:
    with pytest.raises(ValueError, match=r"unknown tokenizer 'nope'; available: .*whitespace"):
        RougeScorer(["rouge1"], tokenizer="nope")
    with pytest.raises(TypeError, match="tokenize"):
        RougeScorer(["rouge1"], tokenizer=42)  # type: ignore[arg-type]


def test_split_summaries_uses_the_given_splitter(backend: str) -> None:
    scorer = RougeScorer(["rougeLsum"], split_summaries=True, sentence_splitter=str.split)
    assert scorer.score("b a", "a b")["rougeLsum"] == Score(1.0, 1.0, 1.0)
    assert RougeScorer(["rougeLsum"]).score("b a", "a b")["rougeLsum"].recall == 0.5


@pytest.mark.parametrize("options", [{}, {"use_stemmer": True}, {"tokenizer": "rouge-score"}])
def test_scorer_survives_pickling(backend: str, options: dict[str, object]) -> None:
    # Process pools (multiprocessing, datasets.map(num_proc=...)) pickle scorers.
    import pickle

    scorer = RougeScorer(list(ROUGE_TYPES), **options)  # type: ignore[arg-type]
    copy = pickle.loads(pickle.dumps(scorer))
    pair = ("The cats were running\nhome 猫", "a cat runs home\n猫 ran")
    assert copy.score(*pair) == scorer.score(*pair)


@pytest.mark.compiled_only
@pytest.mark.parametrize("tokenizer", [None, "rouge-score", "char", "unicode"])
def test_own_tokenizers_take_the_fused_path(
    monkeypatch: pytest.MonkeyPatch, tokenizer: str | None
) -> None:
    from kurenai import _backend, _fused

    class NoGenericKernels:
        def __getattr__(self, name: str) -> object:
            raise AssertionError(f"generic path used: kernels.{name}")

    monkeypatch.setattr(_backend, "fused", _fused)
    monkeypatch.setattr(_backend, "kernels", NoGenericKernels())
    scorer = RougeScorer(list(ROUGE_TYPES), tokenizer=tokenizer, use_stemmer=True)
    scorer.score("the cats ran", "a cat runs")
    scorer.score_multi(["the cats", "ran"], "a cat runs")
    scorer.score_batch(["a b"] * 300, ["b a"] * 300, n_jobs=2)
    scorer.score_multi_batch([["a", "b"]] * 3, ["a"] * 3)


# ------------------------------------------------------------ str subclasses


class Sneaky(str):
    """A str whose methods lie: only its plain value may be scored."""

    def lower(self) -> str:  # type: ignore[override]
        return "zzz " * 1000

    def __str__(self) -> str:
        return "zzz"

    def split(self, *args: object, **kwargs: object) -> list[str]:  # type: ignore[override]
        return ["zzz"]


@pytest.mark.parametrize("tokenizer", [None, "rouge-score", "char"])
def test_str_subclasses_score_as_their_plain_value(backend: str, tokenizer: str | None) -> None:
    np = pytest.importorskip("numpy")
    scorer = RougeScorer(["rouge1", "rougeL", "rougeLsum"], tokenizer=tokenizer)
    target, prediction = "The cat sat\non the mat", "the cat\nsat"
    expected = scorer.score(target, prediction)
    assert scorer.score(Sneaky(target), Sneaky(prediction)) == expected
    assert scorer.score(np.str_(target), np.str_(prediction)) == expected
    assert scorer.score_multi([Sneaky(target)], Sneaky(prediction)) == expected
    assert scorer.score_batch([Sneaky(target)] * 70, [np.str_(prediction)] * 70) == [expected] * 70
    assert scorer.score_multi_batch([[Sneaky(target)]], [Sneaky(prediction)]) == [expected]


# ------------------------------------------------------------ rouge_types


def test_rouge_types_are_immutable(backend: str) -> None:
    scorer = RougeScorer(["rouge1"])
    assert scorer.rouge_types == ("rouge1",)
    with pytest.raises(AttributeError):
        scorer.rouge_types.append("rouge2")  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        scorer.rouge_types = ["rouge2"]  # type: ignore[misc]
    assert list(scorer.score("a", "a")) == ["rouge1"]
    assert list(scorer.score_multi(["a"], "a")) == ["rouge1"]


# ------------------------------------------------------------ tokenizers that misbehave


class Returns:
    def __init__(self, value: object) -> None:
        self.value = value

    def tokenize(self, text: str) -> object:
        return self.value


@pytest.mark.parametrize(
    ("value", "described"),
    [
        (None, "returned NoneType"),
        (3, "returned int"),
        ("a b", "returned str"),
        ([["a"], ["b"]], "holding list"),
        (iter(["a"]), "returned list_iterator"),
    ],
)
def test_a_tokenizer_returning_no_list_of_str_is_named(
    backend: str, value: object, described: str
) -> None:
    scorer = RougeScorer(["rouge1", "rougeLsum"], tokenizer=Returns(value))  # type: ignore[arg-type]
    message = rf"Returns\.tokenize must return a list of str, it .*{described}"
    with pytest.raises(TypeError, match=message):
        scorer.score("a b", "a")
    with pytest.raises(TypeError, match=message):
        scorer.score_batch(["a b"], ["a"])


_UNHASHABLE = st.sampled_from([["a"], {"a": 1}, {"a"}, bytearray(b"a")])
_KINDS = ["rouge1", "rouge3", "rougeL", "rougeLsum", "rougeW", "rougeS4", "rougeSU"]


@settings(max_examples=30, deadline=None)
@given(
    kinds=st.lists(st.sampled_from(_KINDS), min_size=1, max_size=3, unique=True),
    bad=_UNHASHABLE,
    at=st.integers(0, 3),
    surface=st.sampled_from(["score", "score_multi", "score_batch", "score_multi_batch"]),
)
def test_an_unhashable_token_is_one_type_error_and_nothing_ignored(
    backend: str, kinds: list[str], bad: object, at: int, surface: str
) -> None:
    """A tokenizer returning lists (or other unhashable tokens) gets the
    TypeError naming it, on every kind and surface, and no error is swallowed
    on the way: Python 3.13 reports one swallowed by PyDict_GetItem as
    'Exception ignored' (caught here through sys.unraisablehook)."""

    class Nested:
        def tokenize(self, text: str) -> list[object]:
            tokens: list[object] = text.split()
            tokens.insert(min(at, len(tokens)), bad)
            return tokens

    scorer = RougeScorer(kinds, tokenizer=Nested())  # type: ignore[arg-type]
    calls = {
        "score": lambda: scorer.score("a b c\nd", "a b"),
        "score_multi": lambda: scorer.score_multi(["a b c", "d e"], "a b"),
        "score_batch": lambda: scorer.score_batch(["a b c"] * 3, ["a b"] * 3),
        "score_multi_batch": lambda: scorer.score_multi_batch([["a b", "c"]] * 2, ["a"] * 2),
    }
    ignored: list[object] = []
    hook = sys.unraisablehook
    sys.unraisablehook = ignored.append
    try:
        with pytest.raises(TypeError, match=r"Nested\.tokenize must return a list of str, it "):
            calls[surface]()
    finally:
        sys.unraisablehook = hook
    assert ignored == []


def test_tokenizer_tuples_are_accepted(backend: str) -> None:
    scorer = RougeScorer(["rouge1"], tokenizer=Returns(("a", "b")))  # type: ignore[arg-type]
    assert scorer.score("x", "y")["rouge1"].fmeasure == 1.0


def test_a_bad_sentence_splitter_is_named() -> None:
    with pytest.raises(TypeError, match=r"sentence_splitter must be a callable.*got int"):
        RougeScorer(["rougeLsum"], split_summaries=True, sentence_splitter=3)  # type: ignore[arg-type]

    def splits_badly(text: str) -> object:
        return None if text == "none" else [text, 7]

    scorer = RougeScorer(["rougeLsum"], split_summaries=True, sentence_splitter=splits_badly)  # type: ignore[arg-type]
    with pytest.raises(
        TypeError, match="splits_badly must return a list of str, it returned NoneType"
    ):
        scorer.score("none", "a")
    with pytest.raises(TypeError, match="returned a list holding int"):
        scorer.score("a b", "a")

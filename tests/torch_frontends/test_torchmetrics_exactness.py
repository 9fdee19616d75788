"""kurenai.torchmetrics against the real torchmetrics, ``==`` on every float32:
generated text (ties, punctuation, non-ASCII, empty texts, several
references, sentences for rougeLsum), every argument torchmetrics takes,
the functional form and the metric fed in several batches."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from torch_reference import install_punkt_tab, torchmetrics_modules

torch, torchmetrics = torchmetrics_modules()

from kurenai.torchmetrics import ROUGEScore, rouge_score  # noqa: E402

# Words that tie, stem (runs/running, generalization), carry punctuation and
# abbreviations for punkt (Mr., U.S., e.g.), letters outside ASCII (which the
# default rules drop, a user's tokenizer keeps), digits, and sentence ends.
WORDS = [
    "the",
    "cat",
    "sat",
    "on",
    "mat",
    "a",
    "dog",
    "runs",
    "running",
    "ran",
    "generalization",
    "generalize",
    "Cats",
    "THE",
    "Mr.",
    "U.S.",
    "e.g.",
    "Dr.",
    "3.14",
    "42",
    "it's",
    "don't",
    "naïve",
    "café",
    "İstanbul",
    "東京",
    "日本語",
    "straße",
    "ﬁne",
    ".",
    "!",
    "?",
    "...",
    ",",
    ";",
    "(",
    ")",
    '"',
    "-",
    "--",
    "\n",
    "\n\n",
    "  ",
    "\t",
    "end.",
    "Then",
    "He",
    "said",
    "stop!",
    "why?",
]
TEXT = st.lists(st.sampled_from(WORDS), max_size=14).map(" ".join)
KEYS = ("rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum")


def lower_only(text: str) -> str:
    return text.lower()


def split_on_space(text: str) -> list[str]:
    return text.split(" ")


def characters(text: str) -> list[str]:
    return [c for c in text if not c.isspace()]


NORMALIZERS = st.sampled_from([None, lower_only])
TOKENIZERS = st.sampled_from([None, split_on_space, characters])


@pytest.fixture(scope="module", autouse=True)
def punkt_tab(tmp_path_factory: pytest.TempPathFactory) -> None:
    install_punkt_tab(tmp_path_factory.mktemp("nltk_data"))


def same(ours: dict[str, Any], theirs: dict[str, Any]) -> bool:
    """The same keys in the same order, each value the same float32 bits."""
    return list(ours) == list(theirs) and all(
        ours[k].dtype == theirs[k].dtype == torch.float32
        and ours[k].shape == theirs[k].shape
        and bool(torch.equal(ours[k].view(torch.int32), theirs[k].view(torch.int32)))
        for k in theirs
    )


@st.composite
def batches(draw: st.DrawFn) -> tuple[list[str], list[list[str]]]:
    size = draw(st.integers(1, 4))
    preds = draw(st.lists(TEXT, min_size=size, max_size=size))
    refs = st.lists(TEXT, min_size=1, max_size=3)
    target = draw(st.lists(refs, min_size=size, max_size=size))
    return preds, target


@st.composite
def settings_(draw: st.DrawFn) -> dict[str, Any]:
    keys = draw(st.lists(st.sampled_from(KEYS), min_size=1, max_size=3, unique=True))
    return {
        "rouge_keys": tuple(keys),
        "use_stemmer": draw(st.booleans()),
        "accumulate": draw(st.sampled_from(["best", "avg"])),
        "normalizer": draw(NORMALIZERS),
        "tokenizer": draw(TOKENIZERS),
    }


@settings(max_examples=60, suppress_health_check=list(HealthCheck))
@given(batch=batches(), options=settings_())
def test_the_functional_form_equals_torchmetrics(
    batch: tuple[list[str], list[list[str]]], options: dict[str, Any]
) -> None:
    from torchmetrics.functional.text import rouge as theirs

    preds, target = batch
    assert same(rouge_score(preds, target, **options), theirs.rouge_score(preds, target, **options))


@settings(max_examples=25, suppress_health_check=list(HealthCheck))
@given(
    first=batches(),
    second=batches(),
    options=settings_(),
)
def test_the_metric_fed_in_batches_equals_torchmetrics(
    first: tuple[list[str], list[list[str]]],
    second: tuple[list[str], list[list[str]]],
    options: dict[str, Any],
) -> None:
    from torchmetrics.text.rouge import ROUGEScore as Theirs

    ours, theirs = ROUGEScore(**options), Theirs(**options)
    assert same(ours(*first), theirs(*first))  # forward: the batch's value
    ours.update(*second)
    theirs.update(*second)
    assert same(ours.compute(), theirs.compute())


@settings(max_examples=25, suppress_health_check=list(HealthCheck))
@given(pred=TEXT, refs=st.lists(TEXT, min_size=1, max_size=4), stem=st.booleans())
def test_one_prediction_with_a_list_of_references(pred: str, refs: list[str], stem: bool) -> None:
    # torchmetrics' other input forms: a str against a list of str is one
    # prediction with several references; a str against a str, one pair.
    from torchmetrics.functional.text import rouge as theirs

    for accumulate in ("best", "avg"):
        options = {"use_stemmer": stem, "accumulate": accumulate}
        assert same(rouge_score(pred, refs, **options), theirs.rouge_score(pred, refs, **options))
    assert same(rouge_score(pred, refs[0]), theirs.rouge_score(pred, refs[0]))
    assert same(rouge_score(pred, [refs]), theirs.rouge_score(pred, [refs]))


def test_ties_between_references_take_the_first_as_torch_argmax() -> None:
    from torchmetrics.functional.text import rouge as theirs

    # Equal F-measures with different precision and recall: which one is taken shows.
    preds, target = ["a b c d"], [["a b x y z", "a b", "a b c d e f g h"]]
    ours = rouge_score(preds, target, rouge_keys=("rouge1", "rougeL"))
    assert same(ours, theirs.rouge_score(preds, target, rouge_keys=("rouge1", "rougeL")))


def test_batched_means_of_references_equal_torchs_mean_of_each() -> None:
    # accumulate="avg" averages each record's references in one torch call per
    # number of references; torchmetrics calls torch.tensor(list).mean() per record.
    generator = torch.Generator().manual_seed(0)
    for count in range(1, 40):
        rows = torch.rand(50, count, generator=generator)
        each = torch.stack([torch.tensor([float(v) for v in row]).mean() for row in rows])
        assert torch.equal(rows.mean(dim=1), each)


def test_negative_control_the_comparison_sees_one_ulp_and_a_changed_sentence_rule() -> None:
    from torchmetrics.functional.text import rouge as theirs

    from kurenai.sentences import split_sentences

    preds, target = ["b Dr. a"], ["a b"]
    reference = theirs.rouge_score(preds, target)
    nudged = dict(reference)
    nudged["rougeL_recall"] = torch.nextafter(reference["rougeL_recall"], torch.tensor(2.0))
    assert same(reference, reference) and not same(nudged, reference)
    # kurenai's own splitter ends a sentence after "Dr.": the union LCS finds both words.
    other = rouge_score(preds, target, sentence_splitter=split_sentences)
    assert not same(other, reference)
    assert same(rouge_score(preds, target), reference)


def test_a_long_summary_scores_as_torchmetrics(tmp_path: Path) -> None:
    from torchmetrics.functional.text import rouge as theirs

    text = (
        "A lawyer says him .\nMoschetto, 54 and prosecutors say .\nAuthority abc Moschetto  . "
        "The U.S. Dept. of Justice said on Monday that it would review the case. "
        '"We don\'t know yet," Dr. Jones said. Prices rose 3.5% (to $4.50)!'
    )
    other = re.sub(r"\bsaid\b", "says", text[::-1][::-1]).replace("Monday", "Tuesday")
    for stem in (False, True):
        for keys in (("rougeL", "rougeLsum"), ("rouge1", "rouge2")):
            ours = rouge_score([text, other], [other, text], use_stemmer=stem, rouge_keys=keys)
            assert same(
                ours,
                theirs.rouge_score([text, other], [other, text], use_stemmer=stem, rouge_keys=keys),
            )

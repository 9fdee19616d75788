"""The reproducibility signature as a library object: RougeScorer.signature(),
kurenai.metrics.Rouge.signature(), and what it records."""

from __future__ import annotations

import dataclasses
import importlib.metadata

import pytest

from kurenai import __version__
from kurenai._core.multiref import MODES
from kurenai.metrics import Rouge
from kurenai.rouge_scorer import RougeScorer
from kurenai.sentences import split_sentences
from kurenai.signature import Bootstrap, Signature

NLTK = importlib.metadata.version("nltk")


def test_the_default_scorers_signature() -> None:
    signature = RougeScorer(["rouge1", "rougeL"]).signature()
    assert signature == Signature(("rouge1", "rougeL"), "whitespace", "no", "newline", __version__)
    assert str(signature) == (
        f"rouge:rouge1,rougeL|tok:whitespace|stem:no|split:newline|version:{__version__}"
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        signature.tokenizer = "char"  # type: ignore[misc]


def test_every_setting_that_changes_the_numbers_is_recorded() -> None:
    scorer = RougeScorer(
        ["rougeW", "rougeLsum"],
        use_stemmer=True,
        tokenizer="unicode",
        split_summaries=True,
        rouge_w_weight=1.5,
    )
    signature = scorer.signature(mode="average").with_bootstrap(Bootstrap(500, 0.9, 7))
    assert signature.fields() == {
        "rouge": "rougeW,rougeLsum",
        "tok": "unicode",
        "stem": f"porter(nltk={NLTK})",
        "split": "sentences",
        "w": "1.5",
        "refs": "average",
        "boot": "500,0.9,seed:7",
        "version": __version__,
    }
    assert str(signature) == "|".join(f"{k}:{v}" for k, v in signature.fields().items())
    paired = signature.with_bootstrap(Bootstrap(100, 0.95, None, paired=True))
    assert "|paired:100,0.95,seed:none|" in str(paired)


def test_the_options_of_a_tokenizer_are_printed_with_its_name() -> None:
    scorer = RougeScorer(["rouge1"], tokenizer="whitespace")
    assert scorer.signature().tokenizer_options == ()
    from kurenai.tokenizers import get_tokenizer

    normalized = RougeScorer(["rouge1"], tokenizer=get_tokenizer("char", normalize="NFKC"))
    assert str(normalized.signature()).split("|")[1] == "tok:char(normalize=NFKC)"


def test_an_analysers_versions_are_recorded() -> None:
    pytest.importorskip("jieba")
    signature = RougeScorer(["rouge1"], tokenizer="jieba").signature()
    jieba = importlib.metadata.version("jieba")
    assert signature.tokenizer_options == (("jieba", jieba), ("hmm", "yes"))
    assert f"|tok:jieba(jieba={jieba},hmm=yes)|" in str(signature)


def test_values_with_the_forms_syntax_are_quoted() -> None:
    class Configured:
        def tokenize(self, text: str) -> list[str]:
            return text.split()

        def signature_parts(self) -> dict[str, str]:
            return {"name": "configured", "stem": "no", "rules": 'a|b,"c"'}

    signature = RougeScorer(["rouge1"], tokenizer=Configured()).signature()
    assert str(signature).split("|tok:")[1].startswith('configured(rules="a|b,\\"c\\"")|stem:no|')


def test_a_tokenizer_that_does_not_describe_itself() -> None:
    class Plain:
        def tokenize(self, text: str) -> list[str]:
            return text.split()

    signature = RougeScorer(["rouge1"], tokenizer=Plain()).signature()
    assert (signature.tokenizer, signature.stemmer) == (
        f"{__name__}.{Plain.__qualname__}",
        "unknown",
    )


def test_signature_parts_must_be_a_dict() -> None:
    class Wrong:
        def tokenize(self, text: str) -> list[str]:
            return text.split()

        def signature_parts(self) -> list[str]:
            return ["name"]

    with pytest.raises(TypeError, match=r"Wrong.signature_parts\(\) must return a dict"):
        RougeScorer(["rouge1"], tokenizer=Wrong()).signature()


def test_a_custom_sentence_splitter_is_named() -> None:
    def by_semicolons(text: str) -> list[str]:
        return text.split(";")

    scorer = RougeScorer(["rougeLsum"], split_summaries=True, sentence_splitter=by_semicolons)
    assert scorer.signature().split == f"{__name__}.{by_semicolons.__qualname__}"
    default = RougeScorer(["rougeLsum"], split_summaries=True, sentence_splitter=split_sentences)
    assert default.signature().split == "sentences"


def test_an_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="invalid multi-reference mode 'worst'; choose from best"):
        RougeScorer(["rouge1"]).signature(mode="worst")


def test_the_metric_gives_its_scorers_signature() -> None:
    metric = Rouge(["rouge1", "rougeL"], use_stemmer=True, tokenizer="char")
    assert metric.signature() == metric.scorer.signature(mode="best")
    assert str(metric.signature()).startswith(
        f"rouge:rouge1,rougeL|tok:char|stem:porter(nltk={NLTK})|"
    )
    averaged = Rouge(["rouge1"], accumulate="avg")
    assert averaged.signature().multi_ref_mode == "mean"
    assert averaged.signature().tokenizer == "unicode"  # the metric's default


@pytest.mark.parametrize("mode", MODES, ids=lambda mode: mode.name)
def test_the_metric_records_every_accumulate_mode(mode: object) -> None:
    # Each mode gives other numbers on several references, so each one, and
    # each of its aliases, must be recorded by its name; no two alike.
    for name in (mode.name, *mode.aliases):  # type: ignore[attr-defined]
        assert Rouge(["rouge1"], accumulate=name).signature().multi_ref_mode == mode.name  # type: ignore[attr-defined]
    printed = {str(Rouge(["rouge1"], accumulate=other.name).signature()) for other in MODES}
    assert len(printed) == len(MODES)

"""The ``burmese`` tokenizer: XL-Sum's Burmese syllables, through the registry
and every scoring path.  Its tokens are held to XL-Sum's own package in
tests/compat/test_xlsum.py; here, its rules on hand-made cases."""

from __future__ import annotations

import pytest

from kurenai import RougeScorer
from kurenai.tokenizers import available_tokenizers, get_tokenizer, tokenizer_info
from kurenai.tokenizers._xlsum_text import bert_words, burmese_syllables

ASAT, VIRAMA, DOT = "\u103a", "\u1039", "\u1037"


def test_it_is_registered_without_an_extra() -> None:
    assert "burmese" in available_tokenizers()
    info = tokenizer_info("burmese")
    assert info.extra is None and "XL-Sum" in info.summary
    assert get_tokenizer("burmese").signature_parts() == {"name": "burmese", "stem": "no"}


@pytest.mark.parametrize(
    ("text", "units"),
    [
        ("မြန်မာ စာ", ["မြန်", "မာ", "စာ"]),  # spaces removed, asat unit joins
        ("က" + ASAT + "ခ" + ASAT + "ဂ" + ASAT, ["က" + ASAT + "ခ" + ASAT, "ဂ" + ASAT]),
        # a unit that joined its predecessor leaves the next asat unit alone
        ("ကခ" + ASAT + "ဂ" + ASAT, ["ကခ" + ASAT, "ဂ" + ASAT]),
        ("သ" + VIRAMA + "မ", ["သ" + VIRAMA + "မ"]),  # a lone virama glues its neighbours
        ("က" + DOT + ASAT, ["က" + ASAT + DOT]),  # dot below and asat reordered
        ("ab", ["a", "b"]),  # Latin letters are units of their own
        ("", []),
    ],
)
def test_its_units(text: str, units: list[str]) -> None:
    assert burmese_syllables(text) == units


def test_it_drops_punctuation_as_xlsums_sanitizer_does() -> None:
    assert bert_words("စာ။ ကို\u200bလေ, ဂ") == ["စာ", "ကိုလေ", "ဂ"]
    assert get_tokenizer("burmese").tokenize("စာ။ ကို") == ["စာ", "ကို"]


def test_it_scores_on_every_path(backend: str) -> None:
    scorer = RougeScorer(["rouge1", "rougeL"], tokenizer="burmese")
    scores = scorer.score("မြန်မာ စာ ကို", "မြန်မာစာ")
    assert scores["rouge1"].precision == 1.0
    assert scores["rouge1"].recall == 0.75

"""``han_split`` (XL-Sum's last step: whitespace runs, each Han character
alone) against a naive reading of that rule, on any text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kurenai.tokenizers._xlsum_text import _HAN_RANGES, han_split


def naive(text: str, split_han: bool = True) -> list[str]:
    out: list[str] = []
    run = ""
    for char in text:
        han = split_han and any(lo <= ord(char) <= hi for lo, hi in _HAN_RANGES)
        if char.isspace() or han:
            if run:
                out.append(run)
            run = ""
            if han:
                out.append(char)
        else:
            run += char
    return [*out, run] if run else out


SPACES = [chr(c) for c in range(0x3100) if chr(c).isspace()]
texts = st.text(
    st.sampled_from(SPACES)
    | st.sampled_from("東京年日本")
    | st.characters(exclude_categories=["Cs"]),
    max_size=40,
)


@settings(max_examples=2000, deadline=None)
@given(texts)
def test_han_split_is_the_rule(text: str) -> None:
    assert han_split(text) == naive(text)


def test_the_reading_tells_han_apart() -> None:
    # Negative control: the rule without Han characters alone differs.
    assert han_split("東京tokyo 2020年") == ["東", "京", "tokyo", "2020", "年"]
    assert naive("東京tokyo 2020年", split_han=False) != han_split("東京tokyo 2020年")
    assert han_split("a\u3000b\u2028c\x1cd") == ["a", "b", "c", "d"]

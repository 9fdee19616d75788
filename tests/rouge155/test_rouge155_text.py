"""The script's text path: kurenai's words equal ROUGE-1.5.5.pl's own subroutines'.

Every Perl comparison runs the script's ``readText``/``readText_LCS`` and
tokenizers (loaded from ROUGE-1.5.5.pl itself, see ``perl_text``) on many
files at once, under each option that changes the words: ``-l``, ``-b``,
``-m``, ``-s``, and the three input formats.
"""

from __future__ import annotations

import random

import perl_text
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from perl_rouge import perl  # noqa: F401  (the fixture)

from kurenai.rouge155._summary import Limits, summary_of
from kurenai.rouge155._text import lcs_units, ngram_text, perl_split, units
from kurenai.rouge155._tokenizer import Words

# Fragments that exercise the script's rules: case, hyphens, $, digits,
# apostrophes, non-ASCII (every byte separates), Perl's whitespace (\v too),
# CR line ends, stopwords and words the exception table or Porter changes.
FRAGMENTS = [
    "The", "cat", "CATS", "sat", "running", "well-known", "$5", "$", "U.S.", "e.g.",
    "1,000", "3.14", "it's", "don't", "café", "naïve", "İstanbul", "\u212a", "猫が",
    "。", "--", "-", "x-ray", " ", "  ", "\t", "\r", "\v", "\f", "\n", "\n\n",
    "generalizations", "agreement", "best", "better", "testes", "mice", "aardwolves",
    "Yelling", "yyyy", "happiness", "a", "i", "the", "of", "<b>", "&amp;", "\u00a0",
]  # fmt: skip
_TEXT = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=3)), max_size=40).map(
    lambda parts: " ".join(parts) if len(parts) % 2 else "".join(parts)
)
FILES = st.lists(_TEXT.map(lambda text: text.encode("utf-8", "surrogatepass")), max_size=25)
OPTIONS = [
    # (-l words, -b bytes, -m, -s)
    (0, 0, False, False),
    (0, 0, True, False),
    (0, 0, False, True),
    (0, 0, True, True),
    (7, 0, False, False),
    (1, 0, True, True),
    (0, 20, False, False),
    (0, 4, True, False),
    (-2, 0, False, False),
    (0, -3, False, False),
]


def _ours(files: list[bytes], fmt: str, words: int, size: int, stem: bool, stop: bool) -> list:
    rules = Words.of(stem, stop)
    found = []
    for data in files:
        summary = summary_of(data, fmt, Limits(words, size), rules)
        found.append((summary.whole, summary.units))
    return found


@pytest.mark.slow
@pytest.mark.usefixtures("perl")
@pytest.mark.parametrize(("words", "size", "stem", "stop"), OPTIONS)
def test_generated_spl_files_give_the_scripts_words(
    words: int, size: int, stem: bool, stop: bool
) -> None:
    rng = random.Random(words * 7 + size * 13 + stem * 3 + stop)
    files = []
    for _ in range(120):
        parts = [rng.choice(FRAGMENTS) for _ in range(rng.randint(0, 30))]
        files.append(rng.choice([" ", ""]).join(parts).encode())
    assert _ours(files, "SPL", words, size, stem, stop) == perl_text.perl_words(
        files, "SPL", words, size, stem, stop
    )


@pytest.mark.slow
@pytest.mark.usefixtures("perl")
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files=FILES, option=st.sampled_from(OPTIONS))
def test_hypothesis_files_give_the_scripts_words(
    files: list[bytes], option: tuple[int, int, bool, bool]
) -> None:
    assert _ours(files, "SPL", *option) == perl_text.perl_words(files, "SPL", *option)


def _elements(rng: random.Random) -> bytes:
    lines = []
    for i in range(rng.randint(0, 5)):
        text = " ".join(rng.choice(FRAGMENTS) for _ in range(rng.randint(0, 8)))
        lines.append(
            rng.choice(
                [
                    f'<a name="{i}">[{i}]</a> <a href="#{i}" id={i}>{text}</a>',
                    f'<a size="4" name="{i}">[{i}]</a>\t<a href="#{i}" id={i}>{text}',
                    f'<S SNTNO="{i}">{text}</S>',
                    text,
                ]
            )
        )
    return ("\n".join(lines) + rng.choice(["", "\n"])).encode()


@pytest.mark.slow
@pytest.mark.usefixtures("perl")
@pytest.mark.parametrize("fmt", ["SEE", "ISI", "see"])
@pytest.mark.parametrize(("words", "size"), [(0, 0), (5, 0), (0, 15)])
def test_see_and_isi_elements_give_the_scripts_words(fmt: str, words: int, size: int) -> None:
    rng = random.Random(len(fmt) + words + size)
    files = [_elements(rng) for _ in range(80)]
    assert _ours(files, fmt, words, size, True, False) == perl_text.perl_words(
        files, fmt, words, size, True, False
    )


def test_units_of_spl_are_the_non_empty_lines_lowercased_in_ascii_only() -> None:
    assert units("Ünï CAT\n\n\r\nx".encode(), "SPL") == ["Ünï cat".encode(), b"\r", b"x"]


def test_an_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="Unknown input format: SIMPLE"):
        units(b"x", "SIMPLE")


def test_word_limits_count_perl_fields_and_cut_the_last_unit() -> None:
    sentences = [b" a b", b"well-known c d"]
    # " a b" is three fields for Perl (a leading empty one).
    assert ngram_text(sentences, words=4) == b" a b well-known"
    assert lcs_units(sentences, words=4) == [b" a b", b"well-known"]
    assert ngram_text(sentences, words=-1) is None


def test_byte_limits_differ_between_the_two_readers() -> None:
    sentences = [b"abcd", b"efgh", b"ijklmnop"]
    # readText adds the units' lengths; readText_LCS never does.
    assert ngram_text(sentences, size=10) == b"abcd efgh ij"
    assert lcs_units(sentences, size=6) == [b"abcd", b"efgh", b"ijklmn"]
    assert ngram_text(sentences, size=-2) == b"ab"  # Perl's substr with a negative length


def test_perl_split_keeps_a_leading_empty_field() -> None:
    assert perl_split("\ta\vb ") == ["", "a", "b"]
    assert perl_split("") == []

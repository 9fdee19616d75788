"""The compiled Porter stemmer (kurenai/_kernels/_porter.h) is NLTK's
``PorterStemmer().stem`` (rouge-score's), word for word, and serves every
surface that stems with Porter without importing NLTK."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.stem.porter import PorterStemmer

from kurenai import _backend
from kurenai.tokenizers._stemming import porter_stem

NLTK = PorterStemmer()
ROOT = Path(__file__).resolve().parents[2]

# Every suffix a rule of NLTK's Porter names (and the letters its conditions
# read), after stems of each shape its measure and *o / *d / *v* tests tell apart.
SUFFIXES = [
    "ational",
    "tional",
    "enci",
    "anci",
    "izer",
    "bli",
    "alli",
    "entli",
    "eli",
    "ousli",
    "ization",
    "ation",
    "ator",
    "alism",
    "iveness",
    "fulness",
    "ousness",
    "aliti",
    "iviti",
    "biliti",
    "fulli",
    "logi",
    "icate",
    "ative",
    "alize",
    "iciti",
    "ical",
    "ful",
    "ness",
    "al",
    "ance",
    "ence",
    "er",
    "ic",
    "able",
    "ible",
    "ant",
    "ement",
    "ment",
    "ent",
    "ion",
    "ou",
    "ism",
    "ate",
    "iti",
    "ous",
    "ive",
    "ize",
    "ies",
    "ied",
    "eed",
    "ed",
    "ing",
    "sses",
    "ss",
    "s",
    "y",
    "ll",
    "e",
    "yy",
    "at",
    "bl",
    "iz",
]
STEMS = [
    "_",
    "y",
    "yy",
    "a",
    "b",
    "tr",
    "con",
    "sky",
    "happ",
    "hop",
    "fil",
    "relat",
    "ba",
    "ab",
    "yb",
    "by",
    "eb",
    "st",
    "cr",
    "oo",
    "xy",
    "ww",
    "sion",
    "tion",
]
IRREGULAR = [
    "sky",
    "skies",
    "dying",
    "lying",
    "tying",
    "news",
    "innings",
    "inning",
    "outings",
    "outing",
    "cannings",
]
CRAFTED = [
    (stem.strip("_") + a + b) for stem, a, b in itertools.product(STEMS, SUFFIXES, ["", *SUFFIXES])
]
compiled = pytest.mark.skipif(_backend.fused is None, reason="the compiled plan is not built")


def mismatches(words: list[str], reference: PorterStemmer) -> list[tuple[str, str, str]]:
    return [
        (w, reference.stem(w), porter_stem(w)) for w in words if reference.stem(w) != porter_stem(w)
    ]


def test_crafted_words_and_nltks_irregular_forms_stem_as_nltk() -> None:
    words = CRAFTED + IRREGULAR + [w.upper() for w in IRREGULAR] + ["y" * 300, "ab" * 500]
    assert mismatches(words, NLTK) == []


def test_the_harness_tells_another_porter_apart() -> None:
    # Negative control: NLTK's ORIGINAL_ALGORITHM mode differs from the
    # NLTK_EXTENSIONS mode rouge-score uses; the same comparison must see it.
    original = PorterStemmer(mode=PorterStemmer.ORIGINAL_ALGORITHM)
    assert len(mismatches(CRAFTED + IRREGULAR, original)) > 100


@settings(max_examples=3000, deadline=None)
@given(st.text("abcdefghijklmnopqrstuvwxyzAEIOUY0123456789-'", min_size=0, max_size=16))
def test_ascii_words_stem_as_nltk(word: str) -> None:
    assert porter_stem(word) == NLTK.stem(word)


@settings(max_examples=500, deadline=None)
@given(st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=10))
def test_any_text_stems_as_nltk(word: str) -> None:
    assert porter_stem(word) == NLTK.stem(word)


@compiled
def test_the_compiled_copy_answers_ascii_and_leaves_other_text_to_nltk() -> None:
    assert _backend.fused.porter_stem("Generalizations") == "gener"
    assert _backend.fused.porter_stem("naïvely") is None


@pytest.mark.slow
@compiled
@pytest.mark.parametrize(
    "code",
    [
        "from kurenai.rouge_scorer import RougeScorer\n"
        "RougeScorer(['rouge1', 'rougeLsum'], use_stemmer=True).score('running cats', 'ran cat')",
        "from kurenai.torchmetrics import ROUGEScore\n"
        "ROUGEScore(rouge_keys=('rouge1',), use_stemmer=True, tokenizer=str.split)"
        "(['Running cats'], ['ran cat'])",
        "import pathlib, tempfile\nfrom kurenai import cli\n"
        "d = pathlib.Path(tempfile.mkdtemp())\n"
        "(d / 't').write_text('running cats\\n'); (d / 'p').write_text('ran cat\\n')\n"
        "assert cli.main(['--use-stemmer', '--target-file', str(d / 't'),"
        " '--prediction-file', str(d / 'p')]) == 0",
    ],
    ids=["scorer", "torchmetrics-own-tokenizer", "cli"],
)
def test_stemming_ascii_text_never_imports_nltk(code: str) -> None:
    check = code + "\nimport sys\nassert 'nltk' not in sys.modules, 'NLTK was imported'\n"
    out = subprocess.run(
        [sys.executable, "-c", check], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr


@pytest.mark.parametrize(("version", "agrees"), [("3.10.4", True), ("3.9.1", False), ("?", False)])
def test_the_compiled_copy_serves_only_where_nltk_agrees(
    monkeypatch: pytest.MonkeyPatch, version: str, agrees: bool
) -> None:
    # NLTK before 3.10 stems its irregular forms otherwise ("SKY" -> "ski"):
    # there every word goes to NLTK itself.
    from kurenai.tokenizers import _stemming

    monkeypatch.setattr(_stemming, "distribution_version", lambda package: version)
    _stemming.compiled_porter_agrees.cache_clear()
    try:
        assert _stemming.compiled_porter_agrees() is agrees
        if not agrees:
            assert _stemming._compiled_porter() is None
    finally:
        monkeypatch.undo()
        _stemming.compiled_porter_agrees.cache_clear()

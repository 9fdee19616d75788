"""docs/guides/lang.md's table of XL-Sum's 45 languages stays true: each row's
description of both scorers and its pair's scores, recomputed here with
kurenai and with XL-Sum's own scorer (``multilingual_rouge``).

After a change (a language's tokenizer registered, a stemmer changed), rewrite
the table's computed cells with ``python tests/docs/test_lang_page.py``.
"""

from __future__ import annotations

import contextlib
import re
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "guides" / "lang.md"
START, END = "<!-- xlsum-table:start -->", "<!-- xlsum-table:end -->"
HEADER = (
    "| XL-Sum name | `lang=` | kurenai | XL-Sum's scorer | reference | prediction "
    "| R-1 F kurenai | R-1 F XL-Sum |\n|---|---|---|---|---|---|---:|---:|"
)
# XL-Sum's tokenizers and stemmers, by their class in multilingual_rouge.
XLSUM_TOKENIZERS = {
    "ThaiTokenizer": "pythainlp `newmm`",
    "ChineseTokenizer": "jieba",
    "JapaneseTokenizer": "fugashi (MeCab)",
    "BurmeseTokenizer": "syllables",
}
XLSUM_STEMMERS = {
    "NLTKStemmer": "NLTK Snowball",
    "HindiStemmer": "its Hindi stemmer",
    "BengaliStemmer": "its Bengali stemmer",
    "TurkishStemmer": "TurkishStemmer",
}


def rows(page: str) -> list[list[str]]:
    """The table's rows, as lists of cells."""
    table = page.split(START)[1].split(END)[0].strip().splitlines()[2:]
    return [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in table]


class _NoStopwords:
    """NLTK's stopwords corpus, empty (the corpus is a download)."""

    def words(self, language: str) -> list[str]:
        return []


@contextlib.contextmanager
def stand_ins() -> Iterator[None]:
    """What XL-Sum's scorer needs from downloads, for the time being: its
    Japanese tagger on UniDic-lite (its ``Tagger("-O wakati")`` picks the full
    UniDic when that package is installed, dictionary or not), and no
    stopwords."""
    import fugashi
    import nltk.stem.snowball
    import unidic_lite

    rc = Path(unidic_lite.DICDIR) / "mecabrc"

    class LiteTagger(fugashi.Tagger):  # type: ignore[misc]
        def __init__(self, arg: str = "") -> None:
            super().__init__(f'-d "{unidic_lite.DICDIR}" -r "{rc}" {arg}')

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(nltk.stem.snowball, "stopwords", _NoStopwords())
        patch.setattr(fugashi, "Tagger", LiteTagger)
        yield


def xlsum_cells(name: str, reference: str, prediction: str) -> tuple[str, str]:
    """What XL-Sum's scorer does for ``name``, and its stemmed R-1 F x 100."""
    from multilingual_rouge import rouge_scorer
    from multilingual_rouge.stemmers import LANG2STEMMER
    from multilingual_rouge.tokenizers import LANG2TOKENIZER

    canonical = rouge_scorer.SPECIAL_LANGID_CONVERSION_MAP.get(name, name)
    tokenizer = LANG2TOKENIZER.get(canonical)
    stemmer = LANG2STEMMER.get(canonical)
    stem_class = getattr(stemmer, "func", stemmer)
    said = XLSUM_TOKENIZERS.get(getattr(tokenizer, "__name__", ""), "pyonmttok")
    said += ", " + (XLSUM_STEMMERS[stem_class.__name__] if stemmer else "no stemmer")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            scorer = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=True, lang=name)
        except FileNotFoundError:  # its wheel lacks the Bengali stemmer's rules
            return said, "fails"
        score = scorer.score(reference, prediction)["rouge1"].fmeasure
    return said, f"{100 * score:.2f}"


def kurenai_cells(name: str, reference: str, prediction: str) -> tuple[str, str, str]:
    """``lang=``'s code, what kurenai does for ``name``, and its stemmed R-1 F x 100."""
    from kurenai._core.languages import language
    from kurenai.rouge_scorer import RougeScorer
    from kurenai.tokenizers import available_tokenizers

    entry = language(name)
    said = f"`{entry.tokenizer}`, " + (f"`{entry.stemmer}`" if entry.stemmer else "no stemmer")
    if entry.tokenizer not in available_tokenizers():
        return f"`{entry.code}`", said, f"needs `{entry.tokenizer}`"
    scorer = RougeScorer(["rouge1"], use_stemmer=True, lang=name)
    score = scorer.score(reference, prediction)["rouge1"].fmeasure
    return f"`{entry.code}`", said, f"{100 * score:.2f}"


def recomputed(row: list[str]) -> list[str]:
    name, _, _, _, reference, prediction, _, _ = row
    code, ours, our_score = kurenai_cells(name, reference, prediction)
    theirs, their_score = xlsum_cells(name, reference, prediction)
    return [name, code, ours, theirs, reference, prediction, our_score, their_score]


def _requirements() -> None:
    from optional import missing

    for module in ("multilingual_rouge", "pyonmttok", "jieba", "fugashi", "unidic_lite"):
        try:
            __import__(module)
        except ImportError:
            missing(f"{module} is not installed (the test extra)")


@pytest.mark.slow
def test_the_xlsum_table_is_recomputed_exactly() -> None:
    _requirements()
    table = rows(PAGE.read_text(encoding="utf-8"))
    assert len(table) == 45 and len({row[0] for row in table}) == 45
    with stand_ins():
        stale = [(row, new) for row in table if (new := recomputed(row)) != row]
    assert not stale, f"{stale[:3]}: run python tests/docs/test_lang_page.py"


@pytest.mark.slow
def test_a_wrong_number_is_caught() -> None:
    """Negative control: a row whose printed score is off fails the comparison."""
    _requirements()
    row = next(r for r in rows(PAGE.read_text(encoding="utf-8")) if r[0] == "russian")
    tampered = [*row[:6], f"{float(row[6]) + 0.01:.2f}", row[7]]
    with stand_ins():
        assert recomputed(row) == row
        assert recomputed(tampered) != tampered


def main() -> None:
    """Rewrite the page's table with recomputed cells."""
    page = PAGE.read_text(encoding="utf-8")
    with stand_ins():
        lines = ["| " + " | ".join(recomputed(row)) + " |" for row in rows(page)]
    table = "\n".join([START, HEADER, *lines, END])
    PAGE.write_text(re.sub(f"{START}.*{END}", lambda _: table, page, flags=re.S), "utf-8")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "tests" / "support"))
    main()

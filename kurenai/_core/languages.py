"""The languages ``lang=`` knows: per language, its tokenizer and stemmer, as data.

Every surface that takes ``lang=`` (``RougeScorer``, ``kurenai.metrics``, the
command line's ``--lang``, Spark, DuckDB, polars) reads this one table through
:func:`language`.  A language is named by its ISO 639-1 code (``de``), or by
an alias: its English name, and the names XL-Sum's scorer
(``multilingual_rouge``) takes (``bengali``/``bangla``, ``chinese_simplified``,
``serbian_latin``...).  ``tokenizer`` is a name of ``kurenai.tokenizers``'
registry; ``stemmer`` a name of its stemmer registry
(``kurenai.tokenizers._stemming``), used with ``use_stemmer=True``, or None:
none (``use_stemmer`` changes nothing).  The unspaced scripts' languages stem
their ASCII words (mostly English there) with rouge-score's Porter, as their
tokenizers do without a language (``mecab`` and ``sudachi`` also take
dictionary forms).

>>> language("bangla").code, language("DE").stemmer, language("ja").tokenizer
('bn', 'german', 'mecab')
"""

from __future__ import annotations

from typing import Any, NamedTuple

from kurenai._data.spelling import closest
from kurenai._data.spelling import meant as meant_clause

__all__ = ["LANGUAGES", "Language", "choices", "known_languages", "language", "likely"]


class Language(NamedTuple):
    """One row of the table: ``code`` (ISO 639-1, or 639-3 where there is
    none), ``name`` (English), the ``tokenizer`` and ``stemmer`` names, and the
    other ``aliases`` it is known by (XL-Sum's spellings among them)."""

    code: str
    name: str
    tokenizer: str
    stemmer: str | None
    aliases: tuple[str, ...] = ()


# Spaced scripts get "unicode": rouge-score's rule (runs of letters and
# numbers, punctuation dropped) for letters of any script, equal to
# rouge-score's own tokens on ASCII text.
_W = "unicode"

LANGUAGES: tuple[Language, ...] = (
    Language("am", "amharic", _W, None),
    Language("ar", "arabic", _W, "arabic"),
    Language("az", "azerbaijani", _W, None),
    Language("bn", "bengali", _W, None, ("bangla",)),
    Language("ca", "catalan", _W, "catalan"),
    Language("cs", "czech", _W, "czech"),
    Language("cy", "welsh", _W, None),
    Language("da", "danish", _W, "danish"),
    Language("de", "german", _W, "german"),
    Language("el", "greek", _W, "greek"),
    Language("en", "english", _W, "porter"),
    Language("eo", "esperanto", _W, "esperanto"),
    Language("es", "spanish", _W, "spanish", ("mundo",)),
    Language("et", "estonian", _W, "estonian"),
    Language("eu", "basque", _W, "basque"),
    Language("fa", "persian", _W, "persian"),
    Language("fi", "finnish", _W, "finnish"),
    Language("fr", "french", _W, "french"),
    Language("ga", "irish", _W, "irish"),
    Language("gd", "scottish_gaelic", _W, None),
    Language("gu", "gujarati", _W, None),
    Language("ha", "hausa", _W, None),
    Language("hi", "hindi", _W, "hindi"),
    Language("hu", "hungarian", _W, "hungarian"),
    Language("hy", "armenian", _W, "armenian"),
    Language("id", "indonesian", _W, "indonesian"),
    Language("ig", "igbo", _W, None),
    Language("it", "italian", _W, "italian"),
    Language("ja", "japanese", "mecab", "porter"),
    Language("km", "khmer", "khmer", "porter"),
    Language("ko", "korean", "kiwi", "porter"),
    Language("ky", "kyrgyz", _W, None),
    Language("lo", "lao", "lao", "porter"),
    Language("lt", "lithuanian", _W, "lithuanian"),
    Language("mr", "marathi", _W, None),
    Language("my", "burmese", "burmese", "porter"),
    Language("ne", "nepali", _W, "nepali"),
    Language("nl", "dutch", _W, "dutch"),
    Language("no", "norwegian", _W, "norwegian", ("nb", "nn", "bokmal", "nynorsk")),
    Language("om", "oromo", _W, None),
    Language("pa", "punjabi", _W, None),
    Language("pcm", "pidgin", _W, None, ("nigerian_pidgin",)),
    Language("pl", "polish", _W, "polish"),
    Language("ps", "pashto", _W, None),
    Language("pt", "portuguese", _W, "portuguese"),
    Language("rn", "kirundi", _W, None),
    Language("ro", "romanian", _W, "romanian"),
    Language("ru", "russian", _W, "russian"),
    Language("si", "sinhala", _W, None),
    Language("so", "somali", _W, None),
    Language("sr", "serbian", _W, "serbian", ("serbian_cyrillic", "serbian_latin")),
    Language("st", "sesotho", _W, "sesotho"),
    Language("sv", "swedish", _W, "swedish"),
    Language("sw", "swahili", _W, None),
    Language("ta", "tamil", _W, "tamil"),
    Language("te", "telugu", _W, None),
    Language("th", "thai", "thai", "porter"),
    Language("ti", "tigrinya", _W, None),
    Language("tr", "turkish", _W, "turkish", ("turkce",)),
    Language("uk", "ukrainian", _W, None),
    Language("ur", "urdu", _W, None),
    Language("uz", "uzbek", _W, None),
    Language("vi", "vietnamese", _W, None),
    Language("yi", "yiddish", _W, "yiddish"),
    Language("yo", "yoruba", _W, None),
    Language("zh", "chinese", "jieba", "porter", ("chinese_simplified", "chinese_traditional")),
)

_BY_NAME = {
    spelling: entry for entry in LANGUAGES for spelling in (entry.code, entry.name, *entry.aliases)
}


def known_languages() -> list[str]:
    """The codes ``lang=`` takes (each language's aliases also name it)."""
    return [entry.code for entry in LANGUAGES]


# Countries' codes given for their language's (ISO 3166 for ISO 639-1): each
# is "did you mean" its language, which no spelling distance would find.
_COUNTRY_CODES = {
    "jp": "ja", "cn": "zh", "tw": "zh", "kr": "ko", "gr": "el", "dk": "da", "se": "sv",
    "cz": "cs", "ua": "uk", "vn": "vi", "ir": "fa", "br": "pt", "ee": "et", "bd": "bn",
    "pk": "ur", "np": "ne", "mm": "my", "kh": "km", "la": "lo", "at": "de", "mx": "es",
}  # fmt: skip


def language(lang: str) -> Language:
    """The row of ``lang`` (a code or an alias, in any case); a ValueError
    naming the likely language and every known code for another.

    >>> try:
    ...     language("jp")
    ... except ValueError as error:
    ...     print(str(error)[:57])
    unknown language 'jp' (did you mean 'ja'?); known: am, ar
    """
    folded = lang.strip().lower().replace("-", "_")
    entry = _BY_NAME.get(folded)
    if entry is None:
        meant = meant_clause(_COUNTRY_CODES.get(folded) or closest(folded, _BY_NAME))
        known = ", ".join(e.code for e in LANGUAGES)
        raise ValueError(
            f"unknown language {lang[:40]!r}{meant}; known: {known} (ISO 639-1 codes, "
            "or English names)"
        )
    return entry


def likely(lang: str) -> Language | None:
    """The language ``lang`` names, or the one it likely means (a country's
    code, a misspelling), or None.

    >>> likely("jp").name, likely("germn").code, likely("klingon")
    ('japanese', 'de', None)
    """
    folded = lang.strip().lower().replace("-", "_")
    name = folded if folded in _BY_NAME else _COUNTRY_CODES.get(folded) or closest(folded, _BY_NAME)
    return None if name is None else _BY_NAME[name]


def choices(lang: str | None, tokenizer: Any, use_stemmer: bool) -> tuple[Any, bool | str]:
    """The ``tokenizer`` and ``use_stemmer`` a tokenizer registry is given for
    ``lang`` (None: those given): the language's tokenizer unless one is
    named, and its stemmer if ``use_stemmer``.  A tokenizer object with a
    language is a TypeError: the language could not choose its stemming."""
    if lang is None:
        return tokenizer, use_stemmer
    entry = language(lang)
    if tokenizer is not None and not isinstance(tokenizer, str):
        raise TypeError(
            "lang= chooses the tokenizer by name: give tokenizer=None or a tokenizer "
            f"name with it, not a {type(tokenizer).__name__}"
        )
    stem: bool | str = (entry.stemmer or False) if use_stemmer else False
    return tokenizer or entry.tokenizer, stem

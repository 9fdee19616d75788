"""The tokenizer registry: lazy names, what it tells about each tokenizer, and
the signature parts every tokenizer reports."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
from pathlib import Path

import pytest

import kurenai.tokenizers
from kurenai._data import rules
from kurenai.tokenizers import (
    AllCharacterSupportTokenizer,
    CharTokenizer,
    JiebaTokenizer,
    UnicodeTokenizer,
    available_tokenizers,
    get_tokenizer,
    normalizing,
    tokenizer_info,
)
from kurenai.tokenizers._stemming import CachedPorterStemmer

REPO = Path(__file__).resolve().parents[2]
ANALYSERS = ("fugashi", "sudachipy", "jieba", "kiwipiepy", "pythainlp", "laonlp", "khmernltk")
OPTIONAL = {
    "mecab": "ja", "sudachi": "ja", "jieba": "zh", "kiwi": "ko",
    "thai": "th", "lao": "lo", "khmer": "km",
}  # fmt: skip


def run_python(code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    )
    return result.stdout.strip()


def test_importing_the_registry_imports_no_optional_tokenizer() -> None:
    code = (
        f"import sys, kurenai.tokenizers as t\nnames = {ANALYSERS!r}\n"
        "adapters = {'kurenai.tokenizers._morphological', 'kurenai.tokenizers._unspaced'}\n"
        "print(sorted({*adapters, *names} & set(sys.modules)))\n"
        "t.available_tokenizers(); t.tokenizer_info('jieba'); t.get_tokenizer('jieba')\n"
        "t.tokenizer_info('khmer'); t.get_tokenizer('thai'); t.get_tokenizer('lao')\n"
        "print(sorted(set(names) & set(sys.modules)))"
    )
    # Nothing at import; describing or making one imports its adapter, not its analyser.
    assert run_python(code).splitlines() == ["[]", "[]"]


def test_the_adapters_are_reachable_as_attributes() -> None:
    assert kurenai.tokenizers.MeCabTokenizer.name == "mecab"
    assert kurenai.tokenizers.ThaiTokenizer.name == "thai"
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        kurenai.tokenizers.Nope  # noqa: B018


@pytest.mark.parametrize("name", sorted(OPTIONAL))
def test_info_names_each_optional_tokenizers_extra(name: str) -> None:
    info = tokenizer_info(name)
    assert (info.name, info.extra) == (name, OPTIONAL[name])
    assert info.extra in (importlib.metadata.metadata("kurenai").get_all("Provides-Extra") or [])
    assert info.summary


def test_info_of_every_name_and_of_a_registered_factory(
    registered_tokenizer: object,
) -> None:
    assert all(tokenizer_info(name).summary for name in available_tokenizers())
    assert tokenizer_info("char").extra is None

    def factory(use_stemmer: bool = False) -> AllCharacterSupportTokenizer:
        """Splits at spaces, for a test.

        More lines.
        """
        return AllCharacterSupportTokenizer()

    registered_tokenizer("test-split", factory)  # type: ignore[operator]
    assert tokenizer_info("test-split") == ("test-split", "Splits at spaces, for a test.", None)
    with pytest.raises(ValueError, match=r"unknown tokenizer 'nope'; available: burmese, char, "):
        tokenizer_info("nope")


@pytest.mark.parametrize("name", sorted(rules.SCANS))
def test_own_tokenizers_declare_their_scan_mode_and_name(name: str) -> None:
    tokenizer = get_tokenizer(name, use_stemmer=True)
    assert tokenizer.scan_mode == name  # type: ignore[attr-defined]
    assert tokenizer.signature_parts()["name"] == name  # type: ignore[attr-defined]


# ROUGE-1.5.5's text path has its own stemmer and no normalisation option.
@pytest.mark.parametrize("name", sorted(set(available_tokenizers()) - set(OPTIONAL) - {"rouge155"}))
def test_signature_parts_record_name_stemming_and_normalization(name: str) -> None:
    nltk = importlib.metadata.version("nltk")
    assert get_tokenizer(name).signature_parts() == {"name": name, "stem": "no"}  # type: ignore[attr-defined]
    stemmed = get_tokenizer(name, use_stemmer=True, normalize="nfkc")
    assert stemmed.signature_parts() == {  # type: ignore[attr-defined]
        "name": name,
        "stem": f"porter(nltk={nltk})",
        "normalize": "NFKC",
    }


def test_a_subclass_is_recorded_by_its_own_name() -> None:
    class Shouting(CharTokenizer):
        def tokenize(self, text: str) -> list[str]:
            return [token.upper() for token in super().tokenize(text)]

    assert Shouting().signature_parts()["name"] == f"{__name__}.{Shouting.__qualname__}"
    wrapped = normalizing(UnicodeTokenizer(), "NFC").signature_parts()
    assert wrapped == {"name": "unicode", "stem": "no", "normalize": "NFC"}


@pytest.mark.parametrize(
    ("name", "packages", "options"),
    [
        ("mecab", ("fugashi", "unidic-lite"), {}),
        ("sudachi", ("sudachipy", "sudachidict-core"), {"mode": "A"}),
        ("jieba", ("jieba",), {"hmm": "yes"}),
        (
            "kiwi",
            ("kiwipiepy",),
            {"kiwipiepy-model": importlib.metadata.version("kiwipiepy-model")},
        ),
        ("thai", ("pythainlp",), {}),
        ("lao", ("laonlp", "pythainlp"), {}),
        ("khmer", ("khmer-nltk", "sklearn-crfsuite", "python-crfsuite"), {}),
    ],
)
def test_analysers_record_their_packages_versions(
    name: str, packages: tuple[str, ...], options: dict[str, str]
) -> None:
    parts = get_tokenizer(name, use_stemmer=True).signature_parts()  # type: ignore[attr-defined]
    versions = {package: importlib.metadata.version(package) for package in packages}
    assert {k: v for k, v in parts.items() if k not in ("name", "stem")} == {**versions, **options}
    assert re.fullmatch(r"(lemma\+)?porter\(nltk=[^)]+\)", parts["stem"])
    assert parts["stem"].startswith("lemma+") == (name in ("mecab", "sudachi"))


def test_the_stemmer_filters_only_what_it_stemmed() -> None:
    # The morphological adapters' words may fail the filter as they are
    # (jieba's "c++", "5.00"): the filter judges stems, so they stay.
    stem = CachedPorterStemmer(keep=rules.keeps_stem("unicode")).stem_or_drop
    tokens = ("running", "c++", "naïve", "5.00", "1990s")
    assert [stem(token) for token in tokens] == ["run", "c++", "naïve", "5.00", "1990"]
    refusing = CachedPorterStemmer(keep=str.isalpha).stem_or_drop
    assert [refusing(token) for token in tokens] == [
        "run", "c++", "naïve", "5.00", None,  # "1990s" -> "1990": a stem it refuses
    ]  # fmt: skip


def test_jieba_keeps_a_word_the_stemmer_leaves_alone() -> None:
    pytest.importorskip("jieba")
    text = "我们 用 c++ 编程"
    assert "c++" in JiebaTokenizer().tokenize(text)
    assert "c++" in JiebaTokenizer(use_stemmer=True).tokenize(text)


def test_a_pickle_without_the_stemmer_attribute_loads() -> None:
    pytest.importorskip("jieba")
    fresh = JiebaTokenizer(use_stemmer=True)
    state = fresh.__getstate__()
    state["_porter"] = state.pop("stemmer")  # as kurenai 0.2.0 kept it
    old = JiebaTokenizer.__new__(JiebaTokenizer)
    old.__setstate__(state)
    text = "Running dogs 我们在北京"
    assert old.tokenize(text) == fresh.tokenize(text) == ["run", "dog", "我们", "在", "北京"]


def test_load_loads_the_analyser_before_the_first_tokenize() -> None:
    pytest.importorskip("jieba")
    tokenizer = JiebaTokenizer()
    assert tokenizer._resource is None
    tokenizer.load()
    assert tokenizer._resource is not None
    assert tokenizer.tokenize("我们在北京") == ["我们", "在", "北京"]


def test_rouge155_signature_parts_name_its_own_stemmer_and_stopwords() -> None:
    assert get_tokenizer("rouge155").signature_parts() == {"name": "rouge155", "stem": "no"}  # type: ignore[attr-defined]
    tokenizer = get_tokenizer("rouge155", use_stemmer=True, remove_stopwords=True)
    assert tokenizer.signature_parts() == {  # type: ignore[attr-defined]
        "name": "rouge155",
        "stem": "rouge155-porter",
        "stopwords": "smart",
    }

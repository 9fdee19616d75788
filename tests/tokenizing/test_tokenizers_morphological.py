"""The morphological adapters: MeCab, Sudachi, jieba, Kiwi.

Their packages come with the ``ja``/``zh``/``ko`` extras, which the ``test``
extra installs.  A test needing a missing package is skipped on a developer's
machine, but fails under ``CI`` (where a skip would hide a broken install).
Each analyser loads once per module: the fixtures are module-scoped.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import pickle
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kurenai._data.extras import pip_install
from kurenai.rouge_scorer import RougeScorer
from kurenai.tokenizers import (
    JiebaTokenizer,
    KiwiTokenizer,
    MeCabTokenizer,
    MorphologicalTokenizer,
    SudachiTokenizer,
    _morphological,
    get_tokenizer,
)

REPO = Path(__file__).resolve().parents[2]
WEATHER_SENTENCE = ["今日", "は", "とても", "良い", "天気", "だ"]
MODULES = {"mecab": "fugashi", "sudachi": "sudachipy", "jieba": "jieba", "kiwi": "kiwipiepy"}


def require(name: str) -> None:
    """Skip if the analyser behind ``name`` is missing, or fail under CI."""
    module = MODULES[name]
    if importlib.util.find_spec(module) is not None:
        return
    message = f"{module} is not installed (pip install 'kurenai[ja,zh,ko]')"
    if os.environ.get("CI"):
        pytest.fail(f"CI must install the tokenizer extras: {message}")
    pytest.skip(message)


@pytest.fixture(scope="module")
def mecab() -> MorphologicalTokenizer:
    require("mecab")
    return MeCabTokenizer()


@pytest.fixture(scope="module")
def mecab_stem() -> MorphologicalTokenizer:
    require("mecab")
    return MeCabTokenizer(use_stemmer=True)


@pytest.fixture(scope="module")
def sudachi() -> MorphologicalTokenizer:
    require("sudachi")
    return SudachiTokenizer()


@pytest.fixture(scope="module")
def jieba_tokenizer() -> MorphologicalTokenizer:
    require("jieba")
    return JiebaTokenizer()


@pytest.fixture(scope="module")
def kiwi() -> MorphologicalTokenizer:
    require("kiwi")
    return KiwiTokenizer()


@pytest.fixture(scope="module", params=sorted(MODULES))
def any_analyser(request: pytest.FixtureRequest) -> Iterator[MorphologicalTokenizer]:
    """Each adapter, shared with the per-analyser fixtures above."""
    yield request.getfixturevalue({"jieba": "jieba_tokenizer"}.get(request.param, request.param))


# ------------------------------------------------------------------ Japanese


def test_mecab_segments_a_plain_sentence(mecab: MorphologicalTokenizer) -> None:
    assert mecab.tokenize("今日はとても良い天気だ") == WEATHER_SENTENCE


def test_mecab_reads_unidic_lite_beside_an_undownloaded_unidic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """fugashi alone prefers the ``unidic`` package, which pip installs
    without its dictionary (``fugashi[unidic]``, a dependency of XL-Sum's
    scorer): kurenai's MeCab keeps to UniDic-lite, the dictionary it names."""
    require("mecab")
    import types

    fake = types.ModuleType("unidic")
    fake.DICDIR = str(tmp_path / "never-downloaded")  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "unidic", fake)
    assert MeCabTokenizer().tokenize("今日はとても良い天気だ") == WEATHER_SENTENCE
    # A dictionary the user names still decides.
    import fugashi

    with pytest.raises(RuntimeError):
        _morphological.mecab_tagger(fugashi, f"-d {tmp_path / 'missing'}")


def test_mecab_stemmer_uses_the_dictionary_form(mecab_stem: MorphologicalTokenizer) -> None:
    tokens = mecab_stem.tokenize("公園を走った。Running cats")
    assert tokens[:2] == ["公園", "を"]
    assert "走る" in tokens and "走っ" not in tokens
    assert tokens[-2:] == ["run", "cat"]


@pytest.mark.parametrize("mode", ["A", "B", "C"])
def test_sudachi_segments_a_plain_sentence(mode: str) -> None:
    require("sudachi")
    tokens = SudachiTokenizer(mode=mode).tokenize("今日はとても良い天気だ")
    assert tokens == WEATHER_SENTENCE


def test_sudachi_split_modes_differ_on_compounds() -> None:
    require("sudachi")
    text = "選挙管理委員会"
    short, long = SudachiTokenizer(mode="A"), SudachiTokenizer(mode="C")
    assert short.tokenize(text) == ["選挙", "管理", "委員", "会"]
    assert long.tokenize(text) == ["選挙管理委員会"]


def test_sudachi_stemmer_uses_the_dictionary_form() -> None:
    require("sudachi")
    assert SudachiTokenizer(use_stemmer=True).tokenize("走った")[0] == "走る"


def test_sudachi_rejects_an_unknown_mode() -> None:
    require("sudachi")
    with pytest.raises(ValueError, match="split mode"):
        SudachiTokenizer(mode="D")


# ----------------------------------------------------------- Chinese, Korean


def test_jieba_segments_chinese(jieba_tokenizer: MorphologicalTokenizer) -> None:
    assert jieba_tokenizer.tokenize("我爱Python3编程，hello world！") == [
        "我", "爱", "python3", "编程", "hello", "world"
    ]  # fmt: skip


def test_jieba_loads_quietly_and_caches_outside_the_repo(
    jieba_tokenizer: JiebaTokenizer, capfd: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # The shared instance may already be loaded; then load a fresh one here.
    fresh = jieba_tokenizer._resource is None
    tokenizer = jieba_tokenizer if fresh else JiebaTokenizer(cache_dir=str(tmp_path))
    assert tokenizer.tokenize("今天天气很好") == ["今天天气", "很", "好"]
    assert capfd.readouterr() == ("", "")
    for folder in {REPO, Path.cwd()}:
        assert not list(folder.glob("jieba*")), folder


def test_kiwi_segments_korean_into_morphemes(kiwi: MorphologicalTokenizer) -> None:
    tokens = kiwi.tokenize("오늘은 날씨가 정말 좋았다.")
    assert tokens[:4] == ["오늘", "은", "날씨", "가"]
    assert "." not in tokens and "좋" in tokens


# ------------------------------------------------------------- all adapters


@pytest.mark.parametrize("text", ["", " ", "\n\t\u3000 \n", "。、！？…😀"])
def test_nothing_to_tokenize(any_analyser: MorphologicalTokenizer, text: str) -> None:
    assert any_analyser.tokenize(text) == []


def test_mixed_script_text(any_analyser: MorphologicalTokenizer) -> None:
    tokens = any_analyser.tokenize("東京タワーは2024年にTokyo Towerと呼ばれた😀！")
    assert "tokyo" in tokens and "tower" in tokens
    assert any("2024" in token for token in tokens)
    assert not any("😀" in t or "！" in t or t.isspace() for t in tokens)
    assert all(t == t.lower() and t for t in tokens)


def test_full_width_forms_fold_with_nfkc(any_analyser: MorphologicalTokenizer) -> None:
    options = {"mode": "A"} if isinstance(any_analyser, SudachiTokenizer) else {}
    tokenizer = type(any_analyser)(normalize="NFKC", **options)
    tokenizer._resource = any_analyser._resource or any_analyser._load()  # share the model
    tokens = tokenizer.tokenize("ＡＢＣ １２３ テスト")
    assert "abc" in tokens and "123" in tokens


def test_combining_marks_stay_in_their_word(any_analyser: MorphologicalTokenizer) -> None:
    tokens = any_analyser.tokenize("Cafe\u0301 naïve")
    assert "naïve" in tokens
    assert any(t.startswith("cafe") for t in tokens)
    assert "\u0301" not in tokens


def test_identical_raw_texts_score_one(any_analyser: MorphologicalTokenizer) -> None:
    scorer = RougeScorer(["rouge1", "rouge2", "rougeL"], tokenizer=any_analyser)
    texts = ["今日はとても良い天気だ", "我今天很高兴。", "오늘은 날씨가 좋다", "Cristóbal naïve"]
    for text in texts:
        scores = scorer.score(text, text)
        assert scores["rouge1"].fmeasure == scores["rougeL"].fmeasure == 1.0
        # A one-token text has no bigram (Kiwi reads 我今天很高兴 as one Hanja word).
        expected = 1.0 if len(any_analyser.tokenize(text)) > 1 else 0.0
        assert scores["rouge2"].fmeasure == expected


def test_adapters_are_not_line_separable(any_analyser: MorphologicalTokenizer) -> None:
    assert type(any_analyser).line_separable is False


@pytest.mark.parametrize("name", sorted(MODULES))
def test_registry_names_and_use_stemmer(name: str) -> None:
    require(name)
    tokenizer = get_tokenizer(name, use_stemmer=True)
    assert isinstance(tokenizer, MorphologicalTokenizer) and tokenizer.name == name
    assert tokenizer._resource is None  # nothing loaded until the first tokenize
    assert repr(tokenizer) == f"{type(tokenizer).__name__}(use_stemmer=True, normalize=None)"


@pytest.mark.parametrize(
    ("name", "extra", "package"),
    [("mecab", "ja", "unidic-lite"), ("sudachi", "ja", "sudachidict-core"),
     ("jieba", "zh", "jieba"), ("kiwi", "ko", "kiwipiepy"), ("thai", "th", "pythainlp"),
     ("lao", "lo", "laonlp"), ("khmer", "km", "khmer-nltk")],
)  # fmt: skip
def test_missing_package_names_the_pip_command(
    monkeypatch: pytest.MonkeyPatch, name: str, extra: str, package: str
) -> None:
    monkeypatch.setattr(_morphological, "_installed", lambda module: False)
    with pytest.raises(
        ImportError,
        match=rf"needs .*{package}.*{re.escape(pip_install(extra))}",
    ):
        get_tokenizer(name)
    with pytest.raises(ImportError, match="pip install"):
        RougeScorer(["rouge1"], tokenizer=name)


def test_importing_kurenai_loads_no_analyser() -> None:
    code = (
        "import sys, kurenai, kurenai.tokenizers\n"
        "kurenai.tokenizers.get_tokenizer('char')\n"
        "print([m for m in ('fugashi', 'sudachipy', 'jieba', 'kiwipiepy', 'nltk')"
        " if m in sys.modules])"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    )
    assert result.stdout.strip() == "[]"


# ------------------------------------------------------- shared resources


class _CountingAnalyser(MorphologicalTokenizer):
    """A whitespace "analyser" that counts its loads (no package needed)."""

    name = "counting"
    extra = "none"
    requirements = ()
    loads = 0

    def __init__(self, dictionary: str = "a") -> None:
        super().__init__()
        self.dictionary = dictionary

    def _load_key(self) -> object:
        return self.dictionary

    def _load(self) -> object:
        type(self).loads += 1
        return f"dictionary {self.dictionary} #{type(self).loads}"

    def _analyser(self, resource: object) -> Callable[[str], list[str]]:
        return str.split


def test_instances_with_the_same_options_share_one_load(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_morphological, "_LOADED", _morphological.OrderedDict())
    monkeypatch.setattr(_CountingAnalyser, "loads", 0)
    first, second, other = _CountingAnalyser("a"), _CountingAnalyser("a"), _CountingAnalyser("b")
    for tokenizer in (first, second, other):
        assert tokenizer.tokenize("x y") == ["x", "y"]
    assert _CountingAnalyser.loads == 2
    assert first._resource is second._resource != other._resource


def test_the_process_keeps_a_bounded_number_of_loaded_resources(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_morphological, "_LOADED", _morphological.OrderedDict())
    monkeypatch.setattr(_CountingAnalyser, "loads", 0)
    limit = _morphological._LOADED_MAX
    for k in range(limit + 3):
        _CountingAnalyser(str(k)).tokenize("x")
    assert len(_morphological._LOADED) == limit
    _CountingAnalyser("0").tokenize("x")  # evicted, oldest first: loads again
    _CountingAnalyser(str(limit + 2)).tokenize("x")  # still cached
    assert _CountingAnalyser.loads == limit + 4


def test_a_pickled_analyser_loads_from_the_process_cache() -> None:
    tokenizer = _CountingAnalyser("pickled")
    tokenizer.tokenize("x")
    copy = pickle.loads(pickle.dumps(tokenizer))
    assert copy._resource is None
    copy.tokenize("x")
    assert copy._resource is tokenizer._resource


def test_kiwi_load_includes_its_first_analysis(monkeypatch: pytest.MonkeyPatch) -> None:
    """Kiwi builds most of its model at its first analysis (seconds), so
    ``load()`` analyses once: the command line's records/s then leaves the
    whole loading out (a fake kiwipiepy counts the analyses)."""
    require("kiwi")
    import types

    analysed: list[str] = []

    class FakeKiwi:
        def __init__(self, **options: object) -> None:
            pass

        def tokenize(self, text: str) -> list[object]:
            analysed.append(text)
            return [types.SimpleNamespace(form=word) for word in text.split()]

    fake = types.ModuleType("kiwipiepy")
    fake.__spec__ = importlib.machinery.ModuleSpec("kiwipiepy", None)
    fake.Kiwi = FakeKiwi  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "kiwipiepy", fake)
    monkeypatch.setattr(_morphological, "_LOADED", _morphological.OrderedDict())
    tokenizer = KiwiTokenizer()
    tokenizer.load()
    assert len(analysed) == 1  # loading ran the first analysis
    assert tokenizer.tokenize("오늘 날씨") == ["오늘", "날씨"]
    assert len(analysed) == 2  # scoring runs its own, no further warm-up

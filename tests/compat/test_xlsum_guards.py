"""The XL-Sum dialect's guards: what the main path's analysers already have.

- A text XL-Sum's package cannot take is refused with one ``XLSumLimitError``
  naming the limit: MeCab (through fugashi) crashes the process on a word of
  ~200,000 Latin letters, pyonmttok runs out of memory on a 50 MB line,
  jieba and pythainlp take minutes on 2M characters.  Every text within
  the limits scores as the package does (``test_xlsum.py``; here: at the
  limits themselves).
- jieba's dictionary cache lives in kurenai's private folder: nothing is
  written to or read from the shared temporary directory, where another
  user could plant a cache that ``marshal`` would load as the dictionary.
"""

from __future__ import annotations

import importlib.util
import marshal
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from optional import missing

from kurenai.compat import xlsum

REPO = Path(__file__).resolve().parents[2]

# A dictionary under which 今天天气很好 is one word (each prefix present, as
# jieba's own cache holds them).
_PLANTED = "今天天气很好"
_SEGMENT = (
    "from kurenai.compat._xlsum_tokens import segmenter;"
    "print('|'.join(segmenter('chinese')('今天天气很好')))"
)


def _isolated(tmp_path: Path) -> dict[str, str]:
    """An environment whose temporary directory and cache home are fresh."""
    shared = tmp_path / "shared-tmp"
    home = tmp_path / "home"
    shared.mkdir()
    home.mkdir(mode=0o700)
    env = dict(os.environ, TMPDIR=str(shared), HOME=str(home), XDG_CACHE_HOME=str(home / "c"))
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    return env


def _segment(env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-c", _SEGMENT], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _require(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        missing(f"{module} is not installed")


@pytest.mark.slow
def test_xlsum_jieba_neither_reads_nor_writes_the_shared_temp_dir(tmp_path: Path) -> None:
    _require("jieba")
    env = _isolated(tmp_path)
    shared = Path(env["TMPDIR"])
    assert _segment(env) == "今天天气|很|好"
    assert list(shared.iterdir()) == []  # nothing written there
    assert list((Path(env["XDG_CACHE_HOME"]) / "kurenai").glob("jieba*.cache"))
    # A planted cache in the shared folder changes nothing.
    freq = {_PLANTED[:k]: 0 for k in range(1, len(_PLANTED))} | {_PLANTED: 1}
    planted = shared / "jieba.cache"
    planted.write_bytes(marshal.dumps((freq, 1)))
    assert _segment(env) == "今天天气|很|好"
    # Negative control: jieba's own default reads the planted cache.
    control = f"import jieba, logging; jieba.setLogLevel(30); print(jieba.lcut({_PLANTED!r}))"
    done = subprocess.run(
        [sys.executable, "-c", control], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.stdout.strip() == str([_PLANTED])


def _child(code: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``code`` run in a child process with its address space capped at 4 GiB."""
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])
    )
    cap = "import resource; resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))\n"
    return subprocess.run(
        [sys.executable, "-c", cap + code], env=env, capture_output=True, text=True, timeout=timeout
    )


_UNIDIC = (
    "import os, unidic, unidic_lite\n"
    "if not os.path.exists(os.path.join(unidic.DICDIR, 'mecabrc')):\n"
    "    unidic.DICDIR = unidic_lite.DICDIR\n"
)


@pytest.mark.slow
def test_a_japanese_word_mecab_crashes_on_is_refused_in_one_line() -> None:
    _require("fugashi")
    code = _UNIDIC + (
        "from kurenai.compat import xlsum\n"
        "scorer = xlsum.RougeScorer(['rouge1', 'rougeLsum'], lang='japanese')\n"
        "try:\n"
        "    scorer.score('x' * 300_000, '東京都')\n"
        "except xlsum.XLSumLimitError as error:\n"
        "    print(error)\n"
    )
    done = _child(code)
    assert done.returncode == 0, (done.returncode, done.stderr[-500:])  # MeCab's crash: -11
    assert done.stdout == (
        "a word of 300,000 characters without a space or punctuation is over the XL-Sum "
        "dialect's limit of 10,000 for its segmenters and stemmers (MeCab crashes on one of "
        "~200,000; their time grows with its square)\n"
    )


@pytest.mark.slow
def test_kurenai_xlsum_refuses_the_record_in_one_line(tmp_path: Path) -> None:
    _require("fugashi")
    (tmp_path / "ja_long.txt").write_text("x" * 300_000 + "\n")
    (tmp_path / "ja_short.txt").write_text("東京都\n")
    code = _UNIDIC + (
        "import sys\nfrom kurenai.compat import xlsum_cli\n"
        f"sys.exit(xlsum_cli.main(['--lang', 'japanese', '--jobs', '1', '--no-stemmer', "
        f"{str(tmp_path / 'ja_long.txt')!r}, {str(tmp_path / 'ja_short.txt')!r}]))\n"
    )
    done = _child(code)
    assert done.returncode == 1, (done.returncode, done.stderr[-500:])  # an input's fault
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "limit of 10,000" in done.stderr


@pytest.mark.parametrize("lang", [None, "chinese"])
def test_a_text_over_max_chars_is_refused_before_any_tokenizer(lang: str | None) -> None:
    if lang:
        _require("jieba")
    # 2M code points: pyonmttok (lang None) held ~70 bytes each, jieba took minutes.
    text = ("中国人民银行 " if lang else "abc ") * 500_000
    scorer = xlsum.RougeScorer(["rouge1"], lang=lang)
    with pytest.raises(xlsum.XLSumLimitError, match=r"of 1,000,000 \(max_chars\)$"):
        scorer.score(text, "abc")
    with pytest.raises(ValueError, match=r"a text of 11 characters .* limit of 10 \(max_chars\)"):
        xlsum.RougeScorer(["rouge1"], lang=lang, max_chars=10).score("a, b, c, d, e, f", "a")
    assert xlsum.RougeScorer(["rouge1"], lang=lang, max_chars=11).score("a b c d e f", "a")


def test_no_limit_on_request() -> None:
    text = "abc " * 300_000  # 1.2M code points
    scores = xlsum.RougeScorer(["rouge1"], max_chars=None).score(text, "abc")
    assert scores["rouge1"].precision == 1.0


@pytest.fixture(scope="module")
def reference() -> object:
    """XL-Sum's own RougeScorer, its MeCab on UniDic-lite (full UniDic is a download)."""
    try:
        from multilingual_rouge import rouge_scorer
    except ImportError:
        missing("multilingual-rouge is not installed (the test extra)")
    _require("fugashi")
    import unidic
    import unidic_lite

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(unidic, "DICDIR", unidic_lite.DICDIR)
        yield rouge_scorer.RougeScorer


@pytest.mark.parametrize("lang", ["japanese", "chinese"])
@pytest.mark.parametrize("stem", [False, True])
def test_texts_at_the_limits_score_as_the_package(reference: object, lang: str, stem: bool) -> None:
    _require("jieba")
    word = "x" * xlsum.MAX_RUN  # the longest word an analyser is handed
    many = " ".join(["東京都に行った"] * 3000)  # 24,000 code points of short words
    # Short other sides: the package's LCS is quadratic in pure Python.
    texts = [(word, "x"), (many, "東京都"), (word + " 東京都", "東京 x")]
    if lang == "chinese":
        texts.append(("中国人民银行今天宣布降息" * 800, "中国人民银行"))  # one 9,600-character word
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the package's own warnings (no stemmer for Chinese)
        theirs = reference(types, lang=lang, use_stemmer=stem)  # type: ignore[operator]
        ours = xlsum.RougeScorer(types, lang=lang, use_stemmer=stem)
        for target, prediction in texts:
            assert ours.score(target, prediction) == theirs.score(target, prediction)
    with pytest.raises(xlsum.XLSumLimitError, match="a word of 10,001 characters"):
        ours.score(word + "x", "x")


@pytest.mark.parametrize("types", [["rougeLsum"], ["rouge1", "rougeLsum"]])
def test_a_word_over_max_run_is_refused_before_the_stemmer(types: list[str]) -> None:
    # Several Snowball stemmers are quadratic in a word's length (libstemmer's
    # Tamil: seconds on 40,000 code points); XL-Sum's package stems it anyway.
    scorer = xlsum.RougeScorer(types, lang="russian", use_stemmer=True)
    with pytest.raises(xlsum.XLSumLimitError, match="a word of 200,001 characters"):
        scorer.score("к" + "я" * 200_000, "кошка")
    assert scorer.score("кошками " * 3000, "кошка")  # a long text of short words is scored

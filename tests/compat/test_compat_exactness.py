"""kurenai.compat's numbers against the real packages, on generated text,
pltrdy's own test data (shipped in rouge-chinese's sdist), the seed's
examples and jieba-segmented Chinese.  Each reference runs in its own process
(``compat_references.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from compat_cases import assert_same
from compat_references import sdist_data, started
from hypothesis import given, settings
from hypothesis import strategies as st

# Every test here asks a reference package, installed from the package index.
pytestmark = pytest.mark.index

# Words and separators that reach every rule: dots and whitespace (rouge's
# sentences, the empty word), Chinese sentence ends, ellipses and quotes
# (rouge-chinese's cut_sent), repeats (exclusive counting, LCS ties).
WORDS = ["a", "b", "c", "the", "cat", "猫", "。", "！", "？", "?", "…", "”", "’", "，", "......"]
SEPARATORS = [" ", " ", " ", "  ", ".", ". ", "\n", "\t", "\u3000", ""]
text = st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(SEPARATORS)), max_size=14).map(
    lambda parts: "".join(w + s for w, s in parts)
)
METRICS_101 = ["rouge-1", "rouge-2", "rouge-3", "rouge-4", "rouge-5", "rouge-l"]
METRICS_100 = ["rouge-1", "rouge-2", "rouge-l"]


def options(metric_names: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {},
        optional={
            "metrics": st.lists(st.sampled_from(metric_names), min_size=1, max_size=4),
            "stats": st.lists(st.sampled_from(["r", "p", "f", "F"]), min_size=1, max_size=3),
            "return_lengths": st.booleans(),
            "raw_results": st.booleans(),
            "exclusive": st.booleans(),
        },
    )


calls = st.tuples(
    st.lists(st.tuples(text, text), min_size=1, max_size=4), st.booleans(), st.booleans()
)
SETTINGS = settings(max_examples=150, deadline=None)


def _call(pairs: list[tuple[str, str]], avg: bool, ignore_empty: bool) -> Any:
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    return [hyps, refs], {"avg": avg, "ignore_empty": ignore_empty}


@SETTINGS
@given(init=options(METRICS_101), call=calls)
def test_rouge_101_on_generated_text(init: dict[str, Any], call: Any) -> None:
    rouge_101 = started("rouge_101")
    assert_same(rouge_101, ([], init), _call(*call))


@SETTINGS
@given(init=options(METRICS_100), call=calls)
def test_rouge_100_on_generated_text(init: dict[str, Any], call: Any) -> None:
    rouge_100 = started("rouge_100")
    assert_same(rouge_100, ([], init), _call(*call))


@SETTINGS
@given(init=options(METRICS_101), call=calls)
def test_rouge_chinese_on_generated_text(init: dict[str, Any], call: Any) -> None:
    rouge_chinese_103 = started("rouge_chinese_103")
    assert_same(rouge_chinese_103, ([], init), _call(*call))


def _data(tests_dir: Path) -> tuple[list[str], list[str]]:
    data = json.loads((tests_dir / "data.json").read_text(encoding="utf-8"))
    return [d["hyp"] for d in data], [d["ref"] for d in data]


@pytest.mark.parametrize("exclusive", [None, True, False])
@pytest.mark.parametrize("avg", [False, True])
def test_pltrdy_test_data(exclusive: bool | None, avg: bool) -> None:
    sdist_tests = sdist_data()
    rouge_100 = started("rouge_100")
    rouge_101 = started("rouge_101")
    rouge_chinese_103 = started("rouge_chinese_103")
    hyps, refs = _data(sdist_tests)
    init: dict[str, Any] = {"return_lengths": True}
    if exclusive is not None:
        init["exclusive"] = exclusive
    for reference in (rouge_100, rouge_101, rouge_chinese_103):
        theirs = assert_same(reference, ([], init), ([hyps, refs], {"avg": avg}))
        assert "ok" in theirs


def test_files_rouge():
    sdist_tests = sdist_data()
    rouge_100 = started("rouge_100")
    rouge_101 = started("rouge_101")
    rouge_chinese_103 = started("rouge_chinese_103")
    paths = [str(sdist_tests / "hyp.txt"), str(sdist_tests / "ref.txt")]
    for reference in (rouge_100, rouge_101, rouge_chinese_103):
        for avg in (False, True):
            theirs = assert_same(reference, ([], {}), (paths, {"avg": avg}), cls="FilesRouge")
            assert "ok" in theirs


def test_files_rouge_edge_cases(tmp_path: Path) -> None:
    rouge_101 = started("rouge_101")
    rouge_chinese_103 = started("rouge_chinese_103")
    (tmp_path / "h").write_bytes("a b.\r\nc 。d\n\nlast".encode())
    (tmp_path / "r").write_bytes(b"a c\nc d\n x\nlast")
    (tmp_path / "short").write_bytes(b"a\n")
    cases = [
        ("h", "r", {}),
        ("h", "r", {"ignore_empty": True}),
        ("h", "short", {}),
        ("h", "absent", {}),
    ]
    for reference in (rouge_101, rouge_chinese_103):
        for hyp, ref, kwargs in cases:
            paths = [str(tmp_path / hyp), str(tmp_path / ref)]
            assert_same(reference, ([], {}), (paths, kwargs), cls="FilesRouge")


CHINESE = [
    "今天上午，国务院新闻办公室举行发布会，介绍了今年前三季度的经济运行情况。"
    "发言人表示，经济总体保持稳定，就业形势有所改善！消费和投资继续恢复吗？",
    "研究人员在南极冰层下发现了一种新的微生物……这种微生物可以在极低的温度下生存。"
    "专家认为，这一发现对研究地外生命具有重要意义。",
    "“我们会继续努力。”他说。比赛将于明天下午三点在北京举行",
]
CHINESE_HYPS = [
    "国务院新闻办公室今天举行发布会，介绍前三季度经济运行情况。发言人说经济保持稳定。",
    "科学家在南极发现新的微生物，它能在极低温度下生存……专家说这对研究地外生命很重要。",
    "他说：“我们会继续努力。”比赛明天在北京举行",
]


def test_jieba_segmented_chinese() -> None:
    rouge_101 = started("rouge_101")
    rouge_chinese_103 = started("rouge_chinese_103")
    jieba = pytest.importorskip("jieba")
    jieba.setLogLevel(60)
    hyps = [" ".join(jieba.cut(t)) for t in CHINESE_HYPS]
    refs = [" ".join(jieba.cut(t)) for t in CHINESE]
    for reference in (rouge_101, rouge_chinese_103):
        for exclusive in (True, False):
            for avg in (False, True):
                init = ([], {"exclusive": exclusive, "return_lengths": True})
                assert "ok" in assert_same(reference, init, ([hyps, refs], {"avg": avg}))


@pytest.mark.parametrize(
    ("init", "call"),
    [
        ({"metrics": ["rouge-9"]}, (["a"], ["a"])),
        ({"metrics": ["ROUGE-L"], "stats": ["x"]}, (["a"], ["a"])),
        ({}, (["a", "b"], ["a"])),
        ({}, (["a"], {"__tuple__": ["a"]})),
        ({}, ([""], ["a"])),
        ({}, (["a"], ["..."])),
        ({"metrics": ["rouge-l"]}, (["."], ["a"])),
        ({}, (["", "a"], ["a", "a"], False, True)),
        ({}, ([""], ["a"], False, True)),
        ({}, ([" "], [" "])),
        ({"raw_results": True}, (["a"], ["a"], True)),
        ({"raw_results": True}, ([""], ["a"], True)),
        ({"return_lengths": True}, ([], [], True)),
        ({"metrics": []}, ([], [], True)),
        ({}, ([], [])),
        ({}, ("a b", "b a")),
        ({"metrics": [], "return_lengths": True}, (["a b. c"], ["b"])),
    ],
)
def test_edge_cases_and_errors(init: Any, call: Any) -> None:
    rouge_100 = started("rouge_100")
    rouge_101 = started("rouge_101")
    rouge_chinese_103 = started("rouge_chinese_103")
    names = ("hyps", "refs", "avg", "ignore_empty")
    kwargs = dict(zip(names[2:], call[2:]))
    for reference in (rouge_100, rouge_101, rouge_chinese_103):
        assert_same(reference, ([], init), (list(call[:2]), kwargs))

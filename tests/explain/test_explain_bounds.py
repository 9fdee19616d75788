"""kurenai.explain stays within a budget like score(): no list of n² skip
units, no walk of sentence pairs that share nothing, ROUGE-W from the scoring
kernel's own walks; past the budget one clear error before any work, and the
report shows such a record without highlights."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kurenai import _backend, _lcs_py, _variants_py
from kurenai.explain import ExplainLimitError, _matches, explain
from kurenai.report import _highlights
from kurenai.rouge_scorer import RougeScorer


def _count_calls(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[int]:
    calls: list[int] = []
    original = getattr(module, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def _words(rng: random.Random, count: int, vocabulary: int) -> str:
    return " ".join(f"w{rng.randrange(vocabulary)}" for _ in range(count))


@pytest.mark.parametrize("rouge_type", ["rougeS", "rougeSU", "rougeS4000"])
def test_skip_grams_without_a_useful_gap_are_refused_before_listing(
    backend: str, rouge_type: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The audit's 10k tokens: 50M units a side, a MemoryError at 3.65 GB.
    rng = random.Random(1)
    target, prediction = _words(rng, 10_000, 50), _words(rng, 10_000, 50)
    scorer = RougeScorer([rouge_type])
    listed = _count_calls(monkeypatch, _variants_py, "skip_units")
    with pytest.raises(ExplainLimitError, match=f"{rouge_type} .*too costly to explain"):
        explain(scorer, target, prediction)
    assert listed == []  # refused before a single unit was listed
    if _backend.variants.__name__ == "kurenai._variants":  # the spec lists them: slow
        assert scorer.score(target, prediction)[rouge_type].fmeasure > 0  # still scored


def test_skip_grams_with_a_gap_stay_linear_and_are_explained(backend: str) -> None:
    rng = random.Random(2)
    target, prediction = _words(rng, 10_000, 50), _words(rng, 10_000, 50)
    scorer = RougeScorer(["rougeSU4"])
    assert explain(scorer, target, prediction).scores == scorer.score(target, prediction)


@settings(max_examples=200, deadline=None)
@given(n=st.integers(0, 60), gap=st.integers(-1, 70), unigrams=st.booleans())
def test_the_unit_count_is_the_listed_units(n: int, gap: int, unigrams: bool) -> None:
    assert _matches._skip_units(n, gap, unigrams) == len(
        _variants_py.skip_units(list(range(n)), gap, unigrams)
    )


def _disjoint_lines(lines: int, width: int, offset: int) -> str:
    # Line i holds tokens of its own: only line i of the other side shares any.
    return "\n".join(
        " ".join(f"l{i}x{(k + offset) % width}" for k in range(width)) for i in range(lines)
    )


@pytest.mark.parametrize("rouge_type", ["rougeLsum", "rougeW"])
def test_sentence_pairs_sharing_nothing_are_not_walked(
    backend: str, rouge_type: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = 3_000  # 9M pairs of sentences walked before, 3,000 now
    target, prediction = _disjoint_lines(lines, 3, 0), _disjoint_lines(lines, 3, 1)
    scorer = RougeScorer([rouge_type])
    expected = scorer.score(target, prediction)
    forms = _count_calls(monkeypatch, _lcs_py, "shared_form")  # Lsum: one per pair walked
    tables = _count_calls(monkeypatch, _variants_py, "wlcs_pairs")  # pure ROUGE-W: one per pair
    assert explain(scorer, target, prediction).scores == expected
    assert len(forms) <= 2 * lines and len(tables) <= lines


@pytest.mark.parametrize(
    ("rouge_type", "lines"), [("rougeLsum", 1_000), ("rougeLsum", 10_000), ("rougeW", 1_000)]
)
def test_equal_lines_are_explained_once(
    backend: str, rouge_type: str, lines: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The audit's 10,000 lines of 3 tokens: 126 s against score()'s 0.003 s.
    # (ROUGE-W's scoring kernel itself walks every pair of lines: lines² for
    # score() too, documented in docs/guides/untrusted-input.md.)
    text = "\n".join(["a b c"] * lines)
    scorer = RougeScorer([rouge_type])
    expected = scorer.score(text, text)
    forms = _count_calls(monkeypatch, _lcs_py, "shared_form")
    tables = _count_calls(monkeypatch, _variants_py, "wlcs_pairs")
    found = explain(scorer, text, text)
    assert found.scores == expected
    assert len(found[rouge_type].matched_text("target")) == 3 * lines
    assert len(forms) <= 2 * lines + 1 and len(tables) <= lines  # linear, not lines²


# The compiled paths only: the spec's tables are refused past the budget (below).
@pytest.mark.parametrize(
    "backend",
    [pytest.param(n, marks=pytest.mark.compiled_only) for n in ("fused", "compiled")],
    indirect=True,
)
def test_rouge_w_on_the_compiled_kernels_costs_what_scoring_does(
    backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _backend.variants.__name__ == "kurenai._variants"
    rng = random.Random(3)
    # The audit's 10k tokens on one line: 19.7 s and 1.57 GB in the spec's tables.
    target, prediction = _words(rng, 10_000, 300), _words(rng, 10_000, 300)
    scorer = RougeScorer(["rougeW"])
    tables = _count_calls(monkeypatch, _variants_py, "wlcs_pairs")
    assert explain(scorer, target, prediction).scores == scorer.score(target, prediction)
    assert tables == []  # the compiled walks (wlcs_marks), no Python table


@pytest.mark.parametrize("rouge_type", ["rougeLsum", "rougeW", "rougeL"])
def test_the_pure_tables_are_refused_past_the_budget(
    rouge_type: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_backend, "kernels", _lcs_py)
    monkeypatch.setattr(_backend, "variants", _variants_py)
    monkeypatch.setattr(_matches, "MAX_WORK", 20_000)
    rng = random.Random(4)
    scorer = RougeScorer([rouge_type])
    small = _words(rng, 100, 20), _words(rng, 100, 20)  # 10,000 cells: explained
    assert explain(scorer, *small).scores == scorer.score(*small)
    large = _words(rng, 300, 20), _words(rng, 300, 20)  # 90,000 cells: refused
    with pytest.raises(ExplainLimitError, match="MAX_WORK"):
        explain(scorer, *large)


def test_the_budget_is_checked_for_every_type_before_any_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(5)
    target, prediction = _words(rng, 3_000, 50), _words(rng, 3_000, 50)
    scorer = RougeScorer(["rouge1", "rougeSU4", "rougeS"])
    listed = _count_calls(monkeypatch, _variants_py, "skip_units")
    with pytest.raises(ExplainLimitError, match="rougeS "):
        explain(scorer, target, prediction)
    assert listed == []  # rougeSU4, before rougeS and within budget, was not explained either


def test_a_record_too_costly_to_explain_is_shown_without_highlights() -> None:
    rng = random.Random(6)
    long = _words(rng, 5_000, 50)
    targets = ["the cat sat", long, "a b"]
    systems = {"one": ["the cat", _words(rng, 5_000, 50), "a"], "two": ["cat", "w1", "b"]}
    scorer = RougeScorer(["rouge1", "rougeS"])
    found = _highlights.highlights(scorer, targets, systems, [0, 1, 2])
    assert found[1] is None
    assert found[0] is not None and found[2] is not None
    assert found[0]["one"]["rouge1"] == [[0, 3, 4, 7], [0, 3, 4, 7]]  # control: highlighted

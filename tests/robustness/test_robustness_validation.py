"""Arguments that would make the numbers meaningless are refused up front.

``rouge_w_weight`` outside [1, 5] (w -> 0 gave P = R = inf and F = nan; from
w = 10 the pure twin raised OverflowError on a 2,000-token sentence where the
compiled one returned numbers), and references of a type whose iteration is
not a list of texts (a dict's keys, a set's unordered members, bytes'
integers): one clear error, the same on every path.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

import pytest

from kurenai import _backend, _lcs_py, _variants_py, metrics
from kurenai._core.plan import MAX_W_WEIGHT, MIN_W_WEIGHT
from kurenai.rouge_scorer import RougeScorer
from kurenai.scoring import Score


@pytest.mark.parametrize("weight", [1e-300, 0.5, 0.999, 5.000001, 10, 100, 1e300])
def test_a_weight_outside_the_finite_range_is_refused(backend: str, weight: float) -> None:
    with pytest.raises(ValueError, match=r"rouge_w_weight must be between 1 and 5"):
        RougeScorer(["rougeW"], rouge_w_weight=weight)


def _text(rng: random.Random, tokens: int, lines: int) -> str:
    words = [f"w{i}" for i in range(25)]
    return "\n".join(" ".join(rng.choice(words) for _ in range(tokens)) for _ in range(lines))


def _pairs() -> list[tuple[str, str]]:
    rng = random.Random(7)
    shapes = [(3, 4, 1), (60, 50, 4), (2_500, 2_000, 1)]
    pairs = [(_text(rng, t, lines), _text(rng, p, lines)) for t, p, lines in shapes]
    return [*pairs, ("a b c d e", "a b c d e"), ("a b", "c d")]


@pytest.mark.parametrize("weight", [MIN_W_WEIGHT, 1.2, 3.3, MAX_W_WEIGHT])
def test_every_weight_in_range_gives_finite_scores_in_the_unit_interval(
    backend: str, weight: float
) -> None:
    scorer = RougeScorer(["rougeW"], rouge_w_weight=weight)
    for target, prediction in _pairs():
        score = scorer.score(target, prediction)["rougeW"]
        assert all(math.isfinite(x) and 0 <= x <= 1 for x in score), (weight, score)
    # Identical 3-token texts: P = 1, and R = 3 ** (1 - w) from Perl's double
    # weighting of the target's length (f⁻¹(3 ** w / (3 ** w) ** w)).
    same = scorer.score("a b c", "a b c")["rougeW"]
    assert same.precision == 1.0
    assert same.recall == pytest.approx(3.0 ** (1 - weight), rel=1e-12)


@pytest.mark.compiled_only
@pytest.mark.parametrize("weight", [MIN_W_WEIGHT, 1.2, 3.3, MAX_W_WEIGHT])
def test_both_twins_agree_at_every_weight_in_range(
    weight: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kurenai import _lcs, _variants

    def scores(kernels: Any, fused: Any, variants: Any) -> list[Score]:
        monkeypatch.setattr(_backend, "kernels", kernels)
        monkeypatch.setattr(_backend, "fused", fused)
        monkeypatch.setattr(_backend, "variants", variants)
        scorer = RougeScorer(["rougeW"], rouge_w_weight=weight)
        return [scorer.score(t, p)["rougeW"] for t, p in _pairs()]

    compiled = scores(_lcs, _backend.fused, _variants)
    assert compiled == scores(_lcs_py, None, _variants_py)


SCORER = RougeScorer(["rouge1"])
# Each surface that takes references, called with one record's references.
SURFACES: dict[str, Callable[[Any], object]] = {
    "metrics.compute": lambda group: metrics.compute(predictions=["a"], references=[group]),
    "score_multi": lambda group: SCORER.score_multi(group, "a"),
    "score_multi_batch": lambda group: SCORER.score_multi_batch([group], ["a"]),
    "score_batch": lambda group: SCORER.score_batch([group], ["a"]),
}
WRONG = {
    "dict": ({"a": 1}, "dict"),
    "set": ({"a", "b"}, "set"),
    "frozenset": (frozenset({"a"}), "frozenset"),
    "bytes": (b"a", "bytes"),
    "bytearray": (bytearray(b"a"), "bytearray"),
}


@pytest.mark.parametrize("wrong", sorted(WRONG))
@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_references_of_a_wrong_type_are_one_type_error(
    backend: str, surface: str, wrong: str
) -> None:
    group, type_name = WRONG[wrong]
    # score_multi's group is its whole ``targets``; bytes there are "a single string".
    name = r"targets" if surface == "score_multi" else r"\w+\[0\]"
    expected = rf"^{name} must be a (str|list of str).*(got {type_name}\b|not a single string)"
    with pytest.raises(TypeError, match=expected):
        SURFACES[surface](group)


@pytest.mark.parametrize("wrong", ["dict", "set", "frozenset"])
def test_a_whole_column_of_a_wrong_type_is_one_type_error(backend: str, wrong: str) -> None:
    column = {"dict": {"a": 1}, "set": {"a"}, "frozenset": frozenset({"a"})}[wrong]
    with pytest.raises(TypeError, match=rf"^references must be .*got {wrong}"):
        metrics.compute(predictions=["a"], references=column)
    with pytest.raises(TypeError, match=rf"^targets must be .*got {wrong}"):
        SCORER.score_batch(column, ["a"])
    with pytest.raises(TypeError, match=rf"^predictions must be .*got {wrong}"):
        SCORER.score_batch(["a"], column)
    with pytest.raises(TypeError, match=rf"^targets must be a list of str, got {wrong}"):
        SCORER.score_multi(column, "a")


def test_ordered_reference_lists_still_score(backend: str) -> None:
    expected = SCORER.score_multi(["a b", "a"], "a")
    assert SCORER.score_multi(("a b", "a"), "a") == expected
    assert SCORER.score_multi(iter(["a b", "a"]), "a") == expected
    table = metrics.compute(predictions=["a"], references=[("a b", "a")], use_aggregator=False)
    assert table["rouge1"] == [expected["rouge1"].fmeasure]

"""score_batch on two threads with stemming: the threads share the fused
plan's stem cache (kurenai/_kernels/_fused_stems.pxd), filled only under the GIL.

Its own module: the ``backend`` fixture is module-scoped, and the other stem
cache tests must run on the compiled plan."""

from __future__ import annotations

import random

import pytest
from conftest import on_compiled_plan
from rouge_score import rouge_scorer as rs

from kurenai.rouge_scorer import RougeScorer

FOUR = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def _pairs(n: int, seed: int) -> tuple[list[str], list[str]]:
    rng = random.Random(seed)
    stems = [f"w{k}" for k in range(400)]
    suffixes = ["", "s", "ing", "ed", "ation", "ies", "ness", "ly"]

    def text() -> str:
        return " ".join(rng.choice(stems) + rng.choice(suffixes) for _ in range(rng.randrange(70)))

    return [text() for _ in range(n)], [text() for _ in range(n)]


@pytest.mark.parametrize(
    ("backend", "max_bytes"),
    [
        pytest.param("fused", None, marks=pytest.mark.compiled_only),
        pytest.param("compiled", None, marks=pytest.mark.compiled_only),
        ("python", None),
        # The stem cache is the compiled plan's.
        pytest.param("fused", 4_000, marks=pytest.mark.compiled_only),
    ],
    indirect=["backend"],
)
def test_score_batch_on_two_threads_equals_rouge_score(backend: str, max_bytes: int | None) -> None:
    """Many distinct tokens, a cache small enough to be emptied while the
    other thread stems: the same numbers as rouge-score, in order."""
    targets, predictions = _pairs(600, seed=1)
    ours = RougeScorer(FOUR, use_stemmer=True, tokenizer="rouge-score")
    if max_bytes is not None:
        assert on_compiled_plan(ours)
        ours.plan._stem_cache(max_bytes)
    theirs = rs.RougeScorer(FOUR, use_stemmer=True)
    expected = [theirs.score(t, p) for t, p in zip(targets, predictions)]
    for _ in range(2):
        assert ours.score_batch(targets, predictions, n_jobs=2) == expected
    assert [ours.score(t, p) for t, p in zip(targets, predictions)] == expected

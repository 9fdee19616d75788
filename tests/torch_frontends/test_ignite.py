"""kurenai.ignite against pytorch-ignite's own Rouge, RougeN and RougeL: the
same results, float for float (``==``), on generated token sequences (ties,
repeated tokens, non-ASCII and integer tokens, empty sequences, several
references, both ``multiref`` modes, several ``alpha``), on both kernel
implementations; the same API (engine, ``output_transform``, state dicts);
and clear errors for input ignite would misread."""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from optional import missing


@pytest.fixture(scope="module")
def ignite_metrics() -> Iterator[ModuleType]:
    """pytorch-ignite's ``ignite.metrics``: the reference."""
    try:
        import ignite.metrics
    except ImportError:
        missing("pytorch-ignite (the ignite extra, with torch) is not installed")
    yield ignite.metrics


@pytest.fixture(scope="module")
def ours(ignite_metrics: ModuleType) -> ModuleType:
    import kurenai.ignite

    return kurenai.ignite


Batch = tuple[list[list[Any]], list[list[list[Any]]]]

# Few distinct tokens, so that n-grams repeat and recalls tie; non-ASCII,
# a token that is a prefix of another, integers (1 and True are one token to
# Python, and to ignite's Counter).
TOKENS = st.sampled_from(["a", "b", "the", "th", "é", "猫", "ｃａｔ", "", " ", 1, 2, True])
SEQUENCE = st.lists(TOKENS, max_size=9)
BATCH = st.integers(1, 4).flatmap(
    lambda n: st.tuples(
        st.lists(SEQUENCE, min_size=n, max_size=n),
        st.lists(st.lists(SEQUENCE, min_size=1, max_size=3), min_size=n, max_size=n),
    )
)
VARIANTS = st.lists(st.one_of(st.just("L"), st.integers(1, 4)), min_size=1, max_size=4)
ALPHA = st.one_of(st.sampled_from([0, 1, 0.5, 0.3, 0.8]), st.floats(0, 1))


def _run(metric: Any, batches: list[Batch]) -> dict[str, float]:
    for batch in batches:
        metric.update(batch)
    return dict(metric.compute())


def _both(
    ignite_metrics: ModuleType, ours: ModuleType, name: str, batches: list[Batch], **kwargs: Any
) -> tuple[dict[str, float], dict[str, float]]:
    theirs = _run(getattr(ignite_metrics, name)(**kwargs), batches)
    return theirs, _run(getattr(ours, name)(**kwargs), batches)


@settings(max_examples=60)
@given(
    batches=st.lists(BATCH, min_size=1, max_size=3),
    variants=VARIANTS,
    multiref=st.sampled_from(["average", "best"]),
    alpha=ALPHA,
)
def test_rouge_equals_ignites(
    ignite_metrics: ModuleType,
    ours: ModuleType,
    kernels: ModuleType,
    batches: list[Batch],
    variants: list[Any],
    multiref: str,
    alpha: float,
) -> None:
    theirs, found = _both(
        ignite_metrics, ours, "Rouge", batches, variants=variants, multiref=multiref, alpha=alpha
    )
    assert found == theirs
    assert list(found) == list(theirs)  # the keys in ignite's order


@settings(max_examples=30)
@given(
    batches=st.lists(BATCH, min_size=1, max_size=2),
    ngram=st.integers(1, 5),
    multiref=st.sampled_from(["average", "best"]),
    alpha=ALPHA,
)
def test_rouge_n_and_l_equal_ignites(
    ignite_metrics: ModuleType,
    ours: ModuleType,
    kernels: ModuleType,
    batches: list[Batch],
    ngram: int,
    multiref: str,
    alpha: float,
) -> None:
    theirs, found = _both(
        ignite_metrics, ours, "RougeN", batches, ngram=ngram, multiref=multiref, alpha=alpha
    )
    assert found == theirs
    theirs, found = _both(ignite_metrics, ours, "RougeL", batches, multiref=multiref, alpha=alpha)
    assert found == theirs


# Recall ties between two references with different precisions: ignite's
# "best" keeps the first (1/2 recall each; precision 1/3 against 2/3).
TIE: Batch = ([["a", "b", "c"]], [[["a", "x"], ["a", "b", "y", "z"]]])


def test_the_harness_catches_a_reducer_keeping_the_last_tie(
    ignite_metrics: ModuleType, ours: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    theirs, found = _both(ignite_metrics, ours, "RougeN", [TIE], ngram=1, multiref="best")
    assert found == theirs and found["Rouge-1-P"] == 1 / 3

    def last_of_ties(triples: list[tuple[int, int, int]], multiref: str) -> tuple[float, float]:
        best = max(reversed(triples), key=lambda t: t[0] / t[2] if t[2] else 0)
        return best[0] / best[1] if best[1] else 0, best[0] / best[2] if best[2] else 0

    monkeypatch.setattr(ours._counts, "_reduced", last_of_ties)
    theirs, found = _both(ignite_metrics, ours, "RougeN", [TIE], ngram=1, multiref="best")
    assert found != theirs


def test_the_documented_examples(ours: ModuleType) -> None:
    # ignite's docstrings' numbers (Rouge, RougeN, RougeL).
    candidate = ["the", "cat", "is", "not", "there"]
    references = [
        ["the", "cat", "is", "on", "the", "mat"],
        ["there", "is", "a", "cat", "on", "the", "mat"],
    ]
    rouge = ours.Rouge(variants=["L", 2], multiref="best")
    rouge.update(([candidate], [references]))
    assert rouge.compute() == {
        "Rouge-L-P": 0.6,
        "Rouge-L-R": 0.5,
        "Rouge-L-F": 0.5,
        "Rouge-2-P": 0.5,
        "Rouge-2-R": 0.4,
        "Rouge-2-F": 0.4,
    }


def test_default_variants_and_keys(ignite_metrics: ModuleType, ours: ModuleType) -> None:
    batch: Batch = ([["a", "b"]], [[["a", "c"]]])
    theirs, found = _both(ignite_metrics, ours, "Rouge", [batch])
    assert list(found) == list(theirs) == [f"Rouge-{v}-{m}" for v in (1, 2, 4, "L") for m in "PRF"]
    assert found == theirs


def test_an_engine_with_output_transform_and_mapping_output(
    ignite_metrics: ModuleType, ours: ModuleType
) -> None:
    from ignite.engine import Engine

    batches = [
        {"pred": [["a", "b", "c"]], "refs": [[["a", "c"], ["b"]]]},
        {"pred": [["猫", "a"], []], "refs": [[["猫"]], [["a"]]]},
    ]

    def step(engine: Any, batch: dict[str, Any]) -> dict[str, Any]:
        return {"y_pred": batch["pred"], "y": batch["refs"], "loss": 0.0}

    results = []
    for library in (ignite_metrics, ours):
        engine = Engine(step)
        metric = library.Rouge(
            variants=[1, "L"],
            alpha=0.5,
            output_transform=lambda out: {"y_pred": out["y_pred"], "y": out["y"]},
            device="cpu",
        )
        metric.attach(engine, "rouge")
        engine.run(batches, max_epochs=1)
        results.append({k: v for k, v in engine.state.metrics.items() if k.startswith("Rouge")})
        assert engine.state.metrics["rouge"] == results[-1]
    assert results[0] == results[1]
    # update takes the mapping too (ignite's would read its keys as the batch).
    metric = ours.Rouge(variants=[1, "L"], alpha=0.5)
    for batch in batches:
        metric.update({"y_pred": batch["pred"], "y": batch["refs"]})
    assert metric.compute() == results[0]


def test_state_dicts_move_between_the_libraries(
    ignite_metrics: ModuleType, ours: ModuleType
) -> None:
    first: Batch = ([["a", "b", "c"]], [[["a", "c"], ["b", "d"]]])
    second: Batch = ([["b", "a"], ["c"]], [[["a", "b"]], [["c", "c"]]])
    kwargs: dict[str, Any] = {"variants": [1, 2, "L"], "multiref": "best", "alpha": 0.3}
    whole = _run(ignite_metrics.Rouge(**kwargs), [first, second])
    for source, target in ((ignite_metrics, ours), (ours, ignite_metrics)):
        saved = source.Rouge(**kwargs)
        saved.update(first)
        loaded = target.Rouge(**kwargs)
        loaded.load_state_dict(saved.state_dict())
        assert _run(loaded, [second]) == whole
    single = ours.RougeL()
    single.update(first)
    reference = ignite_metrics.RougeL()
    reference.load_state_dict(single.state_dict())
    assert reference.compute() == single.compute()


def test_reset_and_nothing_to_compute(ours: ModuleType) -> None:
    from ignite.exceptions import NotComputableError

    metric = ours.Rouge(variants=[1])
    with pytest.raises(NotComputableError, match="at least one example"):
        metric.compute()
    metric.update(([["a"]], [[["a"]]]))
    assert metric.compute()["Rouge-1-R"] == 1.0
    metric.reset()
    with pytest.raises(NotComputableError):
        metric.compute()


# ------------------------------------------------------------ arguments


@pytest.mark.parametrize(
    ("name", "kwargs", "error", "message"),
    [
        ("RougeN", {"ngram": 0}, ValueError, r"ngram order must be greater than zero"),
        ("RougeN", {"alpha": -1}, ValueError, r"alpha must be in interval \[0, 1\]"),
        ("RougeN", {"alpha": 2}, ValueError, r"alpha must be in interval \[0, 1\]"),
        ("RougeL", {"alpha": float("nan")}, ValueError, r"alpha must be in interval \[0, 1\]"),
        (
            "RougeN",
            {"multiref": ""},
            ValueError,
            r"multiref : valid values are \['best', 'average'\] ",
        ),
        ("Rouge", {"multiref": "unknown"}, ValueError, r"multiref : valid values"),
        (
            "Rouge",
            {"variants": ["error"]},
            ValueError,
            r"variant must be 'L' or integer greater to zero",
        ),
        ("Rouge", {"variants": [0]}, ValueError, r"ngram order must be greater than zero"),
        ("Rouge", {"variants": ["l"]}, ValueError, r"variant must be 'L'"),
        ("Rouge", {"output_transform": 3}, TypeError, r"output_transform should be callable"),
    ],
)
def test_arguments_get_ignites_errors(
    ignite_metrics: ModuleType,
    ours: ModuleType,
    name: str,
    kwargs: dict[str, Any],
    error: type[Exception],
    message: str,
) -> None:
    for library in (ignite_metrics, ours):
        with pytest.raises(error, match=message):
            getattr(library, name)(**kwargs)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"ngram": 2.0}, "ngram order must be an int"), ({"ngram": True}, "must be an int")],
)
def test_a_non_int_order_is_refused_at_once(
    ours: ModuleType, kwargs: dict[str, Any], message: str
) -> None:
    # ignite takes them, then names its keys Rouge-2.0 or fails in update.
    with pytest.raises(TypeError, match=message):
        ours.RougeN(**kwargs)
    with pytest.raises(ValueError, match="variant must be 'L'"):
        ours.Rouge(variants=[True])


@pytest.mark.parametrize(
    ("output", "error", "message"),
    [
        # Words as one string against tokens: a missing split().
        (([" the cat"], [[["the", "cat"]]]), TypeError, r"y_pred\[0\] is a str but its reference"),
        # One level of nesting missing in y: each token read as a reference.
        (
            ([["the", "cat"]], [["the", "cat"]]),
            TypeError,
            r"y\[0\]\[0\] \(a reference\) is a str but",
        ),
        (([["a"]], ["the cat"]), TypeError, r"y\[0\] \(the references of candidate 0\) is a str"),
        ((["the cat"], "the cat"), TypeError, r"y \(the batch's references\) is a str"),
        (("ab", [["a"], ["b"]]), TypeError, r"y_pred \(the batch's candidates\) is a str"),
        (([b"ab"], [[[b"a"]]]), TypeError, r"y_pred\[0\] \(a candidate\) is bytes"),
        (([None], [[["a"]]]), TypeError, r"y_pred\[0\] \(a candidate\) must be a sequence"),
        (([["a"]], [[None]]), TypeError, r"y\[0\]\[0\] \(a reference\) must be a sequence"),
        (([["a"]], [[[["x"], "y"]]]), TypeError, "unhashable"),
        # Mismatched lengths: ignite's zip would drop the extra candidates.
        (([["a"], ["b"]], [[["a"]]]), ValueError, "y_pred has 2 candidates but y has 1 groups"),
        (([["a"]], [[["a"]], [["b"]]]), ValueError, "y_pred has 1 candidates but y has 2 groups"),
        # No reference: ignite scores 0 ("average") or fails in max() ("best").
        (([["a"]], [[]]), ValueError, r"y\[0\] .* is empty: each candidate needs"),
        (([["a"]],), ValueError, r"update expects \(y_pred, y\)"),
        ("ab", ValueError, r"update expects \(y_pred, y\)"),
        ({"y_pred": [["a"]]}, ValueError, "update's mapping has no 'y' key"),
    ],
)
def test_bad_input_is_refused_whole(
    ours: ModuleType, output: Any, error: type[Exception], message: str
) -> None:
    for metric in (ours.Rouge(variants=[1, "L"]), ours.RougeN(ngram=1), ours.RougeL()):
        with pytest.raises(error, match=message):
            metric.update(output)
        # Nothing of the batch was added.
        inner = metric.internal_metrics if isinstance(metric, ours.Rouge) else [metric]
        assert all(m._num_examples == 0 for m in inner)


def test_tensors_are_refused_with_the_fix(ours: ModuleType) -> None:
    import torch

    ids = torch.tensor([[1, 2, 3]])
    with pytest.raises(
        TypeError, match=r"y_pred \(the batch's candidates\) is a torch.Tensor.*tolist"
    ):
        ours.RougeL().update((ids, [[[1, 2]]]))
    with pytest.raises(TypeError, match=r"y\[0\]\[0\] \(a reference\) is a torch.Tensor"):
        ours.RougeL().update(([[1, 2]], [[torch.tensor([1, 2])]]))
    metric = ours.RougeL()
    metric.update((ids.tolist(), [[[1, 2]]]))
    assert metric.compute()["Rouge-L-R"] == 1.0


@settings(max_examples=30)
@given(
    texts=st.lists(
        st.tuples(
            st.text("ab猫 ", max_size=8),
            st.lists(st.text("ab猫 ", max_size=8), min_size=1, max_size=3),
        ),
        min_size=1,
        max_size=3,
    ),
    multiref=st.sampled_from(["average", "best"]),
)
def test_strings_are_their_characters_as_in_ignite(
    ignite_metrics: ModuleType, ours: ModuleType, texts: list[Any], multiref: str
) -> None:
    # ignite's own tests score "abcdef" against "zbdfz": characters as tokens.
    batch = ([c for c, _ in texts], [r for _, r in texts])
    theirs, found = _both(
        ignite_metrics, ours, "Rouge", [batch], variants=[1, 2, "L"], multiref=multiref
    )
    assert found == theirs


def test_sequences_other_than_lists_count_the_same(
    ignite_metrics: ModuleType, ours: ModuleType
) -> None:
    import numpy as np

    batch = ((("a", "b", "b"), np.array([3, 4, 4])), ([("b", "a")], (np.array([4, 3]),)))
    theirs, found = _both(ignite_metrics, ours, "Rouge", [batch], variants=[1, 2, "L"])
    assert found == theirs


@pytest.mark.slow
def test_import_kurenai_loads_neither_torch_nor_ignite() -> None:
    import subprocess
    import sys

    code = (
        "import sys, kurenai, kurenai.rouge_scorer, kurenai.metrics; "
        "print(sorted({'torch', 'ignite'} & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"

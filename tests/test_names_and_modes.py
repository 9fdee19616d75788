"""Every surface takes the same ROUGE type names and multi-reference modes,
with the same meaning, and refuses the same ones with the same message:
``RougeScorer`` (``score``, ``score_multi``, ``score_multi_batch``),
``is_rouge_type``, the command line (``--rouge-types``, ``--fail-under``,
``--multi-ref-mode``) and ``kurenai.metrics``.  ``kurenai.spark`` is held to
the same lists in ``tests/spark/test_spark.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_support import Result, call_main
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from type_names import ACCEPTED, DETECTED, REJECTED, refusal

from kurenai import metrics
from kurenai._core import multiref as _multiref
from kurenai._core import names as _names
from kurenai._core.kinds import MAX_GAP
from kurenai.rouge_scorer import RougeScorer, is_rouge_type

TARGETS = ["the cat sat on the mat\nit was warm", "a dog ran far\naway from home"]
PREDICTIONS = ["the cat lay on a mat\nwarm it was", "the dog ran away\nfar from home"]
REFERENCES = [[TARGETS[0], "a cat was on the mat"], [TARGETS[1], "dogs run", TARGETS[0]]]
MODES = [*(mode.name for mode in _multiref.MODES), "avg"]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Any:
    """``cli(*options, multi=False)``: the command line on the pairs above
    (JSONL with reference lists when ``multi``), its report parsed."""

    def run(*options: str, multi: bool = False) -> tuple[Result, list[dict[str, Any]]]:
        targets = REFERENCES if multi else TARGETS
        path = tmp_path / "corpus.jsonl"
        rows = [{"target": t, "prediction": p} for t, p in zip(targets, PREDICTIONS)]
        path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
        argv = ["--target-file", str(path), "--prediction-file", str(path)]
        result = call_main(capsys, *argv, "--output-format", "jsonl", *options)
        return result, [json.loads(line) for line in result.out.splitlines()]

    return run


def scores(scorer: RougeScorer, name: str) -> list[dict[str, float]]:
    return [scorer.score(t, p)[name]._asdict() for t, p in zip(TARGETS, PREDICTIONS)]


# ------------------------------------------------------------ type names


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_every_surface_takes_an_accepted_name_as_its_type(cli: Any, name: str) -> None:
    rouge_type = ACCEPTED[name]
    plain = RougeScorer([rouge_type])
    scorer = RougeScorer([name])
    assert is_rouge_type(name) and scorer.rouge_types == (name,)
    # Keyed by the name as given, scored as its type.
    assert scores(scorer, name) == scores(plain, rouge_type)
    for mode in MODES:
        ours = scorer.score_multi(REFERENCES[1], PREDICTIONS[1], mode=mode)
        assert ours == {name: plain.score_multi(REFERENCES[1], PREDICTIONS[1], mode)[rouge_type]}
    got = metrics.compute(PREDICTIONS, TARGETS, [name], use_aggregator=False)
    assert got == {name: [s["fmeasure"] for s in scores(plain, rouge_type)]}
    result, records = cli("--rouge-types", name)
    assert result.code == 0 and [r[name] for r in records] == scores(plain, rouge_type)
    result, _ = cli("--rouge-types", name, "--fail-under", f"{name}=1")
    assert result.code == 3 and f"kurenai: {name}-F " in result.err  # judged under its name


@pytest.mark.parametrize("name", REJECTED)
def test_every_surface_refuses_a_near_miss_with_one_message(cli: Any, name: str) -> None:
    message = refusal(name, _names.valid_types())
    assert not is_rouge_type(name)
    for build in (
        lambda: RougeScorer(["rouge1", name]),
        lambda: metrics.compute(PREDICTIONS, TARGETS, [name]),
        lambda: metrics.Rouge([name]),
    ):
        with pytest.raises(ValueError) as raised:
            build()
        assert str(raised.value) == message
    for option, value in (("--rouge-types", name), ("--fail-under", f"{name}=0.5")):
        result, _ = cli(option, value)
        assert result.code == 2
        assert result.err == f"kurenai: error: argument {option}: {message} (see --help)\n"


@pytest.mark.parametrize("name", sorted(DETECTED))
def test_detected_sentence_names_need_sentence_splitting_everywhere(cli: Any, name: str) -> None:
    rouge_type = DETECTED[name]
    message = (
        f"ROUGE type {name!r} is {rouge_type} on detected sentences: "
        "it needs split_summaries=True (--split-summaries on the command line)"
    )
    assert is_rouge_type(name)
    for build in (
        lambda: RougeScorer([name]),
        lambda: metrics.compute(PREDICTIONS, TARGETS, [name]),  # it never splits sentences
    ):
        with pytest.raises(ValueError) as raised:
            build()
        assert str(raised.value) == message
    result, _ = cli("--rouge-types", name)
    assert (
        result.code == 2
        and result.err == f"kurenai: error: --rouge-types: {message} (see --help)\n"
    )
    split = RougeScorer([rouge_type], split_summaries=True)
    assert scores(RougeScorer([name], split_summaries=True), name) == scores(split, rouge_type)
    result, records = cli("--rouge-types", name, "--split-summaries")
    assert result.code == 0 and [r[name] for r in records] == scores(split, rouge_type)


# ------------------------------------------------------------ modes


@pytest.mark.parametrize("mode", MODES)
def test_every_surface_combines_references_by_the_same_mode(cli: Any, mode: str) -> None:
    types = ["rouge1", "rougeL", "rougeW", "rougeSU4"]
    scorer = RougeScorer(types)
    expected = [scorer.score_multi(refs, p, mode) for refs, p in zip(REFERENCES, PREDICTIONS)]
    assert scorer.score_multi_batch(REFERENCES, PREDICTIONS, mode=mode) == expected
    got = metrics.compute(
        PREDICTIONS, REFERENCES, types, use_aggregator=False, details=True, accumulate=mode
    )
    assert got == {t: [row[t] for row in expected] for t in types}
    result, records = cli("--rouge-types", ",".join(types), "--multi-ref-mode", mode, multi=True)
    assert result.code == 0
    assert [{t: r[t] for t in types} for r in records] == [
        {t: row[t]._asdict() for t in types} for row in expected
    ]


def test_avg_is_mean() -> None:
    scorer = RougeScorer(["rouge1", "rougeLsum"])
    assert _multiref.check_mode("avg") == "mean"
    assert scorer.score_multi(REFERENCES[1], PREDICTIONS[1], "avg") == scorer.score_multi(
        REFERENCES[1], PREDICTIONS[1], "mean"
    )
    mean = metrics.Rouge(["rouge1"], accumulate="mean")
    mean.add_batch(PREDICTIONS, REFERENCES)
    avg = metrics.Rouge(["rouge1"], accumulate="avg")
    assert avg.merge(mean).compute(aggregate="mean") == mean.compute(aggregate="mean")


@pytest.mark.parametrize(
    ("mode", "meant"),
    [("max", None), ("Best", "best"), ("best_recall", "best-recall"), ("", None), (None, None)],
)
def test_every_surface_refuses_an_unknown_mode_with_one_message(
    cli: Any, mode: Any, meant: Any
) -> None:
    hint = "" if meant is None else f" (did you mean {meant!r}?)"
    message = (
        f"invalid multi-reference mode {mode!r}{hint}; "
        "choose from best, best-recall, average, mean (or avg), jackknife, "
        "jackknife-best-recall, jackknife-average"
    )
    scorer = RougeScorer(["rouge1"])
    for call in (
        lambda: scorer.score_multi(REFERENCES[0], PREDICTIONS[0], mode),
        lambda: scorer.score_multi_batch(REFERENCES, PREDICTIONS, mode=mode),
        lambda: metrics.Rouge(accumulate=mode),
        lambda: metrics.compute(PREDICTIONS, REFERENCES, accumulate=mode),
    ):
        with pytest.raises(ValueError) as raised:
            call()
        assert str(raised.value) == message
    if isinstance(mode, str):
        result, _ = cli("--multi-ref-mode", mode, multi=True)
        assert result.code == 2
        assert result.err == f"kurenai: error: argument --multi-ref-mode: {message} (see --help)\n"


def test_the_help_lists_every_mode_from_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    result = call_main(capsys, "--help")
    text = " ".join(result.out.split())
    modes = "best,best-recall,average,mean,jackknife,jackknife-best-recall,jackknife-average"
    assert f"--multi-ref-mode {{{modes}}}" in text
    for mode in _multiref.MODES:
        assert f"{mode.name} ({mode.summary})" in text.replace("- ", "-")


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(
    prefix=st.sampled_from(["rougeS", "rougeSU", "ROUGE-S", "ROUGE-SU", "rouge_su"]),
    gap=st.one_of(
        st.integers(1, 60), st.integers(MAX_GAP - 3, MAX_GAP + 3), st.integers(MAX_GAP, 10**40)
    ),
)
def test_a_gap_out_of_range_is_one_clear_error_everywhere(cli: Any, prefix: str, gap: int) -> None:
    # Not an OverflowError from the kernels (nor a negative score): a gap up
    # to MAX_GAP scores, and beyond any text's length it is rougeS's own.
    name = f"{prefix}{gap}"
    unlimited = prefix  # rougeS, ROUGE-SU, ...: no gap limit
    if gap > MAX_GAP:
        message = f"invalid ROUGE type {name!r}: the gap k of rougeS{{k}} and rougeSU{{k}} " \
                  f"is at most {MAX_GAP}"  # fmt: skip
        assert not is_rouge_type(name)
        for build in (lambda: RougeScorer([name]), lambda: metrics.Rouge([name])):
            with pytest.raises(ValueError) as raised:
                build()
            assert str(raised.value) == message
        result, _ = cli("--rouge-types", name)
        assert result.code == 2
        assert result.err == f"kurenai: error: argument --rouge-types: {message} (see --help)\n"
        return
    scorer = RougeScorer([name, unlimited])
    for target, prediction in zip(TARGETS, PREDICTIONS):
        scores = scorer.score(target, prediction)
        assert 0 <= scores[name].fmeasure <= 1
        if gap >= len(target.split()) + len(prediction.split()):
            assert scores[name] == scores[unlimited]

"""The kind registry and the naming rule read from it: one definition per kind."""

from __future__ import annotations

import re

import pytest
from rouge_score import rouge_scorer as rs
from type_names import ACCEPTED, DETECTED, REJECTED, refusal

from kurenai._core import kinds as _kinds
from kurenai._core import names as _names
from kurenai._core.kinds import KINDS, Params
from kurenai._core.plan import parse_types


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_every_spelling_resolves_to_its_type(name: str) -> None:
    parsed = _names.resolve(name)
    assert (parsed.name, parsed.rouge_type, parsed.canonical) == (
        name,
        ACCEPTED[name],
        ACCEPTED[name],
    )
    assert not parsed.detected
    # The alias means its type: the same kind and parameters.
    assert parsed[2:] == _names.resolve(ACCEPTED[name])[2:]


@pytest.mark.parametrize("name", sorted(DETECTED))
def test_detected_sentence_names_are_their_type_on_detected_sentences(name: str) -> None:
    parsed = _names.resolve(name)
    assert parsed.detected and parsed.kind.reads_sentences
    assert (parsed.rouge_type, parsed.canonical) == (DETECTED[name], DETECTED[name] + "_sentences")
    with pytest.raises(ValueError, match=re.escape(f"{name!r} is {DETECTED[name]} on detected")):
        _names.check_sentences(parsed, split_summaries=False)
    _names.check_sentences(parsed, split_summaries=True)


@pytest.mark.parametrize("name", [*REJECTED, "", None, 1, b"rouge1"])
def test_near_misses_get_the_one_message(name: object) -> None:
    assert not _names.is_rouge_type(name)
    with pytest.raises(ValueError) as raised:
        _names.resolve(name)
    assert str(raised.value) == refusal(name, _names.valid_types())


def test_each_kind_names_its_types_in_its_own_grammar() -> None:
    samples = {
        _kinds.NGRAM: [Params(order=n) for n in range(1, 10)],
        _kinds.SKIP: [Params(gap=g, unigrams=u) for g in (-1, 1, 4, 12) for u in (False, True)],
    }
    for kind in KINDS:
        for params in samples.get(kind.code, [Params()]):
            parsed = _names.resolve(kind.name(params))
            assert (parsed.kind, parsed.params) == (kind, params)
            assert kind.grammar in _names.valid_types()


def test_rouge_types_are_the_names_rouge_score_accepts() -> None:
    rouge_score_types = (*(f"rouge{n}" for n in range(1, 10)), "rougeL", "rougeLsum")
    assert rouge_score_types == _names.ROUGE_TYPES
    rs.RougeScorer(list(_names.ROUGE_TYPES))  # rouge-score takes each of them
    assert not any(kind.rouge_score_names for kind in KINDS if kind.variant)


def test_the_spec_keeps_the_given_names_and_reads_the_kinds() -> None:
    spec = parse_types(["ROUGE-2", "rouge_l", "rouge2", "ROUGE-SU4", "rougeW_sentences"], 1.5, True)
    assert spec.rouge_types == ("ROUGE-2", "rouge_l", "rouge2", "ROUGE-SU4", "rougeW_sentences")
    assert spec.kinds == (_kinds.NGRAM, _kinds.LCS, _kinds.NGRAM, _kinds.SKIP, _kinds.WLCS)
    assert spec.orders == (2,) and spec.slots == (0, -1, 0, -1, -1)
    assert spec.gaps[3] == 4 and spec.unigrams[3] and spec.want_sentences and spec.want_whole
    with pytest.raises(ValueError, match="needs split_summaries=True"):
        parse_types(["rougeW_sentences"])


def test_the_compiled_plan_must_declare_the_registry_kinds() -> None:
    _kinds.check_compiled_kinds(_kinds.CODES)
    _kinds.check_compiled_kinds(frozenset({_kinds.NGRAM, _kinds.LCS}))  # it may decline some
    for declared in (frozenset({*_kinds.CODES, 99}), None, [0, 1]):
        with pytest.raises(ImportError, match=r"kurenai\._fused declares the kinds"):
            _kinds.check_compiled_kinds(declared)


@pytest.mark.compiled_only
def test_the_compiled_kind_constants_are_the_registry_codes() -> None:
    from kurenai import _fused
    from kurenai._core import plan as _plan
    from kurenai._data import codes as _codes

    assert _fused.KINDS <= _kinds.CODES
    # The names the compiled switch reads its codes under (kurenai._data.codes),
    # and the plan module's re-export of them.
    for constant in ("NGRAM", "LCS", "LSUM", "WLCS", "SKIP"):
        assert getattr(_codes, constant) == getattr(_plan, constant) == getattr(_kinds, constant)

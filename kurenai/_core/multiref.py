"""``score_multi``'s modes: how the scores against several references combine.

- ``best``: rouge-score's rule, per type the reference with the highest F
  (the first on ties).
- ``best-recall``: ROUGE-1.5.5's ``-f B``, per type the reference with the
  strictly highest score as the Perl script compares it (recall rounded to 5
  decimals for N, S and SU; exact recall for L and Lsum; f⁻¹(hit / Σ f(sentence
  length)) for W), the first on ties.
- ``average``: ROUGE-1.5.5's ``-f A``, which pools the counts: recall is
  Σ hits / Σ reference counts and precision Σ hits / (references ×
  prediction count), through f⁻¹ for W.
- ``mean``: the arithmetic mean of precision, recall and F over the
  references (torchmetrics' ``accumulate="avg"``).

The counts come from the scorer's plan (``Plan.tallies``), so every type is
counted by the same twin, tokenizer and sentences as its plain score.
"""

from __future__ import annotations

from collections.abc import Sequence

from kurenai._core import batch as _batch
from kurenai._core.plan import LCS, LSUM, WLCS, Plan, Tallies, TypeSpec
from kurenai._core.python_plan import ratio
from kurenai.scoring import Score, fmeasure

MODES = ("best", "best-recall", "average", "mean")
ScoreDict = dict[str, Score]


def check_mode(mode: object) -> str:
    """``mode`` if it is one of MODES, else a ValueError listing them."""
    if not isinstance(mode, str) or mode not in MODES:
        raise ValueError(f"invalid mode {mode!r}; choose from {', '.join(MODES)}")
    return mode


def combine(
    plan: Plan,
    targets: Sequence[str],
    prediction: str,
    mode: str,
    scores: Sequence[ScoreDict | None] | None = None,
) -> ScoreDict:
    """The scores of ``prediction`` against all ``targets``, combined by
    ``mode``; ``scores``: each target's scores, if they are already computed."""
    types = plan.rouge_types
    if mode == "average":
        return _average(plan.spec, [plan.tallies(target, prediction) for target in targets])
    if scores is None:
        scores = plan.score_many(list(targets), [prediction] * len(targets))
    per_reference: list[ScoreDict] = list(scores)  # type: ignore[arg-type]
    if mode == "best":
        return _batch.best_per_type(types, per_reference)
    if mode == "mean":
        return {t: _mean([scores[t] for scores in per_reference]) for t in types}
    keys = [_perl_keys(plan.spec, plan.tallies(target, prediction)) for target in targets]
    winners = [_first_strictly_highest([k[i] for k in keys]) for i in range(len(types))]
    return {t: per_reference[winner][t] for t, winner in zip(types, winners)}


def combine_groups(
    plan: Plan,
    groups: Sequence[int],
    targets: Sequence[str],
    predictions: Sequence[str],
    flat: Sequence[ScoreDict | None] | None,
    mode: str,
) -> list[ScoreDict | None]:
    """:func:`combine` for each group of consecutive (reference, prediction)
    pairs, given their scores ``flat`` (None: not computed, as no pair can be
    over a size limit); None for a group with a pair over the limit."""
    combined: list[ScoreDict | None] = []
    start = 0
    for count in groups:
        stop = start + count
        scores = None if flat is None else flat[start:stop]
        if scores is not None and any(found is None for found in scores):
            combined.append(None)
        else:
            combined.append(combine(plan, targets[start:stop], predictions[start], mode, scores))
        start = stop
    return combined


def _mean(scores: list[Score]) -> Score:
    count = len(scores)
    return Score(*(sum(field) / count for field in zip(*scores)))


def _first_strictly_highest(keys: list[float]) -> int:
    best, winner = -1.0, 0
    for index, key in enumerate(keys):
        if key > best:
            best, winner = key, index
    return winner


def perl_rounded(value: float) -> float:
    """``value`` rounded as ROUGE-1.5.5's ``sprintf("%07.5f")`` before comparing."""
    return float(f"{value:.5f}")


def _perl_keys(spec: TypeSpec, tallies: Tallies) -> list[float]:
    """Per type, the value ROUGE-1.5.5's ``-f B`` compares for one reference.

    ROUGE-W's is f⁻¹(hit / Σ f(sentence length)): the single weighting, where
    its printed recall weights the reference twice.
    """
    keys = []
    for kind, (hits, t_count, _) in zip(spec.kinds, tallies):
        if kind == WLCS:
            keys.append(ratio(hits, t_count) ** (1 / spec.w_weight))
        elif kind in (LCS, LSUM):
            keys.append(ratio(hits, t_count))
        else:
            keys.append(perl_rounded(ratio(hits, t_count)))
    return keys


def _average(spec: TypeSpec, per_reference: list[Tallies]) -> ScoreDict:
    """``-f A``: the counts summed over the references, then one score.  ROUGE-W
    sums f(count) (f(k) = k ** w) and maps the ratios back with f⁻¹."""
    result = {}
    w = spec.w_weight
    for i, (rouge_type, kind) in enumerate(zip(spec.rouge_types, spec.kinds)):
        column = [tallies[i] for tallies in per_reference]
        hits = sum(hit for hit, _, _ in column)
        if kind == WLCS:
            reference = sum(base**w for _, base, _ in column)
            prediction = sum(float(length) ** w for _, _, length in column)
            precision = ratio(hits, prediction) ** (1 / w)
            recall = ratio(hits, reference) ** (1 / w)
        else:
            precision = ratio(hits, sum(count for _, _, count in column))
            recall = ratio(hits, sum(count for _, count, _ in column))
        result[rouge_type] = Score(precision, recall, fmeasure(precision, recall))
    return result

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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Callable

from kurenai import _backend, _batch
from kurenai._variant_types import (
    Tally,
    Texts,
    VariantScorer,
    identity,
    perl_rounded,
    score,
)
from kurenai.scoring import Score

MODES = ("best", "best-recall", "average", "mean")
ScoreDict = dict[str, Score]


def check_mode(mode: object) -> str:
    """``mode`` if it is one of MODES, else a ValueError listing them."""
    if not isinstance(mode, str) or mode not in MODES:
        raise ValueError(f"invalid mode {mode!r}; choose from {', '.join(MODES)}")
    return mode


def combine(
    scorer: VariantScorer,
    score_pair: Callable[[str, str], ScoreDict],
    targets: Sequence[str],
    prediction: str,
    mode: str,
) -> ScoreDict:
    """The scores of ``prediction`` against all ``targets``, combined by ``mode``."""
    types = scorer.rouge_types
    if mode == "average":
        return _average(scorer, [_tallies(scorer, t, prediction) for t in targets])
    per_reference = [score_pair(target, prediction) for target in targets]
    if mode == "best":
        return _batch.best_per_type(types, per_reference)
    if mode == "mean":
        return {t: _mean([scores[t] for scores in per_reference]) for t in types}
    keys = _perl_keys(scorer, targets, prediction, per_reference)
    winners = {t: _first_strictly_highest([k[t] for k in keys]) for t in types}
    return {t: per_reference[winners[t]][t] for t in types}


def combine_groups(
    scorer: VariantScorer,
    score_pair: Callable[[str, str], ScoreDict],
    groups: Sequence[int],
    targets: Sequence[str],
    predictions: Sequence[str],
    flat: Sequence[ScoreDict | None],
    mode: str,
) -> list[ScoreDict | None]:
    """:func:`combine` for each group of consecutive (reference, prediction)
    pairs; None for a group with a pair over the size limit (None in ``flat``)."""
    combined: list[ScoreDict | None] = []
    start = 0
    for count in groups:
        stop = start + count
        if any(scores is None for scores in flat[start:stop]):
            combined.append(None)
        else:
            combined.append(
                combine(scorer, score_pair, targets[start:stop], predictions[start], mode)
            )
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


def _perl_keys(
    scorer: VariantScorer, targets: Sequence[str], prediction: str, scores: list[ScoreDict]
) -> list[dict[str, float]]:
    """Per reference and type, the value ROUGE-1.5.5's ``-f B`` compares."""
    keys = []
    for target, found in zip(targets, scores):
        sides = Texts(*scorer.tokens(target)), Texts(*scorer.tokens(prediction))
        key = {name: tally.key for name, tally in scorer.tallies(*sides).items()}
        for rouge_type in scorer.rouge_types:
            if rouge_type not in key:
                recall = float(found[rouge_type].recall)
                exact = rouge_type in ("rougeL", "rougeLsum")
                key[rouge_type] = recall if exact else perl_rounded(recall)
        keys.append(key)
    return keys


def _average(scorer: VariantScorer, tallies: list[dict[str, Tally]]) -> ScoreDict:
    result = {}
    for rouge_type in scorer.rouge_types:
        column = [t[rouge_type] for t in tallies]
        pooled = Tally(
            sum(t.hits for t in column),
            sum(t.reference for t in column),
            sum(t.prediction for t in column),
            0.0,
        )
        result[rouge_type] = score(pooled, scorer.finishers.get(rouge_type, identity))
    return result


def _tallies(scorer: VariantScorer, target: str, prediction: str) -> dict[str, Tally]:
    """Every type's tally for one pair: rouge-score's types here, the variants
    from the variant kernels."""
    reference = Texts(*scorer.tokens(target, both=True))
    candidate = Texts(*scorer.tokens(prediction, both=True))
    found = scorer.tallies(reference, candidate)
    for rouge_type in scorer.rouge_types:
        if rouge_type not in found:
            found[rouge_type] = _base_tally(rouge_type, reference, candidate)
    return found


def _base_tally(rouge_type: str, reference: Texts, candidate: Texts) -> Tally:
    kernels = _backend.kernels
    t, p = reference.whole, candidate.whole
    if rouge_type == "rougeL":
        return Tally(kernels.lcs_length(t, p) if t and p else 0, len(t), len(p), 0.0)
    if rouge_type == "rougeLsum":
        t_sum, p_sum = (sum(map(len, side.sentences)) for side in (reference, candidate))
        hits = kernels.summary_lcs_hits(reference.sentences, candidate.sentences)
        return Tally(hits if t_sum and p_sum else 0, t_sum, p_sum, 0.0)
    n = int(rouge_type[5:])
    overlap = kernels.ngram_overlap(t, p, n)
    return Tally(overlap, max(len(t) - n + 1, 0), max(len(p) - n + 1, 0), 0.0)

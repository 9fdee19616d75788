"""One evaluation's numbers per metric, as ``computeROUGEX`` makes them.

For each model (reference) the script counts hits, the model's count and
the peer's count, and a *key*: the score ``-f B`` compares (ROUGE-N/S/SU's
recall rounded to 5 decimals, ROUGE-L's exact recall, ROUGE-W's
f⁻¹(hit / Σ f(unit length))).  ``-f A`` adds the counts over the models;
``-f B`` keeps the model with the strictly highest key (the first on ties).
The evaluation's values are then R, P and F rounded to 5 decimals (F from
the rounded R and P), or under ``-t 1/2`` the raw (model count, peer count,
hit).

:func:`evaluation_values` gives one evaluation's values: in one call of the
compiled ``kurenai._perl.peer_values`` where it is built and no ``-l``/``-b``
cut makes the script's two readers differ, else with the functions here,
which are its spec.  The counting runs in kurenai's kernels (the compiled ones where built): the
n-gram overlaps and ROUGE-L's clipped union-LCS hits (``pair_counts``),
ROUGE-W (``weighted_lcs``) and ROUGE-S/SU (``skip_bigram_counts``), which
reproduce the script's counting.  The kernels clip ROUGE-L/W hits by the
counts of the units' words; under ``-b`` the script clips by the counts of
its other reader's text, so :mod:`kurenai.rouge155._clipped` counts those
summaries.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from kurenai import _backend
from kurenai._data.rounding import perl_rounded
from kurenai._variants_py import c_pow
from kurenai.rouge155._summary import Summary

__all__ = ["Metric", "Perl155ZeroDivision", "eval_values", "evaluation_values", "pair_counts"]

Counts = tuple[float, float, float, float]  # hit, model count, peer count, -f B key
Values = tuple[float, float, float]


class Perl155ZeroDivision(ZeroDivisionError):
    """The script dies here (``Illegal division by zero``)."""


class Metric(NamedTuple):
    """One of the script's measures: ``kind`` N, L, W or S (S covers SU)."""

    tag: str  # as printed: ROUGE-2, ROUGE-L, ROUGE-W-1.2, ROUGE-S4, ROUGE-SU*
    kind: str
    n: int = 0  # ROUGE-N's order
    weight: float = 1.2  # ROUGE-W's -w
    gap: int = -1  # ROUGE-S's -2 (< 0: no limit)
    unigrams: bool = False  # SU: with unigrams


def pair_counts(metrics: Sequence[Metric], model: Summary, peer: Summary) -> list[Counts]:
    """Per metric, (hit, model count, peer count, key) of one model and peer."""
    kernels, variants = _backend.kernels, _backend.variants
    joined = model.joined and peer.joined
    orders = tuple(sorted({m.n for m in metrics if m.kind == "N"}))
    want_lcs = any(m.kind == "L" for m in metrics)
    overlaps: dict[int, int] = {}
    lcs_hits = 0
    if orders or (want_lcs and joined):
        counted = kernels.pair_counts(
            model.units,
            peer.units,
            orders,
            False,
            want_lcs and joined,
            None if model.joined else model.whole,
            None if peer.joined else peer.whole,
        )
        overlaps = dict(zip(orders, counted[0]))
        lcs_hits = counted[2]
    if want_lcs and not joined:
        from kurenai.rouge155._clipped import clipped_lcs_hits  # only under -l / -b

        lcs_hits = clipped_lcs_hits(model, peer)
    m_len, p_len = len(model.whole), len(peer.whole)
    skips: dict[int, tuple[int, int, int]] = {}  # ROUGE-S counts by gap, shared with SU
    found: list[Counts] = []
    for metric in metrics:
        if metric.kind == "N":
            m_count = max(m_len - metric.n + 1, 0)
            hit = overlaps[metric.n]
            found.append((hit, m_count, max(p_len - metric.n + 1, 0), _rounded_key(hit, m_count)))
        elif metric.kind == "L":
            base = sum(map(len, model.units))
            found.append((lcs_hits, base, p_len, lcs_hits / base if base > 0 else 0))
        elif metric.kind == "W":
            found.append(_wlcs(metric.weight, model, peer, joined, variants))
        else:
            if metric.gap not in skips:
                skips[metric.gap] = variants.skip_bigram_counts(
                    model.whole, peer.whole, metric.gap, False
                )
            hit, m_count, p_count = skips[metric.gap]
            if metric.unigrams:  # SU: the skip-bigrams and every unigram but the last
                hit += kernels.ngram_overlap(model.whole[:-1], peer.whole[:-1], 1)
                m_count += max(m_len - 1, 0)
                p_count += max(p_len - 1, 0)
            found.append((hit, m_count, p_count, _rounded_key(hit, m_count)))
    return found


# The most metrics kurenai._perl.peer_values takes (its arrays are fixed);
# more (-n 30) are counted here.
KERNEL_METRICS = 16


def evaluation_values(
    metrics: Sequence[Metric],
    models: Sequence[Summary],
    peer: Summary,
    best: bool,
    counting: int | None,
    alpha: float,
    joined: bool | None = None,
) -> list[float]:
    """One evaluation's values, 3 per metric: :func:`eval_values` of
    :func:`combine` of each model's :func:`pair_counts` with ``peer``.
    ``joined``: True when every summary is known to be :attr:`Summary.joined`."""
    kernel = _backend.perl
    if joined is None:
        joined = peer.joined and all(model.joined for model in models)
    if kernel is not None and joined and len(metrics) <= KERNEL_METRICS:
        try:
            return kernel.peer_values(  # type: ignore[no-any-return]
                metrics, [model.units for model in models], peer.units, best, counting, alpha
            )
        except ZeroDivisionError as error:
            raise Perl155ZeroDivision(str(error)) from None
    per_model = [pair_counts(metrics, model, peer) for model in models]
    totals = combine(per_model, best) or [(0.0, 0.0, 0.0)] * len(metrics)
    found: list[float] = []
    for metric, total in zip(metrics, totals):
        found.extend(eval_values(metric, total, counting, alpha))
    return found


def _rounded_key(hit: float, count: float) -> float:
    return perl_rounded(hit / count) if count != 0 else 0


def _wlcs(weight: float, model: Summary, peer: Summary, joined: bool, variants: object) -> Counts:
    if joined:
        hit, base = variants.weighted_lcs(model.units, peer.units, weight)  # type: ignore[attr-defined]
    else:
        from kurenai.rouge155._clipped import clipped_wlcs_hit

        hit, base = clipped_wlcs_hit(model, peer, weight)
    if base == 0:
        raise Perl155ZeroDivision("a model summary has no words, and ROUGE-W divides by its length")
    model_count = c_pow(base, weight)
    peer_count = c_pow(float(len(peer.whole)), weight)
    return hit, model_count, peer_count, c_pow(hit / base, 1 / weight)


_NO_MODEL = (0.0, 0.0, 0.0, 0.0)


def combine(per_model: list[list[Counts]], best: bool) -> list[tuple[float, float, float]]:
    """Per metric, (hit, model count, peer count) over the models: summed
    (``-f A``), or the first model with the strictly highest key (``-f B``;
    none, all zero, where no key beats the script's -1: every key NaN)."""
    if not per_model:
        return []
    totals = []
    for column in zip(*per_model):
        if best:
            winner, top = _NO_MODEL, -1.0
            for counts in column:
                if counts[3] > top:
                    winner, top = counts, counts[3]
            totals.append((winner[0], winner[1], winner[2]))
        else:
            hit = m_count = p_count = 0.0
            for counts in column:
                hit += counts[0]
                m_count += counts[1]
                p_count += counts[2]
            totals.append((hit, m_count, p_count))
    return totals


def eval_values(
    metric: Metric, totals: tuple[float, float, float], counting: int | None, alpha: float
) -> Values:
    """The evaluation's (R, P, F) rounded as the script stores them, or its
    raw (model count, peer count, hit) under ``-t 1/2``."""
    hit, m_count, p_count = totals
    if counting is not None:
        return m_count, p_count, hit
    if metric.kind == "W":
        inverse = 1 / metric.weight
        recall = perl_rounded(c_pow(hit / m_count, inverse)) if m_count != 0 else 0.0
        precision = perl_rounded(c_pow(hit / p_count, inverse)) if p_count != 0 else 0.0
    else:
        recall = perl_rounded(hit / m_count) if m_count != 0 else 0.0
        precision = perl_rounded(hit / p_count) if p_count != 0 else 0.0
    return recall, precision, f_measure(recall, precision, alpha)


def f_measure(recall: float, precision: float, alpha: float) -> float:
    """The script's F of rounded R and P, rounded: P·R / ((1-α)·P + α·R)."""
    denominator = (1 - alpha) * precision + alpha * recall
    return perl_rounded((precision * recall) / denominator) if denominator > 0 else 0.0

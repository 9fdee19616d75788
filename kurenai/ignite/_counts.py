"""pytorch-ignite's ROUGE, one batch at a time, on kurenai's kernels.

No torch and no ignite here: this module checks a batch of token sequences
and gives, per variant and sample, the precision, recall and F that ignite's
``RougeN``/``RougeL`` add to their sums, with ignite's own float operations
(``ignite/metrics/nlp/rouge.py``), so the sums are ignite's bit for bit.

ignite's rules, as it applies them to pre-tokenized input:

- a *variant* is an n-gram order ``n`` (ROUGE-N: the multiset overlap of the
  n-grams, against ``len - n + 1`` n-grams a side) or ``"L"`` (ROUGE-L: the
  longest common subsequence, against the lengths);
- tokens are compared as Python compares them (``hash`` and ``==``: ``1`` and
  ``1.0`` are one token), so they may be strings, integer IDs or any hashable;
  a candidate or reference given as a str is its characters;
- ``multiref="average"`` pools the counts over a sample's references (matches,
  candidate and reference sizes summed), ``"best"`` takes the reference with
  the highest recall, the first on ties; precision and recall are 0 when their
  denominator is;
- F is ``P * R / ((1 - alpha) * P + alpha * R)``, 0 unless ``P * R > 0``.

The counting is ``pair_counts`` of :mod:`kurenai._backend`'s kernels (the
compiled ``_lcs`` or its pure twin ``_lcs_py``): all n-gram orders and the
LCS of a (candidate, reference) pair in one call, on interned integer IDs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple, Union

from kurenai import _backend

__all__ = [
    "MULTIREF",
    "Values",
    "Variant",
    "batch_values",
    "check_alpha",
    "check_multiref",
    "check_ngram",
    "check_variants",
    "metric_name",
    "split_output",
]

Variant = Union[int, str]  # an n-gram order, or "L"
MULTIREF = ["best", "average"]  # ignite's order, as its message lists them
DEFAULT_VARIANTS: list[Variant] = [1, 2, 4, "L"]


class Values(NamedTuple):
    """One variant's per-sample values of a batch, in sample order: what
    ignite adds to ``_precision``, ``_recall`` and ``_fmeasure``."""

    precision: list[float]
    recall: list[float]
    fmeasure: list[float]


# ------------------------------------------------------------ arguments


def check_alpha(alpha: Any) -> Any:
    """``alpha`` if it is in [0, 1] (ignite's check and message)."""
    if not 0 <= alpha <= 1:
        raise ValueError(f"alpha must be in interval [0, 1] (got : {alpha})")
    return alpha


def check_multiref(multiref: Any) -> str:
    """``multiref`` if it is ``"best"`` or ``"average"`` (ignite's message)."""
    if not isinstance(multiref, str) or multiref not in MULTIREF:
        raise ValueError(f"multiref : valid values are {MULTIREF} (got : {multiref})")
    return multiref


def check_ngram(ngram: Any) -> int:
    """``ngram`` if it is a positive int (ignite's message for < 1; a clear
    TypeError where ignite would fail later, or name a metric ``Rouge-2.0``)."""
    if isinstance(ngram, bool) or not isinstance(ngram, int):
        raise TypeError(f"ngram order must be an int, got {type(ngram).__name__}: {ngram!r}")
    order: int = ngram
    if order < 1:
        raise ValueError(f"ngram order must be greater than zero (got : {order})")
    return order


def check_variants(variants: Sequence[Variant] | None) -> list[Variant]:
    """``Rouge``'s variants: ``[1, 2, 4, "L"]`` when none; each ``"L"`` or an
    n-gram order (ignite's message; a bool is not an order)."""
    if variants is None or len(variants) == 0:
        return list(DEFAULT_VARIANTS)
    checked: list[Variant] = []
    for variant in variants:
        if variant == "L" and isinstance(variant, str):
            checked.append("L")
        elif isinstance(variant, int) and not isinstance(variant, bool):
            checked.append(check_ngram(variant))
        else:
            raise ValueError("variant must be 'L' or integer greater to zero")
    return checked


def metric_name(variant: Variant) -> str:
    """ignite's name of a variant's results: ``Rouge-2``, ``Rouge-L``."""
    return f"Rouge-{variant}"


# ------------------------------------------------------------ input


def split_output(output: Any) -> tuple[Any, Any]:
    """``(y_pred, y)`` from what ``update`` received: a pair, or a mapping with
    those keys (as ignite's engines pass it)."""
    if isinstance(output, dict) or hasattr(output, "keys"):
        missing = [key for key in ("y_pred", "y") if key not in output]
        if missing:
            raise ValueError(f"update's mapping has no {missing[0]!r} key: {list(output.keys())}")
        return output["y_pred"], output["y"]
    if isinstance(output, (str, bytes)) or not hasattr(output, "__len__") or len(output) != 2:
        raise ValueError(
            "update expects (y_pred, y): the batch's candidates (each a sequence of tokens) "
            f"and their references (each a list of sequences of tokens), got {_described(output)}"
        )
    y_pred, y = output
    return y_pred, y


_TENSOR_TYPES: dict[type, bool] = {}


def _is_tensor(value: object) -> bool:
    # Without importing torch: this module must load without it.
    kind = type(value)
    found = _TENSOR_TYPES.get(kind)
    if found is None:
        found = any(c.__name__ == "Tensor" and c.__module__ == "torch" for c in kind.__mro__)
        _TENSOR_TYPES[kind] = found
    return found


def _described(value: object) -> str:
    return f"{type(value).__module__}.{type(value).__qualname__}".removeprefix("builtins.")


def _sequence(value: Any, what: str, text: bool = False) -> list[Any]:
    """``value`` as a list, if it is a sequence (or iterable) of items and not
    bytes, a tensor or None, which ignite would read element by element (a
    tensor as tensors that never match); a str only where ``text`` allows
    (a candidate or a reference: its characters are its tokens, as in ignite)."""
    if type(value) is list:
        return value  # read, never changed
    if isinstance(value, str):
        if text:
            return list(value)
        raise TypeError(
            f"{what} is a str ({value[:40]!r}): pass a list "
            "(of token sequences: text.split() for words, list(text) for characters)"
        )
    if isinstance(value, (bytes, bytearray)):
        raise TypeError(f"{what} is {type(value).__name__}: pass a list of tokens")
    if _is_tensor(value):
        raise TypeError(f"{what} is a torch.Tensor: pass a list (tensor.tolist() for token IDs)")
    if value is None or not isinstance(value, Iterable):
        raise TypeError(f"{what} must be a sequence of tokens, got {_described(value)}")
    return list(value)


def batch_tokens(y_pred: Any, y: Any) -> tuple[list[list[Any]], list[list[list[Any]]]]:
    """The batch's candidates and each one's references, as lists, checked:
    as many reference groups as candidates, at least one reference each, and
    a candidate and its references all text (characters as tokens) or all
    sequences of tokens."""
    candidates = _sequence(y_pred, "y_pred (the batch's candidates)")
    groups = _sequence(y, "y (the batch's references)")
    if len(candidates) != len(groups):
        raise ValueError(
            f"y_pred has {len(candidates)} candidates but y has {len(groups)} groups of "
            "references: one group (a list of references) per candidate"
        )
    cands, refs = [], []
    for i, (candidate, group) in enumerate(zip(candidates, groups)):
        cands.append(_sequence(candidate, f"y_pred[{i}] (a candidate)", text=True))
        where = f"y[{i}] (the references of candidate {i})"
        found = _sequence(group, where)
        if not found:
            raise ValueError(f"{where} is empty: each candidate needs at least one reference")
        for j, reference in enumerate(found):
            if isinstance(reference, str) != isinstance(candidate, str):
                raise TypeError(_mixed(i, j, candidate))
        refs.append(
            [_sequence(r, f"y[{i}][{j}] (a reference)", text=True) for j, r in enumerate(found)]
        )
    return cands, refs


def _mixed(i: int, j: int, candidate: Any) -> str:
    """The error for a candidate and a reference of different kinds: one a
    str (its characters as tokens), the other a sequence of tokens; nearly
    always a missing ``.split()`` or a missing level of nesting in ``y``."""
    if isinstance(candidate, str):
        return (
            f"y_pred[{i}] is a str but its reference y[{i}][{j}] is not: give both as "
            "token sequences (text.split()), or both as str to compare characters"
        )
    return (
        f"y[{i}][{j}] (a reference) is a str but its candidate y_pred[{i}] is not: "
        f"give both as token sequences; if y[{i}] is one reference's tokens, "
        "y needs one more level of nesting ([[tokens]] for one reference)"
    )


# ------------------------------------------------------------ scores


def _ratio(match: int, total: int) -> float:
    return match / total if total > 0 else 0


def _f(precision: float, recall: float, alpha: float) -> float:
    both = precision * recall
    if both > 0:  # ignite's test: no division by zero
        return both / ((1 - alpha) * precision + alpha * recall)
    return 0.0  # adding 0.0 leaves ignite's sum as it was


def batch_values(
    candidates: Sequence[Sequence[Any]],
    references: Sequence[Sequence[Sequence[Any]]],
    variants: Sequence[Variant],
    multiref: str,
    alpha: float,
) -> list[Values]:
    """Per variant, the per-sample values ignite's metrics add for this batch
    (checked by :func:`batch_tokens`)."""
    orders = tuple(sorted({v for v in variants if v != "L"}, key=int))
    want_lcs = "L" in variants
    # Per variant: where its match count is (-1: the LCS), and how many
    # fewer units than tokens a side has (n - 1 n-grams; none for L).
    plan = [(-1, 0) if v == "L" else (orders.index(int(v)), int(v) - 1) for v in variants]
    pair_counts = _backend.kernels.pair_counts
    out = [Values([], [], []) for _ in variants]
    for candidate, group in zip(candidates, references):
        counts = [pair_counts([ref], [candidate], orders, want_lcs, False) for ref in group]
        for (at, fewer), values in zip(plan, out):
            # (match, candidate units, reference units) per reference
            triples = [
                (
                    found[1] if at < 0 else found[0][at],
                    max(found[4] - fewer, 0),
                    max(found[3] - fewer, 0),
                )
                for found in counts
            ]
            precision, recall = _reduced(triples, multiref)
            values.precision.append(precision)
            values.recall.append(recall)
            values.fmeasure.append(_f(precision, recall, alpha))
    return out


def _reduced(triples: list[tuple[int, int, int]], multiref: str) -> tuple[float, float]:
    """One sample's precision and recall over its references."""
    if len(triples) == 1:  # both modes: that reference's
        match, candidate, reference = triples[0]
        return _ratio(match, candidate), _ratio(match, reference)
    if multiref == "average":
        match = sum(t[0] for t in triples)
        return _ratio(match, sum(t[1] for t in triples)), _ratio(match, sum(t[2] for t in triples))
    best = triples[0]
    best_recall = _ratio(best[0], best[2])
    for triple in triples[1:]:
        recall = _ratio(triple[0], triple[2])
        if recall > best_recall:  # the first of the highest, as max() keeps it
            best, best_recall = triple, recall
    return _ratio(best[0], best[1]), best_recall

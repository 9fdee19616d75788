"""What a scorer runs: the ``Plan`` interface and the parsed ROUGE types it computes.

A plan turns pairs of texts into ``Score`` dicts for fixed ROUGE types and a
fixed tokenization.  It has two twins, chosen in ``kurenai._backend``:
``kurenai._plan_py.PythonPlan`` (tokenize -> kernels -> scores; the readable
specification) and ``kurenai._fastpath.Plan`` (the same in one compiled pass,
for the tokenizers that declare a ``scan_mode``).  Both read the types as
parsed here, once, into a :class:`TypeSpec`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol

from kurenai.scoring import Score

__all__ = ["LCS", "LSUM", "NGRAM", "ROUGE_TYPES", "Plan", "TypeSpec", "deliver", "parse_types"]

# What each ROUGE type counts.  A twin that meets a kind it does not know
# declines the plan (see ``_backend.make_plan``), so a new kind needs only
# the Python twin to work everywhere.
NGRAM, LCS, LSUM = 0, 1, 2
_NAMED_KINDS = {"rougeL": LCS, "rougeLsum": LSUM}
_NGRAM_TYPE = re.compile(r"rouge([1-9])")

ROUGE_TYPES = (*(f"rouge{n}" for n in range(1, 10)), *_NAMED_KINDS)

ScoreDict = dict[str, Score]


@dataclass(frozen=True)
class TypeSpec:
    """ROUGE types parsed once: per type its kind and n-gram slot.

    ``orders`` holds each distinct n-gram order once (duplicated types share
    their count); ``slots[i]`` is type i's index into it, or -1.
    """

    rouge_types: tuple[str, ...]
    kinds: tuple[int, ...]
    slots: tuple[int, ...]
    orders: tuple[int, ...]
    want_lcs: bool
    want_lsum: bool
    want_whole: bool  # whether any type reads the whole text, not its sentences


def parse_types(rouge_types: Any) -> TypeSpec:
    """``rouge_types`` checked and parsed; any number of them, duplicates too.

    Raises:
        TypeError: a bare string, or not an iterable of str.
        ValueError: an unknown ROUGE type (the message lists the valid ones).
    """
    if isinstance(rouge_types, (str, bytes)):
        raise TypeError(
            f"rouge_types must be a list of ROUGE types, e.g. [{rouge_types!r}], "
            "not a single string"
        )
    try:
        names = tuple(rouge_types)
    except TypeError:
        raise TypeError(
            f"rouge_types must be a list of str, got {type(rouge_types).__name__}"
        ) from None
    kinds: list[int] = []
    slots: list[int] = []
    orders: list[int] = []
    for name in names:
        kind, order = _parse_one(name)
        kinds.append(kind)
        if kind != NGRAM:
            slots.append(-1)
            continue
        if order not in orders:
            orders.append(order)
        slots.append(orders.index(order))
    whole = any(kind != LSUM for kind in kinds)
    return TypeSpec(
        names, tuple(kinds), tuple(slots), tuple(orders), LCS in kinds, LSUM in kinds, whole
    )


def _parse_one(name: Any) -> tuple[int, int]:
    match = _NGRAM_TYPE.fullmatch(name) if isinstance(name, str) else None
    if match is not None:
        return NGRAM, int(match.group(1))
    if isinstance(name, str) and name in _NAMED_KINDS:
        return _NAMED_KINDS[name], 0
    raise ValueError(
        f"invalid ROUGE type {name!r}; valid types: {', '.join(ROUGE_TYPES)}, "
        "and ROUGE-1.5.5's rougeW, rougeS{k}, rougeSU{k}, rougeS, rougeSU"
    )


def deliver(
    rouge_types: tuple[str, ...], scores: list[ScoreDict | None], out: Any
) -> list[ScoreDict | None] | None:
    """``score_many``'s result from a plan's per-pair scores: the list, or
    (with ``out``) None after writing each scored pair's P/R/F into ``out``
    (the caller filled it with NaN)."""
    if out is None:
        return scores
    for row, pair in enumerate(scores):
        if pair is not None:
            out[:, :, row] = [pair[name] for name in rouge_types]
    return None


class Plan(Protocol):
    """What a ``RougeScorer`` runs; both twins implement it.

    Texts reaching a plan are plain ``str`` (the scorer checks them).
    """

    @property
    def rouge_types(self) -> tuple[str, ...]: ...

    @property
    def threads(self) -> int:
        """How many threads one long pair's LCS may use (>= 1; the pure
        twin computes the same numbers on one)."""
        ...

    def score(self, target: str, prediction: str) -> ScoreDict:
        """The scores of one pair."""
        ...

    def score_many(
        self,
        targets: list[str],
        predictions: list[str],
        max_tokens: int = -1,
        out: Any = None,
    ) -> list[ScoreDict | None] | None:
        """Scores of many pairs in order; None for a pair with a side of more
        than ``max_tokens`` tokens (when >= 0).  With ``out`` (float64,
        types x 3 x pairs) writes precision, recall and F-measure there (NaN
        for such pairs) and returns None."""
        ...

"""What a scorer runs: the ``Plan`` interface and the parsed ROUGE types it computes.

A plan turns pairs of texts into ``Score`` dicts for fixed ROUGE types and a
fixed tokenization.  It has two twins, chosen in ``kurenai._backend``:
``kurenai._core.python_plan.PythonPlan`` (tokenize -> kernels -> scores; the readable
specification) and ``kurenai._fused.FusedPlan`` (the same in one compiled pass,
for the tokenizers that declare a ``scan_mode``).  Both read the types as
parsed here, once, into a :class:`TypeSpec`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol

from kurenai.scoring import Score

__all__ = [
    "LCS",
    "LSUM",
    "NGRAM",
    "ROUGE_TYPES",
    "SKIP",
    "WLCS",
    "Plan",
    "Tallies",
    "TypeSpec",
    "checked_weight",
    "deliver",
    "is_rouge_type",
    "parse_types",
]

# What each ROUGE type counts.  A twin that meets a kind it does not know
# declines the plan (see ``_backend.make_plan``), so a new kind needs only
# the Python twin to work everywhere.  WLCS and SKIP are ROUGE-1.5.5's
# ROUGE-W and ROUGE-S/SU, which rouge-score lacks.
NGRAM, LCS, LSUM, WLCS, SKIP = 0, 1, 2, 3, 4
_NAMED_KINDS = {"rougeL": LCS, "rougeLsum": LSUM, "rougeW": WLCS}
_NGRAM_TYPE = re.compile(r"rouge([1-9])")
# rougeS{k} / rougeSU{k}: at most k >= 1 tokens between the two of a
# skip-bigram; rougeS / rougeSU: no limit.
_SKIP_TYPE = re.compile(r"rouge(SU?)([1-9][0-9]*)?")
DEFAULT_W_WEIGHT = 1.2  # ROUGE-1.5.5's -w

# rouge-score's types (the ROUGE-1.5.5 variants are named in the error message).
ROUGE_TYPES = (*(f"rouge{n}" for n in range(1, 10)), "rougeL", "rougeLsum")

ScoreDict = dict[str, Score]
# Per type, what ROUGE-1.5.5 pools over references for ``-f A``: (hits,
# reference count, prediction count); for ROUGE-W (hit, Σ f(reference
# sentence length), prediction length), before any weighting.
Tallies = list[tuple[float, float, float]]


@dataclass(frozen=True)
class TypeSpec:
    """ROUGE types parsed once: per type its kind and n-gram slot.

    ``orders`` holds each distinct n-gram order once (duplicated types share
    their count); ``slots[i]`` is type i's index into it, or -1.  A SKIP
    type's ``gaps[i]`` is its gap limit (-1: none) and ``unigrams[i]`` says
    whether it adds unigrams (SU); ``w_weight`` is ROUGE-W's weight.
    """

    rouge_types: tuple[str, ...]
    kinds: tuple[int, ...]
    slots: tuple[int, ...]
    orders: tuple[int, ...]
    want_lcs: bool
    want_lsum: bool
    want_whole: bool  # whether any type reads the whole text, not its sentences
    gaps: tuple[int, ...] = ()
    unigrams: tuple[bool, ...] = ()
    w_weight: float = DEFAULT_W_WEIGHT

    @property
    def want_sentences(self) -> bool:
        """Whether any type reads the sentences (ROUGE-Lsum, ROUGE-W)."""
        return self.want_lsum or WLCS in self.kinds


def parse_types(rouge_types: Any, w_weight: float = DEFAULT_W_WEIGHT) -> TypeSpec:
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
    gaps: list[int] = []
    unigrams: list[bool] = []
    for name in names:
        kind, number, with_unigrams = _parse_one(name)
        kinds.append(kind)
        gaps.append(number if kind == SKIP else 0)
        unigrams.append(with_unigrams)
        if kind != NGRAM:
            slots.append(-1)
            continue
        if number not in orders:
            orders.append(number)
        slots.append(orders.index(number))
    whole = any(kind not in (LSUM, WLCS) for kind in kinds)
    return TypeSpec(
        names,
        tuple(kinds),
        tuple(slots),
        tuple(orders),
        LCS in kinds,
        LSUM in kinds,
        whole,
        tuple(gaps),
        tuple(unigrams),
        checked_weight(w_weight),
    )


def is_rouge_type(name: object) -> bool:
    """Whether ``name`` is a ROUGE type a scorer accepts."""
    try:
        _parse_one(name)
    except ValueError:
        return False
    return True


def checked_weight(weight: object) -> float:
    """``rouge_w_weight`` as a float, or a TypeError/ValueError."""
    if isinstance(weight, bool) or not isinstance(weight, (int, float)):
        raise TypeError(f"rouge_w_weight must be a number, got {type(weight).__name__}")
    if not 0 < weight < float("inf"):
        raise ValueError(f"rouge_w_weight must be a positive finite number, got {weight!r}")
    return float(weight)


def _parse_one(name: Any) -> tuple[int, int, bool]:
    """(kind, n-gram order or skip gap, whether SU adds unigrams)."""
    match = _NGRAM_TYPE.fullmatch(name) if isinstance(name, str) else None
    if match is not None:
        return NGRAM, int(match.group(1)), False
    if isinstance(name, str) and name in _NAMED_KINDS:
        return _NAMED_KINDS[name], 0, False
    match = _SKIP_TYPE.fullmatch(name) if isinstance(name, str) else None
    if match is not None:
        return SKIP, int(match.group(2) or -1), match.group(1) == "SU"
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
    def spec(self) -> TypeSpec: ...

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

    def tallies(self, target: str, prediction: str) -> Tallies:
        """The counts behind each type's score of one pair (see ``Tallies``),
        for the multi-reference modes that pool them (``kurenai._core.multiref``)."""
        ...

"""What a scorer runs: the ``Plan`` interface and the parsed ROUGE types it computes.

A plan turns pairs of texts into ``Score`` dicts for fixed ROUGE types and a
fixed tokenization.  It has two twins, chosen in ``kurenai._backend``:
``kurenai._core.python_plan.PythonPlan`` (tokenize -> kernels -> scores; the readable
specification) and ``kurenai._fused.FusedPlan`` (the same in one compiled pass,
for the tokenizers that declare a ``scan_mode``).  Both read the types as
parsed here, once, into a :class:`TypeSpec`; what each kind of type means
is defined once, in :mod:`kurenai._core.kinds`, and how names are spelt in
:mod:`kurenai._core.names`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from kurenai._core import checks as _checks
from kurenai._core import names as _names
from kurenai._core.kinds import KINDS, LCS, LSUM, NGRAM, SKIP, WLCS, Tally, kind_of
from kurenai._core.names import ROUGE_TYPES, is_rouge_type
from kurenai.scoring import Score

__all__ = [
    "LCS",
    "LSUM",
    "NGRAM",
    "ROUGE_TYPES",
    "ROUGE_TYPE_GRAMMAR",
    "SCORE_FIELDS",
    "SKIP",
    "WLCS",
    "Plan",
    "Tallies",
    "Tally",
    "TypeSpec",
    "checked_weight",
    "deliver",
    "is_rouge_type",
    "parse_types",
    "tallies",
]

# The kind codes (NGRAM ... SKIP) are re-exported from kurenai._core.kinds:
# the compiled plan reads them here.  A twin that meets a kind it does not
# know declines the plan (see ``kurenai._core.choice.make_plan``).
DEFAULT_W_WEIGHT = 1.2  # ROUGE-1.5.5's -w

# The type names parse_types accepts, in words (for help texts), from the registry.
ROUGE_TYPE_GRAMMAR = "; ".join(f"{kind.grammar}: {kind.counts}" for kind in KINDS)

ScoreDict = dict[str, Score]
# The fields of a Score, in order: also the second axis of every score table
# (types x 3 x pairs), and of the Arrow and Spark structs.
SCORE_FIELDS: tuple[str, ...] = tuple(Score._fields)
# Per type, the counts ROUGE-1.5.5 pools over references (see ``Tally``).
Tallies = list[Tally]


@dataclass(frozen=True)
class TypeSpec:
    """ROUGE types parsed once: per type its kind and n-gram slot.

    ``orders`` holds each distinct n-gram order once (duplicated types share
    their count); ``slots[i]`` is type i's index into it, or -1.  A SKIP
    type's ``gaps[i]`` is its gap limit (-1: none) and ``unigrams[i]`` says
    whether it adds unigrams (SU); ``w_weight`` is ROUGE-W's weight.  These
    are the fields the compiled plan reads.
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
        return any(kind_of(code).reads_sentences for code in self.kinds)


def parse_types(
    rouge_types: Any, w_weight: float = DEFAULT_W_WEIGHT, split_summaries: bool = False
) -> TypeSpec:
    """``rouge_types`` checked and parsed; any number of them, duplicates
    too, in any spelling of :mod:`kurenai._core.names` (each keeps its name).

    Raises:
        TypeError: a bare string, or not an iterable of str.
        ValueError: an unknown ROUGE type (the message lists the valid ones),
            or a detected-sentences name without ``split_summaries``.
    """
    names = _checks.rouge_types(rouge_types)
    parsed = [_names.resolve(name) for name in names]
    for found in parsed:
        _names.check_sentences(found, split_summaries)
    orders: list[int] = []
    slots: list[int] = []
    for found in parsed:
        order = found.params.order
        if order and order not in orders:
            orders.append(order)
        slots.append(orders.index(order) if order else -1)
    kinds = tuple(found.kind.code for found in parsed)
    return TypeSpec(
        names,
        kinds,
        tuple(slots),
        tuple(orders),
        LCS in kinds,
        LSUM in kinds,
        any(not found.kind.reads_sentences for found in parsed),
        tuple(found.params.gap for found in parsed),
        tuple(found.params.unigrams for found in parsed),
        checked_weight(w_weight),
    )


# ROUGE-W's weight: f(k) = k ** w, and recall maps Σ f(sentence length)
# through f once more (Perl's double weighting), so a target of L tokens
# reaches L ** (w * w).  Below 1, f is subadditive and P or R can pass 1
# (w -> 0 gives inf and nan); above 5, L ** (w * w) leaves the float range
# for texts of 10**12 tokens, and the compiled twin returns inf where the pure
# twin raises OverflowError much sooner (w = 10: 2,000 tokens).  ROUGE-1.5.5
# asks for w > 1 (1.2 typically).
MIN_W_WEIGHT, MAX_W_WEIGHT = 1.0, 5.0


def checked_weight(weight: object) -> float:
    """``rouge_w_weight`` as a float, or a TypeError/ValueError.

    It must lie in [``MIN_W_WEIGHT``, ``MAX_W_WEIGHT``] = [1, 5]: there both
    twins compute finite P, R and F in [0, 1], the same to the bit, for any
    text that fits in memory.
    """
    if isinstance(weight, bool) or not isinstance(weight, (int, float)):
        raise TypeError(f"rouge_w_weight must be a number, got {type(weight).__name__}")
    if not MIN_W_WEIGHT <= weight <= MAX_W_WEIGHT:
        raise ValueError(
            f"rouge_w_weight must be between {MIN_W_WEIGHT:g} and {MAX_W_WEIGHT:g} "
            f"(ROUGE-1.5.5's -w, typically 1.2), got {weight!r}"
        )
    return float(weight)


def tallies(plan: Plan, target: str, prediction: str) -> Tallies:
    """``plan.tallies`` as ``Tally`` tuples (the compiled plan returns plain
    tuples: converted here, once, for the multi-reference modes)."""
    return [Tally._make(found) for found in plan.tallies(target, prediction)]


def deliver(
    rouge_types: tuple[str, ...], scores: list[ScoreDict | None], out: Any
) -> list[ScoreDict | None] | None:
    """``score_many``'s result from a plan's per-pair scores: the list, or
    (with ``out``) None after writing each scored pair's P/R/F into ``out``
    (the caller filled it with NaN)."""
    if out is None:
        return scores
    if not rouge_types:  # nothing to write (NumPy fills no (0, 3) slice from [])
        return None
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

    def tallies(self, target: str, prediction: str) -> Sequence[tuple[float, float, float]]:
        """The counts behind each type's score of one pair (see ``Tally``; the
        compiled twin returns plain tuples, :func:`tallies` names them), for
        the multi-reference modes (``kurenai._core.multiref``)."""
        ...

    def score_shared(self, targets: list[str], systems: list[list[str]], out: list[Any]) -> None:
        """Several systems' predictions against the same targets:
        ``systems[s][k]`` against ``targets[k]``, its P/R/F written to
        ``out[s][:, :, k]`` (float64, types x 3 x pairs), in each twin's
        fastest way: the pure twin tokenizes each target once for every
        system; the compiled one scans it again per system, faster in C than
        tokens handed over (``kurenai.report``'s leaderboard)."""
        ...

    def intern_texts(self, texts: list[str]) -> tuple[bytes, list[int], int]:
        """Each text's whole token list, as scored, as int32 IDs over one
        vocabulary (bytes), the offset of each text and the end, and a bound
        on the IDs: what the all-pairs kernels (``kurenai._pairs``) read."""
        ...

    def tokens(self, text: str, stemmed: bool = False) -> Sequence[str]:
        """The tokens of ``text`` before the tokenizer's stemmer, or after it
        if ``stemmed``; never used for scoring (tests hold the twins to it)."""
        ...

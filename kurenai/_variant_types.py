"""ROUGE-W, ROUGE-S{k} and ROUGE-SU{k}: the ROUGE-1.5.5 types rouge-score lacks.

The path of a pair: text -> tokens (the scorer's own tokenizer; sentences as
for ``rougeLsum``) -> ``_backend.variants`` kernels (which intern the tokens
to int IDs) -> a ``Tally`` per type -> ``Score``.  A ``Tally`` keeps the counts that
ROUGE-1.5.5 pools over references for ``-f A`` (see ``kurenai._multiref``).

Names: ``rougeW``; ``rougeS{k}`` / ``rougeSU{k}`` (k >= 1 tokens may lie
between the two of a skip-bigram); ``rougeS`` / ``rougeSU`` without a limit.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple, Protocol

from kurenai import _backend
from kurenai._plan import Plan, deliver, parse_types
from kurenai.scoring import Score, fmeasure

Tokens = Sequence[str]
_NAME = re.compile(r"rouge(W|SU?)([1-9][0-9]*)?")


class Tally(NamedTuple):
    """One type's counts for one (reference, prediction) pair.

    Recall is ``finish(hits / reference)``, precision ``finish(hits /
    prediction)``; ``key`` is the value ROUGE-1.5.5's ``-f B`` compares.
    """

    hits: float
    reference: float
    prediction: float
    key: float


@dataclass(frozen=True)
class Variant:
    """A parsed variant type: ``kind`` W, S or SU; ``gap`` -1 for no limit."""

    name: str
    kind: str
    gap: int


def parse(name: str) -> Variant | None:
    """The variant type called ``name``, or None if it is not one."""
    match = _NAME.fullmatch(name) if isinstance(name, str) else None
    if match is None or (match.group(1) == "W" and match.group(2)):
        return None
    return Variant(name, match.group(1), int(match.group(2) or -1))


def checked_weight(weight: object) -> float:
    """``rouge_w_weight`` as a float, or a TypeError/ValueError."""
    if isinstance(weight, bool) or not isinstance(weight, (int, float)):
        raise TypeError(f"rouge_w_weight must be a number, got {type(weight).__name__}")
    if not 0 < weight < float("inf"):
        raise ValueError(f"rouge_w_weight must be a positive finite number, got {weight!r}")
    return float(weight)


def ratio(hits: float, count: float) -> float:
    """``hits / count``, 0.0 when nothing could match (ROUGE-1.5.5's guard)."""
    return hits / count if count else 0.0


def score(tally: Tally, finish: Callable[[float], float]) -> Score:
    """A single reference's Score from its tally."""
    precision = finish(ratio(tally.hits, tally.prediction))
    recall = finish(ratio(tally.hits, tally.reference))
    return Score(precision, recall, fmeasure(precision, recall))


def finisher(variant: Variant, weight: float) -> Callable[[float], float]:
    """The map from a count ratio to a score: f⁻¹ for ROUGE-W, else identity."""
    return Inverse(weight) if variant.kind == "W" else identity


@dataclass(frozen=True)
class Inverse:
    """ROUGE-W's f⁻¹(x) = x ** (1 / w) (a class, so that scorers pickle)."""

    weight: float

    def __call__(self, value: float) -> float:
        return float(value ** (1 / self.weight))


def identity(value: float) -> float:
    return value


class Texts(NamedTuple):
    """One side of a pair as the kernels read it (tokens: the kernels intern
    them to int IDs themselves)."""

    whole: Tokens
    sentences: Sequence[Tokens]


def tally(variant: Variant, weight: float, reference: Texts, prediction: Texts) -> Tally:
    """The counts of one variant type for one tokenized pair."""
    kernels = _backend.variants
    if variant.kind == "W":
        hit, base = kernels.weighted_lcs(reference.sentences, prediction.sentences, weight)
        # ROUGE-1.5.5 weights the reference's already weighted length again (-f A
        # and -f B both report this); its -f B choice uses the single weighting.
        peer = float(sum(map(len, prediction.sentences))) ** weight
        key = ratio(hit, base) ** (1 / weight)
        return Tally(hit, base**weight, peer, key)
    hits, t_count, p_count = kernels.skip_bigram_counts(
        reference.whole, prediction.whole, variant.gap, variant.kind == "SU"
    )
    return Tally(hits, t_count, p_count, perl_rounded(ratio(hits, t_count)))


def perl_rounded(value: float) -> float:
    """``value`` rounded as ROUGE-1.5.5's ``sprintf("%07.5f")`` before comparing."""
    return float(f"{value:.5f}")


class VariantScorer:
    """Scores a RougeScorer's types when some are variants.

    rouge-score's own types go to ``base`` (a RougeScorer of those types
    only, so they keep its exact path); the variants are computed here with
    the same tokenizer and the same sentences as ``rougeLsum``.
    """

    def __init__(
        self,
        rouge_types: list[str],
        base: BaseScore | None,
        tokenize: Callable[[str], Tokens],
        sentences: Callable[[str], list[str]],
        weight: float,
    ) -> None:
        self.rouge_types = rouge_types
        self.base = base
        self.variants = [v for v in map(parse, rouge_types) if v is not None]
        self.weight = weight
        self.finishers = {v.name: finisher(v, weight) for v in self.variants}
        self._tokenize = tokenize
        self._sentences = sentences
        self._want_whole = any(v.kind != "W" for v in self.variants)
        self._want_sentences = any(v.kind == "W" for v in self.variants)

    def tokens(self, text: str, both: bool = False) -> tuple[Tokens, list[Tokens]]:
        """(whole-text tokens, sentence tokens), each only if some type needs it
        (or ``both``: a size limit counts the tokens the way RougeScorer does)."""
        whole = self._tokenize(text) if self._want_whole or both else []
        if not (self._want_sentences or both):
            return whole, []
        return whole, [self._tokenize(s) for s in self._sentences(text)]

    def tallies(self, reference: Texts, candidate: Texts) -> dict[str, Tally]:
        """Each variant type's tally for one tokenized pair."""
        return {v.name: tally(v, self.weight, reference, candidate) for v in self.variants}

    def score(self, target: str, prediction: str, limit: int = -1) -> dict[str, Score] | None:
        """All the scorer's types for one pair; None past ``limit`` tokens a side."""
        both = limit >= 0 and self.base is not None
        sides = [self.tokens(target, both), self.tokens(prediction, both)]
        if limit >= 0 and any(_size(side) > limit for side in sides):
            return None
        reference, candidate = Texts(*sides[0]), Texts(*sides[1])
        found = {
            v.name: score(tally(v, self.weight, reference, candidate), self.finishers[v.name])
            for v in self.variants
        }
        if self.base is not None:
            # Past the check above, the base sees the same token counts.
            found.update(self.base.score(target, prediction))
        return {rouge_type: found[rouge_type] for rouge_type in self.rouge_types}


class BaseScore(Protocol):
    """What VariantScorer needs of the RougeScorer for rouge-score's types."""

    def score(self, target: str, prediction: str) -> dict[str, Score]: ...


def _size(side: tuple[Tokens, list[Tokens]]) -> int:
    whole, sentences = side
    return max(len(whole), sum(map(len, sentences)))


class Sentences:
    """The sentences ``rougeLsum`` and ROUGE-W read: the non-empty lines, or
    the non-empty pieces of ``splitter`` (a class, so that plans pickle)."""

    def __init__(self, splitter: Callable[[str], list[str]] | None) -> None:
        self.splitter = splitter

    def __call__(self, text: str) -> list[str]:
        pieces = text.split("\n") if self.splitter is None else self.splitter(text)
        return [piece for piece in pieces if piece]


class VariantPlan:
    """The ``Plan`` of a scorer whose types include ROUGE-1.5.5 variants.

    rouge-score's types go to ``base``, a plan of those types alone, so they
    keep their exact (and compiled) path; the variants are scored here, from
    the same tokenizer and sentences, one pair at a time.
    """

    def __init__(
        self,
        rouge_types: tuple[str, ...],
        base: Plan | None,
        tokenizer: Any,
        splitter: Callable[[str], list[str]] | None,
        weight: float,
        threads: int = 1,
    ) -> None:
        self._types = rouge_types
        self.threads = threads  # used by ``base``; the variants' kernels run on one
        self.scorer = VariantScorer(
            list(rouge_types), base, tokenizer.tokenize, Sentences(splitter), weight
        )

    @property
    def rouge_types(self) -> tuple[str, ...]:
        return self._types

    def score(self, target: str, prediction: str) -> dict[str, Score]:
        """The scores of one pair."""
        return self.scorer.score(target, prediction)  # type: ignore[return-value]

    def score_many(
        self, targets: list[str], predictions: list[str], max_tokens: int = -1, out: Any = None
    ) -> list[dict[str, Score] | None] | None:
        """See ``kurenai._plan.Plan.score_many``."""
        scores = [self.scorer.score(t, p, max_tokens) for t, p in zip(targets, predictions)]
        return deliver(self._types, scores, out)


def make_plan(
    rouge_types: Any,
    tokenizer: Any,
    splitter: Callable[[str], list[str]] | None,
    weight: float,
    threads: int = 1,
) -> Plan:
    """A scorer's plan: ``_backend.make_plan`` for rouge-score's types alone,
    a :class:`VariantPlan` around it when some types are variants."""
    names = rouge_types
    if not isinstance(rouge_types, (str, bytes)):
        with contextlib.suppress(TypeError):  # parse_types names the problem
            names = tuple(rouge_types)
    if isinstance(names, tuple) and any(parse(name) is not None for name in names):
        plain = [name for name in names if parse(name) is None]
        base = (
            _backend.make_plan(parse_types(plain), tokenizer, splitter, threads) if plain else None
        )
        return VariantPlan(names, base, tokenizer, splitter, weight, threads)
    return _backend.make_plan(parse_types(names), tokenizer, splitter, threads)


def multi_reference_scorer(
    plan: Plan,
    tokenizer: Any,
    splitter: Callable[[str], list[str]] | None,
    weight: float,
) -> VariantScorer:
    """What ``kurenai._multiref`` reads for the modes other than ``best``."""
    if isinstance(plan, VariantPlan):
        return plan.scorer
    types = list(plan.rouge_types)
    return VariantScorer(types, plan, tokenizer.tokenize, Sentences(splitter), weight)

"""The pure-Python plan: text -> tokens -> kernels' integer counts -> Scores.

The readable specification of what ``kurenai._fused.FusedPlan`` computes in one
compiled pass, and the plan of every tokenizer the compiled scan does not
reproduce.  The floats come from exactly rouge-score's operations, in its
order.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any, Callable, Optional

from kurenai._core.plan import LCS, NGRAM, SKIP, WLCS, ScoreDict, Tallies, TypeSpec, deliver
from kurenai._core.rules import SENTENCE_SEPARATOR
from kurenai.scoring import Score, fmeasure

__all__ = ["PythonPlan"]

Tokens = Sequence[Any]
# A text as the kernels take it: (sentences' tokens, whole-text tokens, or
# None when those are the sentences' tokens concatenated).
Tokenized = tuple[list[Tokens], Optional[Tokens]]
Counts = tuple[tuple[int, ...], int, int, int, int, int, int]
# Per type, a ROUGE-W or ROUGE-S/SU type's counts (see ``_plan.Tallies``), else None.
VariantCounts = list[Optional[tuple[float, float, float]]]
Splitter = Callable[[str], Sequence[str]]


class PythonPlan:
    """``score`` / ``score_many`` with any tokenizer, on the given kernels.

    ``splitter`` finds the sentences of ROUGE-Lsum and ROUGE-W; None: one
    sentence per line.  ``variants`` holds the ROUGE-W/S/SU kernels
    (``_variants`` or ``_variants_py``), needed when ``spec`` has those types.
    ``threads`` goes to the kernels (the compiled ones split a long pair's LCS).
    """

    def __init__(
        self,
        spec: TypeSpec,
        tokenizer: Any,
        kernels: ModuleType,
        splitter: Splitter | None,
        variants: ModuleType | None = None,
        threads: int = 1,
    ) -> None:
        if variants is None and {WLCS, SKIP} & set(spec.kinds):
            raise ValueError("ROUGE-W/S/SU types need the variants kernels")
        self.spec = spec
        self.threads = threads
        self._tokenize: Callable[[str], Any] = tokenizer.tokenize
        self._tokenizer_name = type(tokenizer).__name__
        self._kernels = kernels
        self._variants = variants
        self._splitter = splitter
        # Tokenize each line once and reuse the lines as the whole text, when
        # the tokenizer guarantees the result is the same.
        self._by_lines = (
            getattr(type(tokenizer), "line_separable", False) is True and splitter is None
        )
        self._types = [
            (name, kind, spec.orders[slot] if kind == NGRAM else 0, slot)
            for name, kind, slot in zip(spec.rouge_types, spec.kinds, spec.slots)
        ]

    @property
    def rouge_types(self) -> tuple[str, ...]:
        return self.spec.rouge_types

    def score(self, target: str, prediction: str) -> ScoreDict:
        """The scores of one pair."""
        return self._scores(*self._count(self.tokenized(target), self.tokenized(prediction)))

    def tallies(self, target: str, prediction: str) -> Tallies:
        """See ``kurenai._core.plan.Plan.tallies``."""
        counts, variant_counts = self._count(self.tokenized(target), self.tokenized(prediction))
        overlaps, lcs, hits, t_len, p_len, t_sum, p_sum = counts
        found: Tallies = []
        for (_, kind, n, slot), variant in zip(self._types, variant_counts):
            if variant is not None:
                found.append(variant)
            elif kind == NGRAM:
                found.append((overlaps[slot], max(t_len - n + 1, 0), max(p_len - n + 1, 0)))
            elif kind == LCS:
                found.append((lcs if t_len and p_len else 0, t_len, p_len))
            else:
                found.append((hits if t_sum and p_sum else 0, t_sum, p_sum))
        return found

    def score_many(
        self,
        targets: list[str],
        predictions: list[str],
        max_tokens: int = -1,
        out: Any = None,
    ) -> list[ScoreDict | None] | None:
        """See ``kurenai._core.plan.Plan.score_many``."""
        scores = [self._score_limited(t, p, max_tokens) for t, p in zip(targets, predictions)]
        return deliver(self.spec.rouge_types, scores, out)

    def tokenized(self, text: str) -> Tokenized:
        """``text`` as the kernels take it, for this plan's types."""
        tokenize = self._tokenize
        if self._by_lines:
            if not self.spec.want_sentences:
                return [self._checked(tokenize(text))], None
            lines = [tokenize(line) for line in text.split(SENTENCE_SEPARATOR) if line]
            for tokens in lines:
                if type(tokens) is not list:
                    self._checked(tokens)
            return lines, None
        whole = self._checked(tokenize(text)) if self.spec.want_whole else []
        if not self.spec.want_sentences:
            return [], whole
        return [self._checked(tokenize(s)) for s in self._sentences(text)], whole

    def _checked(self, tokens: Any) -> Tokens:
        """``tokens`` if the tokenizer returned a list (or tuple), else a TypeError."""
        if type(tokens) is not list and not isinstance(tokens, (list, tuple)):
            raise TypeError(
                f"{self._tokenizer_name}.tokenize must return a list of str, "
                f"it returned {type(tokens).__name__}"
            )
        return tokens

    def _sentences(self, text: str) -> list[str]:
        if self._splitter is None:
            return [s for s in text.split(SENTENCE_SEPARATOR) if s]
        sentences = self._splitter(text)
        if not isinstance(sentences, (list, tuple)) or not all(
            isinstance(s, str) for s in sentences
        ):
            raise TypeError(
                f"sentence_splitter {_name(self._splitter)} must return a list of str, "
                f"it returned {_describe(sentences)}"
            )
        return [s for s in sentences if len(s)]

    def _score_limited(self, target: str, prediction: str, limit: int) -> ScoreDict | None:
        tokenized = self.tokenized(target), self.tokenized(prediction)
        if limit >= 0 and any(_token_count(side) > limit for side in tokenized):
            return None
        return self._scores(*self._count(*tokenized))

    def _count(self, target: Tokenized, prediction: Tokenized) -> tuple[Counts, VariantCounts]:
        spec = self.spec
        try:
            counts = self._kernels.pair_counts(
                target[0],
                prediction[0],
                spec.orders,
                spec.want_lcs,
                spec.want_lsum,
                target[1],
                prediction[1],
                self.threads,
            )
            return counts, self._variant_counts(target, prediction)
        except TypeError as error:
            bad = _first_unhashable(target, prediction)
            if bad is None:
                raise
            raise TypeError(
                f"{self._tokenizer_name}.tokenize must return a list of str, "
                f"it returned a list holding {type(bad).__name__}"
            ) from error

    def _variant_counts(self, target: Tokenized, prediction: Tokenized) -> VariantCounts:
        """ROUGE-1.5.5's counts: ROUGE-W on the sentences, ROUGE-S/SU on the whole text."""
        spec, kernels = self.spec, self._variants
        found: VariantCounts = []
        for kind, gap, unigrams in zip(spec.kinds, spec.gaps, spec.unigrams):
            if kind == WLCS:
                hit, base = kernels.weighted_lcs(target[0], prediction[0], spec.w_weight)  # type: ignore[union-attr]
                found.append((hit, base, sum(map(len, prediction[0]))))
            elif kind == SKIP:
                t, p = (_whole(side) for side in (target, prediction))
                found.append(kernels.skip_bigram_counts(t, p, gap, unigrams))  # type: ignore[union-attr]
            else:
                found.append(None)
        return found

    def _scores(self, counts: Counts, variant_counts: VariantCounts) -> ScoreDict:
        overlaps, lcs, hits, t_len, p_len, t_sum, p_sum = counts
        result: ScoreDict = {}
        for (name, kind, n, slot), variant in zip(self._types, variant_counts):
            if variant is not None:
                result[name] = variant_score(kind, variant, self.spec.w_weight)
            elif kind == NGRAM:
                # rouge-score divides by max(count, 1): always a float, never 0/0.
                precision = overlaps[slot] / max(p_len - n + 1, 1)
                recall = overlaps[slot] / max(t_len - n + 1, 1)
                result[name] = Score(precision, recall, fmeasure(precision, recall))
            elif kind == LCS:
                result[name] = _ratio_score(lcs, p_len, t_len)
            else:
                result[name] = _ratio_score(hits, p_sum, t_sum)
        return result


def variant_score(kind: int, counts: tuple[float, float, float], w_weight: float) -> Score:
    """A ROUGE-W or ROUGE-S/SU Score from its counts, as ROUGE-1.5.5 computes it.

    ROUGE-W is f⁻¹(hit / f(count)) with f(k) = k ** w: the reference's count
    is already Σ f(sentence length), so Perl weights it twice (and both ``-f
    A`` and ``-f B`` report that).
    """
    hits, t_count, p_count = counts
    if kind == WLCS:
        precision = ratio(hits, float(p_count) ** w_weight) ** (1 / w_weight)
        recall = ratio(hits, t_count**w_weight) ** (1 / w_weight)
    else:
        precision, recall = ratio(hits, p_count), ratio(hits, t_count)
    return Score(precision, recall, fmeasure(precision, recall))


def ratio(hits: float, count: float) -> float:
    """``hits / count``, 0.0 when nothing could match (ROUGE-1.5.5's guard)."""
    return hits / count if count else 0.0


def _whole(tokenized: Tokenized) -> Tokens:
    sentences, whole = tokenized
    return whole if whole is not None else [token for s in sentences for token in s]


def _ratio_score(hits: int, prediction_len: int, target_len: int) -> Score:
    # rouge-score returns int zeros (not 0.0) when a side has no tokens.
    if not prediction_len or not target_len:
        return Score(precision=0, recall=0, fmeasure=0)
    precision = hits / prediction_len
    recall = hits / target_len
    return Score(precision, recall, fmeasure(precision, recall))


def _token_count(tokenized: Tokenized) -> int:
    sentences, whole = tokenized
    return max(sum(map(len, sentences)), len(whole) if whole is not None else 0)


def _first_unhashable(*sides: Tokenized) -> object:
    for sentences, whole in sides:
        for tokens in [*sentences, whole or ()]:
            for token in tokens:
                try:
                    hash(token)
                except TypeError:
                    return token
    return None


def _name(function: object) -> str:
    return getattr(function, "__qualname__", type(function).__name__)


def _describe(value: object) -> str:
    if isinstance(value, (list, tuple)):
        kinds = sorted({type(item).__name__ for item in value if not isinstance(item, str)})
        return f"a {type(value).__name__} holding {', '.join(kinds)}"
    return type(value).__name__

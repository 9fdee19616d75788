"""Why a score is what it is: what each ROUGE type matched, as spans of the texts.

>>> from kurenai.rouge_scorer import RougeScorer
>>> found = explain(RougeScorer(["rouge1", "rougeL"]), "the cat sat", "the cat ran")
>>> found["rougeL"].matched_text("target")
['the', 'cat']
>>> found["rouge1"].counts, found["rouge1"].score == found.scores["rouge1"]
((2, 3, 3), True)

:func:`explain` tokenizes a pair as the scorer does, with each token's span in
its text (:mod:`kurenai.explain._spans`), finds per type what matched
(:mod:`kurenai.explain._matches`) and recomputes each score from those counts
with rouge-score's operations: it equals ``scorer.score(target,
prediction)``, bit for bit.  ROUGE-N and ROUGE-L read the whole text;
ROUGE-Lsum and ROUGE-W the sentences (lines, or ``split_summaries``'s
sentences), so their token positions index the sentences' tokens.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Callable, Literal, NamedTuple

from kurenai._core import batch as _batch
from kurenai._core import multiref as _multiref
from kurenai._core.kinds import Tally, kind_of
from kurenai._core.plan import LCS, LSUM, NGRAM, SKIP, WLCS
from kurenai._data.rules import SENTENCE_SEPARATOR
from kurenai.explain import _matches
from kurenai.explain._matches import ExplainLimitError
from kurenai.explain._spans import Token, token_spans
from kurenai.scoring import Score

__all__ = [
    "ExplainLimitError",
    "Explanation",
    "Match",
    "MultiExplanation",
    "Token",
    "TypeExplanation",
    "explain",
    "explain_multi",
    "token_spans",
]

Side = Literal["target", "prediction"]


class Match(NamedTuple):
    """One matched unit: its token positions in the reference and in the prediction
    (one position each for ROUGE-L/Lsum, n for an n-gram, two for a
    skip-bigram, a run for ROUGE-W)."""

    target: tuple[int, ...]
    prediction: tuple[int, ...]


_as_match: Callable[[Any], Match] = functools.partial(tuple.__new__, Match)


@dataclass(frozen=True)
class TypeExplanation:
    """What one ROUGE type matched and the counts of its score.

    ``counts`` is ``(hits, target_count, prediction_count)``: precision is
    hits over the prediction's count, recall hits over the reference's
    (ROUGE-W: the weighted hit and base, see ``kurenai._core.python_plan``).
    """

    rouge_type: str
    target_tokens: tuple[Token, ...]
    prediction_tokens: tuple[Token, ...]
    matches: tuple[Match, ...]
    counts: tuple[float, float, float]
    score: Score

    def matched_tokens(self, side: Side) -> list[Token]:
        """The matched tokens of ``side``, each once, in text order."""
        tokens = self.target_tokens if side == "target" else self.prediction_tokens
        positions = {k for m in self.matches for k in getattr(m, side)}
        return [tokens[k] for k in sorted(positions)]

    def matched_text(self, side: Side) -> list[str]:
        """The matched tokens' strings (stems, when stemming), in text order."""
        return [token.text for token in self.matched_tokens(side)]

    def spans(self, side: Side) -> list[tuple[int, int]]:
        """The character spans of ``side``'s matched tokens, in text order."""
        return [(t.start, t.end) for t in self.matched_tokens(side) if t.start >= 0]


@dataclass(frozen=True)
class Explanation:
    """:func:`explain`'s answer: per ROUGE type, a :class:`TypeExplanation`."""

    target: str
    prediction: str
    types: dict[str, TypeExplanation]

    def __getitem__(self, rouge_type: str) -> TypeExplanation:
        return self.types[rouge_type]

    @property
    def scores(self) -> dict[str, Score]:
        """The scores recomputed from the explained counts (``scorer.score``'s)."""
        return {name: found.score for name, found in self.types.items()}


@dataclass(frozen=True)
class MultiExplanation:
    """:func:`explain_multi`'s answer: one explanation per reference; ``chosen``
    names, per type, the reference whose score the mode takes (``best``,
    ``best-recall``: the mode's own rule; None in the modes that combine
    references); ``scores`` are ``score_multi``'s."""

    references: tuple[Explanation, ...]
    chosen: dict[str, int | None]
    scores: dict[str, Score]


def explain(scorer: Any, target: str, prediction: str) -> Explanation:
    """What ``scorer`` (a ``RougeScorer``) matched between ``target`` and ``prediction``.

    Raises TypeError if either text is not a str, RuntimeError if the
    tokens cannot be located in the text (see :mod:`kurenai.explain._spans`),
    and :class:`ExplainLimitError` (a ValueError), before any matching, if a
    type's explanation would cost more than its budget (see
    :mod:`kurenai.explain._matches`: ROUGE-S/SU without a gap on long texts,
    ROUGE-Lsum or ROUGE-W on many sentences sharing tokens).
    """
    target = _batch.text("target", target)
    prediction = _batch.text("prediction", prediction)
    views = _Views(scorer)
    t, p = views.of(target), views.of(prediction)
    spec = scorer.plan.spec
    for k, (name, kind) in enumerate(zip(spec.rouge_types, spec.kinds)):
        sentences = kind_of(kind).reads_sentences
        t_units, p_units = (t[2], p[2]) if sentences else ([t[3]], [p[3]])
        gap, unigrams = (spec.gaps[k], spec.unigrams[k]) if kind == SKIP else (-1, False)
        _matches.check_work(name, kind, t_units, p_units, gap=gap, unigrams=unigrams)
    types: dict[str, TypeExplanation] = {}
    for k, (name, kind) in enumerate(zip(spec.rouge_types, spec.kinds)):
        sentences = kind_of(kind).reads_sentences
        t_tokens, p_tokens = (t[1], p[1]) if sentences else (t[0], p[0])
        pairs, counts, score = _explained(spec, k, kind, t, p)
        matches = tuple(map(_as_match, pairs))
        types[name] = TypeExplanation(name, t_tokens, p_tokens, matches, counts, score)
    return Explanation(target, prediction, types)


def explain_multi(
    scorer: Any, targets: Iterable[str], prediction: str, mode: str = "best"
) -> MultiExplanation:
    """:func:`explain` against each of several references (``score_multi``'s input)."""
    mode = _multiref.check_mode(mode)
    references = _batch.reference_group(targets, "targets")
    found = tuple(explain(scorer, reference, prediction) for reference in references)
    scores, picks = _multiref.chosen(scorer.plan, references, prediction, mode)
    names = scorer.rouge_types
    chosen = dict(zip(names, picks if picks is not None else [None] * len(names)))
    return MultiExplanation(found, chosen, scores)


# A text as explained: (whole-text tokens, sentences' tokens concatenated,
# the sentences' token strings one list each, the whole text's token strings).
Viewed = tuple[tuple[Token, ...], tuple[Token, ...], list[list[str]], list[str]]


class _Views:
    """Tokenizes a text as the scorer's plan does, keeping the spans."""

    def __init__(self, scorer: Any) -> None:
        self.tokenizer = scorer.tokenizer
        self.splitter = scorer._splitter()
        self.spec = scorer.plan.spec
        self.by_lines = (
            getattr(type(self.tokenizer), "line_separable", False) is True and self.splitter is None
        )

    def of(self, text: str) -> Viewed:
        sentences: list[list[Token]] = []
        if self.spec.want_sentences:
            sentences = [token_spans(self.tokenizer, s, at) for s, at in self._sentences(text)]
        flat = tuple(token for sentence in sentences for token in sentence)
        if self.by_lines and self.spec.want_sentences:
            whole = flat  # a line-separable tokenizer: the lines' tokens are the text's
        elif self.spec.want_whole:
            whole = tuple(token_spans(self.tokenizer, text))
        else:
            whole = ()
        return (
            whole,
            flat,
            [[token.text for token in s] for s in sentences],
            [x.text for x in whole],
        )

    def _sentences(self, text: str) -> list[tuple[str, int]]:
        """The sentences with their offsets in ``text`` (-1 where not found)."""
        if self.splitter is None:
            found, at = [], 0
            for line in text.split(SENTENCE_SEPARATOR):
                if line:
                    found.append((line, at))
                at += len(line) + 1
            return found
        located, at = [], 0
        for sentence in self.splitter(text):
            if not sentence:
                continue
            start = text.find(sentence, at)
            located.append((sentence, start))
            at = start + len(sentence) if start >= 0 else at
        return located


# What one type of a kind matched: (spec, type index, target, prediction) ->
# (matches, counts).  A kind of kurenai._core.kinds that has no entry here
# cannot be explained yet (one clear error, whatever its code).
Explainer = Callable[[Any, int, Viewed, Viewed], tuple[_matches.Pairs, tuple[float, float, float]]]
_EXPLAINERS: dict[int, Explainer] = {
    NGRAM: lambda spec, k, t, p: _matches.ngrams(t[3], p[3], spec.orders[spec.slots[k]]),
    LCS: lambda spec, k, t, p: _matches.lcs(t[3], p[3]),
    LSUM: lambda spec, k, t, p: _matches.lsum(t[2], p[2]),
    WLCS: lambda spec, k, t, p: _matches.wlcs(t[2], p[2], spec.w_weight),
    SKIP: lambda spec, k, t, p: _matches.skip_grams(t[3], p[3], spec.gaps[k], spec.unigrams[k]),
}


def _explained(
    spec: Any, k: int, kind: int, t: Viewed, p: Viewed
) -> tuple[_matches.Pairs, tuple[float, float, float], Score]:
    """One type's matches, counts and score; the score from the counts by the
    kind's own formula in the registry, as the plans compute it."""
    explainer = _EXPLAINERS.get(kind)
    if explainer is None:
        raise NotImplementedError(
            f"kurenai.explain cannot explain {spec.rouge_types[k]} ({kind_of(kind).title}) yet"
        )
    pairs, counts = explainer(spec, k, t, p)
    return pairs, counts, kind_of(kind).score(Tally(*counts), spec.w_weight)

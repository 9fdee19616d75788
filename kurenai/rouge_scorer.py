"""``RougeScorer``: rouge-score's API and numbers, for text in any script.

The path of a pair through it: text -> tokens (``kurenai.tokenizers``) ->
dense int IDs and integer counts (``kurenai._lcs`` kernels) -> ``Score``s,
whose floats are computed with exactly rouge-score's operations.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Callable, Literal, Union, cast, overload

import numpy as np

from kurenai import _backend, _batch, _multiref, _variant_types
from kurenai._unicode_tokenizers import CharTokenizer, UnicodeTokenizer, char_classes
from kurenai.scoring import BaseScorer, Score, fmeasure
from kurenai.sentences import split_sentences
from kurenai.tokenizers import (
    AllCharacterSupportTokenizer,
    RougeScoreTokenizer,
    Tokenizer,
    resolve_tokenizer,
)

__all__ = ["ROUGE_TYPES", "RougeScorer", "is_rouge_type"]

ROUGE_TYPES = (*(f"rouge{n}" for n in range(1, 10)), "rougeL", "rougeLsum")


def is_rouge_type(name: str) -> bool:
    """Whether RougeScorer accepts ``name``: one of ROUGE_TYPES (rouge-score's)
    or a ROUGE-1.5.5 variant (``rougeW``, ``rougeS4``, ``rougeSU``, ...).

    >>> is_rouge_type("rougeSU4"), is_rouge_type("rougeS0")
    (True, False)
    """
    return name in ROUGE_TYPES or _variant_types.parse(name) is not None


TokenizerLike = Union[Tokenizer, str, None]
Tokens = Sequence[str]
Counts = tuple[tuple[int, ...], int, int, int, int, int, int]


class RougeScorer(BaseScorer):
    """Calculates ROUGE scores between texts, exactly as rouge-score does.

    >>> scorer = RougeScorer(["rouge1", "rougeL"])
    >>> scorer.score("猫 は マット の 上 に いる", "猫 が マット に いる")["rouge1"]
    Score(precision=0.8, recall=0.5714285714285714, fmeasure=0.6666666666666666)

    Args:
        rouge_types: the scores to compute, from ``rouge1`` ... ``rouge9``,
            ``rougeL`` (LCS over the whole text) and ``rougeLsum`` (union-LCS
            over sentences).
        use_stemmer: Porter-stem ASCII words longer than 3 characters, as
            rouge-score does (passed to the default or named tokenizer).
        split_summaries: for ``rougeLsum``, find sentences with
            ``sentence_splitter`` instead of taking one sentence per line.
        tokenizer: None (kurenai's ``AllCharacterSupportTokenizer``), a name
            from ``kurenai.tokenizers.available_tokenizers()``, or any object
            with a ``tokenize(text) -> list[str]`` method (rouge-score's
            ``Tokenizer`` interface).
        sentence_splitter: a callable ``text -> list[str]`` used when
            ``split_summaries`` is true; default
            :func:`kurenai.sentences.split_sentences` (offline, multilingual).
            ``nltk.sent_tokenize`` reproduces rouge-score's splitting.
        rouge_w_weight: the weight ``w`` of ``rougeW`` (ROUGE-1.5.5's ``-w``).

    Beyond rouge-score's types, ROUGE-1.5.5's ``rougeW``, ``rougeS{k}``,
    ``rougeSU{k}``, ``rougeS`` and ``rougeSU`` are accepted (see
    ``kurenai._variant_types``).

    Raises:
        TypeError: ``rouge_types`` is a bare string or not an iterable of str.
        ValueError: an unknown ROUGE type.
    """

    def __init__(
        self,
        rouge_types: Iterable[str],
        use_stemmer: bool = False,
        split_summaries: bool = False,
        tokenizer: TokenizerLike = None,
        sentence_splitter: Callable[[str], list[str]] | None = None,
        rouge_w_weight: float = 1.2,
    ) -> None:
        self.rouge_types = _validated_types(rouge_types)
        self._tokenizer = resolve_tokenizer(tokenizer, use_stemmer=use_stemmer)
        self._split_summaries = bool(split_summaries)
        self._splitter = sentence_splitter or split_sentences
        self._orders = tuple(int(t[5:]) for t in self.rouge_types if t[5:].isdigit())
        self._want_lcs = "rougeL" in self.rouge_types
        self._want_lsum = "rougeLsum" in self.rouge_types
        self._want_whole = any(t != "rougeLsum" for t in self.rouge_types)
        # Tokenize each line once and reuse the lines as the whole text, when the
        # tokenizer guarantees the result is the same.
        self._by_lines = (
            getattr(type(self._tokenizer), "line_separable", False) is True
            and not self._split_summaries
        )
        self._variants = _variant_types.VariantScorer.of(self, sentence_splitter, rouge_w_weight)
        self._plan = None
        if not self._variants.variants:
            self._plan = _fused_plan(self._tokenizer, self.rouge_types, self._by_lines)

    @property
    def tokenizer(self) -> Tokenizer:
        """The tokenizer in use."""
        return self._tokenizer

    def score(self, target: str, prediction: str) -> dict[str, Score]:
        """ROUGE scores of ``prediction`` against the reference ``target``.

        Returns a dict mapping each ROUGE type to a ``Score(precision, recall,
        fmeasure)``.  Raises TypeError if either text is not a str.
        """
        _check_text("target", target)
        _check_text("prediction", prediction)
        if self._variants.variants:
            return self._variants.score(target, prediction)  # type: ignore[return-value]
        if self._plan is not None:
            return self._plan.score(target, prediction)  # type: ignore[no-any-return]
        return self._scores(self._count(self._tokenized(target), self._tokenized(prediction)))

    def score_multi(
        self, targets: Iterable[str], prediction: str, mode: str = "best"
    ) -> dict[str, Score]:
        """Scores against several references, combined per ROUGE type by ``mode``.

        ``best`` (rouge-score's rule): the reference with the highest F-measure
        wins (the first one on ties).  ``best-recall`` and ``average`` are
        ROUGE-1.5.5's ``-f B`` and ``-f A``; ``mean`` averages P, R and F (see
        ``kurenai._multiref``).  Raises ValueError if ``targets`` is empty or
        ``mode`` unknown, and TypeError if ``targets`` is a bare string or
        holds a non-str.
        """
        mode = _multiref.check_mode(mode)
        targets = _checked_references(targets, "targets")
        _check_text("prediction", prediction)
        if mode != "best" or self._variants.variants:
            return _multiref.combine(self._variants, self.score, targets, prediction, mode)
        if self._plan is not None:
            all_scores = self._plan.score_many(targets, [prediction] * len(targets))
        else:
            tokenized_prediction = self._tokenized(prediction)
            all_scores = [
                self._scores(self._count(self._tokenized(t), tokenized_prediction)) for t in targets
            ]
        return _batch.best_per_type(self.rouge_types, all_scores)

    @overload
    def score_batch(
        self,
        targets: Sequence[str | None],
        predictions: Sequence[str | None],
        n_jobs: int = ...,
        *,
        columnar: Literal[False] = ...,
        allow_none: bool = ...,
        max_tokens: int | None = ...,
    ) -> list[dict[str, Score] | None]: ...

    @overload
    def score_batch(
        self,
        targets: Sequence[str | None],
        predictions: Sequence[str | None],
        n_jobs: int = ...,
        *,
        columnar: Literal[True],
        allow_none: bool = ...,
        max_tokens: int | None = ...,
    ) -> dict[str, Score]: ...

    def score_batch(
        self,
        targets: Sequence[str | None],
        predictions: Sequence[str | None],
        n_jobs: int = 1,
        *,
        columnar: bool = False,
        allow_none: bool = False,
        max_tokens: int | None = None,
    ) -> list[dict[str, Score] | None] | dict[str, Score]:
        """Score many pairs: ``[score(t, p) for t, p in zip(targets, predictions)]``.

        Results keep the input order whatever ``n_jobs`` (threads; -1 or 0: all
        cores).  With ``allow_none=True`` a pair with a None side gets None
        (null in, null out); with ``max_tokens`` a pair with more tokens than
        that on a side gets None instead of a long computation.  With
        ``columnar=True`` the result is ``{rouge_type: Score(precision=array,
        recall=array, fmeasure=array)}`` of float64 NumPy arrays, NaN for None.

        >>> scorer = RougeScorer(["rouge1"])
        >>> scorer.score_batch(["a b", None], ["a", "b"], allow_none=True)
        [{'rouge1': Score(precision=1.0, recall=0.5, fmeasure=0.6666666666666666)}, None]
        >>> scorer.score_batch(["a b", "c"], ["a", "c"], columnar=True)["rouge1"].recall
        array([0.5, 1. ])

        Raises ValueError if the sequences differ in length, TypeError for a
        non-str (or a None without ``allow_none``), naming its index.
        """
        jobs = _batch.resolve_jobs(n_jobs)
        size, rows, chosen_t, chosen_p = _batch.checked_pairs(targets, predictions, allow_none)
        if columnar:
            scored = np.full((len(self.rouge_types), 3, len(rows)), np.nan)
            _batch.score_pairs(self, chosen_t, chosen_p, jobs, max_tokens, scored)
            return _batch.columns(self.rouge_types, size, rows, scored)
        scores = _batch.score_pairs(self, chosen_t, chosen_p, jobs, max_tokens)
        if len(rows) == size:
            return scores
        results: list[dict[str, Score] | None] = [None] * size
        for row, pair_scores in zip(rows, scores):
            results[row] = pair_scores
        return results

    def score_multi_batch(
        self,
        targets: Sequence[Sequence[str]],
        predictions: Sequence[str],
        n_jobs: int = 1,
        mode: str = "best",
    ) -> list[dict[str, Score]]:
        """``[score_multi(refs, p, mode) for refs, p in zip(targets, predictions)]``,
        computed as one batch over every (reference, prediction) pair (record by
        record for the other modes and for the ROUGE-1.5.5 types)."""
        targets, predictions = list(targets), list(predictions)
        if len(targets) != len(predictions):
            raise ValueError(f"{len(targets)} target lists but {len(predictions)} predictions")
        if _multiref.check_mode(mode) != "best" or self._variants.variants:
            return [self.score_multi(t, p, mode) for t, p in zip(targets, predictions)]
        flat_t: list[str] = []
        flat_p: list[str] = []
        jobs = _batch.resolve_jobs(n_jobs)
        checked = [_checked_references(refs, f"targets[{i}]") for i, refs in enumerate(targets)]
        for index, (references, prediction) in enumerate(zip(checked, predictions)):
            _check_text(f"predictions[{index}]", prediction)
            flat_t.extend(references)
            flat_p.extend([prediction] * len(references))
        # No None: every text is checked already, and there is no size limit.
        flat = cast("list[dict[str, Score]]", _batch.score_pairs(self, flat_t, flat_p, jobs, None))
        best, start = [], 0
        for references in checked:
            best.append(
                _batch.best_per_type(self.rouge_types, flat[start : start + len(references)])
            )
            start += len(references)
        return best

    # ------------------------------------------------------------ internals

    def _tokenized(self, text: str) -> tuple[list[Tokens], Tokens | None]:
        """(sentences' tokens, whole-text tokens or None if the concatenation)."""
        tokenize = self._tokenizer.tokenize
        if self._by_lines:
            if self._want_lsum:
                return [tokenize(line) for line in text.split("\n") if line], None
            return [tokenize(text)], None
        whole = tokenize(text) if self._want_whole else []
        if not self._want_lsum:
            return [], whole
        return [tokenize(s) for s in self._sentences(text)], whole

    def _sentences(self, text: str) -> list[str]:
        sentences = self._splitter(text) if self._split_summaries else text.split("\n")
        return [s for s in sentences if len(s)]

    def _score_limited(self, target: str, prediction: str, limit: int) -> dict[str, Score] | None:
        """``score`` on the Python-tokenizer path, or None past ``limit`` tokens."""
        if self._variants.variants:
            return self._variants.score(target, prediction, limit)
        tokenized = self._tokenized(target), self._tokenized(prediction)
        if limit >= 0 and any(_token_count(side) > limit for side in tokenized):
            return None
        return self._scores(self._count(*tokenized))

    def _count(
        self,
        target: tuple[list[Tokens], Tokens | None],
        prediction: tuple[list[Tokens], Tokens | None],
    ) -> Counts:
        return _backend.kernels.pair_counts(  # type: ignore[no-any-return]
            target[0],
            prediction[0],
            self._orders,
            self._want_lcs,
            self._want_lsum,
            target[1],
            prediction[1],
        )

    def _scores(self, counts: Counts) -> dict[str, Score]:
        overlaps, lcs, hits, t_len, p_len, t_sum, p_sum = counts
        result: dict[str, Score] = {}
        order_index = 0
        for rouge_type in self.rouge_types:
            if rouge_type == "rougeL":
                result[rouge_type] = _ratio_score(lcs, p_len, t_len)
            elif rouge_type == "rougeLsum":
                result[rouge_type] = _ratio_score(hits, p_sum, t_sum)
            else:
                n = self._orders[order_index]
                overlap = overlaps[order_index]
                order_index += 1
                # rouge-score divides by max(count, 1): always a float, never 0/0.
                precision = overlap / max(p_len - n + 1, 1)
                recall = overlap / max(t_len - n + 1, 1)
                result[rouge_type] = Score(precision, recall, fmeasure(precision, recall))
        return result

    def __repr__(self) -> str:
        return (
            f"RougeScorer({self.rouge_types!r}, tokenizer={self._tokenizer!r}, "
            f"split_summaries={self._split_summaries})"
        )


def _fused_plan(tokenizer: Tokenizer, rouge_types: list[str], by_lines: bool) -> Any:
    """The compiled path's plan, when it reproduces this tokenizer exactly."""
    fastpath = _backend.fastpath
    if fastpath is None or not by_lines or len(rouge_types) > 16:
        return None
    name = _FUSED_TOKENIZERS.get(type(tokenizer))
    if name is None or getattr(tokenizer, "normalize", None) is not None:
        return None
    if name in ("char", "unicode"):
        fastpath.set_char_classes(char_classes())  # built once, ~0.25 s
    stem = tokenizer._stem  # type: ignore[attr-defined]
    return fastpath.Plan(rouge_types, fastpath.MODES[name], stem, Score)


# The tokenizers the compiled scan reproduces exactly (exact classes only: a
# subclass may tokenize differently).
_FUSED_TOKENIZERS: dict[type, str] = {
    AllCharacterSupportTokenizer: "whitespace",
    RougeScoreTokenizer: "rouge-score",
    CharTokenizer: "char",
    UnicodeTokenizer: "unicode",
}


def _ratio_score(hits: int, prediction_len: int, target_len: int) -> Score:
    # rouge-score returns int zeros (not 0.0) when a side has no tokens.
    if not prediction_len or not target_len:
        return Score(precision=0, recall=0, fmeasure=0)
    precision = hits / prediction_len
    recall = hits / target_len
    return Score(precision, recall, fmeasure(precision, recall))


def _token_count(tokenized: tuple[list[Tokens], Tokens | None]) -> int:
    sentences, whole = tokenized
    return max(sum(map(len, sentences)), len(whole) if whole is not None else 0)


def _checked_references(targets: Any, name: str) -> list[str]:
    """``targets`` as a non-empty list of str, or a TypeError/ValueError naming it."""
    if isinstance(targets, (str, bytes)):
        raise TypeError(f"{name} must be a list of str, not a single string")
    references = list(targets)
    if not references:
        raise ValueError(f"{name} must be a non-empty list: score_multi needs at least one target")
    for index, reference in enumerate(references):
        _check_text(f"{name}[{index}]", reference)
    return references


def _check_text(name: str, value: Any) -> None:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value).__name__}")


def _validated_types(rouge_types: Any) -> list[str]:
    if isinstance(rouge_types, (str, bytes)):
        raise TypeError(
            f"rouge_types must be a list of ROUGE types, e.g. [{rouge_types!r}], "
            "not a single string"
        )
    try:
        types = list(rouge_types)
    except TypeError:
        raise TypeError(
            f"rouge_types must be a list of str, got {type(rouge_types).__name__}"
        ) from None
    for rouge_type in types:
        if not is_rouge_type(rouge_type):
            raise ValueError(
                f"invalid ROUGE type {rouge_type!r}; valid types: {', '.join(ROUGE_TYPES)}, "
                "rougeW, rougeS{k}, rougeSU{k}, rougeS, rougeSU"
            )
    return types

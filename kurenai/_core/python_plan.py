"""The pure-Python plan: text -> tokens -> kernels' integer counts -> Scores.

The readable specification of what ``kurenai._fused.FusedPlan`` computes in one
compiled pass, and the plan of every tokenizer the compiled scan does not
reproduce.  The floats come from exactly rouge-score's operations, in its
order.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from types import ModuleType
from typing import Any, Callable

from kurenai._core.kinds import KernelCounts, Kind, Pair, Tally, Tokenized, Tokens, kind_of
from kurenai._core.plan import ScoreDict, Tallies, TypeSpec, deliver
from kurenai._data.rules import SENTENCE_SEPARATOR
from kurenai.scoring import Score
from kurenai.tokenizers._protocol import scan_mode

__all__ = ["PythonPlan"]

Splitter = Callable[[str], Sequence[str]]


class PythonPlan:
    """``score`` / ``score_many`` with any tokenizer, on the given kernels.

    ``splitter`` finds the sentences of ROUGE-Lsum and ROUGE-W; None: one
    sentence per line.  ``variants`` holds the ROUGE-W/S/SU kernels
    (``_variants`` or ``_variants_py``), needed when ``spec`` has those types.
    ``threads`` goes to the kernels (the compiled ones split a long pair's LCS).
    What each type counts and how it scores is its kind's
    (:mod:`kurenai._core.kinds`).
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
        self._kinds: list[Kind] = [kind_of(code) for code in spec.kinds]
        if variants is None and any(kind.variant for kind in self._kinds):
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
        self._types = list(enumerate(zip(spec.rouge_types, self._kinds)))
        # ``tokenize_within(text, limit) -> tokens or None`` (the Tokenizer
        # protocol): stops early on a text over a size limit.
        within = getattr(tokenizer, "tokenize_within", None)
        self._within: Callable[[str, int], Any] | None = within if callable(within) else None

    @property
    def rouge_types(self) -> tuple[str, ...]:
        return self.spec.rouge_types

    def score(self, target: str, prediction: str) -> ScoreDict:
        """The scores of one pair."""
        return self._scores(self._count(self.tokenized(target), self.tokenized(prediction)))

    def tallies(self, target: str, prediction: str) -> Tallies:
        """See ``kurenai._core.plan.Plan.tallies``."""
        pair = self._count(self.tokenized(target), self.tokenized(prediction))
        return [Tally._make(kind.count(pair, i)) for i, kind in enumerate(self._kinds)]

    def score_many(
        self,
        targets: list[str],
        predictions: list[str],
        max_tokens: int = -1,
        out: Any = None,
    ) -> list[ScoreDict | None] | None:
        """See ``kurenai._core.plan.Plan.score_many``."""
        scores = [
            self._score_limited(target, prediction, max_tokens)
            for target, prediction in zip(targets, predictions)
        ]
        return deliver(self.spec.rouge_types, scores, out)

    def score_tokenized(
        self, target: Tokenized, prediction: Tokenized, types: Sequence[int]
    ) -> list[Score]:
        """The scores of the types ``types`` (indices) of one pair already
        ``tokenized``: each text tokenized once for all the pairs it is in
        (``kurenai._core.matrix``)."""
        pair, weight = self._count(target, prediction), self.spec.w_weight
        return [self._kinds[i].score(self._kinds[i].count(pair, i), weight) for i in types]

    def score_shared(self, targets: list[str], systems: list[list[str]], out: list[Any]) -> None:
        """See ``kurenai._core.plan.Plan.score_shared``: each target tokenized once."""
        names = self.spec.rouge_types
        for k, target in enumerate(targets):
            reference = self.tokenized(target)
            for predictions, table in zip(systems, out):
                scores = self._scores(self._count(reference, self.tokenized(predictions[k])))
                table[:, :, k] = [scores[name] for name in names]

    def tokenized(self, text: str) -> Tokenized:
        """``text`` as the kernels take it, for this plan's types."""
        tokenize = self._tokenize
        if self._by_lines:
            if not self.spec.want_sentences:
                return Tokenized([self._checked(tokenize(text))], None)
            lines = [tokenize(line) for line in text.split(SENTENCE_SEPARATOR) if line]
            for tokens in lines:
                if type(tokens) is not list:
                    self._checked(tokens)
            return Tokenized(lines, None)
        whole = self._checked(tokenize(text)) if self.spec.want_whole else []
        if not self.spec.want_sentences:
            return Tokenized([], whole)
        return Tokenized([self._checked(tokenize(s)) for s in self._sentences(text)], whole)

    def intern_texts(self, texts: list[str]) -> tuple[bytes, list[int], int]:
        """``FusedPlan.intern_texts``'s twin: each text's whole token list,
        as scored, as IDs over one vocabulary (int32 bytes), each text's
        start and the end, and the vocabulary's size."""
        vocab: dict[Any, int] = {}
        ids: list[int] = []
        starts = [0]
        for text in texts:
            tokens = self._checked(self._tokenize(text))
            ids.extend([vocab.setdefault(token, len(vocab)) for token in tokens])
            starts.append(len(ids))
        return array("i", ids).tobytes(), starts, len(vocab)

    def tokens(self, text: str, stemmed: bool = False) -> Tokens:
        """The tokens of ``text`` before the stemmer its tokenizer declares
        (the compiled scan of its ``scan_mode``), or after it if ``stemmed``:
        ``FusedPlan.tokens``'s twin.

        Not used for scoring: it holds the twins to the same tokens.  A
        tokenizer that stems without a scan mode cannot be taken apart.
        """
        tokenizer = getattr(self._tokenize, "__self__", None)
        if stemmed or getattr(tokenizer, "stemmer", None) is None:
            return self._checked(self._tokenize(text))
        from kurenai.tokenizers import get_tokenizer

        mode = scan_mode(tokenizer)
        if mode is None:
            raise ValueError(
                f"{self._tokenizer_name} stems without a scan mode: "
                "its tokens before stemming are not known"
            )
        # The protocol's promise: such a tokenizer's tokens are the scan's
        # (the registered tokenizer of that name, unstemmed), then its stemmer.
        return self._checked(get_tokenizer(mode).tokenize(text))

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
        if limit < 0:
            return self._scores(self._count(self.tokenized(target), self.tokenized(prediction)))
        # The prediction is not tokenized when the target is already over.
        target_tokens = self.tokenized_within(target, limit)
        if target_tokens is None:
            return None
        prediction_tokens = self.tokenized_within(prediction, limit)
        if prediction_tokens is None:
            return None
        return self._scores(self._count(target_tokens, prediction_tokens))

    def tokenized_within(self, text: str, limit: int) -> Tokenized | None:
        """``tokenized(text)``, or None if it has more than ``limit`` tokens
        (its whole text's, or its sentences' together, whichever is more).

        Exact (None only when truly over), and the tokenizer stops soon
        after the limit: a line at a time for a line-separable tokenizer,
        and inside each call for one with ``tokenize_within``.
        """
        if self._by_lines:
            lines = self._lines_within(text, limit)
            if lines is None or self.spec.want_sentences:
                return None if lines is None else Tokenized(lines, None)
            return Tokenized([[token for line in lines for token in line]], None)
        whole: Tokens = []
        if self.spec.want_whole:
            found = self._tokens_within(text, limit)
            if found is None:
                return None
            whole = found
        if not self.spec.want_sentences:
            return Tokenized([], whole)
        sentences, left = [], limit
        for sentence in self._sentences(text):
            tokens = self._tokens_within(sentence, left)
            if tokens is None:
                return None
            sentences.append(tokens)
            left -= len(tokens)
        return Tokenized(sentences, whole)

    def _lines_within(self, text: str, limit: int) -> list[Tokens] | None:
        # A line-separable tokenizer's tokens of the text are its lines'.
        lines, left = [], limit
        for line in text.split(SENTENCE_SEPARATOR):
            if line:
                tokens = self._tokens_within(line, left)
                if tokens is None:
                    return None
                lines.append(tokens)
                left -= len(tokens)
        return lines

    def _tokens_within(self, text: str, limit: int) -> Tokens | None:
        """The tokens of ``text``, or None if more than ``limit``."""
        if self._within is None:
            tokens = self._checked(self._tokenize(text))
        else:
            tokens = self._within(text, limit)
            if tokens is None:
                return None
            tokens = self._checked(tokens)
        return None if len(tokens) > limit else tokens

    def _count(self, target: Tokenized, prediction: Tokenized) -> Pair:
        """The kernels' counts of one pair, for the kinds to read."""
        spec = self.spec
        try:
            counts = self._kernels.pair_counts(
                target.sentences,
                prediction.sentences,
                spec.orders,
                spec.want_lcs,
                spec.want_lsum,
                target.whole,
                prediction.whole,
                self.threads,
            )
        except TypeError as error:
            bad = _first_unhashable(target, prediction)
            if bad is None:
                raise
            raise TypeError(
                f"{self._tokenizer_name}.tokenize must return a list of str, "
                f"it returned a list holding {type(bad).__name__}"
            ) from error
        return Pair(KernelCounts._make(counts), target, prediction, spec, self._variants)

    def _scores(self, pair: Pair) -> ScoreDict:
        weight = self.spec.w_weight
        return {name: kind.score(kind.count(pair, i), weight) for i, (name, kind) in self._types}


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

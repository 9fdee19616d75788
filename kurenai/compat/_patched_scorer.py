"""The class that ``patch_rouge_score`` puts in place of rouge-score's.

It *is* a rouge-score ``RougeScorer`` (a subclass: same constructor, same
attributes, ``isinstance`` holds), whose ``score`` and ``score_multi`` run
on a kurenai ``RougeScorer`` built from the very same arguments: rouge-score's
own tokenizer object (a ``DefaultTokenizer`` with or without its stemmer
becomes kurenai's identical compiled one; any other tokenizer object is
called as it is), newline or ``nltk.sent_tokenize`` sentences for
``rougeLsum``.  Whatever kurenai could not reproduce exactly goes to
rouge-score's own code: an unusual type name, a non-str text, an empty list
of targets, or attributes changed after construction.

Imported only by ``patch_rouge_score``: it imports rouge-score (and NLTK).
"""

from __future__ import annotations

from typing import Any

from rouge_score import rouge_scorer as _rouge_scorer

__all__ = ["ORIGINAL", "RougeScorer"]

ORIGINAL: type = _rouge_scorer.RougeScorer

# The names rouge-score accepts and computes the same way kurenai does
# (rouge-score's "rouge[0-9]$" also matches "rouge0" and "rouge1\n": those
# keep rouge-score's own handling).
_TYPES = frozenset({"rougeL", "rougeLsum", *(f"rouge{n}" for n in range(1, 10))})


def _nltk_sentences(text: str) -> list[str]:
    import nltk

    return list(nltk.sent_tokenize(text))


class RougeScorer(ORIGINAL):
    """rouge-score's ``RougeScorer``, scoring through kurenai (bit for bit)."""

    def __init__(
        self,
        rouge_types: Any,
        use_stemmer: bool = False,
        split_summaries: bool = False,
        tokenizer: Any = None,
    ) -> None:
        super().__init__(rouge_types, use_stemmer, split_summaries, tokenizer)
        self._kurenai_key = self._key()
        self._kurenai = self._build()

    def _key(self) -> tuple[Any, ...]:
        types = self.rouge_types
        frozen = tuple(types) if isinstance(types, (list, tuple)) else None
        return frozen, self._tokenizer, self._split_summaries

    def _build(self) -> Any:
        types, tokenizer, split = self._kurenai_key
        if not types or not all(isinstance(t, str) and t in _TYPES for t in types):
            return None
        from kurenai.rouge_scorer import RougeScorer as KurenaiScorer

        splitter = _nltk_sentences if split else None
        return KurenaiScorer(
            types, split_summaries=bool(split), tokenizer=tokenizer, sentence_splitter=splitter
        )

    def _scorer(self) -> Any:
        """The kurenai scorer, or None when rouge-score's code must run."""
        if self._key() != self._kurenai_key:  # attributes changed since construction
            self._kurenai_key = self._key()
            self._kurenai = self._build()
        return self._kurenai

    def score(self, target: Any, prediction: Any) -> Any:
        """rouge-score's ``score(target, prediction)``: ``{type: Score}``."""
        scorer = self._scorer()
        if scorer is None or type(target) is not str or type(prediction) is not str:
            return super().score(target, prediction)
        return scorer.score(target, prediction)

    def score_multi(self, targets: Any, prediction: Any) -> Any:
        """rouge-score's ``score_multi``: the target with the best F-measure, per type."""
        scorer = self._scorer()
        plain = isinstance(targets, (list, tuple)) and all(type(t) is str for t in targets)
        if scorer is None or not plain or not targets or type(prediction) is not str:
            return super().score_multi(targets, prediction)
        return scorer.score_multi(targets, prediction)

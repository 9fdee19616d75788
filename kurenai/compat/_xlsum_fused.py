"""XL-Sum's scores for a segmenter that writes text (MeCab's ``-O wakati``),
counted without a Python list of tokens.

``multilingual_rouge`` splits MeCab's output at whitespace; kurenai's
``whitespace`` tokenizer does exactly that (``str.lower().split()``), and its
compiled plan scans the text in C: no str per token, no dict to intern them.
So for Japanese without a stemmer, :class:`WakatiScores` hands MeCab's output
to one kurenai scorer (ROUGE-N and ROUGE-L) and the sanitized text, line
breaks kept, to another (ROUGE-Lsum: the package's lines are the sanitizer's
words only).  Both texts are lowercase already, and lowercasing is idempotent
(``tests/compat/test_xlsum.py`` checks every code point), so the
scorers' own lowercasing changes nothing.  The scores are the package's: the
plans compute rouge-score's arithmetic, which the package kept.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Callable

from kurenai.rouge_scorer import RougeScorer as _KurenaiScorer
from kurenai.scoring import Score
from kurenai.tokenizers._xlsum_text import bert_text

__all__ = ["WakatiScores"]

# The types this path takes: the package's spellings without its quirks
# (a name it accepts with a final newline keeps the general path).
_PLAIN = re.compile(r"rouge[1-9]|rougeL|rougeLsum")


class WakatiScores:
    """``score(target, prediction)`` for plain types and a ``wakati``
    segmenter (lowercased sanitized words joined by spaces -> its tokens
    joined by whitespace); None where the package would fall back to its
    default tokenizer (the segmenter found no token in a non-empty text)."""

    __slots__ = ("_check", "_lsum", "_types", "_wakati", "_whole")

    def __init__(
        self,
        rouge_types: Sequence[str],
        wakati: Callable[[str], str],
        check: Callable[[str], None] = lambda joined: None,
    ) -> None:
        self._types = list(rouge_types)
        self._wakati = wakati
        self._check = check  # refuses a text over the dialect's limits
        whole = [name for name in self._types if name != "rougeLsum"]
        self._whole = _KurenaiScorer(whole, tokenizer="whitespace") if whole else None
        lsum = ["rougeLsum"] if "rougeLsum" in self._types else []
        self._lsum = _KurenaiScorer(lsum, tokenizer="whitespace") if lsum else None

    @staticmethod
    def applies(rouge_types: Sequence[str]) -> bool:
        """Whether every type is a plain one, each once."""
        names = list(rouge_types)
        return (
            bool(names)
            and len(set(names)) == len(names)
            and all(isinstance(name, str) and _PLAIN.fullmatch(name) for name in names)
        )

    def score(self, target: str, prediction: str) -> dict[str, Score] | None:
        """The package's scores, or None if its fallback tokenizer would run."""
        target_clean = bert_text(target.lower())
        prediction_clean = bert_text(prediction.lower())
        found: dict[str, Score] = {}
        if self._whole is not None:
            target_words = self._segmented(target_clean)
            prediction_words = self._segmented(prediction_clean)
            if target_words is None or prediction_words is None:
                return None
            found = self._whole.score(target_words, prediction_words)
        if self._lsum is not None:
            found.update(self._lsum.score(target_clean, prediction_clean))
        return {name: found[name] for name in self._types}

    def _segmented(self, clean: str) -> str | None:
        joined = " ".join(clean.split())
        self._check(joined)
        words = self._wakati(joined)
        if joined and (not words or words.isspace()):
            return None
        return words

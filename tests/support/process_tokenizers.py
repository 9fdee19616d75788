"""Tokenizers for the process-pool tests: importable by name in a worker process.

Each declares ``holds_gil = True``, so ``score_batch(n_jobs=2)`` sends it to
worker processes (``kurenai._core.processes``); their behaviour on special
words lets a test reach a worker's error paths.
"""

from __future__ import annotations

import os
import sys


class SplittingTokenizer:
    """Lowercased whitespace words; ``boom`` raises, ``exit!`` ends the
    worker, ``chatty`` prints to stdout (the worker's reply channel)."""

    holds_gil = True

    def tokenize(self, text: str) -> list[str]:
        words = text.lower().split()
        if "boom" in words:
            raise ValueError(f"cannot tokenize {text!r}")
        if "exit!" in words:
            sys.stdout.flush()
            os._exit(3)
        if "chatty" in words:
            print("a tokenizer's own output")
            sys.stdout.flush()
        return words


class UnpicklableTokenizer(SplittingTokenizer):
    """Holds a lambda: it cannot go to a worker, so the batch stays on threads."""

    def __init__(self) -> None:
        self.transform = lambda word: word


class StemmingTokenizer(SplittingTokenizer):
    """Porter-stems its words with a memo that grows as it tokenizes."""

    def __init__(self) -> None:
        from kurenai.tokenizers._stemming import CachedPorterStemmer

        self.stemmer = CachedPorterStemmer()

    def tokenize(self, text: str) -> list[str]:
        return [self.stemmer.stem(word) for word in super().tokenize(text)]

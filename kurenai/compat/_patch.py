"""Opt-in acceleration of rouge-score's consumers, in the manner of
scikit-learn-intelex's ``patch_sklearn()``.

``patch_rouge_score()`` makes ``rouge_score.rouge_scorer.RougeScorer``
kurenai's subclass of it (``kurenai.compat._patched_scorer``), so code that
looks the class up there when it builds a scorer (``from rouge_score import
rouge_scorer; rouge_scorer.RougeScorer(...)``) runs on kurenai with
rouge-score's own tokenizer, stemmer and numbers.  ``unpatch_rouge_score()``
puts rouge-score's class back.  Patch before the consumer builds its scorer:
scorers built earlier, and names bound with ``from rouge_score.rouge_scorer
import RougeScorer`` before the patch, stay rouge-score's.

For code you cannot edit, ``python -m kurenai.compat.patched script.py`` (or
``-m module``) patches and runs it; or set ``KURENAI_PATCH_ROUGE_SCORE=1``
and call :func:`patch_from_env` from a ``sitecustomize.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from kurenai._core.checks import env_switch

__all__ = [
    "ENV_VAR",
    "is_patched",
    "patch_from_env",
    "patch_rouge_score",
    "rouge_score_patched",
    "unpatch_rouge_score",
]

ENV_VAR = "KURENAI_PATCH_ROUGE_SCORE"


def patch_rouge_score() -> None:
    """Make ``rouge_score.rouge_scorer.RougeScorer`` score through kurenai.

    Idempotent.  Every score stays bit for bit rouge-score's.

    >>> from rouge_score import rouge_scorer
    >>> patch_rouge_score()
    >>> type(rouge_scorer.RougeScorer(["rouge1"])).__module__
    'kurenai.compat._patched_scorer'
    >>> unpatch_rouge_score()
    >>> type(rouge_scorer.RougeScorer(["rouge1"])).__module__
    'rouge_score.rouge_scorer'
    """
    from rouge_score import rouge_scorer

    from kurenai.compat import _patched_scorer

    rouge_scorer.RougeScorer = _patched_scorer.RougeScorer


def unpatch_rouge_score() -> None:
    """Put rouge-score's own ``RougeScorer`` back (nothing to do if unpatched)."""
    if is_patched():
        from rouge_score import rouge_scorer

        from kurenai.compat import _patched_scorer

        rouge_scorer.RougeScorer = _patched_scorer.ORIGINAL


def is_patched() -> bool:
    """Whether ``rouge_score.rouge_scorer.RougeScorer`` is kurenai's now."""
    import sys

    module = sys.modules.get("rouge_score.rouge_scorer")
    patched = sys.modules.get("kurenai.compat._patched_scorer")
    return (
        module is not None
        and patched is not None
        and getattr(module, "RougeScorer", None) is getattr(patched, "RougeScorer", None)
    )


@contextmanager
def rouge_score_patched() -> Iterator[None]:
    """Patched inside the ``with`` block; as it was before, after it."""
    was_patched = is_patched()
    patch_rouge_score()
    try:
        yield
    finally:
        if not was_patched:
            unpatch_rouge_score()


def patch_from_env() -> bool:
    """Patch if ``KURENAI_PATCH_ROUGE_SCORE`` says so (1/true/yes/on); return
    whether it did.  Unset, empty or 0/false/no/off: no patch.

    Raises ValueError for any other value, so a typo is not silently ignored.
    """
    if not env_switch(ENV_VAR):
        return False
    patch_rouge_score()
    return True

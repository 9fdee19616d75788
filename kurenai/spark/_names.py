"""ROUGE type names as kurenai.spark takes them: every name of the one rule.

The names are :mod:`kurenai._core.names`'s, as every surface takes them
(Foundry's ``rougeScoreV1`` names are aliases there); what Spark adds is
where a type's sentences come from, and the struct field of each name.

>>> spark_type("ROUGE-Lsum (detected sentences)")
('rougeLsum', True)
>>> spark_type("rouge_l"), field_name("rouge_lsum_sentences")
(('rougeL', False), 'rougeLsum_sentences')
"""

from __future__ import annotations

from kurenai._core import names as _names

__all__ = ["field_name", "spark_type"]


def spark_type(name: str, split_summaries: bool = False) -> tuple[str, bool]:
    """kurenai's ROUGE type for a type name, and whether its sentences are
    detected (``split_summaries``, for the types read on sentences, or a
    detected-sentences name) rather than taken per line.

    Raises ValueError for an unknown name, listing the valid ones.
    """
    parsed = _names.resolve(name)
    split = parsed.detected or (bool(split_summaries) and parsed.kind.reads_sentences)
    return parsed.rouge_type, split


def field_name(name: str) -> str:
    """The struct field of ``name`` in ``rouge_scores``: kurenai's spelling
    (``ROUGE-L`` -> ``rougeL``; ``rougeLsum_sentences`` for detected sentences)."""
    return _names.resolve(name).canonical

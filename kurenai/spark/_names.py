"""ROUGE type names as kurenai.spark takes them: kurenai's and Foundry's.

>>> spark_type("ROUGE-Lsum (detected sentences)")
('rougeLsum', True)
>>> spark_type("rouge_l")
('rougeL', False)
"""

from __future__ import annotations

__all__ = ["DETECTED", "DETECTED_FIELD", "spark_type"]

# Foundry's names -> kurenai's; "detected sentences" is rougeLsum with
# split_summaries=True, so it gets a field name of its own in rouge_scores.
_ALIASES = {
    **{f"ROUGE-{n}": f"rouge{n}" for n in range(1, 10)},
    "ROUGE-L": "rougeL",
    "rouge_l": "rougeL",
    "ROUGE-Lsum": "rougeLsum",
    "rouge_lsum": "rougeLsum",
}
DETECTED = ("ROUGE-Lsum (detected sentences)", "rouge_lsum_sentences")
DETECTED_FIELD = "rougeLsum_sentences"


def spark_type(name: str, split_summaries: bool = False) -> tuple[str, bool]:
    """kurenai's ROUGE type for a kurenai or Foundry type name, and whether its
    sentences are detected (``split_summaries``) rather than taken per line.

    Raises ValueError for an unknown name, listing the valid ones.
    """
    from kurenai.rouge_scorer import ROUGE_TYPES

    if name in DETECTED:
        return "rougeLsum", True
    rouge_type = _ALIASES.get(name, name) if isinstance(name, str) else None
    if rouge_type not in ROUGE_TYPES:
        valid = [*ROUGE_TYPES, *_ALIASES, *DETECTED]
        raise ValueError(f"invalid ROUGE type {name!r}; valid types: {', '.join(valid)}")
    return rouge_type, bool(split_summaries) and rouge_type == "rougeLsum"

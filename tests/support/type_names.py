"""ROUGE type names every surface must treat alike (kurenai._core.names's rule).

``ACCEPTED`` maps a name to the type it means; ``DETECTED`` the
detected-sentences names to theirs; ``REJECTED`` holds near misses, which
every surface refuses with the one message of ``invalid_type``.
"""

from __future__ import annotations

ACCEPTED = {
    "rouge1": "rouge1",
    "rouge9": "rouge9",
    "ROUGE-2": "rouge2",
    "rouge_3": "rouge3",
    "rougeL": "rougeL",
    "ROUGE-L": "rougeL",
    "rouge_l": "rougeL",
    "rougeLsum": "rougeLsum",
    "ROUGE-Lsum": "rougeLsum",
    "rouge_lsum": "rougeLsum",
    "rougeW": "rougeW",
    "ROUGE-W": "rougeW",
    "rouge_w": "rougeW",
    "rougeS": "rougeS",
    "rougeS4": "rougeS4",
    "rouge_s1": "rougeS1",
    "rougeSU": "rougeSU",
    "rougeSU12": "rougeSU12",
    "ROUGE-SU4": "rougeSU4",
    "rouge_su4": "rougeSU4",
}
DETECTED = {
    "ROUGE-Lsum (detected sentences)": "rougeLsum",
    "rouge_lsum_sentences": "rougeLsum",
    "rougeLsum_sentences": "rougeLsum",
    "rougeW_sentences": "rougeW",
}
REJECTED = [
    "rouge0",
    "rouge10",
    "rougeX",
    "rougel",
    "ROUGE1",
    "rouge-l",
    "ROUGE-l",
    "rouge_L",
    "rouge_Lsum",
    "rougeS0",
    "rougeS04",
    "rougeL_sentences",
    "ROUGE-1 (detected sentences)",
    "rouge",
]

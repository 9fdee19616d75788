"""ROUGE type names every surface must treat alike (kurenai._core.names's rule).

``ACCEPTED`` maps a name to the type it means; ``DETECTED`` the
detected-sentences names to theirs; ``REJECTED`` holds near misses, which
every surface refuses with the one message of ``invalid_type``
(:func:`refusal`), each with the type it likely means (``MEANT``): the
same name in another case or with ``-``/``_``, none where only the number
is wrong or the kind has no such name.
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
MEANT = {
    "rouge0": None,
    "rouge10": None,
    "rougeX": None,
    "rougel": "rougeL",
    "ROUGE1": "rouge1",
    "rouge-l": "rougeL",
    "ROUGE-l": "rougeL",
    "rouge_L": "rougeL",
    "rouge_Lsum": "rougeLsum",
    "rougeLSum": "rougeLsum",  # the misspelling of the guide
    "rogueL": "rougeL",
    "rougeS0": None,
    "rougeS04": None,
    "rougeL_sentences": None,
    "ROUGE-1 (detected sentences)": None,
    "rouge": None,
}
REJECTED = list(MEANT)


def refusal(name: object, valid_types: str) -> str:
    """The message of every surface for the type ``name`` (one of ``MEANT``,
    or any name without a likely type)."""
    meant = MEANT.get(name) if isinstance(name, str) else None
    hint = "" if meant is None else f" (did you mean {meant!r}?)"
    return f"invalid ROUGE type {name!r}{hint}; valid types: {valid_types}"

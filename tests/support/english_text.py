"""Generated English-like texts, for the benchmarks without their corpus and
the tests of sentence splitting: 2-4 sentences of Zipf-distributed
pseudo-words, capitalised, ending in ``.``, ``!`` or ``?``, with ``e.g.`` and
``Dr.`` among the words (Punkt's abbreviations).
"""

from __future__ import annotations

import random


def english_texts(count: int, seed: int = 0) -> list[str]:
    """``count`` texts, the same for the same ``seed``."""
    rng = random.Random(seed)
    vocab = [
        f"{rng.choice('bcdfglmnprst')}{rng.choice('aeiou')}{rng.choice('nrst')}ing"
        for _ in range(3000)
    ]
    vocab += ["the", "a", "of", "to", "and", "in", "is", "we", "model", "results", "e.g.", "Dr."]
    weights = [1 / (rank**1.1) for rank in range(1, len(vocab) + 1)]

    def text() -> str:
        sentences = []
        for _ in range(rng.randint(2, 4)):
            words = rng.choices(vocab, weights=weights, k=rng.randint(8, 20))
            sentences.append(" ".join(words).capitalize() + rng.choice([".", ".", ".", "!", "?"]))
        return " ".join(sentences)

    return [text() for _ in range(count)]

"""Fresh text for the benchmarks: pairs no run has scored before, none repeated.

A speed figure stands for a user's first run: every text new to the process
(no stem, sentence or token cache warmed by an earlier round).  Texts are
Faker's localized paragraphs where Faker is installed (the ``bench`` extra:
real words of each language's word list, sentences of 5-15 words), else
English-like sentences of pseudo-words made here; each text is unique in its
call.  A script draws its pairs through :func:`fresh_pairs` (or draws from a
corpus without repetition) and exposes them as ``pairs(n, seed)``, which
``tests/shipping/test_benchmarks.py`` calls at a small size and checks for
repeated texts; a script that must repeat texts says so in ``REPEATS_TEXTS``
(a str: why) and reports cold and warm runs apart.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

__all__ = [
    "FAKER_LOCALES",
    "english_rounds",
    "fresh_pairs",
    "fresh_texts",
    "repeated_texts",
    "text_source",
]

# Faker's locales for the XL-Sum benchmark: 13 languages, each with a word
# list of its own (Faker's ``lorem`` provider).
FAKER_LOCALES = {
    "english": "en_US",
    "french": "fr_FR",
    "german": "de_DE",
    "spanish": "es_ES",
    "italian": "it_IT",
    "russian": "ru_RU",
    "ukrainian": "uk_UA",
    "arabic": "ar_AA",
    "persian": "fa_IR",
    "azerbaijani": "az_AZ",
    "bengali": "bn_BD",
    "vietnamese": "vi_VN",
    "greek": "el_GR",
}


def text_source() -> str:
    """What :func:`fresh_texts` draws from, for a benchmark's header."""
    try:
        import faker  # noqa: F401
    except ImportError:
        return "generated pseudo-words (Faker is not installed: pip install 'kurenai[bench]')"
    from importlib.metadata import version

    return f"Faker {version('faker')} paragraphs"


def fresh_texts(
    count: int, seed: int = 0, locale: str = "en_US", sentences: tuple[int, int] = (2, 5)
) -> list[str]:
    """``count`` distinct texts of ``sentences`` sentences (of 10 to 25 words)
    each, the same for the same arguments: Faker's sentences in ``locale`` if
    Faker is installed, English-like pseudo-words otherwise."""
    draw = _faker_texts(seed, locale, sentences) if _has_faker() else _pseudo_texts(seed, sentences)
    seen: set[str] = set()
    out: list[str] = []
    for text in draw:
        if text not in seen:
            seen.add(text)
            out.append(text)
            if len(out) == count:
                break
    return out


def fresh_pairs(count: int, seed: int = 0, locale: str = "en_US") -> tuple[list[str], list[str]]:
    """``count`` (prediction, reference) pairs of :func:`fresh_texts`, shaped
    as SciTLDR's (lead-3 against TLDRs, ~65 words each): 3-4 sentences on
    each side; 2 * ``count`` distinct texts."""
    predictions = fresh_texts(count, seed, locale, (3, 4))
    references = fresh_texts(count, seed + 7919, locale, (3, 4))
    return predictions, references


def english_rounds(
    data_dir: str | None, count: int, rounds: int
) -> tuple[list[tuple[list[str], list[str]]], str]:
    """``rounds`` rounds of (predictions, references), no text in two rounds,
    and what they are, for the header: SciTLDR's pairs (lead-3 against TLDRs,
    real English) cut into disjoint rounds of ``count`` (fewer when its 618
    pairs do not go round), else :func:`fresh_pairs` of the same shape."""
    from _common import find_data_dir, read_jsonl  # the benchmarks' folder is on sys.path

    try:
        rows = read_jsonl(find_data_dir(data_dir) / "en_scitldr_test.jsonl")
    except SystemExit:
        found = [fresh_pairs(count, seed=1_000 * k) for k in range(rounds)]
        return found, f"{rounds} rounds of {count} new pairs ({text_source()}; SciTLDR not found)"
    count = min(count, len(rows) // rounds)
    cut = [rows[k * count : (k + 1) * count] for k in range(rounds)]
    found = [([r["prediction"] for r in part], [r["target"] for r in part]) for part in cut]
    return found, f"SciTLDR's pairs in {rounds} disjoint rounds of {count}"


def repeated_texts(*columns: list[str]) -> int:
    """How many texts of ``columns`` (taken together) repeat one before."""
    texts = [text for column in columns for text in column]
    return len(texts) - len(set(texts))


def _has_faker() -> bool:
    try:
        import faker  # noqa: F401
    except ImportError:
        return False
    return True


def _faker_texts(seed: int, locale: str, sentences: tuple[int, int]) -> Iterator[str]:
    from faker import Faker

    fake = Faker(locale)
    fake.seed_instance(seed)
    while True:
        count = fake.random_int(*sentences)
        yield " ".join(fake.sentence(nb_words=fake.random_int(10, 25)) for _ in range(count))


def _pseudo_texts(seed: int, sentences: tuple[int, int]) -> Iterator[str]:
    # Zipf-distributed pseudo-words (5,000 of them, with English suffixes for
    # the stemmer), capitalised sentences ending in . ! or ?.
    rng = random.Random(seed)
    suffixes = ["", "s", "ed", "ing", "ation", "ness", "ly", "er", "ment", "ful"]
    vocab = [
        f"{rng.choice('bcdfglmnprstv')}{rng.choice('aeiou')}{rng.choice('bcdfglmnprstv')}"
        f"{rng.choice('aeiou')}{rng.choice('nrstl')}{rng.choice(suffixes)}"
        for _ in range(5000)
    ]
    vocab += ["the", "a", "of", "to", "and", "in", "is", "we", "model", "results"]
    weights = [1 / (rank**1.1) for rank in range(1, len(vocab) + 1)]
    while True:
        parts = []
        for _ in range(rng.randint(*sentences)):
            words = rng.choices(vocab, weights=weights, k=rng.randint(10, 25))
            parts.append(" ".join(words).capitalize() + rng.choice([".", ".", ".", "!", "?"]))
        yield " ".join(parts)

"""Speed of stemmed scoring per language: ``RougeScorer(lang=X, use_stemmer=True)``.

    python benchmarks/bench_stemmers.py [--pairs 300] [--tokens 60] [--repeats 5]
                                        [--languages de,ru,ar] [--tiny]

For each language of kurenai's table with a Snowball stemmer, scores
``--pairs`` generated pairs a round (Zipf-distributed pseudo-words of the
language's script, a vocabulary of 5,000 per language) with rouge1, rouge2
and rougeL, one pair at a time.  Every round's pairs are new (no text in two
rounds) and every contender is made anew for it, untimed; contenders take
turns going first.  It prints pairs/s and ratios, medians over ``--repeats``
rounds (this thread's CPU time):

- ``cold``: a new scorer (every distinct word stemmed once, its first run);
  ``warm``: a new scorer that first scored, untimed, every word of the
  vocabulary (texts in no round), so its stem cache is full (the hot path
  of a long run) but the texts are new; ``no stem``: the same language's scorer without
  ``use_stemmer``, warmed the same way;
- ``stem cost``: warm over no stem, what stemming adds (1.00x: nothing);
- ``vs porter``: warm over kurenai's English Porter (``use_stemmer=True``
  without a language, warmed the same way) on ASCII pairs of the same size;
  what is above the stem cost is the scan of the script (wider characters,
  marks), not the stemmer;
- ``speedup``: how many times faster (cold) than the naive approach,
  rouge-score's ``RougeScorer`` with a tokenizer that stems every token with
  NLTK's Snowball, as rouge-score stems (for the languages NLTK has; ``n/a``
  otherwise), made anew per round.

``--tiny`` scores a few pairs of two languages, one round: a smoke test.
"""

from __future__ import annotations

import argparse
import functools
import random
import re
import sys
import time
from typing import Any, Callable

from _common import add_common_options, first_runs, header

from kurenai._core.languages import LANGUAGES
from kurenai.rouge_scorer import RougeScorer
from kurenai.tokenizers._stemming import available_stemmers

TYPES = ["rouge1", "rouge2", "rougeL"]
# Letters each script's pseudo-words are made of (the stemmer sees them as
# words of its language's script, which is what its cost depends on).
SCRIPTS = {
    "latin": "abcdefghijklmnopqrstuvwxyzäöüéèàçñáíóú",
    "cyrillic": "абвгдежзийклмнопрстуфхцчшщыьэюя",
    "greek": "αβγδεζηθικλμνξοπρστυφχψω",
    "arabic": "ابتثجحخدذرزسشصضطظعغفقكلمنهوي",
    "devanagari": "कखगचजटडतदनपबमयरलवशसहािीुूेैोौं",
    "tamil": "கஙசஞடணதநபமயரலவழளறனாிீுூெேைொோ்",
    "armenian": "աբգդեզէըթժիլխծկհձղճմյնշոչպջռսվտրցւփքօֆ",
    "hebrew": "אבגדהוזחטיכלמנסעפצקרשת",
}
SCRIPT_OF = {
    "ru": "cyrillic", "el": "greek", "ar": "arabic", "fa": "arabic", "hi": "devanagari",
    "ne": "devanagari", "ta": "tamil", "hy": "armenian", "yi": "hebrew",
}  # fmt: skip
ENDINGS = ["", "", "s", "en", "er", "ing", "ed", "ы", "ами", "ος", "ات", "ों", "கள்"]
WORD = re.compile(r"[^\W_]+")


def pseudo_pairs(letters: str, pairs: int, tokens: int, seed: int) -> list[tuple[str, str]]:
    """Round ``seed``'s pairs of Zipf(1.1) pseudo-words of ``letters``'s
    vocabulary (the same vocabulary every round); each prediction keeps ~70%
    of its target's words."""
    vocabulary = _vocabulary(letters)
    weights = [1 / rank**1.1 for rank in range(1, len(vocabulary) + 1)]
    rng = random.Random(f"pairs {seed} {letters}")
    out = []
    for _ in range(pairs):
        target = rng.choices(vocabulary, weights=weights, k=tokens)
        kept = [w if rng.random() < 0.7 else rng.choice(vocabulary) for w in target]
        out.append((" ".join(target), " ".join(kept)))
    return out


@functools.cache
def _vocabulary(letters: str) -> list[str]:
    rng = random.Random(f"vocabulary {letters}")
    return ["".join(rng.choices(letters, k=rng.randint(3, 10))) for _ in range(5_000)]


def pairs(count: int, seed: int) -> tuple[list[str], list[str]]:
    """Round ``seed``'s ``count`` Latin-script pairs of 60 words (targets,
    predictions): texts no other round has (the benchmarks' fresh-text hook,
    which tests/shipping/test_benchmark_texts.py checks)."""
    found = pseudo_pairs(SCRIPTS["latin"], count, 60, seed)
    return [t for t, _ in found], [p for _, p in found]


def every_word(letters: str, tokens: int) -> list[tuple[str, str]]:
    """Pairs of ``tokens`` words holding every word of ``letters``'s
    vocabulary once, in vocabulary order: texts in no round, which fill a
    scorer's stem cache."""
    words = _vocabulary(letters)
    lines = [" ".join(words[k : k + tokens]) for k in range(0, len(words), tokens)]
    return [(line, line) for line in lines]


def naive_scorer(language: str) -> Any:
    """rouge-score with a tokenizer stemming each token with NLTK's Snowball."""
    from nltk.stem.snowball import SnowballStemmer
    from rouge_score import rouge_scorer, tokenizers

    class SnowballTokenizer(tokenizers.Tokenizer):  # type: ignore[misc]
        def __init__(self) -> None:
            self.stem = SnowballStemmer(language).stem

        def tokenize(self, text: str) -> list[str]:
            return [self.stem(w) if len(w) > 3 else w for w in WORD.findall(text.lower())]

    return rouge_scorer.RougeScorer(TYPES, tokenizer=SnowballTokenizer())


def scoring(
    make: Callable[[], Any], pairs: list[tuple[str, str]], warm_on: list[tuple[str, str]] = ()
) -> Callable[[], object]:
    """Scoring ``pairs`` one at a time with a scorer ``make`` builds now,
    which first scores ``warm_on`` (other pairs), untimed."""
    scorer = make()
    for target, prediction in warm_on:
        scorer.score(target, prediction)
    return lambda: [scorer.score(t, p) for t, p in pairs]


def measure(entry: Any, args: argparse.Namespace, nltk_has: set[str]) -> str:
    """One language's row."""
    letters = SCRIPTS[SCRIPT_OF.get(entry.code, "latin")]
    english = SCRIPTS["latin"][:26]
    rounds = list(range(args.repeats))
    warm_on = every_word(letters, args.tokens)
    english_warm_on = every_word(english, args.tokens)

    def make(seed: int) -> dict[str, Callable[[], object]]:
        found = pseudo_pairs(letters, args.pairs, args.tokens, seed)
        stemmed = lambda: RougeScorer(TYPES, use_stemmer=True, lang=entry.code)  # noqa: E731
        contenders = {
            "cold": scoring(stemmed, found),
            "warm": scoring(stemmed, found, warm_on),
            "no stem": scoring(lambda: RougeScorer(TYPES, lang=entry.code), found, warm_on),
            "porter": scoring(
                lambda: RougeScorer(TYPES, use_stemmer=True),
                pseudo_pairs(english, args.pairs, args.tokens, seed),
                english_warm_on,
            ),
        }
        if entry.stemmer in nltk_has and not args.tiny:
            contenders["naive"] = scoring(lambda: naive_scorer(entry.stemmer), found)
        return contenders

    times = first_runs(rounds, make, clock=time.thread_time)
    rate = {name: args.pairs / seconds for name, seconds in times.items()}
    naive = (
        f"{rate['naive']:>8.0f}{times['naive'] / times['cold']:>8.1f}x"
        if "naive" in rate
        else f"{'n/a':>8}{'n/a':>9}"
    )
    return (
        f"{entry.code + ' ' + entry.name:<16}{rate['cold']:>8.0f}{rate['warm']:>8.0f}"
        f"{rate['no stem']:>9.0f}{times['warm'] / times['no stem']:>9.2f}x"
        f"{times['warm'] / times['porter']:>9.2f}x{naive}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=300, help="pairs a round")
    parser.add_argument("--tokens", type=int, default=60)
    parser.add_argument("--repeats", type=int, default=5, help="timed rounds")
    parser.add_argument("--languages", default=None, help="codes, comma-separated (default: all)")
    add_common_options(parser)
    args = parser.parse_args()
    header(args)
    try:
        import Stemmer  # noqa: F401
    except ImportError:
        sys.exit("PyStemmer is not installed: pip install -e '.[stem]' in a kurenai checkout")
    codes = args.languages.split(",") if args.languages else None
    if args.tiny:
        codes, args.pairs, args.tokens, args.repeats = ["de", "ru"], 4, 20, 1
    nltk_has = {name[len("nltk-") :] for name in available_stemmers() if name.startswith("nltk-")}
    rows = [e for e in LANGUAGES if e.stemmer not in (None, "porter")]
    rows = [e for e in rows if codes is None or e.code in codes]
    # Lazy imports (each stemmer's too) paid here, on a pair in no round.
    for entry in rows:
        naive = [naive_scorer(entry.stemmer)] if entry.stemmer in nltk_has else []
        stemmed = RougeScorer(TYPES, use_stemmer=True, lang=entry.code)
        for scorer in [stemmed, RougeScorer(TYPES, use_stemmer=True), *naive]:
            scorer.score("warming words", "warming wordings")
    print(f"{args.pairs} new pairs of {args.tokens} words a round, {', '.join(TYPES)}; "
          f"pairs/s (CPU time), medians of {args.repeats} rounds of first runs")  # fmt: skip
    print(f"{'language':<16}{'cold':>8}{'warm':>8}{'no stem':>9}{'stem cost':>10}"
          f"{'vs porter':>10}{'naive':>8}{'speedup':>9}")  # fmt: skip
    for entry in rows:
        print(measure(entry, args, nltk_has))


if __name__ == "__main__":
    main()

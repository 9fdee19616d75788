"""Speed of stemmed scoring per language: ``RougeScorer(lang=X, use_stemmer=True)``.

    python benchmarks/bench_stemmers.py [--pairs 300] [--tokens 60] [--repeats 5]
                                        [--languages de,ru,ar] [--tiny]

For each language of kurenai's table with a Snowball stemmer, scores the
same number of generated pairs (Zipf-distributed pseudo-words of the
language's script, so each distinct word meets the stemmer once per scorer
and the rest hit the stem cache) with rouge1, rouge2 and rougeL, one pair at a
time, a fresh scorer per run (its stem cache starts cold).  It prints pairs/s
and ratios, medians of interleaved repeats:

- ``cold``: a fresh scorer per run (every distinct word stemmed once);
  ``warm``: one scorer, its stem cache full (the hot path); ``no stem``: the
  same language's scorer without ``use_stemmer``;
- ``stem cost``: warm over no stem, what stemming adds (1.00x: nothing);
- ``vs porter``: warm over kurenai's English Porter (``use_stemmer=True``
  without a language, warm) on ASCII pairs of the same size; what is above
  the stem cost is the scan of the script (wider characters, marks), not
  the stemmer;
- ``speedup``: how many times faster (cold) than the naive approach,
  rouge-score's ``RougeScorer`` with a tokenizer that stems every token with
  NLTK's Snowball, as rouge-score stems (for the languages NLTK has; ``n/a``
  otherwise).

``--tiny`` scores a few pairs of two languages once: a smoke test.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from typing import Any, Callable

from _common import add_common_options, header, interleaved

from kurenai._core.languages import LANGUAGES
from kurenai.rouge_scorer import RougeScorer
from kurenai.tokenizers._stemming import available_stemmers

# Not fresh text (benchmarks/_text.py): said in the header of every run.
REPEATS_TEXTS = (
    "each repeat scores the same texts again (a corpus of a few hundred pairs, "
    "or generated pairs reused): warm figures, not a first run's"
)

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
    """Zipf(1.1) pseudo-words from ``letters``; each prediction keeps ~70% of
    its target's words."""
    rng = random.Random(seed)
    vocabulary = ["".join(rng.choices(letters, k=rng.randint(3, 10))) for _ in range(5_000)]
    weights = [1 / rank**1.1 for rank in range(1, len(vocabulary) + 1)]
    out = []
    for _ in range(pairs):
        target = rng.choices(vocabulary, weights=weights, k=tokens)
        kept = [w if rng.random() < 0.7 else rng.choice(vocabulary) for w in target]
        out.append((" ".join(target), " ".join(kept)))
    return out


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
    make: Callable[[], Any], pairs: list[tuple[str, str]], warm: bool = False
) -> Callable[[], object]:
    """Scoring ``pairs`` one at a time with a scorer ``make`` builds: a fresh
    one per run (its stem cache cold), or with ``warm`` one built first and
    kept (warmed by a first run here)."""
    kept = make() if warm else None

    def run() -> object:
        scorer = kept if kept is not None else make()
        return [scorer.score(t, p) for t, p in pairs]

    if warm:
        run()
    return run


def measure(
    entry: Any, args: argparse.Namespace, porter: Callable[[], object], nltk_has: set[str]
) -> str:
    """One language's row."""
    pairs = pseudo_pairs(
        SCRIPTS[SCRIPT_OF.get(entry.code, "latin")], args.pairs, args.tokens, seed=2
    )

    def make() -> Any:
        return RougeScorer(TYPES, use_stemmer=True, lang=entry.code)

    contenders = {
        "cold": scoring(make, pairs),
        "warm": scoring(make, pairs, warm=True),
        "no stem": scoring(lambda: RougeScorer(TYPES, lang=entry.code), pairs, warm=True),
        "porter": porter,
    }
    if entry.stemmer in nltk_has and not args.tiny:
        contenders["naive"] = scoring(lambda: naive_scorer(entry.stemmer), pairs, warm=True)
    times = interleaved(contenders, args.repeats, clock=time.thread_time)
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
    parser.add_argument("--pairs", type=int, default=300)
    parser.add_argument("--tokens", type=int, default=60)
    parser.add_argument("--repeats", type=int, default=5)
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
    english = pseudo_pairs(SCRIPTS["latin"][:26], args.pairs, args.tokens, seed=1)
    english_scorer = lambda: RougeScorer(TYPES, use_stemmer=True)  # noqa: E731
    porter = scoring(english_scorer, english, warm=True)
    print(f"{args.pairs} pairs of {args.tokens} words, {', '.join(TYPES)}; pairs/s (CPU time), "
          f"medians of {args.repeats} interleaved runs")  # fmt: skip
    print(f"{'language':<16}{'cold':>8}{'warm':>8}{'no stem':>9}{'stem cost':>10}"
          f"{'vs porter':>10}{'naive':>8}{'speedup':>9}")  # fmt: skip
    for entry in rows:
        print(measure(entry, args, porter, nltk_has))


if __name__ == "__main__":
    main()

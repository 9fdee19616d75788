"""The tokenizers of unspaced scripts against their analysers, and nlpO3 against newmm.

    python benchmarks/bench_unspaced.py [--texts 2000] [--repeats 5] [--implementation python]
                                        [--tiny]

For each of ``thai``, ``lao`` and ``khmer`` whose package is installed: the
median time (interleaved repeats) of the analyser alone (its package's
``word_tokenize`` on each text) and of kurenai's ``tokenize`` on the same
texts, and their ratio: near 1 means kurenai's own work (the pieces, the
filter, lowercasing) does not show.  For Thai, also nlpO3 (PyThaiNLP's
compiled newmm, ``engine="nlpo3"``): its time, its speed-up over newmm, and on
how many texts its words (filtered as kurenai filters) differ from newmm's,
which is why ``thai`` runs newmm.  The texts are written sentences and
generated text of dictionary words, loose letters, numbers, Latin words,
punctuation and whitespace (``tests/support/unspaced_text.py``), about 200
code points each.  ``--tiny``: 20 texts, one repeat.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
from pathlib import Path
from typing import Any, Callable

from _common import add_common_options, header, interleaved

# The sentences the tests use (tests/support/unspaced_text.py): this script
# runs in a checkout only.
sys.path.append(str(Path(__file__).resolve().parents[1] / "tests" / "support"))
from unspaced_text import LANGUAGES, SENTENCES, analyser, generated

from kurenai.tokenizers import get_tokenizer
from kurenai.tokenizers._analysed_words import _kept_words

# Not fresh text (benchmarks/_text.py): said in the header of every run.
REPEATS_TEXTS = (
    "each repeat scores the same texts again (a corpus of a few hundred pairs, "
    "or generated pairs reused): warm figures, not a first run's"
)

PACKAGES = {"thai": "pythainlp", "lao": "laonlp", "khmer": "khmernltk"}


def texts(language: str, count: int) -> list[str]:
    rng = random.Random(0)
    written = SENTENCES[language]
    return [
        written[k % len(written)] if k % 4 == 0 else generated(language, rng, 25)
        for k in range(count)
    ]


def bench(language: str, count: int, repeats: int) -> None:
    corpus = texts(language, count)
    tokenizer = get_tokenizer(language)
    tokenizer.load()  # type: ignore[attr-defined]
    alone = analyser(language)
    contenders: dict[str, Callable[[], Any]] = {
        "analyser alone": lambda: [alone(text) for text in corpus],
        "kurenai tokenize": lambda: [tokenizer.tokenize(text) for text in corpus],
    }
    nlpo3 = language == "thai" and importlib.util.find_spec("nlpo3") is not None
    if nlpo3:
        from pythainlp.tokenize import word_tokenize

        compiled = lambda text: word_tokenize(text, engine="nlpo3")  # noqa: E731
        compiled("ก")  # loads its dictionary
        contenders["nlpO3 alone"] = lambda: [compiled(text) for text in corpus]
    medians = interleaved(contenders, repeats)
    chars = sum(map(len, corpus))
    print(f"\n{language}: {count} texts, {chars:,} code points (median of {repeats})")
    for name, seconds in medians.items():
        print(f"  {name:<17} {seconds:9.4f} s  {seconds / chars * 1e6:7.2f} us/code point")
    ratio = medians["kurenai tokenize"] / medians["analyser alone"]
    print(f"  kurenai / analyser alone: {ratio:.2f} (1: kurenai's own work does not show)")
    if nlpo3:
        speedup = medians["analyser alone"] / medians["nlpO3 alone"]
        differ = sum(tokenizer.tokenize(text) != _kept_words(compiled(text)) for text in corpus)
        print(f"  newmm / nlpO3: {speedup:.2f}x; words differ on {differ} of {count} texts")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    add_common_options(parser)
    args = parser.parse_args()
    header(args)
    if args.tiny:
        args.texts, args.repeats = 20, 1
    for language in LANGUAGES:
        if importlib.util.find_spec(PACKAGES[language]) is None:
            print(f"\n{PACKAGES[language]} is not installed: {language} skipped")
            continue
        bench(language, args.texts, args.repeats)


if __name__ == "__main__":
    main()

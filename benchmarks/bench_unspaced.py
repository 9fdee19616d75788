"""The tokenizers of unspaced scripts against their analysers, and nlpO3 against newmm.

    python benchmarks/bench_unspaced.py [--texts 2000] [--repeats 5] [--implementation python]
                                        [--tiny]

For each of ``thai``, ``lao`` and ``khmer`` whose package is installed: the
median time, over ``--repeats`` rounds, of the analyser alone (its package's
``word_tokenize`` on each text) and of kurenai's ``tokenize`` on the same
texts, and their ratio: near 1 means kurenai's own work (the pieces, the
filter, lowercasing) does not show.  For Thai, also nlpO3 (PyThaiNLP's
compiled newmm, ``engine="nlpo3"``): its time and its speed-up over newmm;
and, on every text of the rounds and the written sentences (untimed), on how
many its words (filtered as kurenai filters) differ from newmm's, which is
why ``thai`` runs newmm.  Every round is a first run: ``--texts`` texts no
other round has, generated from dictionary words, loose letters, numbers,
Latin words, punctuation and whitespace (``tests/support/unspaced_text.py``),
about 200 code points each, and a kurenai tokenizer made anew for it
(untimed, as is loading the analysers' dictionaries, on a text in no round).
Contenders take turns going first.  ``--tiny``: 20 texts, one round.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
from pathlib import Path
from typing import Any, Callable

from _common import add_common_options, first_runs, header

# The texts the tests use (tests/support/unspaced_text.py): this script
# runs in a checkout only.
sys.path.append(str(Path(__file__).resolve().parents[1] / "tests" / "support"))
from unspaced_text import LANGUAGES, SENTENCES, analyser, generated

from kurenai.tokenizers import get_tokenizer
from kurenai.tokenizers._analysed_words import _kept_words

PACKAGES = {"thai": "pythainlp", "lao": "laonlp", "khmer": "khmernltk"}


def texts(language: str, count: int, seed: int) -> list[str]:
    """Round ``seed``'s ``count`` generated texts of ``language``, each new."""
    rng = random.Random(f"{language} {seed}")
    found: dict[str, None] = {}
    while len(found) < count:
        found[generated(language, rng, 25)] = None
    return list(found)


def pairs(count: int, seed: int) -> tuple[list[str], list[str]]:
    """Round ``seed``'s Thai texts, ``2 * count`` of them in two columns: texts
    no other round has (the benchmarks' fresh-text hook, which
    tests/shipping/test_benchmark_texts.py checks; needs PyThaiNLP)."""
    found = texts("thai", 2 * count, seed)
    return found[:count], found[count:]


def contenders(language: str, corpus: list[str]) -> dict[str, Callable[[], Any]]:
    """The analyser alone, kurenai's tokenizer (made anew) and, for Thai with
    nlpO3 installed, nlpO3 alone, each on ``corpus``."""
    tokenizer = get_tokenizer(language)
    tokenizer.load()  # type: ignore[attr-defined]
    alone = analyser(language)
    found: dict[str, Callable[[], Any]] = {
        "analyser alone": lambda: [alone(text) for text in corpus],
        "kurenai tokenize": lambda: [tokenizer.tokenize(text) for text in corpus],
    }
    compiled = nlpo3_call(language)
    if compiled is not None:
        found["nlpO3 alone"] = lambda: [compiled(text) for text in corpus]
    return found


def nlpo3_call(language: str) -> Callable[[str], list[str]] | None:
    if language != "thai" or importlib.util.find_spec("nlpo3") is None:
        return None
    from pythainlp.tokenize import word_tokenize

    return lambda text: word_tokenize(text, engine="nlpo3")


def bench(language: str, count: int, repeats: int) -> None:
    rounds = [texts(language, count, seed) for seed in range(repeats)]
    # Loading (dictionaries, lazy imports) paid here, on texts in no round.
    warm_up = texts(language, 20, seed=-1) + SENTENCES[language]
    for run in contenders(language, warm_up).values():
        run()
    medians = first_runs(rounds, lambda corpus: contenders(language, corpus))
    chars = sum(map(len, rounds[0]))
    print(f"\n{language}: {count} texts a round, {chars:,} code points (median of {repeats})")
    for name, seconds in medians.items():
        print(f"  {name:<17} {seconds:9.4f} s  {seconds / chars * 1e6:7.2f} us/code point")
    ratio = medians["kurenai tokenize"] / medians["analyser alone"]
    print(f"  kurenai / analyser alone: {ratio:.2f} (1: kurenai's own work does not show)")
    compiled = nlpo3_call(language)
    if compiled is not None:
        speedup = medians["analyser alone"] / medians["nlpO3 alone"]
        tokenizer = get_tokenizer(language)
        checked = [text for found in rounds for text in found] + SENTENCES[language]
        differ = sum(tokenizer.tokenize(text) != _kept_words(compiled(text)) for text in checked)
        print(f"  newmm / nlpO3: {speedup:.2f}x; words differ on {differ} of {len(checked)} texts")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=2000, help="texts a round")
    parser.add_argument("--repeats", type=int, default=5, help="timed rounds")
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

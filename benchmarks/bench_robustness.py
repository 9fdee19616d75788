"""Long unbroken input through the morphological adapters: no quadratic step.

    python benchmarks/bench_robustness.py [--chars 400000] [--repeats 5]
                                          [--implementation python] [--tiny]

jieba cuts letters of spaced scripts outside Chinese one by one
(``"é" * N`` -> N fragments), which the adapter glues back into their word.
Gluing by appending to the last string was quadratic: ``"é" * 400_000`` took
4.3 s where jieba alone takes 0.13 s.  This script times, interleaved, jieba
alone, the adapter's whole ``tokenize``, and both gluings of jieba's
fragments (the old one-by-one append, for the record, and the adapter's),
and prints the ratio of the adapter to jieba alone: near 1 means the gluing
is no longer the cost.  MeCab's adapter cuts a long text into pieces (fugashi
crashes on one call of ~194,000 characters): its time on an unbroken text is
printed beside its time on as many characters of ordinary sentences.
``--tiny`` runs 2,000 characters once: too few for the ratios to mean anything.
"""

from __future__ import annotations

import argparse
import importlib.util
from collections.abc import Iterable

from _common import add_common_options, header, interleaved

from kurenai.rouge_scorer import RougeScorer
from kurenai.tokenizers._morphological import _jieba_words
from kurenai.tokenizers._unicode import is_spaced_word


def glued_one_by_one(analysed: Iterable[tuple[str, int, int]]) -> list[str]:
    """The adapter's gluing before it joined lists (quadratic in a run)."""
    words: list[str] = []
    previous_end, previous_spaced = -1, False
    for word, start, end in analysed:
        spaced = is_spaced_word(word)
        if spaced and previous_spaced and start == previous_end:
            words[-1] += word
        else:
            words.append(word)
        previous_end, previous_spaced = end, spaced
    return words


def bench_jieba(chars: int, repeats: int) -> None:
    tokenizer = RougeScorer(["rouge1"], tokenizer="jieba").tokenizer
    tokenizer.load()
    jieba = tokenizer._resource
    text = "é" * chars
    fragments = list(jieba.tokenize(text))
    assert _jieba_words(fragments) == glued_one_by_one(fragments)
    medians = interleaved(
        {
            "jieba alone": lambda: list(jieba.tokenize(text)),
            "adapter tokenize": lambda: tokenizer.tokenize(text),
            "old gluing": lambda: glued_one_by_one(fragments),
            "new gluing": lambda: _jieba_words(fragments),
        },
        repeats,
    )
    print(f"\njieba, 'é' * {chars:,} (median of {repeats} interleaved repeats)")
    for name, seconds in medians.items():
        print(f"  {name:<18} {seconds:9.4f} s")
    print(f"  adapter / jieba alone: {medians['adapter tokenize'] / medians['jieba alone']:.2f}")
    print(f"  old / new gluing:      {medians['old gluing'] / medians['new gluing']:.1f}")


def bench_mecab(chars: int, repeats: int) -> None:
    tokenizer = RougeScorer(["rouge1"], tokenizer="mecab").tokenizer
    tokenizer.load()
    sentence = "今日は良い天気だ。"
    ordinary = sentence * (chars // len(sentence))
    unbroken = "a" * len(ordinary)
    medians = interleaved(
        {
            "ordinary text": lambda: tokenizer.tokenize(ordinary),
            "unbroken text": lambda: tokenizer.tokenize(unbroken),
        },
        repeats,
    )
    print(f"\nmecab, {len(ordinary):,} characters (median of {repeats} interleaved repeats)")
    for name, seconds in medians.items():
        print(f"  {name:<18} {seconds:9.4f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chars", type=int, default=400_000)
    parser.add_argument("--repeats", type=int, default=5)
    add_common_options(parser)
    args = parser.parse_args()
    header(args)
    if args.tiny:
        args.chars, args.repeats = 2_000, 1
    for package, bench in (("jieba", bench_jieba), ("fugashi", bench_mecab)):
        if importlib.util.find_spec(package) is None:
            print(f"\n{package} is not installed: skipped (pip install -e '.[ja,zh]')")
            continue
        bench(args.chars, args.repeats)


if __name__ == "__main__":
    main()

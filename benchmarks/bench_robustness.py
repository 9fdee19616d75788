"""Long unbroken input through the morphological adapters: no quadratic step.

    python benchmarks/bench_robustness.py [--chars 400000] [--repeats 5]
                                          [--run-chars 1000000] [--no-runs]
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

The cost model (``--runs``, on by default): per analyser, the time of one
raw call on an unbroken run of N code points (MeCab, Kiwi, PyThaiNLP on
digits: quadratic in N; jieba on one Han character: faster than linear;
Sudachi, LaoNLP, khmer-nltk: linear), beside
the adapter's ``tokenize`` on runs up to ``--run-chars`` (default 1,000,000),
which cuts every run at ``RUN_BOUND`` (1,024) code points: its time per code
point should stay flat (a ratio near 1 between the longest and the shortest
run), and ``tokenize_within(text, 10)`` should take a small constant time.
Peak memory of the longest adapter call is read with ``tracemalloc`` (Python
allocations only: the analysers' own C++ heaps are not seen).
``--tiny`` runs 2,000 characters once: too few for the ratios to mean anything.
"""

from __future__ import annotations

import argparse
import importlib.util
from collections.abc import Iterable

from _common import add_common_options, header, interleaved

from kurenai.rouge_scorer import RougeScorer
from kurenai.tokenizers._analysed_words import _jieba_words
from kurenai.tokenizers._analyser_calls import RUN_BOUND
from kurenai.tokenizers._unicode import is_spaced_word

# Not fresh text (benchmarks/_text.py): said in the header of every run.
REPEATS_TEXTS = (
    "its inputs are crafted worst cases (one code point repeated N times, and one "
    "Japanese sentence repeated), the same each repeat: the figures are ratios of "
    "growth in N, and no adapter keeps a cache of what it analysed"
)


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


# Per analyser, the characters of the unbroken run that costs it most.
# (PyThaiNLP rejoins formatted numbers with a pattern quadratic in a run of digits.)
RUN_CHARACTERS = {
    "mecab": "가", "kiwi": "a", "sudachi": "中", "jieba": "中", "thai": "1", "lao": "ກ",
    "khmer": "ក",
}  # fmt: skip
PACKAGES = {
    "mecab": "fugashi", "kiwi": "kiwipiepy", "sudachi": "sudachipy", "jieba": "jieba",
    "thai": "pythainlp", "lao": "laonlp", "khmer": "khmernltk",
}  # fmt: skip


def bench_runs(name: str, longest: int, repeats: int) -> None:
    import time
    import tracemalloc

    tokenizer = RougeScorer(["rouge1"], tokenizer=name).tokenizer
    tokenizer.load()
    analyse = tokenizer._analyser(tokenizer._shared_resource())  # the analyser alone
    analyse("warm up 준비 準備")  # Kiwi loads its model on the first call
    char = RUN_CHARACTERS[name]
    raw_sizes = [size for size in (1_000, 4_000, 16_000) if size <= longest]
    if name == "sudachi":  # SudachiPy refuses one call over 49,149 bytes
        raw_sizes = [size for size in raw_sizes if size * len(char.encode()) < 49_149]
    raw = interleaved({n: (lambda n=n: analyse(char * n)) for n in raw_sizes}, repeats)
    print(f"\n{name}, one raw call on {char!r} * N (median of {repeats})")
    for n, seconds in raw.items():
        print(f"  N={n:>9,}  {seconds:9.4f} s  {seconds / n * 1e6:8.2f} us/code point")
    sizes = sorted({min(longest, size) for size in (10_000, 100_000, longest)})
    adapter = {}
    for n in sizes:
        times = []
        for _ in range(repeats if n < 1_000_000 else 1):
            started = time.perf_counter()
            tokenizer.tokenize(char * n)
            times.append(time.perf_counter() - started)
        adapter[n] = sorted(times)[len(times) // 2]
    print(f"{name}, the adapter's tokenize on {char!r} * N (runs cut at {RUN_BOUND:,})")
    for n, seconds in adapter.items():
        print(f"  N={n:>9,}  {seconds:9.4f} s  {seconds / n * 1e6:8.2f} us/code point")
    first, last = sizes[0], sizes[-1]
    ratio = (adapter[last] / last) / (adapter[first] / first)
    print(f"  per-code-point time, N={last:,} / N={first:,}: {ratio:.2f} (linear: ~1)")
    started = time.perf_counter()
    over = tokenizer.tokenize_within(char * last, 10) is None
    seconds = time.perf_counter() - started
    print(f"  tokenize_within(N={last:,}, limit 10): {seconds:.4f} s (over the limit: {over})")
    tracemalloc.start()
    tokenizer.tokenize(char * last)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"  peak Python memory, tokenize(N={last:,}): {peak / 2**20:.1f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chars", type=int, default=400_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--run-chars", type=int, default=1_000_000)
    parser.add_argument("--no-runs", action="store_true", help="skip the cost model")
    add_common_options(parser)
    args = parser.parse_args()
    header(args)
    if args.tiny:
        args.chars, args.repeats, args.run_chars = 2_000, 1, 2_000
    for package, bench in (("jieba", bench_jieba), ("fugashi", bench_mecab)):
        if importlib.util.find_spec(package) is None:
            print(f"\n{package} is not installed: skipped (pip install -e '.[ja,zh]')")
            continue
        bench(args.chars, args.repeats)
    for name, package in PACKAGES.items():
        if args.no_runs:
            break
        if importlib.util.find_spec(package) is None:
            print(f"\n{package} is not installed: skipped (pip install -e '.[ja,zh,ko,th,lo,km]')")
            continue
        bench_runs(name, args.run_chars, args.repeats)


if __name__ == "__main__":
    main()

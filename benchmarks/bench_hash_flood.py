"""Hash flooding: crafted tokens vs random tokens of the same shape.

    python benchmarks/bench_hash_flood.py [--tokens 30000] [--repeats 5]
                                          [--implementation python] [--tiny]

The compiled scan interns every token in a hash table.  Its first hash, a
rotate-xor per code point, was the same in every process and linear: tokens
crafted so that their rotated code points cancel all got one hash, and
interning N of them took N**2 / 2 comparisons (65,536 such tokens: 11 s,
against 0.04 s for random tokens).  That fast hash is still the first
choice, but a table whose probe chain grows past a bound (which ordinary text
never reaches) is rehashed with SipHash-1-3 under a random per-process key, so
crafted tokens cost one rehash.  This script scores a text of N crafted tokens and
one of N random tokens of the same length and code point range, interleaved,
and prints the ratio of the medians: it should stay near 1 (the bar is 3).
``--tiny`` runs 500 tokens once: too few for the ratio to mean anything.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterator

from _common import add_common_options, header, interleaved

from kurenai.rouge_scorer import RougeScorer

# Not fresh text (benchmarks/_text.py): said in the header of every run.
REPEATS_TEXTS = (
    "the attack is one crafted text (tokens sharing one hash) and its random control, "
    "each scored ten times a run and again every repeat: the figure is their ratio, "
    "warm on both sides"
)

MASK = (1 << 64) - 1


def old_hash(token: str) -> int:
    """The compiled scan's hash before it was keyed (for the record)."""
    h = 14695981039346656037
    for ch in token:
        h = (((h << 5) | (h >> 59)) & MASK) ^ ord(ch)
    h = (h * 1099511628211) & MASK
    return h ^ (h >> 29)


def plain(code: int) -> bool:
    """A code point that stays itself in a whitespace-separated token."""
    if code > 0x10FFFF or 0xD800 <= code < 0xE000:
        return False
    char = chr(code)
    return not char.isspace() and char.lower() == char


def crafted(n: int, length: int, seed: int = 0) -> list[str]:
    """``n`` distinct tokens of ``length`` code points sharing one old hash.

    With rotl5 per code point, the state before the final mix is the start
    value rotated, xor ``c[0] << 5(L-1) ^ ... ^ c[L-1]`` (no wrap-around for
    short tokens): choose the first code points, and the last one cancels them.
    Two-point tokens allow about 33,000 such tokens.
    """
    if length == 2 and n > 30_000:
        raise SystemExit("at most 30,000 crafted tokens of 2 code points")
    rng = random.Random(seed)
    tokens: set[str] = set()
    while len(tokens) < n:
        head = [rng.randrange(0x21, 1 << (20 - 5 * (length - 1 - i))) for i in range(length - 1)]
        last = 0
        for i, code in enumerate(head):
            last ^= code << (5 * (length - 1 - i))
        if all(map(plain, [*head, last])):
            tokens.add("".join(map(chr, [*head, last])))
    return list(tokens)


def random_like(tokens: list[str], seed: int = 1) -> list[str]:
    """As many distinct tokens, each code point drawn from the crafted ones'
    range at its position (same lengths, same string kind)."""
    rng = random.Random(seed)
    columns = list(zip(*tokens))
    ranges = [(min(map(ord, c)), max(map(ord, c))) for c in columns]
    result: set[str] = set()
    while len(result) < len(tokens):
        codes = [rng.randint(low, high) for low, high in ranges]
        if all(map(plain, codes)):
            result.add("".join(map(chr, codes)))
    return list(result)


def cases(n: int) -> Iterator[tuple[str, list[str], list[str]]]:
    for length in (2, 3):
        attack = crafted(n, length)
        assert len({old_hash(t) for t in attack}) == 1
        yield f"{n} tokens of {length} code points", attack, random_like(attack)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=30_000, help="at most 30,000")
    parser.add_argument("--repeats", type=int, default=5)
    add_common_options(parser)
    args = parser.parse_args()
    header(args)
    if args.tiny:
        args.tokens, args.repeats = 500, 1
    scorer = RougeScorer(["rouge1"])  # the default (whitespace) tokenizer
    for case, attack, control in cases(args.tokens):
        texts = {"crafted": " ".join(attack), "random": " ".join(control)}
        # Ten scores a run: one takes a few ms, where page faults and a busy
        # machine would decide the median.
        runs = {
            name: (lambda t=text: [scorer.score(t, "x") for _ in range(10)])
            for name, text in texts.items()
        }
        medians = interleaved(runs, args.repeats)
        ratio = medians["crafted"] / medians["random"]
        print(f"\n{case} (median of {args.repeats} interleaved repeats)")
        for name, seconds in medians.items():
            print(f"  {name:<10}{seconds * 1e2:>10.1f} ms a text")
        print(f"  crafted / random: {ratio:.2f}x (bar: 3x)")


if __name__ == "__main__":
    main()

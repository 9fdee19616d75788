"""kurenai's Punkt vs NLTK's: the sentences of rougeLsum, alone.

    python benchmarks/bench_punkt.py [--data-dir DIR] [--repeats 5] [--clock cpu|wall]
                                     [--implementation python] [--tiny]

NLTK's ``PunktSentenceTokenizer`` with the English tables (what
``nltk.sent_tokenize`` runs, and torchmetrics' rougeLsum with it) against
``kurenai.sentences.punkt_tokenizer`` with the same tables, on the same texts.
Every round is a first run: its texts are new to the process and every
splitter is made anew for it, untimed.  kurenai's splitter remembers each
distinct token's facts: *cold* is a new one; *warm* a new one that first
split, untimed, the texts of the round that only checks (so it knows the
common tokens, as in a long run, but has never seen the timed texts).  The
texts are SciTLDR's 618 lead-3 predictions, 618 TLDR sets and 618
abstracts (``en_scitldr_test.jsonl`` from ``--data-dir`` or
``$KURENAI_BENCH_DATA``) cut into ``--repeats`` + 1 disjoint rounds; without
the corpus, generated English (``benchmarks/_text.py``).  Both sides' lists
are checked equal first, on the extra round, which is never timed.
Contenders take turns going first; medians and ratios come from the same
run.  ``--tiny``: a few generated texts, one round.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Callable

from _common import (
    add_clock_option,
    add_common_options,
    chosen_clock,
    find_data_dir,
    first_runs,
    header,
    read_jsonl,
)
from _text import fresh_pairs, text_source


def pairs(count: int, seed: int) -> tuple[list[str], list[str]]:
    """Round ``seed``'s ``count`` generated pairs of English texts (the
    benchmarks' fresh-text hook, which tests/shipping/test_benchmark_texts.py
    checks); a round splits both columns."""
    return fresh_pairs(count, seed=1_000 * seed)


def corpus_texts(data_dir: Any) -> list[str]:
    rows = read_jsonl(data_dir / "en_scitldr_test.jsonl")
    return [row[field] for row in rows for field in ("prediction", "target", "abstract")]


def text_rounds(data_dir: Any, rounds: int, tiny: bool) -> tuple[list[list[str]], str]:
    """``rounds`` lists of texts, no text in two, and what they are."""
    if not tiny:
        try:
            texts = corpus_texts(find_data_dir(data_dir))
        except SystemExit:
            pass
        else:
            size = len(texts) // rounds
            cut = [texts[k * size : (k + 1) * size] for k in range(rounds)]
            return cut, f"SciTLDR's texts (lead-3, TLDRs, abstracts), {rounds} rounds of {size}"
    count = 10 if tiny else 300
    found = [p + r for p, r in (pairs(count, seed) for seed in range(rounds))]
    return found, f"{rounds} rounds of {2 * count} generated texts ({text_source()})"


def splitting(tokenize: Callable[[str], list[str]], texts: list[str]) -> Callable[[], Any]:
    def run() -> Any:
        for text in texts:
            tokenize(text)

    return run


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_common_options(parser)
    parser.add_argument("--data-dir")
    parser.add_argument("--repeats", type=int, default=5, help="timed rounds")
    add_clock_option(parser, "cpu")
    args = parser.parse_args()
    header(args)
    from nltk.tokenize.punkt import PunktSentenceTokenizer

    from kurenai import sentences

    try:
        params = sentences._english_params()
    except ImportError as error:
        raise SystemExit(f"this benchmark needs the punkt extra: {error}") from None
    if sentences._nltk_rules() is None:
        print("the installed NLTK's Punkt is not the one kurenai reproduces: NLTK's own is used")
    repeats = 1 if args.tiny else args.repeats
    rounds, source = text_rounds(args.data_dir, repeats + 1, args.tiny)
    print(f"{source}, {args.clock} time; the last round only checks the sentences")
    check = rounds.pop()
    found = [sentences.punkt_tokenizer(params).tokenize(text) for text in check]
    if found != [PunktSentenceTokenizer(params).tokenize(text) for text in check]:
        print("kurenai's sentences differ from NLTK's: failed")
        return
    print(f"{sum(map(len, found))} sentences, equal to NLTK's")
    # Lazy imports out of the first round, on a text in no round.
    sentences.punkt_tokenizer(params).tokenize("A warm-up text. It is in no round.")

    def make(texts: list[str]) -> dict[str, Callable[[], Any]]:
        warm = sentences.punkt_tokenizer(params)
        splitting(warm.tokenize, check)()  # other texts: no timed round holds them
        return {
            "nltk": splitting(PunktSentenceTokenizer(params).tokenize, texts),
            "kurenai cold": splitting(sentences.punkt_tokenizer(params).tokenize, texts),
            "kurenai warm": splitting(warm.tokenize, texts),
        }

    times = first_runs(rounds, make, chosen_clock(args))
    count = len(rounds[0])
    for name, seconds in times.items():
        ratio = times["nltk"] / seconds if seconds else float("inf")
        print(f"{name}: {seconds:.3f} s ({1e6 * seconds / count:.1f} us/text): {ratio:.1f}x NLTK")


if __name__ == "__main__":
    start = time.perf_counter()
    main()
    print(f"total {time.perf_counter() - start:.0f} s")

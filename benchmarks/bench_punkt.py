"""kurenai's Punkt vs NLTK's: the sentences of rougeLsum, alone.

    python benchmarks/bench_punkt.py [--data-dir DIR] [--repeats 5] [--clock cpu|wall]
                                     [--implementation python] [--tiny]

NLTK's ``PunktSentenceTokenizer`` with the English tables (what
``nltk.sent_tokenize`` runs, and torchmetrics' rougeLsum with it) against
``kurenai.sentences.punkt_tokenizer`` with the same tables, on the same texts:
SciTLDR's 618 lead-3 predictions, 618 TLDR sets and 618 abstracts
(``en_scitldr_test.jsonl`` from ``--data-dir``/``$KURENAI_BENCH_DATA``), each
text once; without the corpus, generated English-like texts.  Both sides'
lists are checked equal first.  kurenai is timed warm (one splitter, whose
per-token facts are remembered from the round before) and cold (a new
splitter each round: every token's facts computed afresh).  Contenders run
round-robin; medians and ratios come from the same run.  ``--tiny``: a few
generated texts, one round.
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
    header,
    interleaved,
    read_jsonl,
)
from _text import fresh_texts

# Not fresh text (benchmarks/_text.py): said in the header of every run.
REPEATS_TEXTS = (
    "each repeat scores the same texts again (a corpus of a few hundred pairs, "
    "or generated pairs reused): warm figures, not a first run's"
)


def corpus_texts(data_dir: Any) -> list[str]:
    rows = read_jsonl(data_dir / "en_scitldr_test.jsonl")
    return [row[field] for field in ("prediction", "target", "abstract") for row in rows]


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
    parser.add_argument("--repeats", type=int, default=5)
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

    if args.tiny:
        texts = fresh_texts(20)
        print(f"{len(texts)} generated texts")
    else:
        try:
            texts = corpus_texts(find_data_dir(args.data_dir))
            print(f"{len(texts)} SciTLDR texts (lead-3, TLDRs, abstracts), {args.clock} time")
        except SystemExit:
            texts = fresh_texts(2000)
            print(f"{len(texts)} generated texts (no corpus), {args.clock} time")
    theirs = PunktSentenceTokenizer(params)
    ours = sentences.punkt_tokenizer(params)
    found = [ours.tokenize(text) for text in texts]
    if found != [theirs.tokenize(text) for text in texts]:
        print("kurenai's sentences differ from NLTK's: failed")
        return
    count = sum(map(len, found))
    print(f"{count} sentences, equal to NLTK's")
    contenders = {
        "nltk": splitting(theirs.tokenize, texts),
        "kurenai warm": splitting(ours.tokenize, texts),
        "kurenai cold": lambda: splitting(sentences.punkt_tokenizer(params).tokenize, texts)(),
    }
    clock = chosen_clock(args)
    times = interleaved(contenders, 1 if args.tiny else args.repeats, clock)
    for name, seconds in times.items():
        ratio = times["nltk"] / seconds if seconds else float("inf")
        print(
            f"{name}: {seconds:.3f} s ({1e6 * seconds / len(texts):.1f} us/text): {ratio:.1f}x NLTK"
        )


if __name__ == "__main__":
    start = time.perf_counter()
    main()
    print(f"total {time.perf_counter() - start:.0f} s")

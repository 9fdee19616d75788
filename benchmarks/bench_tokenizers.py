"""Speed of kurenai's tokenizers on raw Japanese and Korean text.

    python benchmarks/bench_tokenizers.py [--data-dir DIR] [--repeats 3] [--tokenizers char,mecab]
                                          [--implementation python] [--tiny]

Reports, for each tokenizer: its load time (first ``tokenize``: dictionary or
model), tokens/s on each corpus, and the scoring throughput (pairs/s) of
``RougeScorer(["rouge1", "rouge2", "rougeL"], tokenizer=NAME)`` on the raw
Japanese pairs.  As a reference, the whitespace tokenizer also scores the same
pairs pre-segmented by Janome (the corpora's ``*_tok`` fields).  Corpora come
from ``--data-dir``, ``$KURENAI_BENCH_DATA`` or ``../shared/data`` beside the
repository; tokenizers whose package is missing are reported and skipped.
``--tiny`` times a few generated sentences with the tokenizers that need no
optional package.

Every timed run is a first one: each corpus is cut into ``--repeats``
disjoint rounds (no text in two), and each round scores on a scorer made
anew for it (the tokenizer's load is timed apart, once).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from pathlib import Path
from typing import Any, Callable

from _common import add_common_options, header

from kurenai.rouge_scorer import RougeScorer
from kurenai.tokenizers import Tokenizer, get_tokenizer

REPO = Path(__file__).resolve().parents[1]
CORPORA = ["ja_jsts_valid.jsonl", "ja_anlp_title_abstract.jsonl", "ko_korsts_test.jsonl"]
JAPANESE = CORPORA[:2]
NAMES = ["whitespace", "rouge-score", "unicode", "char", "mecab", "sudachi", "jieba", "kiwi"]
TINY_NAMES = ["whitespace", "rouge-score", "unicode", "char"]
SCORED = ["rouge1", "rouge2", "rougeL"]
Rows = dict[str, list[dict[str, Any]]]


def data_dir(explicit: str | None) -> Path:
    """``--data-dir``, else ``$KURENAI_BENCH_DATA``, else ``../shared/data``."""
    folder = Path(
        explicit or os.environ.get("KURENAI_BENCH_DATA") or REPO.parent / "shared" / "data"
    )
    if not (folder / CORPORA[0]).is_file():
        raise SystemExit(
            f"{folder / CORPORA[0]} not found: pass --data-dir or set KURENAI_BENCH_DATA"
        )
    return folder


def read_rows(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def median_seconds(runs: list[Callable[[], object]]) -> float:
    """The median seconds of ``runs``, one round each."""
    times = []
    for run in runs:
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def rounds_of(items: list[Any], rounds: int) -> list[list[Any]]:
    """``items`` cut into ``rounds`` disjoint, equal rounds (the rest left out)."""
    size = max(len(items) // rounds, 1)
    return [items[k * size : (k + 1) * size] for k in range(rounds)]


def load(name: str) -> tuple[Tokenizer | None, float, str]:
    """The tokenizer, its load time (construction + first call), or why not."""
    start = time.perf_counter()
    try:
        tokenizer = get_tokenizer(name)
    except ImportError as error:
        return None, 0.0, str(error)
    tokenizer.tokenize("今日は良い天気です。오늘은 날씨가 좋다.")
    return tokenizer, time.perf_counter() - start, ""


def tokenizing_speed(tokenizer: Tokenizer, texts: list[str], repeats: int) -> float:
    """Tokens/s over ``texts``: the median rate of ``repeats`` disjoint
    rounds, each timed before its tokens are counted."""
    rates = []
    for part in rounds_of(texts, repeats):
        start = time.perf_counter()
        found = [tokenizer.tokenize(text) for text in part]
        seconds = time.perf_counter() - start
        rates.append(sum(map(len, found)) / seconds)
    return statistics.median(rates)


def scoring_speed(
    make: Callable[[], RougeScorer], pairs: list[tuple[str, str]], repeats: int
) -> float:
    """Pairs/s of ``score`` over ``repeats`` disjoint rounds of ``pairs``,
    each on a scorer ``make`` makes anew and warms on a throwaway pair
    (untimed)."""
    rounds = rounds_of(pairs, repeats)
    runs = []
    for part in rounds:
        scorer = make()
        # Whatever the scorer loads on first use (an analyser's tagger) is
        # loading, timed apart: paid here on a text in no round.
        scorer.score("準備の文です。", "準備の別の文です。")
        runs.append(lambda scorer=scorer, part=part: [scorer.score(t, p) for t, p in part])
    return len(rounds[0]) / median_seconds(runs)


def pairs(count: int, seed: int) -> tuple[list[str], list[str]]:
    """Round ``seed``'s ``count`` generated Japanese pairs (predictions,
    targets), as ``--tiny`` scores them: texts no other round has (the
    benchmarks' fresh-text hook, which tests/shipping/test_benchmark_texts.py
    checks; the corpora are cut into disjoint rounds)."""
    rows = generated_rows(count, seed=1_000 + seed)[JAPANESE[0]]
    return [r["prediction"] for r in rows], [r["target"] for r in rows]


def generated_rows(n_rows: int = 6, seed: int = 0) -> Rows:
    """A few rows per corpus of generated kana/kanji (or Hangul) sentences."""
    rng = random.Random(seed)
    kana_kanji = [chr(c) for c in range(0x3041, 0x3097)] + list("今日天気良会社学生先年月")
    hangul = [chr(rng.randrange(0xAC00, 0xD7A4)) for _ in range(300)]

    def text(alphabet: list[str]) -> str:
        words = ["".join(rng.choices(alphabet, k=rng.randint(1, 4))) for _ in range(20)]
        return (" " if alphabet is hangul else "").join(words) + "。"

    return {
        corpus: [
            {"target": text(hangul if corpus.startswith("ko") else kana_kanji),
             "prediction": text(hangul if corpus.startswith("ko") else kana_kanji)}
            for _ in range(n_rows)
        ]
        for corpus in CORPORA
    }  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", help="folder of the JSONL corpora")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs (median)")
    parser.add_argument("--tokenizers", help="comma-separated names (default: all)")
    add_common_options(parser)
    args = parser.parse_args(argv)
    header(args)
    if args.tiny:
        rows, args.repeats, source = generated_rows(), 1, "generated text"
    else:
        folder = data_dir(args.data_dir)
        rows, source = {corpus: read_rows(folder / corpus) for corpus in CORPORA}, str(folder)
    names = args.tokenizers.split(",") if args.tokenizers else TINY_NAMES if args.tiny else NAMES
    texts = {c: [t for r in rs for t in (r["target"], r["prediction"])] for c, rs in rows.items()}
    pairs = [(r["target"], r["prediction"]) for c in JAPANESE for r in rows[c]]
    print(
        f"corpora: {source}; {len(pairs)} raw Japanese pairs; median of {args.repeats} "
        "disjoint rounds, each text timed once"
    )
    short = [c.split("_")[0] + "_" + c.split("_")[1] for c in CORPORA]
    print(f"{'tokenizer':<12}{'load s':>8}" + "".join(f"{s + ' tok/s':>18}" for s in short)
          + f"{'score pairs/s':>16}")  # fmt: skip
    for name in names:
        tokenizer, load_seconds, why = load(name)
        if tokenizer is None:
            print(f"{name:<12}skipped: {why}")
            continue
        speeds = [tokenizing_speed(tokenizer, texts[c], args.repeats) for c in CORPORA]
        pairs_per_second = scoring_speed(
            lambda tokenizer=tokenizer: RougeScorer(SCORED, tokenizer=tokenizer),
            pairs,
            args.repeats,
        )
        print(f"{name:<12}{load_seconds:>8.2f}" + "".join(f"{s:>18,.0f}" for s in speeds)
              + f"{pairs_per_second:>16,.0f}")  # fmt: skip
    segmented = [(r["target_tok"], r["prediction_tok"]) for c in JAPANESE for r in rows[c]
                 if "target_tok" in r]  # fmt: skip
    if segmented:
        reference = scoring_speed(lambda: RougeScorer(SCORED), segmented, args.repeats)
        print(f"reference: whitespace on Janome-segmented pairs: {reference:,.0f} pairs/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

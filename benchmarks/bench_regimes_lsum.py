"""ROUGE-Lsum against ROUGE-L on the same tokens, as lines and lines' lengths grow.

    python benchmarks/bench_regimes_lsum.py [--data-dir DIR] [--repeats 3] [--large]
                                            [--implementation python] [--tiny]

ROUGE-Lsum unions, for each reference line, the LCS paths against every
prediction line; ROUGE-L takes one LCS of the whole texts.  Each row scores
the same pair of texts with ``rougeL`` alone and ``rougeLsum`` alone and gives
the CPU time of one ``score`` call (``time.process_time``: the machine is
shared), the median of interleaved repeats, and their ratio:

* *k one-token lines per side*: every token on its own line (k sentence pairs);
* *one line of n tokens*: one sentence pair of n tokens per side (the path of
  one huge pair);
* *k corpus sentences per side*: lines of real English text;
* *adversarial*: k lines ``a b <unique word>`` against ``b a <unique word>``:
  every pair shares a token that no LCS path takes, so every pair is visited.

Words are drawn with the frequencies of the words of the English SciTLDR
abstracts (the benchmark corpus); the prediction keeps ~75% of the target's
words in order and replaces the rest, so the LCS is long.  ``--large`` adds
300k one-token lines and 300k- and 1M-token lines (minutes each).  ``--tiny``
runs small sizes once on a generated Zipf(1.1) vocabulary, without the corpus.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import time
from collections import Counter
from collections.abc import Callable

from _common import add_common_options, find_data_dir, header, read_jsonl

from kurenai.rouge_scorer import RougeScorer

Vocabulary = tuple[list[str], list[float]]


def corpus_vocabulary(data_dir: str | None) -> tuple[Vocabulary, list[str]]:
    """Word frequencies and sentences of the English SciTLDR abstracts."""
    rows = read_jsonl(find_data_dir(data_dir) / "en_scitldr_test.jsonl")
    text = " ".join(row["abstract"] for row in rows).lower()
    counts = Counter(re.findall(r"[a-z0-9]+", text))
    sentences = [s for s in re.split(r"(?<=\.)\s+", text) if re.search(r"[a-z0-9]", s)]
    return (list(counts), [float(c) for c in counts.values()]), sentences


def zipf_vocabulary(size: int = 50_000) -> Vocabulary:
    return [f"w{rank}" for rank in range(size)], [1 / (rank**1.1) for rank in range(1, size + 1)]


def related_words(vocabulary: Vocabulary, n: int, seed: int) -> tuple[list[str], list[str]]:
    """n target words, and a prediction keeping ~75% of them in order."""
    rng = random.Random(seed)
    words, weights = vocabulary
    target = rng.choices(words, weights=weights, k=n)
    prediction = [w if rng.random() < 0.75 else rng.choice(words) for w in target]
    return target, [w for w in prediction if rng.random() < 0.95]


def cpu_medians(contenders: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """Median CPU seconds of each contender, run round-robin."""
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(repeats):
        for name, run in contenders.items():
            start = time.process_time()
            run()
            times[name].append(time.process_time() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def row(case: str, target: str, prediction: str, repeats: int) -> None:
    scorers = {kind: RougeScorer([kind]) for kind in ("rougeL", "rougeLsum")}
    medians = cpu_medians(
        {kind: (lambda s=scorer: s.score(target, prediction)) for kind, scorer in scorers.items()},
        repeats,
    )
    ratio = medians["rougeLsum"] / max(medians["rougeL"], 1e-6)
    tokens = len(target.split())
    print(
        f"| {case} | {tokens:,} | {_seconds(medians['rougeL'])} | "
        f"{_seconds(medians['rougeLsum'])} | {ratio:.2f}× |",
        flush=True,
    )


def _seconds(value: float) -> str:
    return f"{value:.2f} s" if value >= 1 else f"{value * 1e3:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_options(parser)
    parser.add_argument("--data-dir", help="folder of the benchmark corpora")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--large", action="store_true", help="add the 300k and 1M sizes")
    args = parser.parse_args()
    header(args)
    if args.tiny:
        vocabulary, sentences = zipf_vocabulary(), []
        lines, long_lines, adversarial, repeats = [200], [300], [50], 1
        print("vocabulary: generated Zipf(1.1), 50,000 words (--tiny)")
    else:
        vocabulary, sentences = corpus_vocabulary(args.data_dir)
        lines = [10_000, 30_000, 100_000] + [300_000] * args.large
        long_lines = [10_000, 100_000] + [300_000, 1_000_000] * args.large
        adversarial, repeats = [1_000, 3_000, 10_000], args.repeats
        print(f"vocabulary: the {len(vocabulary[0]):,} words of the SciTLDR abstracts")
    print("\n| case | tokens per side | rougeL | rougeLsum | Lsum / L |\n|---|---|---|---|---|")
    for k in lines:
        target, prediction = related_words(vocabulary, k, seed=k)
        row(f"{k:,} one-token lines", "\n".join(target), "\n".join(prediction), repeats)
    for n in long_lines:
        target, prediction = related_words(vocabulary, n, seed=n)
        row(f"one line of {n:,} tokens", " ".join(target), " ".join(prediction), repeats)
    for k in [1_000, 3_000] if sentences else []:
        target, prediction = "\n".join(sentences[:k]), "\n".join(sentences[k : 2 * k])
        row(f"{k:,} corpus sentences", target, prediction, repeats)
    for k in adversarial:
        target = "\n".join(f"a b x{i}" for i in range(k))
        prediction = "\n".join(f"b a y{i}" for i in range(k))
        row(f"adversarial: {k:,} lines 'a b x'", target, prediction, repeats)


if __name__ == "__main__":
    main()

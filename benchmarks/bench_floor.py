"""Short pairs against a floor: how far kurenai is from the least any scorer must do.

    python benchmarks/bench_floor.py [--data-dir DIR] [--pairs 618] [--repeats 9]
                                     [--implementation python] [--tiny] [--json]

The floor of one ~70-token English pair (SciTLDR: TLDRs vs lead-3) is
RapidFuzz's bit-parallel LCS (``rapidfuzz.distance.LCSseq``, C++) on the
words split beforehand, plus building the ``Score`` objects and their dict:
what a scorer would cost if tokenizing and n-gram counting were free.  It is
measured in the same run as kurenai's ``score`` (one call per pair) and
``score_batch`` (one call for all pairs), each a pass over the same pairs.
Every round is a first run: its pairs are in no other round (SciTLDR cut
into ``--repeats`` + 1 disjoint rounds, fewer pairs a round than ``--pairs``
when its 618 do not go round; else generated: ``benchmarks/_text.py``), and
every contender is made anew for it, untimed (a scorer of its own, the
floor's words split and stems looked up beforehand); the contenders take
turns going first; the extra round only checks the pre-stemmed floor's
scores and is never timed.  A row gives the median **CPU time of this thread** per pass
(``time.thread_time``: neither other processes' load nor the threads NumPy's
BLAS spins after import count; ``score_batch`` with ``n_jobs=1`` runs in this
thread) divided by the pairs, and the median over rounds of its pass / the
floor's pass in the same round (steadier than a ratio of medians when the
load drifts).  Cases: the four types of rouge-score's README (floor: one LCS
+ four Scores), ``rougeL`` alone (one LCS + one Score), and the four types
with ``use_stemmer=True``, whose floor is the same call (``score``, or
``score_batch``) unstemmed on the texts stemmed beforehand: stemming for
free, so below any floor that stems by a lookup per token (checked to give
the same scores); and that floor plus a dict lookup per word of the two
texts (stemming as cheap as a Python stemmer could make it), against which
the stemmed rows are also given.  Beside them: RapidFuzz's floor on words
stemmed by a dict lookup each (precomputed for every word of the pairs), RapidFuzz unstemmed,
kurenai unstemmed and rouge-score (``use_stemmer=True``; not in ``--tiny``).

RapidFuzz is a benchmark-only peer: ``pip install -e '.[bench]' in a kurenai checkout``.
``--tiny`` runs a few generated pairs once, and without RapidFuzz leaves the
floor out.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import deque
from typing import Any, Callable

from _common import add_common_options, first_run_samples, header, timed
from _text import english_rounds, fresh_pairs

from kurenai.rouge_scorer import RougeScorer
from kurenai.scoring import Score
from kurenai.tokenizers._stemming import porter_stemmer

try:
    from rapidfuzz.distance import LCSseq
except ImportError:
    LCSseq = None

FOUR = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
MISSING = "RapidFuzz is not installed: pip install -e '.[bench]' (or pip install rapidfuzz)"
Pairs = list[tuple[str, str]]
Words = list[tuple[list[str], list[str]]]


def pairs(count: int, seed: int) -> tuple[list[str], list[str]]:
    """Round ``seed``'s ``count`` generated pairs (predictions, references),
    ~65 words a side: texts no other round has (the benchmarks' fresh-text
    hook, which tests/shipping/test_benchmark_texts.py checks)."""
    return fresh_pairs(count, seed=1_000 * seed)


# Each pass's thread CPU seconds (entry k from round k: passes compare round by round).
THREAD_TIME = timed(time.thread_time)


def split_words(found: Pairs) -> Words:
    """The floor's words, split beforehand as kurenai's default tokenizer splits."""
    return [(t.lower().split(), p.lower().split()) for t, p in found]


def _prf(lcs: int, target: list[str], prediction: list[str]) -> tuple[float, float, float]:
    precision = lcs / max(len(prediction), 1)
    recall = lcs / max(len(target), 1)
    total = precision + recall
    return precision, recall, 2 * precision * recall / total if total > 0 else 0.0


def floor_four(target: list[str], prediction: list[str]) -> dict[str, Score]:
    """One bit-parallel LCS, then four Scores in a dict (as a scorer returns them)."""
    p, r, f = _prf(LCSseq.similarity(target, prediction), target, prediction)
    return {
        "rouge1": Score(p, r, f),
        "rouge2": Score(p, r, f),
        "rougeL": Score(p, r, f),
        "rougeLsum": Score(p, r, f),
    }


def floor_one(target: list[str], prediction: list[str]) -> dict[str, Score]:
    """One bit-parallel LCS, then one Score in a dict."""
    p, r, f = _prf(LCSseq.similarity(target, prediction), target, prediction)
    return {"rougeL": Score(p, r, f)}


def contenders(
    types: list[str], found: Pairs, floor: Callable[..., Any] | None
) -> dict[str, Callable[[], object]]:
    """The floor and kurenai's two calls on ``found``, a new scorer each."""
    words = split_words(found)
    by_pair, batch = RougeScorer(types), RougeScorer(types)
    targets, predictions = [t for t, _ in found], [p for _, p in found]
    runs: dict[str, Callable[[], object]] = {}
    if floor is not None and LCSseq is not None:
        runs["floor (RapidFuzz LCS + Scores)"] = lambda: [floor(t, p) for t, p in words]
    runs["kurenai score"] = lambda: [by_pair.score(t, p) for t, p in found]
    runs["kurenai score_batch"] = lambda: batch.score_batch(targets, predictions)
    return runs


def prestemmed(text: str, stem: Callable[[str], str | None]) -> str:
    """``text`` with each word (a run of non-space, lowercased) replaced by its
    stem, lines kept: what the unstemmed scan reads as the stemmed tokens."""
    lines = text.lower().split("\n")
    return "\n".join(
        " ".join(s for s in map(stem, line.split()) if s is not None) for line in lines
    )


STEM_FLOOR = "floor: score, pre-stemmed text"
STEM_BATCH_FLOOR = "floor: score_batch, pre-stemmed"
# The same, plus a dict lookup per word of the two texts: stemming as cheap
# as a Python stemmer could make it.
DICT_FLOOR = "floor + a dict stem per word"
DICT_BATCH_FLOOR = "floor + dict stems, score_batch"
# Each stemmed row's floor: the same call on text stemmed beforehand.
STEM_FLOORS = {
    "kurenai score_batch": STEM_BATCH_FLOOR,
    STEM_BATCH_FLOOR: STEM_BATCH_FLOOR,
    DICT_BATCH_FLOOR: STEM_BATCH_FLOOR,
}
# The stemmed rows against the floor with a dict lookup per word.
DICT_FLOORS = {"kurenai score": DICT_FLOOR, "kurenai score_batch": DICT_BATCH_FLOOR}


def stemmed_contenders(found: Pairs, with_rouge_score: bool) -> dict[str, Callable[[], object]]:
    """The four types with ``use_stemmer=True``, each contender with scorers
    of its own.  The floor is the same compiled path, unstemmed, on the texts
    stemmed beforehand: stemming for free, below any stemming by a lookup per
    token.  Beside it: RapidFuzz's floor on words stemmed by a dict lookup
    each (the dict precomputed for every word of the pairs), RapidFuzz
    unstemmed, kurenai unstemmed, rouge-score."""
    stem = porter_stemmer(True, "whitespace")
    assert stem is not None
    words = split_words(found)
    vocabulary = {word for t, p in words for word in t + p}
    stems = {word: stem(word) for word in vocabulary}  # None: dropped
    targets, predictions = [t for t, _ in found], [p for _, p in found]
    pre = [(prestemmed(t, stem), prestemmed(p, stem)) for t, p in found]
    pre_targets, pre_predictions = [t for t, _ in pre], [p for _, p in pre]
    lookup = stems.__getitem__
    consume = deque(maxlen=0).extend
    plain = [RougeScorer(FOUR) for _ in range(6)]
    stemmed = [RougeScorer(FOUR, use_stemmer=True) for _ in range(2)]

    def dict_floor() -> object:
        out = []
        for (t, p), (tw, pw) in zip(pre, words):
            # The stems themselves are read off ``pre``; the lookups are the
            # cost (consumed without building a list).
            consume(map(lookup, tw))
            consume(map(lookup, pw))
            out.append(plain[2].score(t, p))
        return out

    def dict_batch_floor() -> object:
        for tw, pw in words:
            consume(map(lookup, tw))
            consume(map(lookup, pw))
        return plain[3].score_batch(pre_targets, pre_predictions)

    runs: dict[str, Callable[[], object]] = {
        STEM_FLOOR: lambda: [plain[0].score(t, p) for t, p in pre],
        STEM_BATCH_FLOOR: lambda: plain[1].score_batch(pre_targets, pre_predictions),
        DICT_FLOOR: dict_floor,
        DICT_BATCH_FLOOR: dict_batch_floor,
    }
    if LCSseq is not None:

        def stemmed_floor() -> object:
            out = []
            for t, p in words:
                ts = [s for s in map(stems.__getitem__, t) if s is not None]
                ps = [s for s in map(stems.__getitem__, p) if s is not None]
                out.append(floor_four(ts, ps))
            return out

        runs["RapidFuzz, a dict stem per word"] = stemmed_floor
        runs["RapidFuzz, unstemmed"] = lambda: [floor_four(t, p) for t, p in words]
    runs["kurenai score"] = lambda: [stemmed[0].score(t, p) for t, p in found]
    runs["kurenai score_batch"] = lambda: stemmed[1].score_batch(targets, predictions)
    runs["kurenai score, unstemmed"] = lambda: [plain[4].score(t, p) for t, p in found]
    runs["kurenai score_batch, unstemmed"] = lambda: plain[5].score_batch(targets, predictions)
    if with_rouge_score:
        from rouge_score import rouge_scorer

        reference = rouge_scorer.RougeScorer(FOUR, use_stemmer=True)
        runs["rouge-score score"] = lambda: [reference.score(t, p) for t, p in found]
    return runs


def check_prestemmed(found: Pairs) -> None:
    """The pre-stemmed floor scores as the stemmer does (on a round never timed)."""
    stem = porter_stemmer(True, "whitespace")
    assert stem is not None
    targets, predictions = [t for t, _ in found], [p for _, p in found]
    pre = [(prestemmed(t, stem), prestemmed(p, stem)) for t, p in found]
    ours = RougeScorer(FOUR, use_stemmer=True).score_batch(targets, predictions)
    if ours != RougeScorer(FOUR).score_batch([t for t, _ in pre], [p for _, p in pre]):
        raise SystemExit("the pre-stemmed floor does not score as the stemmer does")


def warm_up(with_rouge_score: bool) -> None:
    """Lazy imports and first calls paid here, on a pair in no round."""
    found = [("The warm-up texts are in no round.", "A warm-up pair, in no round at all.")]
    runs = [*contenders(FOUR, found, floor_four).values()]
    runs += [*stemmed_contenders(found, with_rouge_score).values()]
    for run in runs:
        run()


def report(
    case: str, n_pairs: int, times: dict[str, list[float]], floors: dict[str, str] | None = None
) -> dict[str, Any]:
    """Per contender: the median CPU time per pair, and the median over
    rounds of its time / its floor's time in the same round (the first
    ``floor`` row, or the row ``floors`` names)."""
    first = next((name for name in times if name.startswith("floor")), None)
    print(f"\n{case}  ({n_pairs} pairs a round; median thread CPU time of first passes on")
    print("  new pairs, and the median over rounds of each pass / the floor's pass in its round)")
    figures: dict[str, Any] = {}
    for name, runs in times.items():
        micros = statistics.median(runs) / n_pairs * 1e6
        floor = (floors or {}).get(name, first)
        ratio = statistics.median(r / f for r, f in zip(runs, times[floor])) if floor else None
        shown = f"{ratio:>7.2f}x {'floor' if floor == first else floor}" if ratio else ""
        print(f"  {name:<34}{micros:>9.2f} us/pair {shown}")
        figures[name] = {"us_per_pair": micros, "ratio_to_floor": ratio, "floor": floor}
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir")
    parser.add_argument(
        "--pairs", type=int, default=618, help="~70-token pairs a round (SciTLDR: 618 / rounds)"
    )
    parser.add_argument("--repeats", type=int, default=9, help="timed rounds")
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    add_common_options(parser)
    args = parser.parse_args()
    header(args)
    if LCSseq is None and not args.tiny:
        raise SystemExit(MISSING)
    if args.tiny:
        rounds = [list(zip(*reversed(pairs(8, seed)))) for seed in range(2)]
        print("2 rounds of 8 generated pairs (the last one only checks)")
        if LCSseq is None:
            print(f"floor left out: {MISSING}")
    else:
        found, source = english_rounds(args.data_dir, args.pairs, args.repeats + 1)
        rounds = [list(zip(references, predictions)) for predictions, references in found]
        print(f"{source} (the last one only checks the pre-stemmed floor)")
    check_prestemmed(rounds.pop())
    warm_up(with_rouge_score=not args.tiny)
    count = len(rounds[0])
    cases = [
        ("4 types (rouge1, rouge2, rougeL, rougeLsum)", FOUR, floor_four),
        ("rougeL alone", ["rougeL"], floor_one),
    ]
    figures = {}
    for case, types, floor in cases:
        times = first_run_samples(
            rounds, lambda found, t=types, f=floor: contenders(t, found, f), THREAD_TIME
        )
        figures[case] = report(case, count, times)
    case = "4 types, use_stemmer=True (floor: the same call on pre-stemmed text)"
    times = first_run_samples(
        rounds, lambda found: stemmed_contenders(found, with_rouge_score=not args.tiny), THREAD_TIME
    )
    figures[case] = report(case, count, times, STEM_FLOORS)
    print("  against the floor that stems by a dict lookup per word:")
    for name, floor in DICT_FLOORS.items():
        ratio = statistics.median(r / f for r, f in zip(times[name], times[floor]))
        print(f"  {name:<34}{ratio:>22.2f}x {floor}")
        figures[case][name]["ratio_to_dict_floor"] = ratio
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()

"""Short pairs against a floor: how far kurenai is from the least any scorer must do.

    python benchmarks/bench_floor.py [--data-dir DIR] [--pairs 618] [--repeats 21]
                                     [--implementation python] [--tiny] [--json]

The floor of one ~70-token English pair (SciTLDR: TLDRs vs lead-3) is
RapidFuzz's bit-parallel LCS (``rapidfuzz.distance.LCSseq``, C++) on the
words split beforehand, plus building the ``Score`` objects and their dict:
what a scorer would cost if tokenizing and n-gram counting were free.  It is
measured in the same run as kurenai's ``score`` (one call per pair) and
``score_batch`` (one call for all pairs), each a pass over the same pairs,
round-robin.  A row gives the median **CPU time of this thread** per pass
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

from _common import (
    add_common_options,
    find_data_dir,
    header,
    interleaved_times,
    read_jsonl,
    synthetic_pairs,
)

from kurenai.rouge_scorer import RougeScorer
from kurenai.scoring import Score
from kurenai.tokenizers._stemming import porter_stemmer

# Not fresh text (benchmarks/_text.py): said in the header of every run.
REPEATS_TEXTS = (
    "each repeat scores the same texts again (a corpus of a few hundred pairs, "
    "or generated pairs reused): warm figures, not a first run's"
)

try:
    from rapidfuzz.distance import LCSseq
except ImportError:
    LCSseq = None

FOUR = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
MISSING = "RapidFuzz is not installed: pip install -e '.[bench]' (or pip install rapidfuzz)"
Pairs = list[tuple[str, str]]
Words = list[tuple[list[str], list[str]]]


def english_pairs(data_dir: str | None, limit: int) -> Pairs:
    rows = read_jsonl(find_data_dir(data_dir) / "en_scitldr_test.jsonl")
    return [(row["target"], row["prediction"]) for row in rows[:limit]]


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
    types: list[str], stem: bool, pairs: Pairs, words: Words, floor: Callable[..., Any] | None
) -> dict[str, Callable[[], object]]:
    scorer = RougeScorer(types, use_stemmer=stem)
    targets, predictions = [t for t, _ in pairs], [p for _, p in pairs]
    runs: dict[str, Callable[[], object]] = {}
    if floor is not None and LCSseq is not None:
        runs["floor (RapidFuzz LCS + Scores)"] = lambda: [floor(t, p) for t, p in words]
    runs["kurenai score"] = lambda: [scorer.score(t, p) for t, p in pairs]
    runs["kurenai score_batch"] = lambda: scorer.score_batch(targets, predictions)
    for run in runs.values():  # warm-up: stem caches, lazy imports, page faults
        run()
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


def stemmed_contenders(
    pairs: Pairs, words: Words, with_rouge_score: bool
) -> dict[str, Callable[[], object]]:
    """The four types with ``use_stemmer=True``.  The floor is the same
    compiled path, unstemmed, on the texts stemmed beforehand: stemming for
    free, below any stemming by a lookup per token.  Beside it: RapidFuzz's
    floor on words stemmed by a dict lookup each (the dict precomputed for
    every word of the pairs), RapidFuzz unstemmed, kurenai unstemmed,
    rouge-score."""
    stem = porter_stemmer(True, "whitespace")
    assert stem is not None
    vocabulary = {word for t, p in words for word in t + p}
    stems = {word: stem(word) for word in vocabulary}  # None: dropped
    stemmed = RougeScorer(FOUR, use_stemmer=True)
    plain = RougeScorer(FOUR)
    targets, predictions = [t for t, _ in pairs], [p for _, p in pairs]
    pre = [(prestemmed(t, stem), prestemmed(p, stem)) for t, p in pairs]
    pre_targets, pre_predictions = [t for t, _ in pre], [p for _, p in pre]
    if stemmed.score_batch(targets, predictions) != plain.score_batch(pre_targets, pre_predictions):
        raise SystemExit("the pre-stemmed floor does not score as the stemmer does")
    lookup = stems.__getitem__
    consume = deque(maxlen=0).extend

    def dict_floor() -> object:
        out = []
        for (t, p), (tw, pw) in zip(pre, words):
            # The stems themselves are read off ``pre``; the lookups are the
            # cost (consumed without building a list).
            consume(map(lookup, tw))
            consume(map(lookup, pw))
            out.append(plain.score(t, p))
        return out

    def dict_batch_floor() -> object:
        for tw, pw in words:
            consume(map(lookup, tw))
            consume(map(lookup, pw))
        return plain.score_batch(pre_targets, pre_predictions)

    runs: dict[str, Callable[[], object]] = {
        STEM_FLOOR: lambda: [plain.score(t, p) for t, p in pre],
        STEM_BATCH_FLOOR: lambda: plain.score_batch(pre_targets, pre_predictions),
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
    runs["kurenai score"] = lambda: [stemmed.score(t, p) for t, p in pairs]
    runs["kurenai score_batch"] = lambda: stemmed.score_batch(targets, predictions)
    runs["kurenai score, unstemmed"] = lambda: [plain.score(t, p) for t, p in pairs]
    runs["kurenai score_batch, unstemmed"] = lambda: plain.score_batch(targets, predictions)
    if with_rouge_score:
        from rouge_score import rouge_scorer

        reference = rouge_scorer.RougeScorer(FOUR, use_stemmer=True)
        runs["rouge-score score"] = lambda: [reference.score(t, p) for t, p in pairs]
    for run in runs.values():  # warm-up: stem caches, lazy imports, page faults
        run()
    return runs


def report(
    case: str, n_pairs: int, times: dict[str, list[float]], floors: dict[str, str] | None = None
) -> dict[str, Any]:
    """Per contender: the median CPU time per pair, and the median over
    rounds of its time / its floor's time in the same round (the first
    ``floor`` row, or the row ``floors`` names)."""
    first = next((name for name in times if name.startswith("floor")), None)
    print(f"\n{case}  ({n_pairs} pairs; median thread CPU time of interleaved passes, and")
    print("  the median over rounds of each pass / the floor's pass in its round)")
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
    parser.add_argument("--pairs", type=int, default=618, help="~70-token pairs per pass")
    parser.add_argument("--repeats", type=int, default=21, help="passes per contender")
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    add_common_options(parser)
    args = parser.parse_args()
    header(args)
    if LCSseq is None and not args.tiny:
        raise SystemExit(MISSING)
    if args.tiny:
        args.repeats = 1
        pairs = synthetic_pairs(8, 70)
        if LCSseq is None:
            print(f"floor left out: {MISSING}")
    else:
        pairs = english_pairs(args.data_dir, args.pairs)
    # The floor's words are split beforehand, as kurenai's default tokenizer splits.
    words = [(t.lower().split(), p.lower().split()) for t, p in pairs]
    cases = [
        ("4 types (rouge1, rouge2, rougeL, rougeLsum)", FOUR, False, floor_four),
        ("rougeL alone", ["rougeL"], False, floor_one),
    ]
    figures = {}
    for case, types, stem, floor in cases:
        runs = contenders(types, stem, pairs, words, floor)
        times = interleaved_times(runs, args.repeats, clock=time.thread_time)
        figures[case] = report(case, len(pairs), times)
    case = "4 types, use_stemmer=True (floor: the same call on pre-stemmed text)"
    runs = stemmed_contenders(pairs, words, with_rouge_score=not args.tiny)
    times = interleaved_times(runs, args.repeats, clock=time.thread_time)
    figures[case] = report(case, len(pairs), times, STEM_FLOORS)
    print("  against the floor that stems by a dict lookup per word:")
    for name, floor in DICT_FLOORS.items():
        ratio = statistics.median(r / f for r, f in zip(times[name], times[floor]))
        print(f"  {name:<34}{ratio:>22.2f}x {floor}")
        figures[case][name]["ratio_to_dict_floor"] = ratio
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()

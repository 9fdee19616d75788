"""ROUGE-W, ROUGE-S and ROUGE-SU: kurenai vs rouge-metric's PyRouge.

    python benchmarks/bench_variants.py [--pairs 300] [--repeats 5]
                                        [--implementation python] [--tiny]

PyRouge (``pip install rouge-metric``) is the Python package a user would
pick for these types today.  Both score the same lower-cased pairs (one
sentence per line) per type; the table gives the median time per pair over
``--repeats`` rounds and PyRouge / kurenai.  Every round is a first run: its
texts (``--pairs`` pairs of ~65 words, two references each, and a tenth as
many ~400-word pairs; Faker's English with the ``bench`` extra:
``benchmarks/_text.py``) are in no other round, and both scorers are made
anew for it, untimed; they take turns going first.  The long case scores one
10k-token pair (kurenai only: PyRouge's W table would need 10^8 Python floats)
in a fresh process to read its peak memory; that process imports the same
kurenai as this one, which the header names.  ``--tiny`` times kurenai alone,
one round, on a few pairs and one 300-token pair.
"""

from __future__ import annotations

import argparse
import os
import re
from typing import Any, Callable

from _common import add_common_options, first_runs, header, run_child
from _text import fresh_pairs, fresh_texts, text_source

from kurenai.rouge_scorer import RougeScorer

# kurenai type -> PyRouge options
CASES: dict[str, dict[str, Any]] = {
    "rougeW": {"rouge_w": True},
    "rougeS4": {"rouge_s": True, "skip_gap": 4},
    "rougeSU4": {"rouge_su": True, "skip_gap": 4},
    "rougeS": {"rouge_s": True},
}
Records = list[tuple[list[str], str]]


def pairs(count: int, seed: int) -> tuple[list[str], list[str]]:
    """Round ``seed``'s ``count`` predictions and first references, new texts
    no other round has (the benchmarks' fresh-text hook, which
    tests/shipping/test_benchmark_texts.py checks), lower-cased, a sentence a
    line; :func:`records` adds a second reference each."""
    predictions, references = fresh_pairs(count, seed=1_000 * seed)
    return [_clean(p) for p in predictions], [_clean(r) for r in references]


def records(count: int, seed: int) -> Records:
    """Round ``seed``'s ``count`` predictions, each with two references."""
    predictions, first = pairs(count, seed)
    second = [_clean(t) for t in fresh_texts(count, 1_000 * seed + 503, sentences=(3, 4))]
    return [([a, b], p) for a, b, p in zip(first, second, predictions)]


def long_records(count: int, seed: int) -> Records:
    """Round ``seed``'s ``count`` ~400-word pairs (one reference each)."""
    targets = fresh_texts(count, 1_000 * seed + 500, sentences=(20, 26))
    predictions = fresh_texts(count, 1_000 * seed + 501, sentences=(20, 26))
    return [([_clean(t)], _clean(p)) for t, p in zip(targets, predictions)]


def _clean(text: str) -> str:
    lines = re.sub(r"([.!?]) ", r"\1\n", text).split("\n")
    return "\n".join(" ".join(re.sub(r"[^a-z0-9 ]", " ", s.lower()).split()) for s in lines)


def pyrouge(options: dict[str, Any], mode: str = "average") -> Any:
    from rouge_metric import PyRouge

    defaults = {"rouge_n": (), "rouge_l": False, "mode": "individual", "multi_ref_mode": mode}
    return PyRouge(**{**defaults, **options})


def compare(rounds: list[Records], label: str = "1 ref") -> None:
    for rouge_type, options in CASES.items():

        def make(data: Records, rouge_type: str = rouge_type, options: Any = options) -> Any:
            single = [refs[:1] for refs, _ in data]
            targets = [refs[0] for refs, _ in data]
            predictions = [prediction for _, prediction in data]
            ours = RougeScorer([rouge_type])
            runs: dict[str, Callable[[], Any]] = {
                "kurenai": lambda: ours.score_batch(targets, predictions)
            }
            if not TINY:
                theirs = pyrouge(options)
                runs["pyrouge"] = lambda: theirs.evaluate(predictions, single)
            return runs

        _row(f"{rouge_type} ({label})", first_runs(rounds, make), len(rounds[0]))


def compare_multi(rounds: list[Records]) -> None:
    def make(data: Records) -> dict[str, Callable[[], Any]]:
        predictions = [prediction for _, prediction in data]
        refs = [refs for refs, _ in data]
        ours = RougeScorer(["rougeW", "rougeSU4"])
        runs: dict[str, Callable[[], Any]] = {
            "kurenai": lambda: ours.score_multi_batch(refs, predictions, mode="average")
        }
        if not TINY:
            theirs = pyrouge({"rouge_w": True, "rouge_su": True, "skip_gap": 4})
            runs["pyrouge"] = lambda: theirs.evaluate(predictions, refs)
        return runs

    _row("W+SU4 (2 refs, -f A)", first_runs(rounds, make), len(rounds[0]))


def warm_up() -> None:
    """Lazy imports paid here, on a pair in no round."""
    target, prediction = "a warm up text\nin no round", "a warm up\ntext"
    RougeScorer(list(CASES)).score_multi([target, target], prediction)
    if not TINY:
        for options in CASES.values():
            pyrouge(options).evaluate([prediction], [[target, target]])


def _row(case: str, times: dict[str, float], pairs: int) -> None:
    ours = times["kurenai"] / pairs * 1e6
    if "pyrouge" not in times:  # --tiny
        print(f"{case:<26}{ours:>16.1f}{'-':>17}{'-':>8}", flush=True)
        return
    theirs = times["pyrouge"] / pairs * 1e6
    print(f"{case:<26}{ours:>16.1f}{theirs:>17.1f}{theirs / ours:>7.0f}x", flush=True)


LONG = """
import json, time
sys.path.insert(0, {bench!r})
from _common import MIB, kurenai_identity, peak_rss_bytes, zipf_pair
from kurenai.rouge_scorer import RougeScorer
target, prediction = zipf_pair({tokens}, seed=1)
if {layout!r} == "one line":
    target, prediction = target.replace("\\n", " "), prediction.replace("\\n", " ")
scorer = RougeScorer({types!r}.split(","))
start = time.perf_counter()
scorer.score(target, prediction)
seconds = time.perf_counter() - start
peak_mb = peak_rss_bytes() / MIB
print(json.dumps({{"seconds": seconds, "peak_mb": peak_mb, "kurenai": kurenai_identity()}}))
"""


def long_text(tokens: int) -> None:
    print(f"\none {tokens}-token pair, fresh process each (peak RSS includes Python):")
    cases = [(t, "~25-token lines") for t in ["rouge1", "rougeW", "rougeSU4", "rougeS"]]
    cases += [("rouge1", "one line"), ("rougeW", "one line")]
    bench = os.path.dirname(os.path.abspath(__file__))
    for types, layout in cases:
        result = run_child(LONG.format(bench=bench, tokens=tokens, types=types, layout=layout))
        if "error" in result:
            raise SystemExit(f"the {types} ({layout}) child process: {result['error']}")
        seconds, peak_mb = result["seconds"], result["peak_mb"]
        print(f"  {types:<10}{layout:<18}{seconds:>8.3f} s {peak_mb:>8.0f} MB peak")


TINY = False  # --tiny: generated pairs, kurenai only


def main(argv: list[str] | None = None) -> None:
    global TINY
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=300, help="~65-word pairs a round")
    parser.add_argument("--repeats", type=int, default=5, help="timed rounds")
    parser.add_argument("--long-tokens", type=int, default=10_000)
    add_common_options(parser)
    args = parser.parse_args(argv)
    header(args)
    TINY = args.tiny
    if TINY:
        args.pairs, args.repeats, args.long_tokens = 8, 1, 300
    short = [records(args.pairs, seed) for seed in range(args.repeats)]
    long = [long_records(max(args.pairs // 10, 1), seed) for seed in range(args.repeats)]
    print(f"{args.repeats} rounds of new pairs ({text_source()})")
    warm_up()
    print(f"{'case':<26}{'kurenai us/pair':>16}{'PyRouge us/pair':>17}{'ratio':>8}")
    compare(short)
    compare_multi(short)
    compare(long, "~400 tokens")
    long_text(args.long_tokens)


if __name__ == "__main__":
    main()

"""ROUGE-W, ROUGE-S and ROUGE-SU: kurenai vs rouge-metric's PyRouge.

    python benchmarks/bench_variants.py [--data-dir DIR] [--pairs 300] [--repeats 5]
                                        [--implementation python] [--tiny]

PyRouge (``pip install rouge-metric``) is the Python package a user would
pick for these types today.  Both score the same lower-cased SciTLDR pairs (TLDRs vs abstract leads)
(one sentence per line) per type, round-robin; the table gives the median
time per pair and PyRouge / kurenai.  The long case scores one 10k-token pair
(kurenai only: PyRouge's W table would need 10^8 Python floats) in a fresh
process to read its peak memory; that process imports the same kurenai as
this one, which the header names.  ``--tiny`` times kurenai alone, once, on a
few generated pairs and one 300-token pair.
"""

from __future__ import annotations

import argparse
import os
import re
from typing import Any

from _common import (
    add_common_options,
    find_data_dir,
    header,
    interleaved,
    read_jsonl,
    run_child,
    synthetic_pairs,
)

from kurenai.rouge_scorer import RougeScorer

# Not fresh text (benchmarks/_text.py): said in the header of every run.
REPEATS_TEXTS = (
    "each repeat scores the same texts again (a corpus of a few hundred pairs, "
    "or generated pairs reused): warm figures, not a first run's"
)

# kurenai type -> PyRouge options
CASES: dict[str, dict[str, Any]] = {
    "rougeW": {"rouge_w": True},
    "rougeS4": {"rouge_s": True, "skip_gap": 4},
    "rougeSU4": {"rouge_su": True, "skip_gap": 4},
    "rougeS": {"rouge_s": True},
}
Records = list[tuple[list[str], str]]


def records(data_dir: str | None, count: int) -> Records:
    """Lower-cased SciTLDR summaries; each prediction with its reference and,
    for the multi-reference case, the next record's."""
    rows = read_jsonl(find_data_dir(data_dir) / "en_scitldr_test.jsonl")[: count + 1]
    return [
        ([_clean(a["target"]), _clean(b["target"])], _clean(a["prediction"]))
        for a, b in zip(rows, rows[1:])
    ]


def long_records(data_dir: str | None, count: int) -> Records:
    """~400-token pairs: two abstracts and a TLDR against their leads."""
    rows = read_jsonl(find_data_dir(data_dir) / "en_scitldr_test.jsonl")[: count + 1]
    pairs = [
        (f"{a['abstract']}\n{b['abstract']}\n{a['target']}", f"{a['prediction']}\n{b['abstract']}")
        for a, b in zip(rows, rows[1:])
    ]
    return [([_clean(t)], _clean(p)) for t, p in pairs]


def tiny_records() -> tuple[Records, Records]:
    """Generated ~70-token pairs (two references each) and ~400-token pairs."""
    short = synthetic_pairs(9, 70)
    long = synthetic_pairs(2, 400, seed=100)
    return (
        [([a[0], b[0]], a[1]) for a, b in zip(short, short[1:])],
        [([t], p) for t, p in long],
    )


def _clean(text: str) -> str:
    return "\n".join(
        " ".join(re.sub(r"[^a-z0-9 ]", " ", s.lower()).split()) for s in text.split("\n")
    )


def pyrouge(options: dict[str, Any], mode: str = "average") -> Any:
    from rouge_metric import PyRouge

    defaults = {"rouge_n": (), "rouge_l": False, "mode": "individual", "multi_ref_mode": mode}
    return PyRouge(**{**defaults, **options})


def compare(data: Records, repeats: int, label: str = "1 ref") -> None:
    single = [refs[:1] for refs, _ in data]
    predictions = [prediction for _, prediction in data]
    for rouge_type, options in CASES.items():
        ours = RougeScorer([rouge_type])
        runs = {"kurenai": lambda s=ours: s.score_batch([r[0] for r in single], predictions)}
        if not TINY:
            theirs = pyrouge(options)
            runs["pyrouge"] = lambda p=theirs: p.evaluate(predictions, single)
        _row(f"{rouge_type} ({label})", interleaved(runs, repeats), len(data))


def compare_multi(data: Records, repeats: int) -> None:
    predictions = [prediction for _, prediction in data]
    ours = RougeScorer(["rougeW", "rougeSU4"])
    refs = [refs for refs, _ in data]
    runs = {"kurenai": lambda: ours.score_multi_batch(refs, predictions, mode="average")}
    if not TINY:
        theirs = pyrouge({"rouge_w": True, "rouge_su": True, "skip_gap": 4})
        runs["pyrouge"] = lambda: theirs.evaluate(predictions, refs)
    _row("W+SU4 (2 refs, -f A)", interleaved(runs, repeats), len(data))


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
    parser.add_argument("--data-dir")
    parser.add_argument("--pairs", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--long-tokens", type=int, default=10_000)
    add_common_options(parser)
    args = parser.parse_args(argv)
    header(args)
    TINY = args.tiny
    if TINY:
        args.repeats, args.long_tokens = 1, 300
        short, long = tiny_records()
    else:
        short = records(args.data_dir, args.pairs)
        long = long_records(args.data_dir, args.pairs // 10)
    print(f"{'case':<26}{'kurenai us/pair':>16}{'PyRouge us/pair':>17}{'ratio':>8}")
    compare(short, args.repeats)
    compare_multi(short, args.repeats)
    compare(long, args.repeats, "~400 tokens")
    long_text(args.long_tokens)


if __name__ == "__main__":
    main()

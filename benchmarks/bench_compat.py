"""kurenai.compat against the packages it replaces, in one run: pltrdy's
``rouge`` 1.0.1 and ``rouge-chinese`` 1.0.3, same inputs, same numbers.

    python benchmarks/bench_compat.py [--data-dir DIR] [--repeats 5] [--pairs 100]
                                      [--implementation python] [--tiny]

1. Throughput on English pairs (lead-3 prediction as hypothesis, the TLDRs
   as reference; ``get_scores(avg=True)``): each package and its
   kurenai.compat class, default arguments and ``exclusive=False`` (rouge
   1.0.0's n-gram counting); and rouge-chinese on segmented Chinese (Faker's
   Chinese words, space-separated, as jieba leaves them).  Every round is a
   first run: pairs no other round has (SciTLDR cut into disjoint rounds,
   else generated: ``benchmarks/_text.py``) on objects made anew for it.
   Every contender's result is first checked equal to its package's, bit for
   bit, on a round never timed.  Medians over ``--repeats`` rounds.
2. Limits: ROUGE-L of one generated sentence pair (no ``.``, as Chinese or
   lowercased transcripts often are) of growing length, each package in a
   child process: rouge recurses once per backtracking step and stops with
   RecursionError past ~1000 steps; rouge-chinese fills a dict of
   (n+1)(m+1) cells (its time and peak memory are measured up to
   ``--chinese-max`` words, and the memory beyond extrapolated per cell).

``--tiny``: a few generated pairs, no package timing.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, Callable

from _common import add_common_options, first_runs, header, run_child
from _text import english_rounds, fresh_pairs

Rounds = list[tuple[list[str], list[str]]]  # per round: hypotheses, references

LIMIT_SIZES = (200, 500, 1000, 2000, 10_000, 100_000)

LIMIT_CHILD = """
import json, time
from _common import MIB, peak_rss_bytes, zipf_pair
{imports}
ref, hyp = (" ".join(text.split()) for text in zipf_pair({n}, seed={n}))
base = peak_rss_bytes()
start = time.perf_counter()
try:
    {call}
    outcome = "ok"
except RecursionError:
    outcome = "RecursionError"
seconds = time.perf_counter() - start
peak = peak_rss_bytes() - base
print(json.dumps({{"outcome": outcome, "seconds": seconds, "peak_mb": peak / MIB}}))
"""
CONTENDERS = {
    "rouge 1.0.1": ("from rouge import Rouge", "Rouge(metrics=['rouge-l']).get_scores(hyp, ref)"),
    "rouge-chinese 1.0.3": (
        "from rouge_chinese import Rouge",
        "Rouge(metrics=['rouge-l']).get_scores(hyp, ref)",
    ),
    "kurenai (as rouge)": (
        "from kurenai.compat import Rouge",
        "Rouge(metrics=['rouge-l']).get_scores(hyp, ref)",
    ),
    "kurenai (as rouge-chinese)": (
        "from kurenai.compat import RougeChinese",
        "RougeChinese(metrics=['rouge-l']).get_scores(hyp, ref)",
    ),
}


def pairs(count: int, seed: int) -> tuple[list[str], list[str]]:
    """Round ``seed``'s ``count`` generated English pairs (hypotheses,
    references): texts no other round has (the benchmarks' fresh-text hook,
    which tests/shipping/test_benchmark_texts.py checks)."""
    return fresh_pairs(count, seed=1_000 * seed)


def segmented_chinese(count: int, seed: int) -> tuple[list[str], list[str]]:
    """``count`` pairs of segmented Chinese, 3-4 sentences of 10-25 of
    Faker's Chinese words a side, each text new (Faker: the bench extra)."""
    from faker import Faker

    fake = Faker("zh_CN")
    fake.seed_instance(seed)
    seen: set[str] = set()
    texts: list[str] = []
    while len(texts) < 2 * count:
        sentences = [
            " ".join(fake.words(fake.random_int(10, 25))) + " 。"
            for _ in range(fake.random_int(3, 4))
        ]
        text = " ".join(sentences)
        if text not in seen:
            seen.add(text)
            texts.append(text)
    return texts[:count], texts[count:]


def _makers() -> dict[str, Callable[[], tuple[Callable[..., Any], Callable[..., Any]]]]:
    """Per row, a function making (the package's get_scores, kurenai's) anew."""
    import rouge
    import rouge_chinese

    from kurenai.compat import Rouge, RougeChinese

    return {
        "rouge 1.0.1": lambda: (rouge.Rouge().get_scores, Rouge().get_scores),
        "rouge 1.0.1 exclusive=False": lambda: (
            rouge.Rouge(exclusive=False).get_scores,
            Rouge(exclusive=False).get_scores,
        ),
        "rouge-chinese 1.0.3": lambda: (
            rouge_chinese.Rouge().get_scores,
            RougeChinese().get_scores,
        ),
    }


def _throughput(name: str, rounds: Rounds, check: tuple[list[str], list[str]]) -> None:
    print(
        f"\n{name}: {len(rounds[0][0])} pairs a round, get_scores(avg=True), "
        f"medians of {len(rounds)} rounds"
    )
    print(f"{'package':30} {'package s':>10} {'kurenai s':>10} {'ratio':>8}  same numbers")
    for label, make_pair in _makers().items():
        theirs, ours = make_pair()
        same = json.dumps(theirs(*check, avg=True)) == json.dumps(ours(*check, avg=True))

        def make(texts: tuple[list[str], list[str]], m: Any = make_pair) -> dict[str, Any]:
            theirs, ours = m()
            return {
                "theirs": lambda: theirs(*texts, avg=True),
                "ours": lambda: ours(*texts, avg=True),
            }

        times = first_runs(rounds, make)
        ratio = times["theirs"] / times["ours"]
        print(f"{label:30} {times['theirs']:10.4f} {times['ours']:10.4f} {ratio:7.1f}x  {same}")


def _limits(chinese_max: int) -> None:
    print("\nlimits: ROUGE-L of one sentence pair of n words a side (child processes)")
    print(f"{'n':>7} " + " ".join(f"{name:>27}" for name in CONTENDERS))
    per_cell: float | None = None
    for n in LIMIT_SIZES:
        cells = []
        for name, (imports, call) in CONTENDERS.items():
            if name.startswith("rouge 1") and n > 2000:
                cells.append("RecursionError (as above)")
                continue
            if name.startswith("rouge-chinese") and n > chinese_max:
                need = f"~{per_cell * n * n / 1024:.0f} GB" if per_cell else "?"
                cells.append(f"not run: needs {need}")
                continue
            out = run_child(LIMIT_CHILD.format(imports=imports, n=n, call=call))
            if "error" in out:
                cells.append(out["error"][:27])
                continue
            if out["outcome"] != "ok":
                cells.append(out["outcome"])
                continue
            if name.startswith("rouge-chinese") and out["peak_mb"] > 50:
                per_cell = out["peak_mb"] / (n * n)
            cells.append(f"{out['seconds']:.3f} s, +{out['peak_mb']:.0f} MB")
        print(f"{n:7d} " + " ".join(f"{cell:>27}" for cell in cells))


def _tiny() -> int:
    from kurenai.compat import Rouge, RougeChinese

    hyps, refs = pairs(6, 0)
    for label, scorer in (("Rouge()", Rouge()), ("RougeChinese()", RougeChinese())):
        f = scorer.get_scores(hyps, refs, avg=True)["rouge-l"]["f"]
        print(f"--tiny: {label} on {len(hyps)} generated pairs: rouge-l f {f:.4f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--pairs", type=int, default=100, help="pairs a round")
    parser.add_argument("--chinese-max", type=int, default=2000, help="longest rouge-chinese run")
    parser.add_argument("--skip-limits", action="store_true")
    add_common_options(parser)
    args = parser.parse_args(argv)
    header(args)
    if args.tiny:
        return _tiny()
    found, source = english_rounds(args.data_dir, args.pairs, args.repeats + 1)
    print(source + " (the last one only checks the numbers)")
    _throughput("English", found[:-1], found[-1])
    try:
        chinese = [segmented_chinese(args.pairs, 5_000 + k) for k in range(args.repeats + 1)]
    except ImportError:
        print("\nsegmented Chinese: not timed (it needs Faker: the bench extra)")
    else:
        _throughput("segmented Chinese (Faker's zh_CN words)", chinese[:-1], chinese[-1])
    if not args.skip_limits:
        _limits(args.chinese_max)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

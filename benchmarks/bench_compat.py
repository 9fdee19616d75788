"""kurenai.compat against the packages it replaces, in one run: pltrdy's
``rouge`` 1.0.1 and ``rouge-chinese`` 1.0.3, same inputs, same numbers.

    python benchmarks/bench_compat.py [--data-dir DIR] [--repeats 5] [--implementation python]
                                      [--tiny]

1. Throughput on the SciTLDR pairs (618, lead-3 prediction as hypothesis,
   the TLDRs as reference; ``get_scores(avg=True)``): each package and its
   kurenai.compat class, default arguments and ``exclusive=False`` (rouge
   1.0.0's n-gram counting); and rouge-chinese on sumeval's segmented Chinese.
   Every contender's result is first checked equal to its package's, bit for
   bit.  Medians over ``--repeats`` interleaved repeats.
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

from _common import (
    add_common_options,
    find_data_dir,
    header,
    interleaved,
    read_jsonl,
    run_child,
    synthetic_pairs,
)

# Not fresh text (benchmarks/_text.py): said in the header of every run.
REPEATS_TEXTS = (
    "each repeat scores the same texts again (a corpus of a few hundred pairs, "
    "or generated pairs reused): warm figures, not a first run's"
)

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


def _throughput(name: str, hyps: list[str], refs: list[str], repeats: int) -> None:
    import rouge
    import rouge_chinese

    from kurenai.compat import Rouge, RougeChinese

    runs: dict[str, tuple[Callable[[], Any], Callable[[], Any]]] = {
        "rouge 1.0.1": (rouge.Rouge().get_scores, Rouge().get_scores),
        "rouge 1.0.1 exclusive=False": (
            rouge.Rouge(exclusive=False).get_scores,
            Rouge(exclusive=False).get_scores,
        ),
        "rouge-chinese 1.0.3": (rouge_chinese.Rouge().get_scores, RougeChinese().get_scores),
    }
    print(f"\n{name}: {len(hyps)} pairs, get_scores(avg=True), medians of {repeats}")
    print(f"{'package':30} {'package s':>10} {'kurenai s':>10} {'ratio':>8}  same numbers")
    for label, (theirs, ours) in runs.items():
        same = json.dumps(theirs(hyps, refs, avg=True)) == json.dumps(ours(hyps, refs, avg=True))
        times = interleaved(
            {
                "theirs": lambda t=theirs: t(hyps, refs, avg=True),
                "ours": lambda o=ours: o(hyps, refs, avg=True),
            },
            repeats,
        )
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

    pairs = synthetic_pairs(6, 60)
    hyps, refs = [p for _, p in pairs], [t for t, _ in pairs]
    for label, scorer in (("Rouge()", Rouge()), ("RougeChinese()", RougeChinese())):
        f = scorer.get_scores(hyps, refs, avg=True)["rouge-l"]["f"]
        print(f"--tiny: {label} on {len(pairs)} generated pairs: rouge-l f {f:.4f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--chinese-max", type=int, default=2000, help="longest rouge-chinese run")
    parser.add_argument("--skip-limits", action="store_true")
    add_common_options(parser)
    args = parser.parse_args(argv)
    header(args)
    if args.tiny:
        return _tiny()
    data = find_data_dir(args.data_dir)
    scitldr = read_jsonl(data / "en_scitldr_test.jsonl")
    hyps, refs = [r["prediction"] for r in scitldr], [r["target"] for r in scitldr]
    _throughput("SciTLDR (English)", hyps, refs, args.repeats)
    zh = [r for r in read_jsonl(data / "jazh_sumeval_multi.jsonl") if r.get("lang") == "zh"]
    if zh:
        zh_hyps = [r["prediction"] for r in zh for _ in r["targets"]]
        zh_refs = [t for r in zh for t in r["targets"]]
        _throughput("sumeval (segmented Chinese)", zh_hyps, zh_refs, args.repeats)
    if not args.skip_limits:
        _limits(args.chinese_max)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

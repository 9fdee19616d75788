"""ROUGE-Lsum against ROUGE-L on the same tokens, as lines and lines' lengths grow.

    python benchmarks/bench_regimes_lsum.py [--data-dir DIR] [--repeats 3] [--large]
                                            [--before DIR] [--before-cap 60]
                                            [--before-timeout S] [--hostile-only]
                                            [--hostile-sizes K,K] [--distinct-only]
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
* *adversarial*: k lines ``a b <unique word>`` against ``b a <unique word>``
  (the unique words of each side absent from the other, or the same ``x_i`` on
  both sides): every pair shares a token (``b``) that no LCS path takes;
* *distinct shapes*: the same against ``b a f_j g_j`` with many distinct
  pairs of frequent words (see ``frequent_pairs``).

The hostile table's *ten digits* row is beyond the documented bound (its
cost, about k^2 to k^2.5, is in docs/performance.md): ten frequent tokens a
line, each the base-4 digit of the line's number.

A second table sets each hostile structure (``HOSTILE``: 3 to 7 tokens a
line) beside *typical* inputs of k lines of 3 tokens per side: 3 words drawn
with the corpus frequencies per line (the prediction related as above), and corpus sentences cut to
3-token lines (while the corpus has enough words).  ``--before DIR`` adds the
rougeLsum of another build (a source tree with its extension built in place,
e.g. a ``git worktree`` of ``main``), timed in a child process importing that
tree, interleaved with this one's
calls; a child call longer than ``--before-cap`` seconds is not repeated, and
one running past ``--before-timeout`` wall seconds is stopped (shown as
``> N s``).  ``--hostile-sizes`` sets its k; ``--distinct-only`` runs only
the first table's distinct-shapes rows.

Words are drawn with the frequencies of the words of the English SciTLDR
abstracts (the benchmark corpus); the prediction keeps ~75% of the target's
words in order and replaces the rest, so the LCS is long.  ``--large`` adds
300k one-token lines and 300k- and 1M-token lines (minutes each).  ``--tiny``
runs small sizes once on a generated Zipf(1.1) vocabulary, without the corpus.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _common import add_common_options, find_data_dir, header, read_jsonl

from kurenai.rouge_scorer import RougeScorer

# Said in the header of every run: the line structures are the measurement.
REPEATS_TEXTS = (
    "crafted line structures (one-token lines, one huge line, adversarial 'a b x' lines, "
    "ten digits; corpus sentences cut into lines): each repeat scores the same pair again "
    "on the same scorers, so the rows are warm CPU times of the ROUGE-Lsum union against "
    "ROUGE-L, not a first run's"
)

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


def frequent_pairs(k: int) -> tuple[list[str], list[str], list[str]]:
    """For line j of k: f_j and g_j, each of √k words in about √k lines (more
    than 32 from 1,100 lines on), every pair once; and one line holding every f
    and g (so that they are in the reference too)."""
    side = math.isqrt(k - 1) + 1
    fs = [f"f{j % side}" for j in range(k)]
    gs = [f"g{j // side % side}" for j in range(k)]
    return fs, gs, [" ".join(f"f{j} g{j}" for j in range(side))]


def _with_pairs(make: Callable[[int, list[str], list[str]], tuple[list[str], list[str]]]) -> Any:
    def texts(k: int) -> tuple[list[str], list[str]]:
        fs, gs, every = frequent_pairs(k)
        target, prediction = make(k, fs, gs)
        return target + every, prediction

    return texts


def _digits(i: int, shift: int) -> list[str]:
    """``t{d}_{v}`` for d = 0..9, v the d-th base-4 digit of ``i`` (plus ``shift * d``)."""
    return [f"t{d}_{(i // 4**d + shift * d) % 4}" for d in range(10)]


HOSTILE = {
    "adversarial 'a b x_i' vs 'b a y_j'": lambda k: (
        [f"a b x{i}" for i in range(k)],
        [f"b a y{i}" for i in range(k)],
    ),
    "adversarial 'a b x_i' vs 'b a x_i'": lambda k: (
        [f"a b x{i}" for i in range(k)],
        [f"b a x{i}" for i in range(k)],
    ),
    # The prediction's lines have k distinct global shapes, all holding b.
    "distinct shapes 'a b x_i' vs 'b a f_j g_j'": _with_pairs(
        lambda k, fs, gs: (
            [f"a b x{i}" for i in range(k)],
            [f"b a {fs[j]} {gs[j]}" for j in range(k)],
        )
    ),
    # √k keys {a, b, f}: lines sharing a key's first tokens share its levels.
    "distinct keys 'a b f_i' vs 'b a f_j g_j'": _with_pairs(
        lambda k, fs, gs: (
            [f"a b {fs[i]}" for i in range(k)],
            [f"b a {fs[j]} {gs[j]}" for j in range(k)],
        )
    ),
    # k keys {a, b, f, g}: the last level of each costs g's √k lines.
    "two frequent pairs 'a b f_i g_i' vs 'b a g_j f_j'": _with_pairs(
        lambda k, fs, gs: (
            [f"a b {fs[i]} {gs[i * 7 % k]}" for i in range(k)],
            [f"b a {gs[j]} {fs[j]}" for j in range(k)],
        )
    ),
    # Ten frequent tokens a line, each of four values (digit d of i in base
    # 4): past the key of four, every line visits the prediction lines of its
    # other six one by one.  Beyond the documented bound (see
    # docs/performance.md): about k^2.5.
    "ten digits 'a b t0_i .. t9_i' vs 'b a t0_j+0 .. t9_j+9'": lambda k: (
        [" ".join(["a", "b", *_digits(i, 0)]) for i in range(k)],
        [" ".join(["b", "a", *_digits(7 * j + 3, 1)]) for j in range(k)],
    ),
    # Six frequent tokens a line: f and g outside its key of four.
    "six frequent 'a b c d f_i g_i x_i' vs 'b a d c g_j f_j y_j'": _with_pairs(
        lambda k, fs, gs: (
            [f"a b c d {fs[i]} {gs[i * 7 % k]} x{i}" for i in range(k)],
            [f"b a d c {gs[j]} {fs[j]} y{j}" for j in range(k)],
        )
    ),
}


def hostile_texts(case: str, k: int, data_dir: str | None, tiny: bool) -> tuple[str, str]:
    """The pair of texts of one row of the hostile table: k lines of 3 tokens per side."""
    if case in HOSTILE:
        target, prediction = HOSTILE[case](k)
    elif case == "typical: corpus-frequency words":
        vocabulary = zipf_vocabulary() if tiny else corpus_vocabulary(data_dir)[0]
        words, related = related_words(vocabulary, 3 * k, seed=k)
        target, prediction = _threes(words), _threes(related)
    else:  # typical: corpus sentences cut to 3-token lines
        text = " ".join(corpus_vocabulary(data_dir)[1])
        words = re.findall(r"[a-z0-9]+", text)
        if len(words) < 6 * k:
            raise LookupError(f"the corpus has {len(words):,} words, fewer than {6 * k:,}")
        target, prediction = _threes(words[: 3 * k]), _threes(words[3 * k : 6 * k])
    return "\n".join(target), "\n".join(prediction)


def _threes(words: list[str]) -> list[str]:
    return [" ".join(words[i : i + 3]) for i in range(0, len(words), 3)]


CHILD = """
import json, os, sys, time
sys.path.insert(0, {benchmarks!r})
import kurenai
from bench_regimes_lsum import hostile_texts
from kurenai.rouge_scorer import RougeScorer
target, prediction = hostile_texts({case!r}, {k!r}, {data_dir!r}, {tiny!r})
scorer = RougeScorer(["rougeLsum"])
start = time.process_time()
scorer.score(target, prediction)
seconds = time.process_time() - start
print(json.dumps({{"file": os.path.dirname(kurenai.__file__), "seconds": seconds,
                   "implementation": kurenai.IMPLEMENTATION}}))
"""


def before_call(tree: str, case: str, k: int, args: argparse.Namespace) -> float:
    """CPU seconds of one rougeLsum ``score`` call of the build in ``tree``, in a child."""
    code = CHILD.format(
        benchmarks=str(Path(__file__).resolve().parent),
        case=case,
        k=k,
        data_dir=args.data_dir,
        tiny=args.tiny,
    )
    env = {**os.environ, "PYTHONPATH": tree}
    with tempfile.TemporaryDirectory() as neutral:
        try:
            out = subprocess.run(
                [sys.executable, "-c", code],
                capture_output=True,
                text=True,
                cwd=neutral,
                env=env,
                timeout=args.before_timeout,
            )
        except subprocess.TimeoutExpired:
            return math.inf  # the child is killed: "more than --before-timeout"
    if out.returncode:
        raise SystemExit(f"the build in {tree} failed: {out.stderr.strip()[-500:]}")
    result = json.loads(out.stdout.strip().splitlines()[-1])
    if Path(result["file"]).resolve() != (Path(tree) / "kurenai").resolve():
        raise SystemExit(f"the child imported {result['file']}, not the build in {tree}")
    if result["implementation"] != "compiled":
        raise SystemExit(f"the build in {tree} is not compiled (build it in place)")
    return float(result["seconds"])


def hostile_row(case: str, k: int, args: argparse.Namespace, repeats: int) -> dict[str, float]:
    """Median CPU seconds of rougeLsum here (and in ``--before``), calls interleaved."""
    target, prediction = hostile_texts(case, k, args.data_dir, args.tiny)
    scorer = RougeScorer(["rougeLsum"])
    here: list[float] = []
    before: list[float] = []
    for _ in range(repeats):
        start = time.process_time()
        scorer.score(target, prediction)
        here.append(time.process_time() - start)
        if args.before and (not before or max(before) < args.before_cap):
            before.append(before_call(args.before, case, k, args))
    medians = {"here": statistics.median(here)}
    if before:
        medians["before"] = statistics.median(before)
    return medians


def hostile_table(
    args: argparse.Namespace, sizes: list[int], repeats: int, typical: list[str]
) -> None:
    cases = [*HOSTILE, *typical]
    before = " | rougeLsum before | before / here" if args.before else ""
    print(f"\n| k lines per side | rougeLsum{before} |")
    print("|---" * (4 if args.before else 2) + "|")
    for k in sizes:
        results = {}
        for case in cases:
            with contextlib.suppress(LookupError):  # the corpus is too small for this size
                results[case] = hostile_row(case, k, args, repeats)
        present = [case for case in typical if case in results]
        base = {key: min(results[case][key] for case in present) for key in results[cases[0]]}
        for case, medians in results.items():
            cells = f"{_seconds(medians['here'])} ({medians['here'] / base['here']:.1f}× typical)"
            if args.before and math.isinf(medians["before"]):  # stopped at --before-timeout
                timeout = args.before_timeout
                cells += (
                    f" | > {timeout:.0f} s (> {timeout / base['before']:.0f}× typical) | "
                    f"> {timeout / max(medians['here'], 1e-6):.0f}×"
                )
            elif args.before:
                cells += (
                    f" | {_seconds(medians['before'])} "
                    f"({medians['before'] / base['before']:.1f}× typical) | "
                    f"{medians['before'] / max(medians['here'], 1e-6):.1f}×"
                )
            print(f"| {k:,} lines: {case} | {cells} |", flush=True)


def _seconds(value: float) -> str:
    return f"{value:.2f} s" if value >= 1 else f"{value * 1e3:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_options(parser)
    parser.add_argument("--data-dir", help="folder of the benchmark corpora")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--large", action="store_true", help="add the 300k and 1M sizes")
    parser.add_argument("--before", help="a source tree of another build, to time beside this one")
    parser.add_argument(
        "--before-cap",
        type=float,
        default=60.0,
        help="seconds of a --before call above which it is not repeated (default 60)",
    )
    parser.add_argument(
        "--before-timeout",
        type=float,
        default=None,
        help="wall seconds after which a --before call is stopped and shown as '> N s'",
    )
    parser.add_argument("--hostile-only", action="store_true", help="only the hostile table")
    parser.add_argument(
        "--hostile-sizes",
        default="10000,30000,100000",
        help="the hostile table's k, comma-separated (default 10000,30000,100000)",
    )
    parser.add_argument(
        "--distinct-only",
        action="store_true",
        help="only the first table's distinct-shapes rows",
    )
    args = parser.parse_args()
    header(args)
    if args.tiny:
        vocabulary, sentences = zipf_vocabulary(), []
        lines, long_lines, adversarial, repeats = [200], [300], [50], 1
        hostile, typical = [300], ["typical: corpus-frequency words"]
        print("vocabulary: generated Zipf(1.1), 50,000 words (--tiny)")
    else:
        vocabulary, sentences = corpus_vocabulary(args.data_dir)
        lines = [10_000, 30_000, 100_000] + [300_000] * args.large
        long_lines = [10_000, 100_000] + [300_000, 1_000_000] * args.large
        adversarial, repeats = [1_000, 3_000, 10_000], args.repeats
        hostile = [int(size) for size in args.hostile_sizes.split(",")]
        typical = ["typical: corpus-frequency words", "typical: corpus sentences in 3-token lines"]
        print(f"vocabulary: the {len(vocabulary[0]):,} words of the SciTLDR abstracts")
    if args.hostile_only:
        hostile_table(args, hostile, repeats, typical)
        return
    print("\n| case | tokens per side | rougeL | rougeLsum | Lsum / L |\n|---|---|---|---|---|")
    if not args.distinct_only:
        other_rows(vocabulary, sentences, lines, long_lines, adversarial, repeats)
    for k in adversarial[:1] if args.tiny else [2_000, 4_000, 8_000]:
        target, prediction = distinct_shapes(k)
        row(f"distinct shapes: {k:,} lines 'a b x' vs 'b a f g'", target, prediction, repeats)
    if not args.distinct_only:
        hostile_table(args, hostile, repeats, typical)


def other_rows(
    vocabulary: Vocabulary,
    sentences: list[str],
    lines: list[int],
    long_lines: list[int],
    adversarial: list[int],
    repeats: int,
) -> None:
    """The first table's rows before the distinct shapes."""
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


def distinct_shapes(k: int) -> tuple[str, str]:
    """k lines ``a b x_i`` (and one line of every f and g) against ``b a f_j
    g_j`` (see ``frequent_pairs``): the prediction's lines have k distinct
    global shapes, all holding b, which no path takes."""
    target, prediction = HOSTILE["distinct shapes 'a b x_i' vs 'b a f_j g_j'"](k)
    return "\n".join(target), "\n".join(prediction)


if __name__ == "__main__":
    main()

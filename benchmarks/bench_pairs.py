"""All pairs, rewards and Ray Data: ``score_matrix``, ``kurenai.rewards`` and
``kurenai.ray`` against the loops they replace, on fresh generated text.

    python benchmarks/bench_pairs.py [--samples 1000] [--repeats 3] [--seed N]
                                     [--big 10000] [--no-ray] [--tiny]

1. N x N all pairs (rouge1, rouge2, rougeL; texts of 20-60 tokens from a
   Zipf vocabulary, new ones each run unless ``--seed``): ``score_matrix``
   of N predictions against N other targets, and of the N texts against one
   another, against ``score_batch`` (columnar) over the same N² pairs; and
   rouge-score's ``score`` loop, timed on a sample of pairs and extrapolated.
2. GRPO-shaped rewards: 64 prompts x 16 completions, one reference per
   prompt: ``kurenai.rewards.rouge_reward`` against a rouge-score reward
   function and ``score_batch`` called the naive way (each reference
   repeated 16 times, the F-measures read from its dicts).
3. Ray Data: rows/s through ``map_batches(RougeScores)`` on a local cluster
   (2 CPUs) against ``score_arrow`` on the same Arrow table in the driver;
   each Ray run starts its two actors (a few seconds), so the rate grows
   with ``--ray-rows``.
4. ``--big N``: one N x N ``score_matrix`` of rougeL on every core, with
   progress, its time and peak memory.

Every round is a first run: new texts (no text in two rounds) on scorers,
reward functions and Ray datasets made anew for it.  Medians of interleaved
rounds; each row's ratio is the baseline's time over its own.  ``--tiny``: a
few texts, one repeat, no rouge-score timing, no Ray.
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
from typing import Any, Callable

from _common import add_common_options, first_runs, header

from kurenai.rouge_scorer import RougeScorer

TYPES = ["rouge1", "rouge2", "rougeL"]


def texts(count: int, rng: random.Random, vocab: int = 20_000) -> list[str]:
    """``count`` texts of 20-60 words drawn from a Zipf-like vocabulary."""
    words = [f"w{k}" for k in range(vocab)]
    weights = [1 / (k + 1) for k in range(vocab)]
    return [" ".join(rng.choices(words, weights, k=rng.randint(20, 60))) for _ in range(count)]


def pairs(count: int, seed: int) -> tuple[list[str], list[str]]:
    """Round ``seed``'s ``count`` predictions and ``count`` targets (the
    benchmarks' fresh-text hook, which tests/shipping/test_benchmark_texts.py
    checks; a run draws its rounds from one generator, each text new)."""
    rng = random.Random(seed)
    return texts(count, rng), texts(count, rng)


def table(title: str, times: dict[str, float], base: str, unit: Callable[[float], str]) -> None:
    print(title)
    for name, seconds in times.items():
        print(f"    {name:46s} {unit(seconds):>16s}  {times[base] / seconds:8.1f}x")


def rouge_score_scorer() -> Any:
    try:
        from rouge_score import rouge_scorer
    except ImportError:
        return None
    return rouge_scorer.RougeScorer(TYPES)


def bench_matrix(n: int, repeats: int, rng: random.Random, tiny: bool) -> None:
    def make(round_texts: tuple[list[str], list[str]]) -> dict[str, Callable[[], object]]:
        predictions, targets = round_texts
        flat_t = [t for _ in predictions for t in targets]
        flat_p = [p for p in predictions for _ in targets]
        scorer, other, third, fourth = (RougeScorer(TYPES) for _ in range(4))
        return {
            f"score_batch of the {n * n:,} pairs (baseline)": lambda: scorer.score_batch(
                flat_t, flat_p, columnar=True
            ),
            "score_matrix(predictions, targets)": lambda: other.score_matrix(predictions, targets),
            "score_matrix(texts): each pair once": lambda: third.score_matrix(predictions),
            "score_matrix(predictions, targets, n_jobs=2)": lambda: fourth.score_matrix(
                predictions, targets, 2
            ),
        }

    rounds = [(texts(n, rng), texts(n, rng)) for _ in range(repeats)]
    times = first_runs(rounds, make)
    reference = None if tiny else rouge_score_scorer()
    if reference is not None:
        predictions, targets = texts(n, rng), texts(n, rng)  # a sample of new pairs
        step = max(1, n * n // 2000)
        sample = [(targets[k % n], predictions[k // n]) for k in range(0, n * n, step)]
        start = time.perf_counter()
        for target, prediction in sample:
            reference.score(target, prediction)
        times["rouge-score's score loop (extrapolated)"] = (
            (time.perf_counter() - start) / len(sample) * n * n
        )
    base = f"score_batch of the {n * n:,} pairs (baseline)"
    table(f"{n} x {n} all pairs, {', '.join(TYPES)}", times, base, lambda s: f"{s:9.3f} s")
    ours = times["score_matrix(predictions, targets)"]
    print(f"  score_matrix(predictions, targets): {times[base] / ours:.1f}x score_batch", end="")
    if reference is not None:
        print(f", {times[next(reversed(times))] / ours:.0f}x rouge-score's loop", end="")
    print()


def bench_rewards(prompts: int, group: int, repeats: int, rng: random.Random, tiny: bool) -> None:
    from kurenai.rewards import rouge_reward

    reference = None if tiny else rouge_score_scorer()

    def make(round_texts: tuple[list[str], list[str]]) -> dict[str, Callable[[], object]]:
        references, completions = round_texts
        repeated = [r for r in references for _ in range(group)]
        reward = rouge_reward("rougeL")
        scorer = RougeScorer(["rougeL"])

        def naive() -> list[float]:
            found = scorer.score_batch(repeated, completions)
            return [scores["rougeL"].fmeasure for scores in found if scores is not None]

        found: dict[str, Callable[[], object]] = {
            "score_batch, references repeated (baseline)": naive,
            "kurenai.rewards.rouge_reward": lambda: reward(
                prompts=repeated, completions=completions, reference=repeated
            ),
        }
        if reference is not None:
            found["rouge-score reward function"] = lambda: [
                reference.score(r, c)["rougeL"].fmeasure for r, c in zip(repeated, completions)
            ]
        return found

    check = make((texts(prompts, rng), texts(prompts * group, rng)))
    assert (
        check["score_batch, references repeated (baseline)"]()
        == check["kurenai.rewards.rouge_reward"]()
    ), "the rewards differ"
    rounds = [(texts(prompts, rng), texts(prompts * group, rng)) for _ in range(repeats * 5)]
    times = first_runs(rounds, make)
    base = "rouge-score reward function" if reference is not None else next(iter(times))
    table(
        f"GRPO rewards, rougeL F: {prompts} prompts x {group} completions",
        times,
        base,
        lambda s: f"{s * 1e3:9.2f} ms",
    )
    ours = times["kurenai.rewards.rouge_reward"]
    naive = times["score_batch, references repeated (baseline)"]
    print(f"  rouge_reward: {naive / ours:.1f}x score_batch the naive way", end="")
    if reference is not None:
        print(f", {times['rouge-score reward function'] / ours:.0f}x rouge-score's", end="")
    print()


def bench_ray(rows: int, repeats: int, rng: random.Random) -> None:
    try:
        import pyarrow as pa
        import ray
    except ImportError as error:
        print(f"Ray Data: skipped ({error})")
        return
    from kurenai.ray import RougeScores

    def make(round_texts: tuple[list[str], list[str]]) -> dict[str, Callable[[], object]]:
        predictions, targets = round_texts
        data = pa.table({"prediction": predictions, "target": targets})
        scorer = RougeScorer(TYPES)

        def through_ray() -> None:
            ds = ray.data.from_arrow(data).map_batches(
                RougeScores,
                fn_constructor_kwargs={"rouge_types": TYPES},
                batch_format="pyarrow",
                batch_size=4096,
                concurrency=2,
            )
            ds.materialize()

        return {
            "score_arrow in the driver (baseline)": lambda: scorer.score_arrow(
                data.column("target"), data.column("prediction")
            ),
            "map_batches(RougeScores), 2 actors": through_ray,
        }

    rounds = [(texts(rows, rng), texts(rows, rng)) for _ in range(repeats)]
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        ray.data.DataContext.get_current().enable_progress_bars = False
        times = first_runs(rounds, make)
    finally:
        ray.shutdown()
    table(
        f"Ray Data, {rows:,} rows, {', '.join(TYPES)} (the ratio is rows/s against the baseline)",
        times,
        "score_arrow in the driver (baseline)",
        lambda s: f"{rows / s:9,.0f} rows/s",
    )


def bench_big(n: int, rng: random.Random) -> None:
    corpus = texts(n, rng)
    scorer = RougeScorer(["rougeL"])
    last = [0.0]

    def progress(done: int, total: int) -> None:
        if time.perf_counter() - last[0] > 10 or done == total:
            last[0] = time.perf_counter()
            print(f"    ... {done:,}/{total:,} rows", file=sys.stderr)

    start = time.perf_counter()
    found = scorer.score_matrix(corpus, n_jobs=-1, progress=progress)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # KiB on Linux
    results = sum(array.nbytes for score in found.values() for array in score) / 2**30
    print(f"{n:,} x {n:,} rougeL on every core: {seconds:.1f} s, {n * n / seconds:,.0f} pairs/s; "
          f"results {results:.2f} GiB, peak RSS {peak:.2f} GiB")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=1000, help="N of the N x N matrix")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, help="default: fresh texts each run")
    parser.add_argument("--big", type=int, help="also one N x N rougeL matrix with progress")
    parser.add_argument("--no-ray", action="store_true")
    parser.add_argument("--ray-rows", type=int, default=20_000, help="rows of the Ray Data run")
    add_common_options(parser)
    args = parser.parse_args()
    header(args)
    rng = random.Random(args.seed)
    repeats = 1 if args.tiny else args.repeats
    bench_matrix(12 if args.tiny else args.samples, repeats, rng, args.tiny)
    bench_rewards(4 if args.tiny else 64, 3 if args.tiny else 16, repeats, rng, args.tiny)
    if not args.tiny and not args.no_ray:
        bench_ray(args.ray_rows, repeats, rng)
    if args.big and not args.tiny:
        bench_big(args.big, rng)


if __name__ == "__main__":
    main()

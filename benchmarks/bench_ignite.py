"""kurenai.ignite against pytorch-ignite's ROUGE metrics, in one run: a
validation epoch of 10,000 pairs, ``update`` in batches then ``compute``.

    python benchmarks/bench_ignite.py [--pairs 10000] [--batch 32]
                                      [--repeats 3] [--implementation python] [--tiny]

Needs the ``ignite`` extra (``bench`` adds Faker).  The pairs are
``--pairs`` distinct fresh pairs (``benchmarks/_text.py``: Faker's English
sentences, SciTLDR's shape), lower-cased and split on whitespace as ignite's
own tests tokenize; every round new ones (no text in two rounds), each epoch
on new metrics, gc.collect before each run, untimed (ignite's garbage is not
collected on kurenai's time).  The metrics
ignite users attach: ``Rouge(variants=[1, 2, "L"])``, and ``RougeN(1)``,
``RougeN(2)`` and ``RougeL()`` as three metrics, each with ``multiref``
``average`` (one reference) and ``best`` (every pair against two references).
Each contender's results are first checked equal to ignite's, float for
float, on a round never timed; medians of ``--repeats`` rounds, the two
sides alternating which goes first, and the ratio.

``--tiny``: a few generated pairs, no ignite timing (nothing where the
``ignite`` extra is not installed, except under ``CI=true``).
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any, Callable

from _common import add_common_options, first_runs, header
from _text import fresh_pairs, text_source

Tokens = list[str]
Batches = list[tuple[list[Tokens], list[list[Tokens]]]]


def pairs(count: int, seed: int) -> tuple[list[str], list[str]]:
    """Round ``seed``'s ``count`` fresh pairs (the benchmarks' fresh-text
    hook): (predictions, references), texts no other round has."""
    return fresh_pairs(count, seed=1_000 * seed)


def _pairs(count: int, seed: int = 0) -> tuple[str, list[tuple[Tokens, Tokens]]]:
    predictions, references = pairs(count, seed)
    tokens = [(p.lower().split(), t.lower().split()) for p, t in zip(predictions, references)]
    return f"{count} fresh pairs a round ({text_source()})", tokens


def _batches(pairs: list[tuple[Tokens, Tokens]], size: int, references: int) -> Batches:
    """Batches of ``size``; each candidate against ``references`` targets
    (its own and the next pairs')."""
    out: Batches = []
    for start in range(0, len(pairs), size):
        chunk = range(start, min(start + size, len(pairs)))
        out.append(
            (
                [pairs[k][0] for k in chunk],
                [[pairs[(k + j) % len(pairs)][1] for j in range(references)] for k in chunk],
            )
        )
    return out


def _epoch(make: Callable[[], list[Any]], batches: Batches) -> dict[str, float]:
    """One epoch: every metric ``make`` builds updated on every batch, then computed."""
    metrics = make()
    for batch in batches:
        for metric in metrics:
            metric.update(batch)
    results: dict[str, float] = {}
    for metric in metrics:
        results.update(metric.compute())
    return results


def _setups(library: Any, multiref: str) -> dict[str, Callable[[], list[Any]]]:
    return {
        'Rouge(variants=[1, 2, "L"])': lambda: [
            library.Rouge(variants=[1, 2, "L"], multiref=multiref)
        ],
        "RougeN(1), RougeN(2), RougeL()": lambda: [
            library.RougeN(ngram=1, multiref=multiref),
            library.RougeN(ngram=2, multiref=multiref),
            library.RougeL(multiref=multiref),
        ],
    }


def _compare(rounds: list[Batches], check: Batches, multiref: str) -> None:
    import ignite.metrics

    import kurenai.ignite

    theirs, ours = _setups(ignite.metrics, multiref), _setups(kurenai.ignite, multiref)
    for label in theirs:
        same = _epoch(theirs[label], check) == _epoch(ours[label], check)

        def make(batches: Batches, label: str = label) -> dict[str, Callable[[], object]]:
            return {
                "ignite": lambda: _epoch(theirs[label], batches),
                "kurenai": lambda: _epoch(ours[label], batches),
            }

        # CPU time: both run on this thread alone.
        times = first_runs(rounds, make, clock=time.thread_time)
        ratio = times["ignite"] / times["kurenai"]
        print(
            f"{label:32} {multiref:8} {times['ignite']:9.3f} {times['kurenai']:9.3f} "
            f"{ratio:7.1f}x  {same}"
        )


def _tiny() -> int:
    from _common import synthetic_pairs

    try:
        import kurenai.ignite
    except ImportError as error:
        if os.environ.get("CI", "").lower() == "true":
            raise  # CI installs the ignite extra
        print(f"--tiny: kurenai.ignite needs the ignite extra ({error}): nothing run")
        return 0
    pairs = [(p.split(), t.split()) for t, p in synthetic_pairs(6, 40)]
    batches = _batches(pairs, 4, 2)
    for multiref in ("average", "best"):
        found = _epoch(_setups(kurenai.ignite, multiref)['Rouge(variants=[1, 2, "L"])'], batches)
        print(f"--tiny: Rouge {multiref} on {len(pairs)} generated pairs: {found['Rouge-L-F']:.4f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=10_000)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3)
    add_common_options(parser)
    args = parser.parse_args(argv)
    header(args)
    if args.tiny:
        return _tiny()
    found = [_pairs(args.pairs, seed) for seed in range(args.repeats + 1)]
    name, check = found[0][0], found[-1][1]
    print(f"\n{name}, batches of {args.batch}, update + compute")
    print(f"medians of {args.repeats} rounds of first runs (CPU seconds per epoch)")
    print(f"{'metrics':32} {'multiref':8} {'ignite':>9} {'kurenai':>9} {'ratio':>8}  same numbers")
    for multiref, references in (("average", 1), ("best", 2)):
        rounds = [_batches(tokens, args.batch, references) for _, tokens in found[:-1]]
        _compare(rounds, _batches(check, args.batch, references), multiref)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

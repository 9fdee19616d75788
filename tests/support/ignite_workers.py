"""What each process of tests/torch_frontends/test_ignite_distributed.py runs (a module
of its own: the spawned processes import it by name)."""

from __future__ import annotations

import json
from typing import Any

Corpus = list[tuple[list[str], list[list[str]]]]
# Each metric, by the arguments both libraries' Rouge take.
SETTINGS = [
    {"variants": [1, 2, "L"], "multiref": "average", "alpha": 0},
    {"variants": [1, 4, "L"], "multiref": "best", "alpha": 0.5},
]
BATCH = 8


def _fed(library: Any, corpus: Corpus, settings: dict[str, Any]) -> Any:
    """``library.Rouge(**settings)`` updated with ``corpus`` in batches of BATCH."""
    metric = library.Rouge(**settings)
    for start in range(0, len(corpus), BATCH):
        batch = corpus[start : start + BATCH]
        metric.update(([c for c, _ in batch], [r for _, r in batch]))
    return metric


def scores(library: Any, corpus: Corpus, settings: dict[str, Any]) -> dict[str, float]:
    """What ``library.Rouge(**settings)`` computes over ``corpus``."""
    return dict(_fed(library, corpus, settings).compute())


def sums(library: Any, corpus: Corpus, settings: dict[str, Any]) -> list[list[float]]:
    """Per variant, the four sums ignite's sync_all_reduce adds across processes."""
    metric = _fed(library, corpus, settings)
    return [
        [m._precision, m._recall, m._fmeasure, m._num_examples] for m in metric.internal_metrics
    ]


def shard(corpus: Corpus, rank: int, world: int) -> Corpus:
    """The pairs one process scores: every world-th, from its rank."""
    return corpus[rank::world]


def run(local_rank: int, corpus: Corpus, out: str) -> None:
    """One process: both libraries' Rouge on this rank's shard, synced by
    ignite's compute; rank 0 writes the results (JSON keeps every float)."""
    import ignite.distributed as idist
    import ignite.metrics

    import kurenai.ignite

    rank, world = idist.get_rank(), idist.get_world_size()
    mine = shard(corpus, rank, world)
    found = {
        "world": world,
        "backend": idist.backend(),
        "kurenai": [scores(kurenai.ignite, mine, s) for s in SETTINGS],
        "ignite": [scores(ignite.metrics, mine, s) for s in SETTINGS],
    }
    if rank == 0:
        with open(out, "w", encoding="utf-8") as stream:
            json.dump(found, stream)

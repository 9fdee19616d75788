"""kurenai.ignite across processes: two CPU processes (torch.distributed's
gloo backend, started by ignite.distributed.Parallel) each score half of a
corpus; ignite's sync_all_reduce sums their states, and the synced result is
ignite's own on the same shards and the single process's sums added."""

from __future__ import annotations

import json
import random
import socket
from pathlib import Path
from typing import Any

import ignite_workers as workers
import pytest
from optional import missing

pytestmark = pytest.mark.slow  # two spawned processes, each importing torch


def _libraries() -> tuple[Any, Any, Any]:
    try:
        import ignite.distributed as idist
        import ignite.metrics
    except ImportError:
        missing("pytorch-ignite (the ignite extra, with torch) is not installed")
    import kurenai.ignite

    return idist, ignite.metrics, kurenai.ignite


def _corpus(size: int) -> workers.Corpus:
    rng = random.Random(36)
    words = ["the", "cat", "sat", "on", "a", "mat", "dog", "ran", "é", "猫", "x", "y", "z"]

    def text() -> list[str]:
        return [rng.choice(words) for _ in range(rng.randint(0, 14))]

    return [(text(), [text() for _ in range(rng.randint(1, 3))]) for _ in range(size)]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_two_gloo_processes_sync_to_the_sums_of_their_shards(tmp_path: Path) -> None:
    idist, ignite_metrics, ours = _libraries()
    corpus = _corpus(61)  # odd: the shards differ in size
    out = tmp_path / "synced.json"
    with idist.Parallel(
        backend="gloo",
        nproc_per_node=2,
        master_addr="127.0.0.1",
        master_port=_free_port(),
        start_method="fork",  # the children start with torch already imported
    ) as parallel:
        parallel.run(workers.run, corpus, str(out))
    synced = json.loads(out.read_text(encoding="utf-8"))
    assert synced["world"] == 2 and synced["backend"] == "gloo"
    # ignite's own metrics, synced the same way, give the same floats.
    assert synced["kurenai"] == synced["ignite"]
    for settings, found in zip(workers.SETTINGS, synced["kurenai"]):
        # What the sync computes from each process's sums (gloo adds two
        # doubles): the shards' sums, scored here in one process.
        shards = [workers.sums(ours, workers.shard(corpus, r, 2), settings) for r in range(2)]
        expected = {}
        for variant, first, second in zip(settings["variants"], *shards):
            total = [a + b for a, b in zip(first, second)]
            assert total[3] == len(corpus)  # every pair counted once, none dropped
            name = f"Rouge-{variant}"
            for k, measure in enumerate("PRF"):
                expected[f"{name}-{measure}"] = total[k] / total[3]
        assert found == expected
        # And the single process over the whole corpus, up to the order of the sums.
        whole = workers.scores(ours, corpus, settings)
        assert whole == workers.scores(ignite_metrics, corpus, settings)
        assert found == pytest.approx(whole, rel=1e-12, abs=0)

"""A real two-process run: ``torch.distributed`` with gloo on CPU, each
process scoring its own shard; ``compute`` gathers the scores through
torchmetrics' own sync, and equals one process scoring every batch in rank
order, to the bit.  Rank 0 is this process (torch is loaded here already),
rank 1 a spawned one."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from torch_reference import ddp_worker, torchmetrics_modules

pytestmark = pytest.mark.slow

torch, torchmetrics = torchmetrics_modules()

KEYS = ("rouge1", "rouge2", "rougeL")
# Uneven shards, several references, an empty text: rank 1 has one batch fewer.
SHARDS = [
    [
        (
            ["the cat sat on the mat. It slept.", "a dog"],
            [["the cat sat", "a cat sat on a mat"], ["dogs"]],
        ),
        (["Mr. Smith went home. He ate."], [["Smith went home and ate.", ""]]),
    ],
    [
        (
            ["what a day", "", "naïve café"],
            [["what a wonderful day"], ["x"], ["naive cafe", "café"]],
        ),
    ],
]


def test_two_processes_sync_to_the_one_process_result(tmp_path: Path) -> None:
    import torch.multiprocessing as mp

    out = tmp_path / "rank0.txt"
    args = (str(tmp_path / "init"), SHARDS, KEYS, str(out))
    other = mp.get_context("spawn").Process(target=ddp_worker, args=(1, *args))
    other.start()
    try:
        ddp_worker(0, *args)
    finally:
        other.join(timeout=120)
    assert other.exitcode == 0
    synced = ast.literal_eval(out.read_text(encoding="utf-8"))
    assert synced == _bits(_one_process(SHARDS))
    # Negative control: without the sync, rank 0 would report its shard alone.
    assert synced != _bits(_one_process(SHARDS[:1]))


def _one_process(shards: list[Any]) -> Any:
    from kurenai.torchmetrics import ROUGEScore

    metric = ROUGEScore(rouge_keys=KEYS, accumulate="avg")
    for shard in shards:
        for preds, target in shard:
            metric.update(preds, target)
    return metric.compute()


def _bits(result: dict[str, Any]) -> dict[str, int]:
    return {key: value.view(torch.int32).item() for key, value in result.items()}

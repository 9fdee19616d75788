"""The command line's scoring: records in, blocks of columnar scores out.

Chunks of ``--chunk-size`` records (:mod:`kurenai.cli._chunks`) are scored with
``RougeScorer.score_batch(columnar=True)``, which writes every score into
one float64 array; records with several references go through
``score_multi_batch``.  In a comparison the baseline's predictions are
scored against the same targets.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from kurenai.cli._chunks import Chunk
from kurenai.cli._io import Target
from kurenai.cli._notes import note_texts
from kurenai.cli._output import MEASURE_COLUMNS, Block, RecordId
from kurenai.rouge_scorer import RougeScorer

__all__ = ["limited", "score_records", "scored_blocks"]


def scored_blocks(
    scorer: RougeScorer, chunks: Iterable[Chunk], args: argparse.Namespace
) -> Iterator[Block]:
    """One :class:`Block` per chunk of records, in input order."""
    start = 0
    for chunk in chunks:
        if not start:
            note_texts(args, chunk.targets, chunk.predictions)
        values = score_records(scorer, chunk.targets, chunk.predictions, args)
        baseline = None
        if args.baseline_file is not None:
            baseline = score_records(scorer, chunk.targets, chunk.baselines or [], args)
        size = len(chunk.predictions)
        ids: Sequence[RecordId] = range(start, start + size)
        if chunk.ids is not None:  # every record has one then
            ids = cast("list[RecordId]", chunk.ids)
        yield Block(ids, values, baseline)
        start += size


def limited(args: argparse.Namespace) -> dict[str, Any]:
    """``--max-tokens`` and ``--max-chars``, those given, as ``score_batch``'s arguments."""
    return {
        name: value
        for name, value in (("max_tokens", args.max_tokens), ("max_chars", args.max_chars))
        if value is not None
    }


def score_records(
    scorer: RougeScorer,
    targets: Sequence[Target],
    predictions: Sequence[str],
    args: argparse.Namespace,
) -> npt.NDArray[np.float64]:
    """(types x P/R/F x records) scores; ``score_multi`` for lists of targets.
    A record over ``--max-tokens`` or ``--max-chars`` scores NaN."""
    jobs = args.jobs
    limits = limited(args)
    values = np.empty((len(scorer.rouge_types), len(MEASURE_COLUMNS), len(targets)))
    if set(map(type, targets)) == {str}:  # the usual chunk: one reference each
        texts = cast("Sequence[str]", targets)
        columns = scorer.score_batch(texts, predictions, n_jobs=jobs, columnar=True, **limits)
        for k, rouge_type in enumerate(scorer.rouge_types):
            values[k] = columns[rouge_type]
        return values
    single = [i for i, target in enumerate(targets) if isinstance(target, str)]
    if single:
        texts = [cast(str, targets[i]) for i in single]
        chosen = [predictions[i] for i in single]
        columns = scorer.score_batch(texts, chosen, n_jobs=jobs, columnar=True, **limits)
        for k, rouge_type in enumerate(scorer.rouge_types):
            values[k][:, single] = list(columns[rouge_type])
    multi = [i for i, target in enumerate(targets) if not isinstance(target, str)]
    if not multi:
        return values
    best = scorer.score_multi_batch(
        [targets[i] for i in multi],
        [predictions[i] for i in multi],
        n_jobs=jobs,
        mode=args.multi_ref_mode,
        columnar=True,
        **limits,
    )
    for k, rouge_type in enumerate(scorer.rouge_types):
        values[k][:, multi] = list(best[rouge_type])  # NaN: over a limit
    return values

"""The command line's scoring: records in, blocks of columnar scores out.

Records are scored ``--chunk-size`` at a time with
``RougeScorer.score_batch(columnar=True)``, which writes every score into
one float64 array; records with several references go through
``score_multi_batch``.  In a comparison the baseline's predictions are
scored against the same targets.
"""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import cast

import numpy as np
import numpy.typing as npt

from kurenai.cli._io import Record, Target
from kurenai.cli._notes import warn_unspaced
from kurenai.cli._output import MEASURES, Block, RecordId
from kurenai.rouge_scorer import RougeScorer

__all__ = ["scored_blocks"]


def scored_blocks(
    scorer: RougeScorer, records: Iterable[Record], args: argparse.Namespace
) -> Iterator[Block]:
    """One :class:`Block` per chunk of records, in input order."""
    iterator = iter(records)
    start = 0
    while chunk := list(itertools.islice(iterator, args.chunk_size)):
        if not start:
            warn_unspaced(args, [r.prediction for r in chunk])
        targets = [r.target for r in chunk]
        values = _score(scorer, targets, [r.prediction for r in chunk], args)
        baseline = None
        if args.baseline_file is not None:
            predictions = [r.baseline or "" for r in chunk]
            baseline = _score(scorer, targets, predictions, args)
        ids: Sequence[RecordId] = range(start, start + len(chunk))
        if chunk[0].id is not None:  # every record has one then
            ids = [cast(RecordId, r.id) for r in chunk]
        yield Block(ids, values, baseline)
        start += len(chunk)


def _score(
    scorer: RougeScorer,
    targets: Sequence[Target],
    predictions: list[str],
    args: argparse.Namespace,
) -> npt.NDArray[np.float64]:
    """(types x P/R/F x records) scores; ``score_multi`` for lists of targets."""
    jobs = args.jobs
    # --max-tokens and --max-chars, when given: a record over one scores NaN.
    limits = {
        name: value
        for name, value in (("max_tokens", args.max_tokens), ("max_chars", args.max_chars))
        if value is not None
    }
    single = [i for i, target in enumerate(targets) if isinstance(target, str)]
    values = np.empty((len(scorer.rouge_types), len(MEASURES), len(targets)))
    if single:
        texts = [cast(str, targets[i]) for i in single]
        chosen = predictions if len(single) == len(targets) else [predictions[i] for i in single]
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

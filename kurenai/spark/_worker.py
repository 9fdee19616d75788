"""The executor side of ``kurenai.spark``: Arrow batch in, Arrow structs out.

A Python worker keeps its scorers in a module-level cache, so each is built
once, from the plain parameters in a ``Spec``, and reused for every batch
and every task the worker runs.  Scores come from
``score_batch(columnar=True)``: NaN marks exactly the NULL rows (a NULL side
or a side over ``max_tokens`` or ``max_chars``), since a real score is never NaN.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from kurenai._core import arrow as _arrow
from kurenai._core.names import type_and_split

if TYPE_CHECKING:
    import pyarrow as pa

    from kurenai.rouge_scorer import RougeScorer


class Spec(NamedTuple):
    """Everything a worker needs to score: plain, picklable values."""

    fields: tuple[tuple[str, str, bool], ...]  # (struct field, kurenai type, split)
    use_stemmer: bool
    tokenizer: Any  # a tokenizer name, None, or an unused tokenizer object
    max_tokens: int | None
    nested: bool  # one struct field per type (rouge_scores) or a bare Score struct
    key: str  # the tokenizer's value, for the scorer cache (see kurenai.spark)
    max_chars: int | None = None
    lang: str | None = None  # the language's code (kurenai._core.languages)


# The most recently used scorers of this worker: a long-lived worker serving
# many Columns keeps at most this many (each may hold a dictionary or model).
MAX_SCORERS = 16
_SCORERS: OrderedDict[tuple[str, bool, bool, tuple[str, ...]], RougeScorer] = OrderedDict()
_SCORERS_LOCK = threading.Lock()


def scorer(spec: Spec, split: bool) -> RougeScorer:
    """This worker's scorer for the types of ``spec`` with this ``split``."""
    types = tuple(dict.fromkeys(rouge_type for _, rouge_type, s in spec.fields if s == split))
    key = (spec.key, spec.use_stemmer, split, types)
    with _SCORERS_LOCK:
        found = _SCORERS.get(key)
        if found is not None:
            _SCORERS.move_to_end(key)
            return found
    from kurenai.rouge_scorer import RougeScorer

    found = RougeScorer(
        types,
        use_stemmer=spec.use_stemmer,
        split_summaries=split,
        tokenizer=spec.tokenizer,
        lang=spec.lang,
    )
    with _SCORERS_LOCK:
        found = _SCORERS.setdefault(key, found)  # a scorer built meanwhile wins
        _SCORERS.move_to_end(key)
        while len(_SCORERS) > MAX_SCORERS:
            _SCORERS.popitem(last=False)
    return found


def score_tables(
    spec: Spec, predictions: list[str | None], targets: list[str | None]
) -> tuple[list[np.ndarray], np.ndarray]:
    """Per field of ``spec``, a (3, rows) float64 table of precision, recall
    and F-measure; and the boolean mask of the NULL rows."""
    tables: dict[tuple[str, bool], np.ndarray] = {}
    for split in {split for _, _, split in spec.fields}:
        columns = scorer(spec, split).score_batch(
            targets,
            predictions,
            columnar=True,
            allow_none=True,
            max_tokens=spec.max_tokens,
            max_chars=spec.max_chars,
        )
        for rouge_type, score in columns.items():
            tables[rouge_type, split] = np.stack(score)
    out = [tables[rouge_type, split] for _, rouge_type, split in spec.fields]
    nulls = np.isnan(out[0][0])
    for table in out[1:]:
        nulls |= np.isnan(table[0])
    if len(out) > 1 and nulls.any():
        for table in out:  # a row is NULL as a whole, whatever type saw it first
            table[:, nulls] = np.nan
    return out, nulls


def check_text_column(array: pa.Array, name: str) -> None:
    """TypeError unless ``array`` holds text (or only NULLs).

    Spark resolves a Column's type only when the query runs, so this is where
    an int or array column is caught: one error naming the argument and its
    Spark-side Arrow type, instead of a scorer's error about row 0.
    """
    import pyarrow as pa

    kind = array.type
    if pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_null(kind):
        return
    if getattr(pa.types, "is_string_view", lambda _: False)(kind):
        return
    raise TypeError(f"kurenai.spark: {name} must be a string column, got {kind}")


def score_arrow(spec: Spec, prediction: pa.Array, target: pa.Array) -> pa.Array:
    """One Arrow batch's result: a struct per row, NULL where a row is NULL."""
    check_text_column(prediction, "prediction")
    check_text_column(target, "target")
    tables, nulls = score_tables(spec, prediction.to_pylist(), target.to_pylist())
    if not spec.nested:
        return _arrow.score_struct(tables[0], nulls)
    return _arrow.struct_of([field for field, _, _ in spec.fields], tables, nulls)


def score_sql(
    spec: Spec, split_summaries: bool, prediction: pa.Array, target: pa.Array, *options: pa.Array
) -> pa.Array:
    """The SQL function's batch: the type and stemmer flag are columns, so
    rows are scored in groups of equal (type, stemmer); a NULL type gives NULL."""
    import pyarrow as pa

    check_text_column(prediction, "prediction (argument 1)")
    check_text_column(target, "target (argument 2)")
    if len(options) > 2:
        raise TypeError(
            f"kurenai.spark: the SQL function takes 2 to 4 arguments (prediction, target"
            f"[, rouge_type[, use_stemmer]]), got {2 + len(options)}"
        )
    if options:
        check_text_column(options[0], "rouge_type (argument 3)")
    if len(options) > 1 and not (
        pa.types.is_boolean(options[1].type) or pa.types.is_null(options[1].type)
    ):
        raise TypeError(
            f"kurenai.spark: use_stemmer (argument 4) must be a boolean, got {options[1].type}"
        )
    size = len(prediction)
    names = options[0].to_pylist() if options else ["rougeL"] * size
    stems = options[1].to_pylist() if len(options) > 1 else [False] * size
    predictions, targets = prediction.to_pylist(), target.to_pylist()
    table = np.full((len(_arrow.SCORE_FIELDS), size), np.nan)
    groups: dict[tuple[Any, bool], list[int]] = {}
    for row, group in enumerate(zip(names, stems)):
        groups.setdefault((group[0], bool(group[1])), []).append(row)
    for (name, stem), rows in groups.items():
        if name is None:
            continue
        rouge_type, split = type_and_split(name, split_summaries)
        group_spec = spec._replace(fields=(("", rouge_type, split),), use_stemmer=stem)
        picked = ([predictions[r] for r in rows], [targets[r] for r in rows])
        table[:, rows] = score_tables(group_spec, *picked)[0][0]
    return _arrow.score_struct(table, np.isnan(table[0]))

"""The engine-free half of kurenai.frames: Arrow arrays of texts in, Arrow
structs of scores out, through ``score_batch(columnar=True)``.

``Options`` holds what is fixed when a function or expression is made
(tokenizer, stemmer, language, sentence splitting, size limits, threads); the ROUGE type
may come per row (SQL) or per expression.  Scorers are built once per
(options, types) and reused for every batch.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kurenai._core import arrow as _arrow
from kurenai._core import checks as _checks
from kurenai._core.languages import choices
from kurenai._core.names import type_and_split
from kurenai._core.plan import SCORE_FIELDS

__all__ = ["SCORE_FIELDS", "Options", "by_row_type", "checked_types", "nested", "single"]


@dataclass(frozen=True)
class Options:
    """The scoring choices of one SQL function or expression, checked.

    >>> Options(max_tokens=-1)
    Traceback (most recent call last):
    ...
    ValueError: max_tokens must be None or an int >= 0, got -1
    """

    use_stemmer: bool = False
    tokenizer: Any = None
    split_summaries: bool | str = False
    max_tokens: int | None = None
    n_jobs: int = -1
    max_chars: int | None = None
    lang: str | None = None
    _scorers: dict[tuple[tuple[str, ...], bool | str], Any] = field(
        default_factory=dict, compare=False, repr=False
    )

    def __post_init__(self) -> None:
        from kurenai._core.checks import resolve_jobs
        from kurenai.tokenizers import resolve_tokenizer

        object.__setattr__(self, "use_stemmer", _checks.flag(self.use_stemmer, "use_stemmer"))
        split = _checks.splitting(self.split_summaries, "split_summaries")
        object.__setattr__(self, "split_summaries", split)
        for name in ("max_tokens", "max_chars"):
            _checks.limit(getattr(self, name), name)
        resolve_jobs(self.n_jobs)
        object.__setattr__(self, "lang", _checks.language(self.lang))
        tokenizer, stem = choices(self.lang, self.tokenizer, self.use_stemmer)
        # Fails now for an unknown name or a non-tokenizer, not on a batch.
        object.__setattr__(self, "_tokenizer", resolve_tokenizer(tokenizer, stem))

    def scorer(self, types: tuple[str, ...], split: bool | str) -> Any:
        """The RougeScorer of ``types`` (kurenai names) with this sentence
        splitting (``split_summaries``: a bool or ``"punkt"``)."""
        found = self._scorers.get((types, split))
        if found is None:
            from kurenai.rouge_scorer import RougeScorer

            tokenizer = self._tokenizer  # type: ignore[attr-defined]
            found = RougeScorer(types, split_summaries=split, tokenizer=tokenizer)
            self._scorers[types, split] = found
        return found

    def table(self, name: str, predictions: list[Any], targets: list[Any]) -> np.ndarray:
        """The (3, rows) float64 precision/recall/F-measure of type ``name``
        (a kurenai or Foundry name); NaN in the NULL rows."""
        rouge_type, split = type_and_split(name, self.split_summaries)
        columns = self.scorer((rouge_type,), split).score_batch(
            targets,
            predictions,
            self.n_jobs,
            columnar=True,
            allow_none=True,
            max_tokens=self.max_tokens,
            max_chars=self.max_chars,
        )
        return np.stack(columns[rouge_type])


def checked_types(rouge_types: Any) -> list[str]:
    """The type names of one struct per type, checked as every surface checks
    them; the fields are named as given, so each name may come once."""
    names = list(_checks.rouge_types(rouge_types))
    for name in names:
        type_and_split(name)  # an unknown type fails here, not on a batch
    _checks.distinct(names, names)
    _checks.some_types(names)
    return names


def _struct(table: np.ndarray) -> Any:
    return _arrow.score_struct(table, np.isnan(table[0]))


def single(options: Options, name: str, predictions: list[Any], targets: list[Any]) -> Any:
    """``struct(precision, recall, fmeasure)`` per row, of one ROUGE type."""
    return _struct(options.table(name, predictions, targets))


def nested(options: Options, names: list[str], predictions: list[Any], targets: list[Any]) -> Any:
    """A struct with one score struct per type (fields named as given); a row
    is NULL as a whole when a text is NULL or over ``max_tokens`` or ``max_chars``."""
    tables = [options.table(name, predictions, targets) for name in names]
    nulls = np.zeros(len(predictions), dtype=bool)
    for table in tables:
        nulls |= np.isnan(table[0])
    return _arrow.struct_of(names, tables, nulls)


def by_row_type(
    options: Options, predictions: list[Any], targets: list[Any], names: list[Any]
) -> Any:
    """One score struct per row, of the type that row names (SQL's third
    argument, usually one constant); NULL where the type is NULL."""
    table = np.full((3, len(predictions)), np.nan)
    rows: dict[Any, list[int]] = {}
    for row, name in enumerate(names):
        rows.setdefault(name, []).append(row)
    for name, chosen in rows.items():
        if name is None:
            continue
        picked = [predictions[r] for r in chosen], [targets[r] for r in chosen]
        table[:, chosen] = options.table(name, *picked)
    return _struct(table)

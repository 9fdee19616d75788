"""The front ends' argument checks: one function per mistake, one message.

``RougeScorer`` and its ``score_batch``, ``kurenai.metrics``,
``kurenai.spark``, ``kurenai.frames`` (DuckDB, polars) and the command line
check their shared arguments here, so the same mistake gets the same
exception everywhere: a TypeError for a value of the wrong type, a
ValueError for a wrong value of the right type, with the same message (the
command line prints it after the option's name).  What each surface has on
its own (Spark's column types, the CLI's file options) it checks itself.
The pairs of a batch are checked here too (:func:`checked_pairs`,
:func:`checked_groups`: nulls, limits, plain str), after
:mod:`kurenai._core.inputs` has converted their columns and before
:mod:`kurenai._core.batch` pools them; and the counts of workers
(:func:`resolve_jobs`, :func:`resolve_threads`: ``n_jobs`` and ``threads``
mean the same on every surface).

>>> limit(-1, "max_tokens")
Traceback (most recent call last):
ValueError: max_tokens must be None or an int >= 0, got -1
>>> rouge_types("rouge1")
Traceback (most recent call last):
TypeError: rouge_types must be a list of ROUGE types, e.g. ['rouge1'], not a single string
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from kurenai._core import inputs as _inputs
from kurenai._core.inputs import check_reference_group, is_null
from kurenai._data.spelling import did_you_mean
from kurenai.scoring import Score

__all__ = [
    "DEFAULT_TYPES",
    "NULL_HINT",
    "available_cores",
    "checked_groups",
    "checked_pairs",
    "distinct",
    "env_switch",
    "flag",
    "language",
    "limit",
    "measure",
    "not_a_string",
    "resolve_jobs",
    "resolve_threads",
    "rouge_types",
    "some_types",
    "splitting",
    "target_list",
    "text",
    "text_at",
    "text_item",
    "tokenizer",
    "too_long",
]

# The types a surface scores when none are named: the command line, Spark's
# rouge_scores and polars' scores (kurenai.metrics keeps evaluate's default).
DEFAULT_TYPES = ("rouge1", "rouge2", "rougeL")


def flag(value: Any, name: str) -> bool:
    """``value`` as a bool: a bool or a NumPy bool, else a TypeError.

    A truthy stand-in is refused: ``use_stemmer="no"`` would stem.
    """
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise TypeError(f"{name} must be a bool, got {type(value).__name__}")


_ON = ("1", "true", "yes", "on")
_OFF = ("", "0", "false", "no", "off")


def env_switch(name: str) -> bool:
    """Whether the environment variable ``name`` turns a switch on
    (1/true/yes/on, any case); unset, empty or 0/false/no/off: off.  Any
    other value is a ValueError, so a typo is not silently ignored."""
    value = os.environ.get(name, "").strip().lower()
    if value in _OFF:
        return False
    if value not in _ON:
        raise ValueError(f"{name}={value!r}: use one of {', '.join(_ON + _OFF[1:])}")
    return True


def language(value: Any, name: str = "lang") -> str | None:
    """``lang=`` as its language's code (None: none); a TypeError for a
    non-str, a ValueError listing the known languages for an unknown one.

    >>> language("Bangla"), language(None)
    ('bn', None)
    """
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(
            f"{name} must be None or a language such as 'de', got {type(value).__name__}"
        )
    from kurenai._core.languages import language as row

    return row(value).code


def splitting(value: Any, name: str) -> bool | str:
    """``split_summaries``: a bool (as :func:`flag`) or ``"punkt"`` (NLTK's
    English punkt, ``kurenai.sentences.punkt_sentences``).

    >>> splitting("punkt", "split_summaries"), splitting(True, "split_summaries")
    ('punkt', True)
    >>> splitting("nltk", "split_summaries")
    Traceback (most recent call last):
    ValueError: split_summaries must be a bool or 'punkt', got 'nltk'
    """
    if isinstance(value, str):
        if value == "punkt":
            return value
        raise ValueError(f"{name} must be a bool or 'punkt', got {value!r}")
    return flag(value, name)


def limit(value: Any, name: str) -> int:
    """A size limit (``max_tokens``, ``max_chars``: None or an int >= 0) as
    the plans take it, -1 for none.

    >>> limit(None, "max_tokens"), limit(0, "max_tokens"), limit(10**30, "x") == sys.maxsize
    (-1, 0, True)
    """
    if value is None:
        return -1
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} must be None or an int >= 0, got {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{name} must be None or an int >= 0, got {value}")
    # No text has more tokens (or characters) than this: larger limits are no limit.
    return min(value, sys.maxsize)


def rouge_types(value: Any) -> tuple[Any, ...]:
    """``rouge_types`` as a tuple of its items (the names are checked by
    :mod:`kurenai._core.names`); a TypeError for a bare string or a
    non-iterable."""
    if isinstance(value, (str, bytes)):
        raise TypeError(
            f"rouge_types must be a list of ROUGE types, e.g. [{value!r}], not a single string"
        )
    try:
        return tuple(value)
    except TypeError:
        raise TypeError(f"rouge_types must be a list of str, got {type(value).__name__}") from None


def some_types(names: tuple[Any, ...] | list[Any]) -> None:
    """A ValueError for no types, where a surface needs one (a struct or a
    summary of no fields)."""
    if not names:
        raise ValueError("rouge_types must name at least one ROUGE type")


def distinct(names: Iterable[str], fields: Iterable[str]) -> None:
    """A ValueError for a type asked for twice, where each type names a
    field or column: ``fields`` are those names, one per name (two spellings
    of one type may name one field).

    >>> distinct(["rouge1", "ROUGE-L", "rougeL"], ["rouge1", "rougeL", "rougeL"])
    Traceback (most recent call last):
    ValueError: ROUGE type 'rougeL' asked for twice (as 'ROUGE-L' and 'rougeL')
    """
    seen: dict[str, str] = {}
    for name, field in zip(names, fields):
        if field in seen:
            first = seen[field]
            named = "" if first == name else f" (as {first!r} and {name!r})"
            raise ValueError(f"ROUGE type {field!r} asked for twice{named}")
        seen[field] = name


def not_a_string(value: Any, name: str, wanted: str = "a sequence of str") -> None:
    """A TypeError if ``value``, which must hold several texts, is one string."""
    if isinstance(value, str):
        raise TypeError(f"{name} must be {wanted}, not a single string")


def text_item(name: str, index: int, value: Any, hint: str = "") -> TypeError:
    """The error for item ``index`` of the texts ``name`` that is not a str:
    ``value`` is None for a null (None, NaN, ``pd.NA``); ``hint`` says how the
    surface takes nulls, if it can."""
    if value is None:
        return TypeError(f"{name}[{index}] must be a str, got a null (None, NaN or NA){hint}")
    return TypeError(f"{name}[{index}] must be a str, got {type(value).__name__}")


def text(name: str, value: Any) -> str:
    """``value`` as a plain ``str``, or a TypeError naming it.

    A ``str`` subclass (``numpy.str_``...) becomes its plain value, read with
    ``str.__str__``: none of the subclass's own methods runs while scoring.
    """
    if type(value) is str:
        return value
    if isinstance(value, str):
        return str.__str__(value)
    raise TypeError(f"{name} must be a str, got {type(value).__name__}")


def target_list(targets: Any, name: str) -> list[str]:
    """``targets`` as a non-empty list of str, or a TypeError/ValueError naming it."""
    if isinstance(targets, (str, bytes)):
        raise TypeError(f"{name} must be a list of str, not a single string")
    check_reference_group(targets, name, "a list of str")
    try:
        found = list(targets)
    except TypeError:
        raise TypeError(f"{name} must be a list of str, got {type(targets).__name__}") from None
    if not found:
        raise ValueError(f"{name} must be a non-empty list: score_multi needs at least one target")
    return [text(f"{name}[{index}]", reference) for index, reference in enumerate(found)]


def available_cores() -> int:
    """The cores this process may run on: its CPU affinity where the OS has
    one (a container or ``taskset`` limits it), else ``os.cpu_count()``."""
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        with contextlib.suppress(OSError):
            return max(1, len(affinity(0)))
    return os.cpu_count() or 1


def resolve_jobs(n_jobs: int) -> int:
    """``n_jobs`` as a thread count: -1 or 0 mean every available core."""
    if not isinstance(n_jobs, int) or isinstance(n_jobs, bool):
        raise TypeError(f"n_jobs must be an int, got {type(n_jobs).__name__}")
    if n_jobs < -1:
        raise ValueError(f"n_jobs must be a positive count, 0 or -1, got {n_jobs}")
    return n_jobs if n_jobs > 0 else available_cores()


def resolve_threads(threads: int) -> int:
    """``threads`` (one long pair's LCS) as a count: -1 means every available
    core, and more than those are not started (they would only take turns)."""
    if not isinstance(threads, int) or isinstance(threads, bool):
        raise TypeError(f"threads must be an int, got {type(threads).__name__}")
    if threads < 1 and threads != -1:
        raise ValueError(f"threads must be a positive count or -1 (every core), got {threads}")
    cores = available_cores()
    return min(threads, cores) if threads > 0 else cores


def too_long(text: str, max_chars: int) -> bool:
    """Whether ``text`` has more than ``max_chars`` code points (``len``; -1: no
    limit).  Read before any tokenizer runs: a text over it costs nothing."""
    return 0 <= max_chars < len(text)


def _column(values: Any, name: str) -> list[Any]:
    """One side of a batch as a list of its own (its items are replaced by
    their plain str): a list, or a pandas, NumPy or pyarrow column."""
    not_a_string(values, name)
    values = _inputs.column(values, name)
    try:
        return list(values)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of str, got {type(values).__name__}") from None


def checked_pairs(
    targets: Any, predictions: Any, allow_none: bool, max_chars: int = -1
) -> tuple[int, list[int], list[str], list[str]]:
    """The number of pairs, the indices of those to score (null pairs and
    pairs with a side over ``max_chars`` code points excluded), and their
    targets and predictions as plain str.

    Each side is a sequence or a pandas, NumPy or pyarrow column; its items
    are read once, here: a null (None, NaN, ``pd.NA``) is a null pair under
    ``allow_none`` and a TypeError naming its index otherwise, as is any
    other item that is not a str.
    """
    targets, predictions = _column(targets, "targets"), _column(predictions, "predictions")
    if len(targets) != len(predictions):
        raise ValueError(f"{len(targets)} targets but {len(predictions)} predictions")
    scored = []
    for index, pair in enumerate(zip(targets, predictions)):
        if type(pair[0]) is not str or type(pair[1]) is not str:
            if allow_none and (is_null(pair[0]) or is_null(pair[1])):
                continue
            targets[index] = _item("targets", index, pair[0])
            predictions[index] = _item("predictions", index, pair[1])
        if max_chars >= 0 and (
            too_long(targets[index], max_chars) or too_long(predictions[index], max_chars)
        ):
            continue
        scored.append(index)
    if len(scored) == len(targets):
        return len(targets), scored, targets, predictions
    chosen_targets = [targets[i] for i in scored]
    return len(targets), scored, chosen_targets, [predictions[i] for i in scored]


# How score_batch takes nulls, said where one is refused.
NULL_HINT = " (pass allow_none=True for null in, null out)"


def _item(name: str, index: int, value: Any) -> str:
    return text_at(name, index, value, NULL_HINT)


def text_at(name: str, index: int, value: Any, hint: str = "") -> str:
    """Item ``index`` of the texts ``name`` as a plain str: every column of
    texts' one rule (score_batch, torchmetrics, the frames): a str subclass
    read as its plain value, a null or a non-str a :func:`text_item` error
    (``hint``: how the surface takes nulls, if it can).

    >>> text_at("preds", 2, None)
    Traceback (most recent call last):
    TypeError: preds[2] must be a str, got a null (None, NaN or NA)
    """
    if type(value) is str:
        return value
    if isinstance(value, str):
        return str.__str__(value)
    if is_null(value):
        raise text_item(name, index, None, hint)
    raise text_item(name, index, value)


def measure(value: Any) -> str:
    """A score's field by name (``precision``, ``recall`` or ``fmeasure``),
    as the pair utilities and the reward functions take it.

    >>> measure("f1")
    Traceback (most recent call last):
    ValueError: unknown measure 'f1'; choose from precision, recall, fmeasure
    """
    if value not in Score._fields:
        raise ValueError(
            f"unknown measure {value!r}{did_you_mean(value, Score._fields)}; "
            f"choose from {', '.join(Score._fields)}"
        )
    return str(value)


def tokenizer(value: Any) -> Any:
    """``tokenizer=`` as a surface takes it before building it: a registered
    name (else the registry's ValueError, with its "did you mean"), None, or
    an object the registry resolves later.

    >>> tokenizer("whitspace")
    Traceback (most recent call last):
    ValueError: unknown tokenizer 'whitspace' (did you mean 'whitespace'?); available: ...
    """
    if isinstance(value, str):
        from kurenai.tokenizers import tokenizer_info

        tokenizer_info(value)
    return value


def checked_groups(
    targets: Sequence[Any], predictions: Sequence[Any], allow_none: bool, max_chars: int = -1
) -> tuple[int, list[int], list[int], list[str], list[str]]:
    """score_multi_batch's input flattened: the number of rows, the indices of
    those to score (not those with a text over ``max_chars`` code points),
    each one's number of references, and every (reference, prediction) pair
    of them as plain str."""
    targets, predictions = list(targets), _column(predictions, "predictions")
    if len(targets) != len(predictions):
        raise ValueError(f"{len(targets)} target lists but {len(predictions)} predictions")
    rows: list[int] = []
    groups: list[int] = []
    flat_targets: list[str] = []
    flat_predictions: list[str] = []
    for index, (group, prediction) in enumerate(zip(targets, predictions)):
        if allow_none and (group is None or is_null(prediction)):
            continue
        if group is None:
            raise TypeError(f"targets[{index}] must be a list of str, got NoneType{NULL_HINT}")
        found = target_list(group, f"targets[{index}]")
        prediction = _item("predictions", index, prediction)
        if max_chars >= 0 and (
            too_long(prediction, max_chars) or any(too_long(t, max_chars) for t in found)
        ):
            continue
        rows.append(index)
        groups.append(len(found))
        flat_targets.extend(found)
        flat_predictions.extend([prediction] * len(found))
    return len(targets), rows, groups, flat_targets, flat_predictions

"""kurenai on Spark: ROUGE as a column function, null in -> null out.

``rouge_score`` and ``rouge_scores`` build Spark Columns; ``register`` makes
the same function callable from Spark SQL.  Executors score whole Arrow
batches with ``RougeScorer.score_batch(columnar=True)`` (no Python ``Score``
per row), each Python worker building its scorer once from the parameters
the UDF carries and reusing it.  Needs the ``spark`` extra
(``pip install -e '.[spark]'`` in a checkout).

Arguments are checked when the Column is built (or the SQL function
registered): the ROUGE type names, ``use_stemmer``, ``split_summaries``,
``max_tokens``, ``max_chars``, ``lang``, the tokenizer (a known name, or an
object with ``tokenize``) and that ``prediction`` and ``target`` are Columns or column names.  What
Spark knows only when the query runs is checked on the executors, each
failure one TypeError naming the argument: a ``prediction`` or ``target``
column that is not a string column (an int or array column; a Column's type
is not known before it is resolved against its DataFrame), and the SQL
function's per-row arguments (``rouge_type`` must be a string column or
literal naming a type, ``use_stemmer`` a boolean, at most four arguments).

Types take every name :mod:`kurenai._core.names` defines, as the other
surfaces do: kurenai's (``rouge1``, ``rougeLsum``, ``rougeSU4``, ...) and
their aliases, Foundry's ``rougeScoreV1`` names among them:

>>> spark_type("ROUGE-Lsum (detected sentences)")
('rougeLsum', True)
>>> spark_type("rouge_l")
('rougeL', False)
"""

from __future__ import annotations

import hashlib
import pickle
import uuid
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Union

from kurenai._core import checks as _checks
from kurenai._core import languages as _languages
from kurenai._core import names as _names
from kurenai._data.extras import pip_install
from kurenai.spark._worker import Spec

if TYPE_CHECKING:
    from pyspark.sql import Column, SparkSession

    from kurenai.tokenizers import Tokenizer

__all__ = ["register", "rouge_score", "rouge_scores", "spark_type"]

ColumnLike = Union["Column", str]


def spark_type(name: str, split_summaries: bool | str = False) -> tuple[str, bool | str]:
    """kurenai's ROUGE type for a type name, and whether its sentences are
    detected (``split_summaries``, for the types read on sentences, or a
    detected-sentences name) rather than taken per line (``"punkt"``:
    detected by NLTK's English punkt, with ``split_summaries="punkt"``).

    Raises ValueError for an unknown name, listing the valid ones.
    """
    return _names.type_and_split(name, split_summaries)


def rouge_score(
    *,
    prediction: ColumnLike,
    target: ColumnLike,
    rouge_type: str = "rougeL",
    use_stemmer: bool = False,
    tokenizer: str | Tokenizer | None = None,
    split_summaries: bool | str = False,
    max_tokens: int | None = None,
    max_chars: int | None = None,
    lang: str | None = None,
) -> Column:
    """``struct<precision, recall, fmeasure>`` of ``prediction`` against ``target``.

    ``rouge_type`` is any ROUGE type name (:func:`spark_type`).  The
    result is NULL when either text is NULL or has more than ``max_tokens``
    tokens or ``max_chars`` code points (as ``RougeScorer.score_batch``
    counts them); every other row equals ``RougeScorer.score(target, prediction)``.
    ``tokenizer`` is a name (``"char"``, ``"mecab"``, ...) or a tokenizer
    object, which is pickled to the workers unused; ``lang`` the texts'
    language (its tokenizer unless one is named, its stemmer with
    ``use_stemmer``: see ``RougeScorer``).  Bad arguments raise here, not on
    the executors.
    """
    spec = _spec(
        [rouge_type], use_stemmer, tokenizer, split_summaries, (max_tokens, max_chars), False, lang
    )
    result: Column = _load_udfs().column(spec, prediction, target)
    return result


def rouge_scores(
    *,
    prediction: ColumnLike,
    target: ColumnLike,
    rouge_types: Iterable[str] = _checks.DEFAULT_TYPES,
    use_stemmer: bool = False,
    tokenizer: str | Tokenizer | None = None,
    split_summaries: bool | str = False,
    max_tokens: int | None = None,
    max_chars: int | None = None,
    lang: str | None = None,
) -> Column:
    """A struct with one ``struct<precision, recall, fmeasure>`` field per type.

    Fields take kurenai's spelling of each name (``ROUGE-L`` and ``rouge_l``
    give ``rougeL``; Foundry's ``ROUGE-Lsum (detected sentences)`` gives
    ``rougeLsum_sentences``), in the order given.  The whole struct is NULL
    when a text is NULL or over ``max_tokens`` or ``max_chars``.  Other arguments as in
    :func:`rouge_score`.
    """
    spec = _spec(
        rouge_types, use_stemmer, tokenizer, split_summaries, (max_tokens, max_chars), True, lang
    )
    result: Column = _load_udfs().column(spec, prediction, target)
    return result


def register(
    spark: SparkSession,
    name: str = "rouge_score",
    *,
    tokenizer: str | None = None,
    split_summaries: bool | str = False,
    max_tokens: int | None = None,
    max_chars: int | None = None,
    lang: str | None = None,
) -> None:
    """Make ``name(prediction, target[, rouge_type[, use_stemmer]])`` a Spark
    SQL function, e.g. ``SELECT rouge_score(pred, ref, 'ROUGE-L') FROM t``.

    The type (default ``rougeL``) and the stemmer flag (default false) are SQL
    values, so an unknown type fails the query, naming the valid ones; the
    tokenizer name, the language, sentence splitting and size limits are fixed here.
    """
    if tokenizer is not None and not isinstance(tokenizer, str):
        raise TypeError(f"register takes a tokenizer name or None, got {tokenizer!r}")
    if not isinstance(name, str) or not name.strip():
        raise TypeError(f"register takes the SQL function's name as a non-empty str, got {name!r}")
    spec = _spec(
        ["rougeL"], False, tokenizer, split_summaries, (max_tokens, max_chars), False, lang
    )
    split = _checks.splitting(split_summaries, "split_summaries")
    spark.udf.register(name, _load_udfs().sql_function(spec, split))


def _spec(
    rouge_types: Iterable[str],
    use_stemmer: Any,
    tokenizer: Any,
    split_summaries: Any,
    limits: tuple[Any, Any],
    nested: bool,
    lang: Any = None,
) -> Spec:
    """The checked arguments, as the plain values the workers receive."""
    names = _checks.rouge_types(rouge_types)
    use_stemmer = _checks.flag(use_stemmer, "use_stemmer")
    split_summaries = _checks.splitting(split_summaries, "split_summaries")
    for name, limit in zip(("max_tokens", "max_chars"), limits):
        _checks.limit(limit, name)
    # Struct fields take kurenai's spelling: ROUGE-L and rougeL name one field.
    fields = [
        (_names.resolve(name).canonical, *spark_type(name, split_summaries)) for name in names
    ]
    _checks.distinct(names, [field for field, _, _ in fields])
    _checks.some_types(fields)
    lang = _checks.language(lang)
    chosen, stem = _languages.choices(lang, tokenizer, use_stemmer)
    _check_tokenizer(chosen, stem)
    max_tokens, max_chars = limits
    key = tokenizer_key(tokenizer) + ("" if lang is None else f"|lang:{lang}")
    return Spec(tuple(fields), use_stemmer, tokenizer, max_tokens, nested, key, max_chars, lang)


def tokenizer_key(tokenizer: Any) -> str:
    """The key of a tokenizer in the workers' scorer cache: its value.

    A name (or None) says everything.  An object is keyed by its signature
    (``signature_parts()``, or its type) and the SHA-256 of its pickle, which
    is what the workers receive: Columns built with equal tokenizers share a
    scorer, and ones that differ in any attribute do not.  An object that
    only Spark's cloudpickle can pickle gets a fresh id (one scorer per
    Column, in the workers' bounded cache).

    >>> from kurenai.tokenizers import UnicodeTokenizer
    >>> tokenizer_key(UnicodeTokenizer()) == tokenizer_key(UnicodeTokenizer())
    True
    """
    if tokenizer is None or isinstance(tokenizer, str):
        return repr(tokenizer)
    parts = getattr(tokenizer, "signature_parts", None)
    described = repr(sorted(parts().items())) if callable(parts) else ""
    kind = f"{type(tokenizer).__module__}.{type(tokenizer).__qualname__}"
    try:
        digest = hashlib.sha256(pickle.dumps(tokenizer, protocol=4)).hexdigest()
    except Exception:  # lambdas, closures, local classes: any pickling refusal
        digest = "unpicklable:" + uuid.uuid4().hex
    return f"{kind}|{described}|{digest}"


def _check_tokenizer(tokenizer: Any, use_stemmer: bool | str) -> None:
    """Fail on the driver for an unknown name or a non-tokenizer, without
    building an analyser here (that would load its dictionary)."""
    from kurenai._core import checks
    from kurenai.tokenizers import resolve_tokenizer

    if isinstance(tokenizer, str):
        checks.tokenizer(tokenizer)  # the registry's refusal, with its "did you mean"
    elif tokenizer is not None:
        resolve_tokenizer(tokenizer, use_stemmer)


def _load_udfs() -> Any:
    try:
        import pandas  # noqa: F401
        import pyarrow  # noqa: F401
        import pyspark  # noqa: F401
    except ImportError as error:
        raise ImportError(
            f"kurenai.spark needs pyspark, pyarrow and pandas ({error}); "
            f"install them with: {pip_install('spark')}"
        ) from error
    from kurenai.spark import _udfs as _spark_udfs

    return _spark_udfs

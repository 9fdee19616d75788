"""ROUGE for training and evaluation loops.

:func:`compute` has the signature and results of HuggingFace evaluate's
``"rouge"`` metric, so ``rouge.compute(predictions=..., references=...)`` in an
existing ``compute_metrics`` keeps working after swapping the import; it
needs no download and keeps letters of every script.  :class:`Rouge` is the
same metric fed batch by batch (``add_batch``/``update``, ``compute``,
``reset``, ``merge``), for evaluation loops and data-parallel workers.

Both score every pair with :class:`kurenai.rouge_scorer.RougeScorer` and then
summarise exactly as evaluate does: rouge-score's ``BootstrapAggregator``
and the F-measure of its ``mid`` (``use_aggregator=True``), or the
F-measure of every pair (``use_aggregator=False``).
"""

from __future__ import annotations

from typing import Any, Union

import numpy as np

from kurenai._core import checks as _checks
from kurenai._core import multiref as _multiref
from kurenai.metrics import _aggregate as _aggregate
from kurenai.metrics._table import CallableTokenizer, score_table
from kurenai.rouge_scorer import RougeScorer
from kurenai.scoring import AggregateScore, Score
from kurenai.signature import Signature
from kurenai.stats import _bootstrap as _bootstrap

__all__ = ["DEFAULT_ROUGE_TYPES", "Rouge", "compute"]

# evaluate's default: the other surfaces' and rougeLsum.
DEFAULT_ROUGE_TYPES = (*_checks.DEFAULT_TYPES, "rougeLsum")
AGGREGATES = ("bootstrap", "mean")

# What compute() returns: {type: float}, {type: [float]}, or with details=True
# {type: AggregateScore}, {type: Score} or {type: [Score]}.
Result = dict[str, Union[float, list[float], AggregateScore, Score, list[Score]]]


def compute(
    predictions: Any,
    references: Any,
    rouge_types: list[str] | None = None,
    use_aggregator: bool = True,
    use_stemmer: bool = False,
    tokenizer: Any = None,
    *,
    aggregate: str = "bootstrap",
    seed: int | None = None,
    n_jobs: int = 1,
    details: bool = False,
    accumulate: str = "best",
    n_samples: int = 1000,
    confidence_interval: float = 0.95,
    max_tokens: int | None = None,
    max_chars: int | None = None,
    lang: str | None = None,
) -> Result:
    """ROUGE of ``predictions`` against ``references``, as evaluate's metric.

    >>> scores = compute(predictions=["the cat sat", "今日 は 晴れ"],
    ...                  references=["the cat sat down", "今日 は 雨"], seed=0)
    >>> list(scores)
    ['rouge1', 'rouge2', 'rougeL', 'rougeLsum']
    >>> scores["rouge1"], scores["rouge2"]
    (0.7619047619047619, 0.65)
    >>> compute(["the cat sat"], [["a dog", "the cat sat down"]], ["rouge1"], use_aggregator=False)
    {'rouge1': [0.8571428571428571]}

    Args:
        predictions: the texts to score (a list, pandas Series, NumPy or
            pyarrow array of str).
        references: per prediction a str, or a list of str (several
            references: per type the best one, as rouge-score's
            ``score_multi``; or their mean with ``accumulate="avg"``).
        rouge_types: default ``["rouge1", "rouge2", "rougeL", "rougeLsum"]``;
            any ROUGE type name ``RougeScorer`` takes (``rougeW``,
            ``rougeSU4``, aliases such as ``ROUGE-L``), keyed as given.
        use_aggregator: summarise over pairs (``{type: float}``), or return
            every pair's F-measure (``{type: [float]}``).
        use_stemmer: Porter-stem English words, as rouge-score does (ignored
            by a tokenizer object, as in rouge-score).
        tokenizer: None (``"unicode"``: rouge-score's tokenizer on ASCII text,
            keeping letters of every script), a tokenizer name (``"char"``,
            ``"mecab"``, ``"jieba"``, ``"kiwi"``, ``"thai"`` for unspaced text,
            ``"rouge-score"``...), an object with ``tokenize``, or a plain
            function ``text -> list[str]``.
        aggregate: ``"bootstrap"`` (rouge-score's ``BootstrapAggregator``,
            the F of its ``mid``, as evaluate) or ``"mean"`` (the plain mean).
        seed: seed NumPy's global generator for the bootstrap, as
            ``evaluate.load("rouge", seed=seed)``, and restore its state
            afterwards; None draws from it unseeded, as rouge-score does.
        n_jobs: threads for scoring (-1 or 0: all cores).
        details: return rouge-score's objects instead of F-measures:
            ``AggregateScore`` (bootstrap), ``Score`` (mean) or a list of
            ``Score`` per pair, with precision and recall.
        accumulate: how several references combine: a multi-reference
            mode of ``RougeScorer.score_multi`` (``"best"``; ``"avg"`` or
            ``"mean"``; ``"best-recall"``, ``"average"``; ``"jackknife"``).
        n_samples: the bootstrap's resamples, as rouge-score's.
        confidence_interval: the bootstrap's interval, as rouge-score's.
        max_tokens: a size limit, as in ``RougeScorer.score_batch`` (None:
            none): a pair with a text of more tokens is not scored; it is
            left out of the summary, and its per-pair F-measure is NaN.
        max_chars: the same limit in code points, checked before tokenizing.
        lang: the texts' language (``"de"``, ``"german"``; see
            ``RougeScorer``): its tokenizer unless ``tokenizer`` names one,
            and its stemmer with ``use_stemmer``.

    Raises:
        ValueError: no predictions, different lengths, an empty reference
            list, no ROUGE types, or an unknown option.
        TypeError: a text that is not a str, naming its index; a bare string
            as ``rouge_types``; ``use_stemmer`` that is not a bool.
    """
    metric = Rouge(
        rouge_types,
        use_stemmer,
        tokenizer,
        accumulate=accumulate,
        n_jobs=n_jobs,
        max_tokens=max_tokens,
        max_chars=max_chars,
        lang=lang,
    )
    metric.add_batch(predictions, references)
    return metric.compute(
        use_aggregator=use_aggregator,
        aggregate=aggregate,
        seed=seed,
        details=details,
        n_samples=n_samples,
        confidence_interval=confidence_interval,
    )


class Rouge:
    """A streaming ROUGE metric: add batches, then compute.

    It keeps the scores of every pair (24 bytes per pair and type), never
    the texts; ``compute`` does not reset it (``reset`` does).  Metrics of
    data-parallel workers can be pickled and merged: the result equals one
    pass over all pairs, in merge order.  Pickling needs a picklable
    ``tokenizer``: a name, or a module-level function or object.

    >>> metric = Rouge(["rouge1", "rougeL"])
    >>> metric.add_batch(predictions=["the cat sat"], references=["the cat sat down"])
    >>> other = Rouge(["rouge1", "rougeL"])
    >>> other.update(["a dog"], [["the dog", "a cat"]])
    >>> metric.merge(other).compute(aggregate="mean")
    {'rouge1': 0.6785714285714286, 'rougeL': 0.6785714285714286}
    >>> len(metric)
    2

    Args: as :func:`compute`'s, plus ``accumulate`` (``"best"``:
    rouge-score's best reference per type; ``"avg"``: the mean of precision,
    recall and F over a record's references, as torchmetrics; or any other
    mode of ``score_multi``), ``n_jobs``, ``max_tokens`` and ``max_chars``
    (``skipped`` counts the pairs over them).
    """

    # Class defaults: a metric pickled before the limits existed has none.
    max_tokens: int | None = None
    max_chars: int | None = None
    lang: str | None = None  # (a metric pickled before lang= had none)

    def __init__(
        self,
        rouge_types: list[str] | None = None,
        use_stemmer: bool = False,
        tokenizer: Any = None,
        *,
        accumulate: str = "best",
        n_jobs: int = 1,
        max_tokens: int | None = None,
        max_chars: int | None = None,
        lang: str | None = None,
    ) -> None:
        _multiref.check_mode(accumulate)
        _checks.limit(max_tokens, "max_tokens")
        _checks.limit(max_chars, "max_chars")
        self.max_tokens, self.max_chars = max_tokens, max_chars
        types = _checks.rouge_types(DEFAULT_ROUGE_TYPES if rouge_types is None else rouge_types)
        _checks.some_types(types)  # a summary of no types is no summary
        self.rouge_types = list(dict.fromkeys(types))
        self.use_stemmer = _checks.flag(use_stemmer, "use_stemmer")
        self.lang = _checks.language(lang)
        self.tokenizer = tokenizer
        self.accumulate = accumulate
        self.n_jobs = n_jobs
        self._chunks: list[np.ndarray] = []
        self._scorer: RougeScorer | None = self._make_scorer()

    @property
    def scorer(self) -> RougeScorer:
        """The scorer of the pairs (rebuilt after unpickling)."""
        if self._scorer is None:
            self._scorer = self._make_scorer()
        return self._scorer

    def signature(self) -> Signature:
        """The reproducibility signature of this metric's scores, as
        ``RougeScorer.signature``, with ``accumulate``'s multi-reference mode
        (by its name: ``avg`` is recorded as ``mean``).

        >>> str(Rouge(["rouge1"], tokenizer="char", accumulate="avg").signature()).split("|")[1:5]
        ['tok:char', 'stem:no', 'split:newline', 'refs:mean']
        """
        return self.scorer.signature(mode=self.accumulate)

    def add_batch(self, predictions: Any, references: Any) -> None:
        """Score a batch of predictions against their references; keep the numbers."""
        table = score_table(
            self.scorer,
            predictions,
            references,
            self.accumulate,
            self.n_jobs,
            self.max_tokens,
            self.max_chars,
        )
        if table.shape[2]:
            self._chunks.append(table)

    update = add_batch

    def add(self, prediction: str, reference: Any) -> None:
        """Score one prediction against its reference (or list of references)."""
        self.add_batch([prediction], [reference])

    def reset(self) -> None:
        """Forget every score."""
        self._chunks = []

    def merge(self, *others: Rouge) -> Rouge:
        """Append the scores of ``others`` (after this metric's); return self."""
        for other in others:
            if not isinstance(other, Rouge):
                raise TypeError(f"can only merge Rouge metrics, got {type(other).__name__}")
            mine, theirs = self._config(), other._config()
            if mine != theirs:
                raise ValueError(f"cannot merge metrics set up differently: {mine} vs {theirs}")
            self._chunks.extend(other._chunks)
        return self

    def compute(
        self,
        *,
        predictions: Any = None,
        references: Any = None,
        use_aggregator: bool = True,
        aggregate: str = "bootstrap",
        seed: int | None = None,
        details: bool = False,
        n_samples: int = 1000,
        confidence_interval: float = 0.95,
    ) -> Result:
        """The summary of every pair added (with a last batch, if given), as
        :func:`compute` returns it."""
        if aggregate not in AGGREGATES:
            raise ValueError(f"aggregate must be one of {AGGREGATES}, got {aggregate!r}")
        _bootstrap.check_settings(n_samples, confidence_interval)
        if (predictions is None) != (references is None):
            raise ValueError("pass both predictions and references, or neither")
        if predictions is not None:
            self.add_batch(predictions, references)
        table = self._table()
        if not table.shape[2]:
            raise ValueError("no predictions to score: add a batch first")
        if not use_aggregator:
            return _per_pair(self.rouge_types, table, details)
        over = np.isnan(table[:, 2]).any(axis=0)  # pairs over a limit
        if over.any():
            table = table[:, :, ~over]
        if not table.shape[2]:
            raise ValueError("every pair is over max_tokens or max_chars: nothing to summarise")
        if aggregate == "mean":
            means = _aggregate.mean(table)
            return {
                rouge_type: _summary(means[i], details)
                for i, rouge_type in enumerate(self.rouge_types)
            }
        bounds = _aggregate.bootstrap(table, n_samples, confidence_interval, seed)
        return {
            rouge_type: _bootstrap_summary(bounds[i], details)
            for i, rouge_type in enumerate(self.rouge_types)
        }

    @property
    def skipped(self) -> int:
        """How many pairs added were over ``max_tokens`` or ``max_chars``."""
        return int(np.isnan(self._table()[:, 2]).any(axis=0).sum())

    def __len__(self) -> int:
        return sum(chunk.shape[2] for chunk in self._chunks)

    def __getstate__(self) -> dict[str, Any]:
        # The scorer may hold unpicklable compiled plans: rebuilt on demand.
        self._chunks = [self._table()] if self._chunks else []
        return {**self.__dict__, "_scorer": None}

    def __repr__(self) -> str:
        return (
            f"Rouge({self.rouge_types!r}, use_stemmer={self.use_stemmer}, "
            f"tokenizer={self.tokenizer!r}, accumulate={self.accumulate!r}, "
            + ("" if self.lang is None else f"lang={self.lang!r}, ")
            + f"pairs={len(self)})"
        )

    def _make_scorer(self) -> RougeScorer:
        tokenizer = self.tokenizer
        if tokenizer is None and self.lang is None:
            tokenizer = "unicode"
        if callable(tokenizer) and not hasattr(tokenizer, "tokenize"):
            tokenizer = CallableTokenizer(tokenizer)
        return RougeScorer(
            self.rouge_types, use_stemmer=self.use_stemmer, tokenizer=tokenizer, lang=self.lang
        )

    def _config(self) -> tuple[Any, ...]:
        mode = _multiref.check_mode(self.accumulate)  # "avg" and "mean" merge
        limits = (self.max_tokens, self.max_chars)
        return (self.rouge_types, _tokenizer_key(self.scorer), mode, limits)

    def _table(self) -> np.ndarray:
        if len(self._chunks) != 1:
            self._chunks = [np.concatenate(self._chunks, axis=2)] if self._chunks else []
        return self._chunks[0] if self._chunks else np.empty((len(self.rouge_types), 3, 0))


def _tokenizer_key(scorer: RougeScorer) -> tuple[str, ...]:
    """What the scorer's tokenizer does, as its signature states it (name,
    options, stemming, language): ``"char"`` and ``CharTokenizer()`` are one
    tokenizer, a stemmed and an unstemmed ``whitespace`` two.  A tokenizer
    that states nothing (no ``signature_parts``: a plain function, a foreign
    object) is known by its qualified name alone, never by its repr (an
    address, which changes when pickled to another process)."""
    fields = scorer.signature().fields()
    said = (fields["tok"], fields["stem"], fields.get("lang", ""))
    tokenizer: Any = scorer.tokenizer
    if isinstance(tokenizer, CallableTokenizer):
        tokenizer = tokenizer.function
    if callable(getattr(tokenizer, "signature_parts", None)):
        return said
    named = tokenizer if hasattr(tokenizer, "__qualname__") else type(tokenizer)
    return (*said, f"{getattr(named, '__module__', '')}.{named.__qualname__}")


def _per_pair(rouge_types: list[str], table: np.ndarray, details: bool) -> Result:
    if details:
        return {
            rouge_type: [Score(*row) for row in table[i].T.tolist()]
            for i, rouge_type in enumerate(rouge_types)
        }
    return {rouge_type: table[i, 2].tolist() for i, rouge_type in enumerate(rouge_types)}


def _summary(scores: np.ndarray, details: bool) -> float | Score:
    return Score(*scores.tolist()) if details else float(scores[2])


def _bootstrap_summary(bounds: np.ndarray, details: bool) -> float | AggregateScore:
    if details:
        return AggregateScore(*(Score(*row) for row in bounds.tolist()))
    return float(bounds[1, 2])

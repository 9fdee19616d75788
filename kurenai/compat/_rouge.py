"""``Rouge`` and ``RougeChinese``: pltrdy's ``rouge`` (and its fork
``rouge-chinese``) class, its arguments, result shapes and errors.

The numbers are the package's own (``mode="compat"``, the default), or
rouge-score's definition computed by kurenai (``mode="rouge-score"``) in the
same shapes.  Which one, and for which package version, is in ``signature``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, Union

from kurenai.compat._counts import Pair
from kurenai.compat._dialects import Dialect, dialect
from kurenai.compat._metrics import Metric, Result
from kurenai.compat._standard import StandardScores
from kurenai.compat._text import Sentences, word_count

__all__ = ["COMPAT_MODES", "Rouge", "RougeChinese"]

COMPAT_MODES = ("compat", "rouge-score")
PairScores = dict[str, Union[Result, dict[str, int]]]


class Rouge:
    """pltrdy's ``rouge.Rouge``: ``from kurenai.compat import Rouge`` in place
    of ``from rouge import Rouge``, and every figure stays the same.

    >>> rouge = Rouge()
    >>> rouge.get_scores("the hello cat dog fox jumps", " the  fox jumps over")[0]["rouge-1"]
    {'r': 0.75, 'p': 0.5, 'f': 0.5999999952}
    >>> Rouge(version="1.0.0").get_scores("a b a", "a a", avg=True)["rouge-1"]
    {'f': 0.7999999952000001, 'p': 0.6666666666666666, 'r': 1.0}

    The first five arguments are the package's.  ``exclusive`` defaults to
    the version's own default (True in 1.0.1, False in 1.0.0).  Keyword-only:

    Args:
        version: the ``rouge`` release whose numbers to give, ``"1.0.1"``
            (today's ``pip install rouge``, the default) or ``"1.0.0"``.
        mode: ``"compat"`` (the package's numbers, exactly) or
            ``"rouge-score"``: rouge-score's ROUGE-N and ROUGE-L of the whole
            texts, as kurenai's ``RougeScorer`` computes them, for any language.
        tokenizer: with ``mode="rouge-score"``, a kurenai tokenizer name or
            object (default ``"rouge-score"``: rouge-score's own numbers).
        use_stemmer: with ``mode="rouge-score"``, rouge-score's Porter stemming.
        n_jobs: with ``mode="rouge-score"``, threads of ``score_batch``.

    Raises:
        ValueError: an unknown metric, stat, version or mode; an option that
            the mode does not have.
    """

    PACKAGE = "rouge"
    DEFAULT_VERSION = "1.0.1"
    # Lists, as in the package; an instance sets its own version's.
    DEFAULT_METRICS: ClassVar[list[str]] = ["rouge-1", "rouge-2", "rouge-l"]
    DEFAULT_STATS: list[str] = ["r", "p", "f"]  # noqa: RUF012
    AVAILABLE_STATS: list[str] = ["r", "p", "f"]  # noqa: RUF012

    def __init__(
        self,
        metrics: Iterable[str] | None = None,
        stats: Iterable[str] | None = None,
        return_lengths: bool = False,
        raw_results: bool = False,
        exclusive: bool | None = None,
        *,
        version: str | None = None,
        mode: str = "compat",
        tokenizer: Any = None,
        use_stemmer: bool = False,
        n_jobs: int = 1,
    ) -> None:
        self.dialect: Dialect = dialect(self.PACKAGE, version or self.DEFAULT_VERSION)
        self.version = self.dialect.version
        if mode not in COMPAT_MODES:
            raise ValueError(f"unknown mode {mode!r}; choose one of {', '.join(COMPAT_MODES)}")
        self.mode = mode
        self.AVAILABLE_METRICS = {m: Metric(m, self.dialect) for m in self.dialect.metrics}
        self.DEFAULT_STATS = list(self.dialect.stats)
        self.AVAILABLE_STATS = list(self.dialect.stats)
        self.metrics = self._chosen(metrics, "metric", self.AVAILABLE_METRICS, self.DEFAULT_METRICS)
        self.return_lengths = return_lengths
        self.raw_results = raw_results
        self.exclusive = self.dialect.exclusive if exclusive is None else exclusive
        if raw_results:
            self.stats = ["hyp", "ref", "overlap"]
        else:
            self.stats = self._chosen(stats, "stat", self.AVAILABLE_STATS, self.DEFAULT_STATS)
        self._standard: StandardScores | None = None
        if mode == "rouge-score":
            if raw_results or exclusive is not None:
                raise ValueError(
                    "raw_results and exclusive count n-grams and LCS words as "
                    f"{self.dialect.package} does: they need mode='compat'"
                )
            self._tokenizer_name = tokenizer if isinstance(tokenizer, str) else "custom"
            chosen = self._default_tokenizer() if tokenizer is None else tokenizer
            if tokenizer is None:
                self._tokenizer_name = chosen
            self._standard = StandardScores(self.metrics, chosen, use_stemmer, n_jobs)
        elif tokenizer is not None or use_stemmer or n_jobs != 1:
            raise ValueError(
                "tokenizer, use_stemmer and n_jobs choose how mode='rouge-score' "
                f"tokenizes; mode='compat' splits words as {self.dialect.package} does"
            )

    def _default_tokenizer(self) -> str:
        return "rouge-score"

    @staticmethod
    def _chosen(
        names: Iterable[str] | None, what: str, available: Iterable[str], default: list[str]
    ) -> list[str]:
        if names is None:
            return list(default)
        if isinstance(names, str):
            raise TypeError(f"{what}s must be a list of names, e.g. [{names!r}]")
        chosen = [name.lower() if isinstance(name, str) else name for name in names]
        for name in chosen:
            if name not in available:
                raise ValueError(f"Unknown {what} '{name}'")
        return chosen

    @property
    def signature(self) -> str:
        """Where the numbers come from, for reports (sacrebleu's style).

        >>> Rouge().signature.split("|")[:3]
        ['api:rouge==1.0.1', 'numbers:rouge==1.0.1', 'exclusive:yes']
        >>> Rouge(mode="rouge-score").signature.split("|")[:4]
        ['api:rouge==1.0.1', 'numbers:rouge-score', 'tok:rouge-score', 'stem:no']
        """
        from kurenai import __version__

        parts = [f"api:{self.dialect.name}"]
        if self._standard is None:
            exclusive = "yes" if self.exclusive else "no"
            parts += [f"numbers:{self.dialect.name}", f"exclusive:{exclusive}"]
        else:
            stem = "yes" if getattr(self._standard.scorer.tokenizer, "use_stemmer", False) else "no"
            parts += ["numbers:rouge-score", f"tok:{self._tokenizer_name}", f"stem:{stem}"]
        parts += [f"metrics:{','.join(self.metrics)}", f"kurenai:{__version__}"]
        return "|".join(parts)

    def get_scores(
        self,
        hyps: str | Sequence[str],
        refs: str | Sequence[str],
        avg: bool = False,
        ignore_empty: bool = False,
    ) -> Any:
        """Scores of each hypothesis against its reference (hypotheses first).

        A list of ``{metric: {stat: value}}`` (plus ``"lengths"`` with
        ``return_lengths``), or with ``avg=True`` their mean over the pairs.
        Two strings are one pair.  ``ignore_empty`` drops the pairs where a
        side is the empty string.

        Raises:
            AssertionError: ``hyps`` and ``refs`` differ in type or length
                (as the package raises them).
            TypeError: a hypothesis or reference is not a str.
            ValueError: a side has no sentence (``"Hypothesis is empty."``,
                ``"Reference is empty."``, ``"Collections must contain at
                least 1 sentence."``); ``ignore_empty`` left no pair.
            KeyError: ``avg=True`` with ``raw_results=True`` (the package's
                averages are of floats only).
            ZeroDivisionError: ``avg=True`` without any pair.
        """
        hyps, refs = _checked_pairs(hyps, refs, ignore_empty)
        sentences = [
            (self.dialect.sentences(h), self.dialect.sentences(r)) for h, r in zip(hyps, refs)
        ]
        pairs = self._pair_scores(hyps, refs, sentences, avg)
        if not avg:
            return pairs
        return self._averaged(pairs)

    def _pair_scores(
        self,
        hyps: Sequence[str],
        refs: Sequence[str],
        sentences: list[tuple[Sentences, Sentences]],
        avg: bool,
    ) -> list[PairScores]:
        metrics = [self.AVAILABLE_METRICS[m] for m in self.metrics]
        for hyp, ref in sentences:
            if metrics and not (hyp and ref):
                raise metrics[0].empty_error(not hyp)
            if avg and self.raw_results and metrics:
                raise KeyError("hyp")  # the package averages floats, not raw counts
        if self._standard is not None:
            values: list[dict[str, Any]] = self._standard.scores(hyps, refs)
        else:
            values = [self._counted(metrics, hyp, ref) for hyp, ref in sentences]
        out: list[PairScores] = []
        for (hyp, ref), value in zip(sentences, values):
            scores: PairScores = {m: {s: value[m][s] for s in self.stats} for m in self.metrics}
            if self.return_lengths:
                scores["lengths"] = {"hyp": word_count(hyp), "ref": word_count(ref)}
            out.append(scores)
        return out

    def _counted(self, metrics: list[Metric], hyp: Sentences, ref: Sentences) -> dict[str, Any]:
        if not metrics:
            return {}
        pair = Pair(hyp, ref)
        return {m.name: m.result(m.counts(pair, self.exclusive), self.raw_results) for m in metrics}

    def _averaged(self, pairs: list[PairScores]) -> dict[str, dict[str, float]]:
        # Summed in the package's order, from an int 0, then divided once.
        totals: dict[str, dict[str, Any]] = {m: dict.fromkeys(self.stats, 0) for m in self.metrics}
        lengths: dict[str, Any] = {"hyp": 0, "ref": 0}
        for pair in pairs:
            for m in self.metrics:
                totals[m] = {s: totals[m][s] + pair[m][s] for s in self.stats}
            if self.return_lengths:
                lengths = {k: lengths[k] + pair["lengths"][k] for k in ("hyp", "ref")}
        count = len(pairs)
        averaged = {m: {s: totals[m][s] / count for s in self.stats} for m in self.metrics}
        if self.return_lengths:
            averaged["lengths"] = {k: lengths[k] / count for k in ("hyp", "ref")}
        return averaged

    def __repr__(self) -> str:
        return f"{type(self).__name__}(metrics={self.metrics!r}, signature={self.signature!r})"


class RougeChinese(Rouge):
    """rouge-chinese's ``Rouge``: ``from kurenai.compat.rouge_chinese import
    Rouge`` in place of ``from rouge_chinese import Rouge``.

    Text is cut into sentences after ``。！？?`` and ellipses and at line
    breaks, words are separated by spaces (segment with jieba first, as the
    package expects), and ROUGE-L is the LCS of the whole word sequences.

    >>> RougeChinese().get_scores("我 爱 北京 。", "我 爱 上海 。")[0]["rouge-l"]
    {'r': 0.75, 'p': 0.75, 'f': 0.749999995}

    With ``mode="rouge-score"`` the default tokenizer is ``"whitespace"``
    (the segmented words as they are); ``"jieba"`` segments raw text.
    """

    PACKAGE = "rouge-chinese"
    DEFAULT_VERSION = "1.0.3"

    def _default_tokenizer(self) -> str:
        return "whitespace"


def _checked_pairs(hyps: Any, refs: Any, ignore_empty: bool) -> tuple[Sequence[str], Sequence[str]]:
    """The package's pairing rules, with one clear error each."""
    if isinstance(hyps, str):
        if not isinstance(refs, str):
            raise TypeError(
                f"hyps is one str, so refs must be one str too, got {type(refs).__name__}"
            )
        hyps, refs = [hyps], [refs]
    for name, side in (("hyps", hyps), ("refs", refs)):
        if not hasattr(side, "__len__") or isinstance(side, (bytes, dict, set)):
            raise TypeError(f"{name} must be a str or a list of str, got {type(side).__name__}")
        for i, text in enumerate(side):
            if not isinstance(text, str):
                raise TypeError(f"{name}[{i}] must be a str, got {type(text).__name__}")
    if ignore_empty:
        kept = [(h, r) for h, r in zip(hyps, refs) if len(h) > 0 and len(r) > 0]
        if not kept:
            raise ValueError("ignore_empty=True left no pair: every pair has an empty side")
        hyps, refs = tuple(h for h, _ in kept), tuple(r for _, r in kept)
    if not isinstance(hyps, type(refs)):
        kinds = f"{type(hyps).__name__} and {type(refs).__name__}"
        raise AssertionError(f"hyps and refs must be of one type, got {kinds}")
    if len(hyps) != len(refs):
        raise AssertionError(f"hyps and refs differ in length: {len(hyps)} and {len(refs)}")
    return hyps, refs

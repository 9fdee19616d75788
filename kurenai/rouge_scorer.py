"""``RougeScorer``: rouge-score's API and numbers, for text in any script.

The path of a pair through it: text -> tokens (``kurenai.tokenizers``) ->
dense int IDs and integer counts (``kurenai._lcs`` kernels) -> ``Score``s,
whose floats are computed with exactly rouge-score's operations.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Callable, Literal, Union, overload

import numpy as np

from kurenai._core import arrow as _arrow
from kurenai._core import batch as _batch
from kurenai._core import checks as _checks
from kurenai._core import inputs as _inputs
from kurenai._core import languages as _languages
from kurenai._core import matrix as _matrix
from kurenai._core import multiref as _multiref
from kurenai._core import plan as _plan
from kurenai._core import processes as _processes
from kurenai._core.choice import make_plan
from kurenai._core.plan import ROUGE_TYPES, SCORE_FIELDS, Plan
from kurenai.scoring import BaseScorer, Score
from kurenai.sentences import punkt_sentences, split_sentences
from kurenai.signature import Signature, describe
from kurenai.tokenizers import Tokenizer, resolve_tokenizer

__all__ = ["ROUGE_TYPES", "RougeScorer", "is_rouge_type"]

TokenizerLike = Union[Tokenizer, str, None]


def is_rouge_type(name: str) -> bool:
    """Whether ``name`` is a ROUGE type name every surface accepts: one of
    ROUGE_TYPES (rouge-score's), a ROUGE-1.5.5 variant (``rougeW``,
    ``rougeS4``, ``rougeSU``, ...), or an alias of one (``ROUGE-L``,
    ``rouge_lsum``; the rule is in :mod:`kurenai._core.names`).

    >>> is_rouge_type("rougeSU4"), is_rouge_type("ROUGE-L"), is_rouge_type("rougeS0")
    (True, True, False)
    """
    return _plan.is_rouge_type(name)


class RougeScorer(BaseScorer):
    """Calculates ROUGE scores between texts, exactly as rouge-score does.

    >>> scorer = RougeScorer(["rouge1", "rougeL"])
    >>> scorer.score("猫 は マット の 上 に いる", "猫 が マット に いる")["rouge1"]
    Score(precision=0.8, recall=0.5714285714285714, fmeasure=0.6666666666666666)

    Args:
        rouge_types: the scores to compute, from ``rouge1`` ... ``rouge9``,
            ``rougeL`` (LCS over the whole text) and ``rougeLsum`` (union-LCS
            over sentences); any number of them, repeats allowed.  Kept as an
            immutable tuple: a scorer computes the types it was built with.
        use_stemmer: Porter-stem ASCII words longer than 3 characters, as
            rouge-score does (passed to the default or named tokenizer);
            with ``lang``, stem with that language's stemmer.
        split_summaries: for ``rougeLsum`` and ``rougeW``, find sentences
            with ``sentence_splitter`` instead of taking one sentence per line;
            ``"punkt"``: with :func:`kurenai.sentences.punkt_sentences`
            (``nltk.sent_tokenize``'s English punkt, offline), as rouge-score's
            ``split_summaries=True`` does.
        tokenizer: None (kurenai's ``AllCharacterSupportTokenizer``), a name
            from ``kurenai.tokenizers.available_tokenizers()``, or any object
            with a ``tokenize(text) -> list[str]`` method (rouge-score's
            ``Tokenizer`` interface).
        sentence_splitter: a callable ``text -> list[str]`` used when
            ``split_summaries`` is true; default
            :func:`kurenai.sentences.split_sentences` (offline, multilingual).
            ``nltk.sent_tokenize`` reproduces rouge-score's splitting.
        rouge_w_weight: the weight ``w`` of ``rougeW`` (ROUGE-1.5.5's ``-w``), from 1
            to 5: outside, P or R leave [0, 1] or overflow the float range.
        threads: how many threads the LCS of one long pair (``rougeL`` of
            two texts of tens of thousands of tokens) may use; -1: every
            core, and never more than the cores this process may run on
            (its CPU affinity).  The numbers are the same whatever it is.  Shorter pairs,
            the other types and the pure-Python implementation use one.  In
            ``score_batch(n_jobs=...)`` the workers share it: each uses
            ``threads // n_jobs`` (at least 1).
        lang: the texts' language, an ISO 639-1 code (``"de"``) or an
            English name (``"german"``; XL-Sum's names too): picks the
            language's tokenizer (unless ``tokenizer`` names one) and, with
            ``use_stemmer``, its stemmer (``kurenai._core.languages``).

    Beyond rouge-score's types, ROUGE-1.5.5's ``rougeW``, ``rougeS{k}``,
    ``rougeSU{k}``, ``rougeS`` and ``rougeSU`` are accepted, and every type
    has the aliases ``ROUGE-X`` and ``rouge_x`` (``ROUGE-L``, ``rouge_lsum``);
    the scores are keyed by the names as given.  ``rougeLsum_sentences``
    (Foundry's ``ROUGE-Lsum (detected sentences)``) needs
    ``split_summaries=True``.  See :mod:`kurenai._core.names` for the rule.

    Any ``str`` instance (a subclass, ``numpy.str_``) is scored as its plain
    ``str`` value.

    Raises:
        TypeError: ``rouge_types`` is a bare string or not an iterable of str;
            ``use_stemmer`` or ``split_summaries`` is not a bool;
            ``sentence_splitter`` is not callable; ``threads`` is not an int;
            ``lang`` is not a str, or is given with a tokenizer object.
        ValueError: an unknown ROUGE type (the message lists the valid
            names); a detected-sentences name without ``split_summaries``;
            ``threads`` below 1 (but not -1); an unknown ``lang`` (the
            message lists the known ones).
        ImportError: the language's tokenizer or stemmer needs an extra
            (the message names it).
    """

    def __init__(
        self,
        rouge_types: Iterable[str],
        use_stemmer: bool = False,
        split_summaries: bool | str = False,
        tokenizer: TokenizerLike = None,
        sentence_splitter: Callable[[str], list[str]] | None = None,
        rouge_w_weight: float = 1.2,
        threads: int = 1,
        lang: str | None = None,
    ) -> None:
        if sentence_splitter is not None and not callable(sentence_splitter):
            raise TypeError(
                "sentence_splitter must be a callable text -> list[str], "
                f"got {type(sentence_splitter).__name__}"
            )
        use_stemmer = _checks.flag(use_stemmer, "use_stemmer")
        self._lang = _checks.language(lang)
        tokenizer, stem = _languages.choices(self._lang, tokenizer, use_stemmer)
        self._tokenizer = resolve_tokenizer(tokenizer, use_stemmer=stem)
        self._split_summaries = _checks.splitting(split_summaries, "split_summaries")
        self._sentence_splitter = sentence_splitter
        self._w_weight = _plan.checked_weight(rouge_w_weight)
        _checks.resolve_threads(threads)
        self._threads = threads  # -1 stays -1: "every core" of where it is unpickled
        self._plan: Plan = self._make_plan(rouge_types)

    @property
    def rouge_types(self) -> tuple[str, ...]:
        """The ROUGE types computed, in order (immutable)."""
        return self._plan.rouge_types

    @property
    def lang(self) -> str | None:
        """The language's code, if ``lang=`` named one."""
        return self._lang

    @property
    def tokenizer(self) -> Tokenizer:
        """The tokenizer in use."""
        return self._tokenizer

    @property
    def plan(self) -> Plan:
        """What this scorer runs (``kurenai._core.plan.Plan``): the compiled
        ``kurenai._fused.FusedPlan`` or the pure ``kurenai._core.python_plan.PythonPlan``."""
        return self._plan

    def signature(self, mode: str | None = None) -> Signature:
        """What produced this scorer's numbers (see :mod:`kurenai.signature`);
        ``mode``: the ``score_multi`` mode to record, if it matters.

        >>> str(RougeScorer(["rouge1"], use_stemmer=True).signature()).split("|")[:2]
        ['rouge:rouge1', 'tok:whitespace']
        """
        if mode is not None:
            mode = _multiref.check_mode(mode)
        return describe(
            self.rouge_types, self._tokenizer, self._splitter(), self._w_weight, mode, self._lang
        )

    def score(self, target: str, prediction: str) -> dict[str, Score]:
        """ROUGE scores of ``prediction`` against the reference ``target``.

        Returns a dict mapping each ROUGE type to a ``Score(precision, recall,
        fmeasure)``.  Raises TypeError if either text is not a str.
        """
        if type(target) is str and type(prediction) is str:
            # The common case, checked as _checks.text checks it, without the
            # two Python calls: they cost a short pair several percent.
            return self._plan.score(target, prediction)
        return self._plan.score(
            _checks.text("target", target), _checks.text("prediction", prediction)
        )

    def score_multi(
        self, targets: Iterable[str], prediction: str, mode: str = "best"
    ) -> dict[str, Score]:
        """Scores against several references, combined per ROUGE type by ``mode``.

        ``best`` (rouge-score's rule): the reference with the highest F-measure
        wins (the first one on ties).  ``best-recall`` and ``average`` are
        ROUGE-1.5.5's ``-f B`` and ``-f A``; ``mean`` (or ``avg``) averages P,
        R and F; ``jackknife`` averages the ``best`` scores over each set of
        references less one (see ``kurenai._core.multiref``).  Raises ValueError if
        ``targets`` is empty or ``mode`` unknown, and TypeError if ``targets``
        is a bare string or holds a non-str.
        """
        mode = _multiref.check_mode(mode)
        references = _checks.target_list(targets, "targets")
        prediction = _checks.text("prediction", prediction)
        return _multiref.combine(self._plan, references, prediction, mode)

    @overload
    def score_batch(
        self,
        targets: Sequence[str | None],
        predictions: Sequence[str | None],
        n_jobs: int = ...,
        *,
        columnar: Literal[False] = ...,
        allow_none: bool = ...,
        max_tokens: int | None = ...,
        max_chars: int | None = ...,
    ) -> list[dict[str, Score] | None]: ...

    @overload
    def score_batch(
        self,
        targets: Sequence[str | None],
        predictions: Sequence[str | None],
        n_jobs: int = ...,
        *,
        columnar: Literal[True],
        allow_none: bool = ...,
        max_tokens: int | None = ...,
        max_chars: int | None = ...,
    ) -> dict[str, Score]: ...

    def score_batch(
        self,
        targets: Sequence[str | None],
        predictions: Sequence[str | None],
        n_jobs: int = 1,
        *,
        columnar: bool = False,
        allow_none: bool = False,
        max_tokens: int | None = None,
        max_chars: int | None = None,
    ) -> list[dict[str, Score] | None] | dict[str, Score]:
        """Score many pairs: ``[score(target, prediction) for target, prediction
        in zip(targets, predictions)]``.

        Results keep the input order whatever ``n_jobs`` (threads; -1 or 0: all
        cores).  With ``allow_none=True`` a pair with a None side gets None
        (null in, null out).  Two size limits (None, or an int >= 0) give
        None to a pair with a side over them, instead of a long computation:

        - ``max_chars``: more code points than that (``len(text)``), read
          before any tokenizer runs, so such a pair costs nothing;
        - ``max_tokens``: more tokens than that, as the scorer's tokenizer
          counts them (for ``rougeLsum``/``rougeW``, the sum over the
          sentences, if larger).  Exact: a pair is dropped only when a side
          truly has more.  The tokenizer's work on such a side stops soon
          after the limit is passed: kurenai's own tokenizers scan at most
          a prefix (compiled) or a line at a time (pure Python); an analyser
          (MeCab, Sudachi, jieba, Kiwi) stops after the piece of its input
          that passes it (``tokenize_within``).  Another tokenizer tokenizes
          the whole side first, a line at a time if it is ``line_separable``.

        With ``columnar=True`` the result is ``{rouge_type:
        Score(precision=array, recall=array, fmeasure=array)}`` of float64
        NumPy arrays, NaN for None.

        >>> scorer = RougeScorer(["rouge1"])
        >>> scorer.score_batch(["a b", None], ["a", "b"], allow_none=True)
        [{'rouge1': Score(precision=1.0, recall=0.5, fmeasure=0.6666666666666666)}, None]
        >>> scorer.score_batch(["a b", "c"], ["a", "c"], columnar=True)["rouge1"].recall
        array([0.5, 1. ])

        Raises ValueError if the sequences differ in length, TypeError for a
        non-str (or a None without ``allow_none``), naming its index.
        """
        jobs = _checks.resolve_jobs(n_jobs)
        limit = _checks.limit(max_tokens, "max_tokens")
        chars = _checks.limit(max_chars, "max_chars")
        size, rows, chosen_targets, chosen_predictions = _checks.checked_pairs(
            targets, predictions, allow_none, chars
        )
        plan = self._batch_plan(jobs, len(chosen_targets))
        if columnar:
            scored = np.full((len(self.rouge_types), len(SCORE_FIELDS), len(rows)), np.nan)
            _batch.score_pairs(plan, chosen_targets, chosen_predictions, jobs, limit, scored)
            return _batch.columns(self.rouge_types, size, rows, scored)
        scores = _batch.score_pairs(plan, chosen_targets, chosen_predictions, jobs, limit)
        return _batch.placed(size, rows, scores)

    @overload
    def score_multi_batch(
        self,
        targets: Sequence[Sequence[str]],
        predictions: Sequence[str],
        n_jobs: int = ...,
        *,
        columnar: Literal[False] = ...,
        allow_none: Literal[False] = ...,
        max_tokens: None = ...,
        max_chars: None = ...,
        mode: str = ...,
    ) -> list[dict[str, Score]]: ...

    @overload
    def score_multi_batch(
        self,
        targets: Sequence[Sequence[str] | None],
        predictions: Sequence[str | None],
        n_jobs: int = ...,
        *,
        columnar: Literal[False] = ...,
        allow_none: bool = ...,
        max_tokens: int | None = ...,
        max_chars: int | None = ...,
        mode: str = ...,
    ) -> list[dict[str, Score] | None]: ...

    @overload
    def score_multi_batch(
        self,
        targets: Sequence[Sequence[str] | None],
        predictions: Sequence[str | None],
        n_jobs: int = ...,
        *,
        columnar: Literal[True],
        allow_none: bool = ...,
        max_tokens: int | None = ...,
        max_chars: int | None = ...,
        mode: str = ...,
    ) -> dict[str, Score]: ...

    def score_multi_batch(
        self,
        targets: Sequence[Sequence[str] | None],
        predictions: Sequence[str | None],
        n_jobs: int = 1,
        *,
        columnar: bool = False,
        allow_none: bool = False,
        max_tokens: int | None = None,
        max_chars: int | None = None,
        mode: str = "best",
    ) -> list[dict[str, Score]] | list[dict[str, Score] | None] | dict[str, Score]:
        """``[score_multi(references, prediction) for references, prediction in
        zip(targets, predictions)]``, computed as one batch over every
        (reference, prediction) pair.

        The options are ``score_batch``'s: with ``allow_none=True`` a row whose
        reference list or prediction is None gets None; with ``max_tokens``
        or ``max_chars`` a row with any text over the limit gets None; ``columnar=True``
        gives ``{rouge_type: Score(array, array, array)}``, NaN for None.
        ``mode`` combines each row's references as in :meth:`score_multi`.

        >>> scorer = RougeScorer(["rouge1"])
        >>> scorer.score_multi_batch([["a b", "a"], None], ["a", "b"], allow_none=True)
        [{'rouge1': Score(precision=1.0, recall=1.0, fmeasure=1.0)}, None]
        """
        mode = _multiref.check_mode(mode)
        targets = _inputs.reference_column(targets, "targets")
        jobs = _checks.resolve_jobs(n_jobs)
        limit = _checks.limit(max_tokens, "max_tokens")
        chars = _checks.limit(max_chars, "max_chars")
        size, rows, groups, flat_targets, flat_predictions = _checks.checked_groups(
            targets, predictions, allow_none, chars
        )
        # A mode that pools counts reads no scores: without a size limit there
        # is nothing to score first.
        score_first = _multiref.uses_scores(mode) or limit >= 0
        plan, pairs = self._batch_plan(jobs, len(flat_targets)), (flat_targets, flat_predictions)
        if columnar:
            table = None
            if score_first:
                table = np.full(
                    (len(self.rouge_types), len(SCORE_FIELDS), len(flat_targets)), np.nan
                )
                _batch.score_pairs(plan, *pairs, jobs, limit, table)
            combined = _multiref.combine_table(self._plan, groups, *pairs, table, mode)
            return _batch.columns(self.rouge_types, size, rows, combined)
        flat = _batch.score_pairs(plan, *pairs, jobs, limit) if score_first else None
        found = _multiref.combine_groups(self._plan, groups, *pairs, flat, mode)
        return _batch.placed(size, rows, found)

    def score_matrix(
        self,
        predictions: Sequence[str],
        targets: Sequence[str] | None = None,
        n_jobs: int = 1,
        *,
        progress: Callable[[int, int], None] | None = None,
    ) -> dict[str, Score]:
        """Every prediction against every target: per ROUGE type a ``Score``
        of float64 arrays of shape (len(predictions), len(targets)), [i, j]
        being ``score(targets[j], predictions[i])`` to the bit.  Without
        ``targets``, the predictions against one another (the diagonal too).

        Each text is tokenized once; ROUGE-N and ROUGE-L are counted on its
        IDs by the compiled kernels, without the GIL, on ``n_jobs`` threads
        (-1 or 0: every core); the other types pair by pair on the same
        tokens.  ``progress(done, total)`` is called after each block of rows.
        See :mod:`kurenai.pairs` for MBR, self-ROUGE and one-to-many.

        >>> scorer = RougeScorer(["rouge1"])
        >>> scorer.score_matrix(["a b", "a c"])["rouge1"].fmeasure
        array([[1. , 0.5],
               [0.5, 1. ]])
        """
        return _matrix.score_matrix(
            self._plan, self._tokenizer, self._splitter(), predictions, targets, n_jobs, progress
        )

    def score_indexed(
        self, texts: Sequence[str], predictions: Sequence[int], targets: Sequence[int]
    ) -> dict[str, Score]:
        """Pairs given as indices into ``texts``: pair k is ``texts[predictions[k]]``
        against the target ``texts[targets[k]]``, per ROUGE type a ``Score`` of
        float64 arrays, [k] being that pair's ``score`` to the bit.  Each text
        is tokenized once however many pairs it is in (G completions against
        one reference: :mod:`kurenai.rewards`, :func:`kurenai.pairs.one_to_many`).

        >>> found = RougeScorer(["rouge1"]).score_indexed(["a b", "a", "b c"], [1, 2], [0, 0])
        >>> found["rouge1"].recall
        array([0.5, 0.5])
        """
        return _matrix.score_indexed(
            self._plan, self._tokenizer, self._splitter(), texts, predictions, targets
        )

    def score_arrow(
        self,
        targets: Any,
        predictions: Any,
        n_jobs: int = 1,
        *,
        max_tokens: int | None = None,
        max_chars: int | None = None,
    ) -> Any:
        """``score_batch`` as a ``pyarrow.StructArray``: per ROUGE type a field
        ``struct<precision, recall, fmeasure: double>``, a null row where a
        side is null (None, NaN, ``pd.NA``) or over ``max_tokens`` or
        ``max_chars`` (as in ``score_batch``).  Needs the
        ``arrow`` extra (``pip install -e '.[arrow]'`` in a checkout); see
        :mod:`kurenai._core.arrow`."""
        _arrow.require_pyarrow()  # before scoring: fail fast without the extra
        columns = self.score_batch(
            targets,
            predictions,
            n_jobs,
            columnar=True,
            allow_none=True,
            max_tokens=max_tokens,
            max_chars=max_chars,
        )
        return _arrow.struct_array(columns)

    def __getstate__(self) -> dict[str, Any]:
        # A plan is rebuilt, not pickled: the unpickling process chooses its
        # own implementation and installs what the compiled scan needs.
        state = self.__dict__.copy()
        state["_plan"] = self._plan.rouge_types
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.__dict__.setdefault("_threads", 1)  # pickled before the option existed
        self.__dict__.setdefault("_lang", None)
        self._plan = self._make_plan(state["_plan"])

    def _splitter(self) -> Callable[[str], list[str]] | None:
        if not self._split_summaries:
            return None
        if self._split_summaries == "punkt":
            return punkt_sentences
        return self._sentence_splitter or split_sentences

    def _make_plan(self, rouge_types: Any, threads: int | None = None) -> Plan:
        if threads is None:
            threads = _checks.resolve_threads(self._threads)
        spec = _plan.parse_types(rouge_types, self._w_weight, bool(self._split_summaries))
        return make_plan(spec, self._tokenizer, self._splitter(), threads)

    def _batch_plan(self, jobs: int, pairs: int = 0) -> Plan:
        """The plan of a batch of ``pairs`` on ``jobs`` workers, which share
        the threads: never more than max(jobs, threads) busy at once; in
        processes if the tokenizer holds the GIL (``kurenai._core.processes``)."""
        threads = max(1, self._plan.threads // jobs)
        plan = self._plan
        if threads != self._plan.threads:
            plan = self._make_plan(self.rouge_types, threads)
        return _processes.spread(plan, self._tokenizer, self._splitter(), jobs, pairs)

    def __repr__(self) -> str:
        return (
            f"RougeScorer({list(self.rouge_types)!r}, tokenizer={self._tokenizer!r}, "
            f"split_summaries={self._split_summaries}"
            + ("" if self._lang is None else f", lang={self._lang!r}")
            + ")"
        )

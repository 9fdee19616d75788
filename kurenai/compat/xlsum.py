"""XL-Sum's multilingual ROUGE (csebuetnlp's ``multilingual_rouge``), exactly.

``from kurenai.compat.xlsum import RougeScorer`` in place of
``from multilingual_rouge.rouge_scorer import RougeScorer`` (or of the
``rouge_score`` that XL-Sum's repository installs): the same arguments, the
same ``Score`` values, ``==`` on floats, for every language XL-Sum lists and
for ``lang=None``.  The tokens are those of
:mod:`kurenai.compat._xlsum_tokens` (every rule of the package, quirks
included: see the documentation's XL-Sum page); the counting is kurenai's
compiled kernels on interned token IDs.

:func:`calculate_rouge` is XL-Sum's evaluation procedure (its
``seq2seq/utils.py``): each summary split into lines with NLTK's English
punkt, scored, bootstrapped under seed 1234, and the mid F-measure times 100
rounded to 4 places.

>>> scorer = RougeScorer(["rouge1", "rougeL"], lang="bangla")
>>> scorer.score("আমি ভাত খাই।", "আমি ভাত খেয়েছি")["rouge1"].fmeasure
0.6666666666666666
"""

from __future__ import annotations

import os
import pickle
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Callable

from kurenai import _backend
from kurenai._core import checks as _checks
from kurenai.compat._xlsum_fused import WakatiScores
from kurenai.compat._xlsum_stemmers import STATEFUL, XlsumStemming, stemmer_for
from kurenai.compat._xlsum_tokens import (
    ALIASES,
    MAX_CHARS,
    MAX_RUN,
    Tokens,
    XLSumLimitError,
    analysed,
    canonical,
    check_limits,
    segmenter,
    wakati,
    words_of,
)
from kurenai.scoring import Score

__all__ = [
    "ALIASES",
    "MAX_CHARS",
    "MAX_RUN",
    "ROUGE_KEYS",
    "RougeScorer",
    "XLSumLimitError",
    "calculate_rouge",
    "tokenize",
]

# score_batch sends pairs to worker processes in chunks of this many, once
# there are enough of them to pay for the workers' start (about a second).
_CHUNK = 256
_MIN_PAIRS_FOR_WORKERS = 1000
# The segmenters that hold the GIL (jieba, MeCab through fugashi, pythainlp).
_ANALYSED = frozenset({"chinese", "japanese", "thai"})
# The types XL-Sum's procedure reports.
ROUGE_KEYS = ("rouge1", "rouge2", "rougeL", "rougeLsum")
_NGRAM = re.compile(r"rouge[0-9]$")
_ZERO = Score(precision=0, recall=0, fmeasure=0)


class RougeScorer:
    """XL-Sum's ``RougeScorer``: ``score(target, prediction)`` -> ``{type: Score}``.

    Args:
        rouge_types: ``rouge1`` ... ``rouge9``, ``rougeL``, ``rougeLsum``
            (checked when scoring, as the package does).
        use_stemmer: stem tokens longer than ``min_char_length`` characters
            with the language's stemmer (Porter without ``lang``).
        lang: an XL-Sum language name (``bengali``, ``chinese_simplified``,
            ...); it picks the segmenter and the stemmer.  Other names get
            neither, with a warning if ``use_stemmer``.
        callable_tokenizer: ``text -> tokens`` in place of the segmenter (it
            receives the sanitized words joined by spaces).
        callable_stemmer: ``token -> stem`` in place of the stemmer.
        min_char_length: only longer tokens are stemmed.
        max_chars: the most code points of a text's sanitized words (joined
            by spaces) handed to the segmenter or pyonmttok (default
            ``MAX_CHARS``, 1,000,000; None: no limit); a longer text raises
            :class:`XLSumLimitError` (a ValueError) naming the limit.

    Unlike the package, an unknown keyword argument is a TypeError rather
    than ignored; and a text the package cannot take is refused with
    :class:`XLSumLimitError` instead of crashing the process: over
    ``max_chars``, or (Chinese, Japanese, Thai, and every language with
    ``use_stemmer``) holding a word of more than ``MAX_RUN`` (10,000) code
    points without a space or punctuation, on which MeCab crashes (from
    ~200,000) and the analysers' and stemmers' time grows with the square.
    Every text the limits accept scores as in the package.
    """

    def __init__(
        self,
        rouge_types: Sequence[str],
        *,
        use_stemmer: bool = False,
        lang: str | None = None,
        callable_tokenizer: Callable[[str], Any] | None = None,
        callable_stemmer: Callable[[str], str] | None = None,
        min_char_length: int = 3,
        max_chars: int | None = MAX_CHARS,
    ) -> None:
        self.rouge_types = rouge_types
        self.lang = canonical(lang)
        self._recipe: _Recipe | None = None
        if callable_tokenizer is None and callable_stemmer is None:
            self._recipe = _Recipe(
                tuple(rouge_types), lang, use_stemmer, min_char_length, max_chars
            )
        # Long words are refused where an analyser or a stemmer would see them.
        guard_runs = (callable_tokenizer is None and analysed(self.lang)) or bool(use_stemmer)
        # Japanese without a stemmer: MeCab's output counted as text, in C.
        self._wakati: WakatiScores | None = None
        write = None
        if callable_tokenizer is None and not use_stemmer and WakatiScores.applies(rouge_types):
            write = wakati(self.lang)
        if write is not None:
            self._wakati = WakatiScores(
                rouge_types, write, lambda joined: check_limits(joined, max_chars, True)
            )
        segment = callable_tokenizer or (words_of(write) if write else segmenter(self.lang))
        stems = None
        if use_stemmer:
            # A stemmer with state (the user's, NLTK's Arabic) sees every
            # token in the package's order: both whole texts first.
            memoize = callable_stemmer is None and self.lang not in STATEFUL
            stem = callable_stemmer or stemmer_for(self.lang)
            stems = XlsumStemming(stem, min_char_length, memoize)
        self._in_order = stems is not None and not stems.memoize
        self._spec: _Spec | None = None
        self._tokens = Tokens(
            segment, stems, callable_tokenizer is None, max_chars, analysed=guard_runs
        )

    def score(self, target: str, prediction: str) -> dict[str, Score]:
        """The scores of ``prediction`` against ``target``, by type."""
        if self._wakati is not None:
            found = self._wakati.score(target, prediction)
            if found is not None:
                return found
        return self._scores(target, prediction, self._tokens)

    def _scores(self, target: str, prediction: str, tokens: Tokens) -> dict[str, Score]:
        spec = self._spec or self._parse()
        target_words = prediction_words = None
        if self._in_order or (spec.whole and not spec.lsum):
            target_words, prediction_words = tokens.words(target), tokens.words(prediction)
        if not spec.lsum:
            if not spec.whole:
                return {}
            counts = _backend.kernels.pair_counts(
                [target_words], [prediction_words], spec.orders, spec.lcs, False
            )
            return spec.scores(counts, True, True)
        if spec.whole and not self._in_order:
            target_words, target_lines = tokens.both(target)
            prediction_words, prediction_lines = tokens.both(prediction)
        else:
            target_lines, prediction_lines = tokens.lines(target), tokens.lines(prediction)
        for _ in range(spec.lsum - 1 if self._in_order else 0):
            tokens.lines(target), tokens.lines(prediction)  # a stateful stemmer's calls
        counts = _backend.kernels.pair_counts(
            target_lines,
            prediction_lines,
            spec.orders,
            spec.lcs,
            True,
            target_words if spec.whole else None,
            prediction_words if spec.whole else None,
        )
        return spec.scores(counts, bool(target_lines), bool(prediction_lines))

    def _parse(self) -> _Spec:
        self._spec = _Spec(list(self.rouge_types))
        return self._spec

    def score_many(
        self, targets: list[str], predictions: list[str], max_tokens: int = -1
    ) -> list[dict[str, Score]]:
        """``score`` of each pair, here (a worker process's entry point)."""
        return [self.score(t, p) for t, p in zip(targets, predictions)]

    def score_batch(
        self, targets: Sequence[str], predictions: Sequence[str], n_jobs: int = 1
    ) -> list[dict[str, Score]]:
        """``score`` of each pair; with ``n_jobs`` > 1 and a segmenter that holds
        the GIL (jieba, MeCab, pythainlp), in up to ``n_jobs`` worker processes
        (kurenai's pool, as ``kurenai.RougeScorer.score_batch`` uses), each
        loading the analyser once; ``n_jobs`` -1 or 0: every available core,
        as everywhere in kurenai.  The scores are the same either way."""
        jobs = _checks.resolve_jobs(n_jobs)
        targets, predictions = list(targets), list(predictions)
        if len(targets) != len(predictions):
            raise ValueError(f"{len(targets)} targets but {len(predictions)} predictions")
        if jobs > 1 and self._in_workers(len(targets)):
            from kurenai._core.processes import score_in_workers

            assert self._recipe is not None
            chunks = [
                (targets[i : i + _CHUNK], predictions[i : i + _CHUNK])
                for i in range(0, len(targets), _CHUNK)
            ]
            done = score_in_workers(pickle.dumps(self._recipe), chunks, jobs)
            if done is not None:
                return [scores for chunk in done for scores in chunk]
        return self.score_many(targets, predictions)

    def _in_workers(self, pairs: int) -> bool:
        return (
            self._recipe is not None
            and self.lang in _ANALYSED
            and pairs >= _MIN_PAIRS_FOR_WORKERS
            and (os.cpu_count() or 1) > 1
        )

    def tokenize(self, text: str) -> list[str]:
        """The tokens ROUGE-N and ROUGE-L count in ``text``."""
        return self._tokens.words(text)

    def tokenize_lines(self, text: str) -> list[list[str]]:
        """The tokens of each line, as ROUGE-Lsum counts them."""
        return self._tokens.lines(text)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self.rouge_types)!r}, lang={self.lang!r})"


def tokenize(text: str, lang: str | None = None, use_stemmer: bool = False) -> list[str]:
    """XL-Sum's tokens of ``text`` for ``lang`` (a new scorer's ``tokenize``).

    >>> tokenize("Hello, World! 2021年", use_stemmer=True)
    ['hello', 'world', '2021', '年']
    """
    return RougeScorer([], lang=lang, use_stemmer=use_stemmer).tokenize(text)


@dataclass(frozen=True)
class _Recipe:
    """What a worker process needs to make the same scorer."""

    rouge_types: tuple[str, ...]
    lang: str | None
    use_stemmer: bool
    min_char_length: int
    max_chars: int | None = MAX_CHARS

    def plan(self) -> RougeScorer:
        return RougeScorer(
            list(self.rouge_types),
            lang=self.lang,
            use_stemmer=self.use_stemmer,
            min_char_length=self.min_char_length,
            max_chars=self.max_chars,
        )


class _Spec:
    """What the types ask for, read as the package reads them when it scores:
    ``rougeLsum``, ``rougeL``, or ``rouge`` and one digit (``$``, so a final
    newline passes); anything else is the package's ValueError."""

    def __init__(self, rouge_types: list[str]) -> None:
        self.types: list[tuple[str, str, int]] = []
        for rouge_type in rouge_types:
            if rouge_type in ("rougeL", "rougeLsum"):
                self.types.append((rouge_type, rouge_type, 0))
            elif _NGRAM.match(rouge_type):
                n = int(rouge_type[5:])
                if n <= 0:
                    raise ValueError(f"rougen requires positive n: {rouge_type}")
                self.types.append((rouge_type, "n", n))
            else:
                raise ValueError(f"Invalid rouge type: {rouge_type}")
        kinds = [kind for _, kind, _ in self.types]
        self.orders = tuple(sorted({n for _, kind, n in self.types if kind == "n"}))
        self.lcs = "rougeL" in kinds
        self.lsum = kinds.count("rougeLsum")
        self.whole = self.lcs or bool(self.orders)
        # (type, kind, n, the index of n's overlaps in pair_counts' result)
        self.plan = [
            (rouge_type, kind, n, self.orders.index(n) if kind == "n" else -1)
            for rouge_type, kind, n in self.types
        ]

    def scores(self, counts: Any, target_lines: bool, prediction_lines: bool) -> dict[str, Score]:
        """The scores from ``pair_counts``'s counts (``*_lines``: whether
        each side has a non-empty line, for ROUGE-Lsum).

        The package's arithmetic, inlined (each pair passes here once per
        type): precision and recall by one division each, F as
        ``2 * p * r / (p + r)``, so the floats are its floats.
        """
        overlaps, lcs, hits, target_len, prediction_len, target_sum, prediction_sum = counts
        lsum = target_lines and prediction_lines and target_sum and prediction_sum
        result = {}
        for rouge_type, kind, n, index in self.plan:
            if kind == "n":
                hits_n = overlaps[index]
                precision = hits_n / max(prediction_len - n + 1, 1)
                recall = hits_n / max(target_len - n + 1, 1)
            elif kind == "rougeL":
                if not target_len or not prediction_len:
                    result[rouge_type] = _ZERO
                    continue
                precision, recall = lcs / prediction_len, lcs / target_len
            elif lsum:
                precision, recall = hits / prediction_sum, hits / target_sum
            else:
                result[rouge_type] = _ZERO
                continue
            total = precision + recall
            fmeasure = 2 * precision * recall / total if total > 0 else 0.0
            result[rouge_type] = Score(precision, recall, fmeasure)
        return result


def calculate_rouge(
    pred_lns: Sequence[str],
    tgt_lns: Sequence[str],
    use_stemmer: bool = True,
    rouge_keys: Sequence[str] = ROUGE_KEYS,
    rouge_lang: str | None = None,
    newline_sep: bool = True,
    seed: int | None = 1234,
    n_jobs: int = 1,
) -> dict[str, Any]:
    """XL-Sum's published numbers: mid F-measure x 100, rounded to 4 places
    (``numpy.float64``, as the procedure returns them).

    As ``seq2seq/utils.py``'s ``calculate_rouge`` under ``set_seed(1234)``:
    each summary's sentences (``nltk.sent_tokenize``'s, through
    :func:`kurenai.sentences.punkt_sentences`: no download) on lines of their
    own when ``newline_sep``, every pair scored, and rouge-score's bootstrap
    (1000 samples, 95%) drawn from ``np.random.seed(seed)``'s stream (``seed``
    None: NumPy's global generator as it stands).  ``n_jobs`` > 1 (-1 or 0:
    every available core): the analysers (jieba, MeCab, pythainlp) of a large
    corpus run in that many worker processes (:meth:`RougeScorer.score_batch`).
    """
    import numpy as np

    from kurenai.sentences import punkt_sentences
    from kurenai.stats._bootstrap import bootstrap

    if len(pred_lns) != len(tgt_lns):
        raise ValueError(f"{len(pred_lns)} predictions but {len(tgt_lns)} targets")
    scorer = RougeScorer(list(rouge_keys), lang=rouge_lang, use_stemmer=use_stemmer)
    preds, tgts = list(pred_lns), list(tgt_lns)
    if newline_sep:
        preds = ["\n".join(punkt_sentences(pred)) for pred in preds]
        tgts = ["\n".join(punkt_sentences(tgt)) for tgt in tgts]
    columns: dict[str, list[Score]] = {}
    for scores in scorer.score_batch(tgts, preds, n_jobs):
        for rouge_type, value in scores.items():
            columns.setdefault(rouge_type, []).append(value)
    if not columns:
        return {}  # as the package's aggregator of nothing
    result = bootstrap(columns, seed=seed)
    # NumPy's round of a numpy.float64, as the procedure's ``round(v.mid.fmeasure
    # * 100, 4)``: its type, and its value (which Python's round can differ from).
    return {
        key: np.float64(round(np.float64(value.mid.fmeasure) * 100, 4))
        for key, value in result.items()
    }

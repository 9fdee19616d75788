"""The ROUGE kinds: one entry per kind, the one definition of each.

A ROUGE type names a *kind* and its parameters: ``rouge2`` is the n-gram kind
with n = 2, ``rougeSU4`` the skip-bigram kind with gap 4 and unigrams.  The
:class:`Kind` entries in :data:`KINDS` hold everything kurenai knows about
each kind, and every surface reads them:

- its name grammar (``suffix``, ``params``, ``name``): :mod:`kurenai._core.names`
  spells and parses names from it, for every surface and every message;
- what it counts, from the kernels' counts of one pair (``count``, a
  :class:`Tally` for ``PythonPlan``);
- its P/R/F formula (``score``), with rouge-score's exact float operations
  for rouge-score's kinds and ROUGE-1.5.5's for the others;
- how ROUGE-1.5.5's ``-f A`` pools the tallies of several references
  (``pool``: the ``average`` mode) and what its ``-f B`` compares to pick one
  (``recall_key``: the ``best-recall`` mode).

The compiled plan (``kurenai._fused``) keeps a C switch over the kind
codes for speed; it reads the codes as ``kurenai._data.codes.NGRAM`` ...
and declares the kinds it computes in ``KINDS``, which
:func:`check_compiled_kinds` holds to this registry when it loads.

The two sides of a pair are the *target* (the reference) and the
*prediction* (the candidate), everywhere in kurenai, in that order.
ROUGE-1.5.5 calls them the *model* and the *peer*; the kernels' one-letter
``t`` and ``p`` are target and prediction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple

from kurenai._data.codes import CODES, LCS, LSUM, NGRAM, SKIP, WLCS, check_compiled_kinds
from kurenai._data.rounding import perl_rounded
from kurenai.scoring import Score, fmeasure

__all__ = [
    "CODES",
    "KINDS",
    "LCS",
    "LSUM",
    "NGRAM",
    "SKIP",
    "WLCS",
    "KernelCounts",
    "Kind",
    "Pair",
    "Params",
    "Tally",
    "Tokenized",
    "check_compiled_kinds",
    "kind_of",
    "perl_rounded",
    "ratio",
]

# The kind codes of ``TypeSpec.kinds`` (NGRAM ... SKIP) live in
# ``kurenai._data.codes``, which the compiled plan reads for its C switch.


class Tally(NamedTuple):
    """The counts behind one type's score of one pair, before any division.

    ROUGE-1.5.5's ``-f A`` pools them over references.  For ROUGE-W the
    target count is Σ f(sentence length) and the prediction count the
    prediction's length, before weighting it.
    """

    hits: float
    target_count: float
    prediction_count: float


# What the formulas take: a Tally, or the plain tuple the compiled plan returns.
TallyLike = tuple[float, float, float]


class Params(NamedTuple):
    """A type's parameters, read from its name."""

    order: int = 0  # n of rougeN; 0 for the other kinds
    gap: int = 0  # a skip-bigram's gap limit: -1 for none (rougeS, rougeSU)
    unigrams: bool = False  # rougeSU: unigrams count too


Tokens = Sequence[Any]


class Tokenized(NamedTuple):
    """A text as the kernels take it."""

    sentences: list[Tokens]  # ROUGE-Lsum's and ROUGE-W's units
    whole: Tokens | None  # the whole text's tokens; None: the sentences' concatenated

    def tokens(self) -> Tokens:
        """The whole text's tokens."""
        if self.whole is not None:
            return self.whole
        return [token for sentence in self.sentences for token in sentence]


class KernelCounts(NamedTuple):
    """``pair_counts``'s result (the kernels return it as a plain tuple)."""

    overlaps: tuple[int, ...]  # per distinct n-gram order, as TypeSpec.orders
    lcs: int
    lsum_hits: int
    target_len: int
    prediction_len: int
    target_sum: int  # token totals over the sentences
    prediction_sum: int


class Pair(NamedTuple):
    """One pair as ``PythonPlan`` counted it: what a kind's ``count`` reads."""

    counts: KernelCounts
    target: Tokenized
    prediction: Tokenized
    spec: Any  # the TypeSpec: each type's slot, gap, unigrams and ROUGE-W's weight
    variants: Any  # the ROUGE-W/S/SU kernels (``_variants`` or ``_variants_py``)


@dataclass(frozen=True)
class Kind:
    """One kind of ROUGE type (see the module docstring)."""

    code: int
    title: str  # ROUGE-1.5.5's name of the kind, for documents
    counts: str  # what it counts, in words
    suffix: str  # the name after "rouge", a regular expression
    params: Callable[[Sequence[str]], Params]  # the suffix pattern's groups -> parameters
    name: Callable[[Params], str]  # kurenai's name of a type of these parameters
    grammar: str  # its names, as the valid-types message lists them
    reads_sentences: bool  # the sentences of a text (else its whole token list)
    count: Callable[[Pair, int], TallyLike]  # (pair, type index) -> its tally
    score: Callable[[TallyLike, float], Score]  # (tally, ROUGE-W's weight) -> Score
    pool: Callable[[Sequence[TallyLike], float], Score]  # ``-f A`` over references
    recall_key: Callable[[TallyLike, float], float]  # what ``-f B`` compares
    rouge_score_names: tuple[str, ...] = ()  # the names rouge-score knows
    variant: bool = False  # counted by the ROUGE-W/S/SU kernels (``_variants``)


def ratio(hits: float, count: float) -> float:
    """``hits / count``, 0.0 when nothing could match (ROUGE-1.5.5's guard)."""
    return hits / count if count else 0.0


# ------------------------------------------------------------------ counts


def _count_ngrams(pair: Pair, i: int) -> TallyLike:
    counts, spec = pair.counts, pair.spec
    n = spec.orders[spec.slots[i]]
    return (
        counts.overlaps[spec.slots[i]],
        max(counts.target_len - n + 1, 0),
        max(counts.prediction_len - n + 1, 0),
    )


def _count_lcs(pair: Pair, i: int) -> TallyLike:
    counts = pair.counts
    both = counts.target_len and counts.prediction_len
    return counts.lcs if both else 0, counts.target_len, counts.prediction_len


def _count_lsum(pair: Pair, i: int) -> TallyLike:
    counts = pair.counts
    both = counts.target_sum and counts.prediction_sum
    return counts.lsum_hits if both else 0, counts.target_sum, counts.prediction_sum


def _count_weighted(pair: Pair, i: int) -> TallyLike:
    target, prediction = pair.target.sentences, pair.prediction.sentences
    hit, base = pair.variants.weighted_lcs(target, prediction, pair.spec.w_weight)
    return hit, base, sum(map(len, prediction))


def _count_skip_bigrams(pair: Pair, i: int) -> TallyLike:
    spec = pair.spec
    found: TallyLike = pair.variants.skip_bigram_counts(
        pair.target.tokens(), pair.prediction.tokens(), spec.gaps[i], spec.unigrams[i]
    )
    return found


# ------------------------------------------------------------------ scores


def _ngram_score(tally: TallyLike, w_weight: float) -> Score:
    hits, target_count, prediction_count = tally
    # rouge-score divides by max(count, 1): always a float, never 0/0.
    precision = hits / max(prediction_count, 1)
    recall = hits / max(target_count, 1)
    return Score(precision, recall, fmeasure(precision, recall))


def _lcs_score(tally: TallyLike, w_weight: float) -> Score:
    hits, target_count, prediction_count = tally
    # rouge-score returns int zeros (not 0.0) when a side has no tokens.
    if not prediction_count or not target_count:
        return Score(precision=0, recall=0, fmeasure=0)
    precision = hits / prediction_count
    recall = hits / target_count
    return Score(precision, recall, fmeasure(precision, recall))


def _perl_score(tally: TallyLike, w_weight: float) -> Score:
    hits, target_count, prediction_count = tally
    precision, recall = ratio(hits, prediction_count), ratio(hits, target_count)
    return Score(precision, recall, fmeasure(precision, recall))


def _weighted_score(tally: TallyLike, w_weight: float) -> Score:
    """ROUGE-W: f⁻¹(hit / f(count)) with f(k) = k ** w.  The target's count is
    already Σ f(sentence length), so Perl weights it twice (and both ``-f A``
    and ``-f B`` report that)."""
    hits, target_count, prediction_count = tally
    precision = ratio(hits, float(prediction_count) ** w_weight) ** (1 / w_weight)
    recall = ratio(hits, target_count**w_weight) ** (1 / w_weight)
    return Score(precision, recall, fmeasure(precision, recall))


# ------------------------------------------- -f A (pooled) and -f B (key)


def _pooled(column: Sequence[TallyLike], w_weight: float) -> Score:
    """``-f A``: Σ hits over Σ counts of the references."""
    hits = sum(hit for hit, _, _ in column)
    precision = ratio(hits, sum(count for _, _, count in column))
    recall = ratio(hits, sum(count for _, count, _ in column))
    return Score(precision, recall, fmeasure(precision, recall))


def _pooled_weighted(column: Sequence[TallyLike], w_weight: float) -> Score:
    """``-f A`` of ROUGE-W: Σ f(count) pooled, mapped back with f⁻¹."""
    hits = sum(hit for hit, _, _ in column)
    target = sum(base**w_weight for _, base, _ in column)
    prediction = sum(float(length) ** w_weight for _, _, length in column)
    precision = ratio(hits, prediction) ** (1 / w_weight)
    recall = ratio(hits, target) ** (1 / w_weight)
    return Score(precision, recall, fmeasure(precision, recall))


def _rounded_recall(tally: TallyLike, w_weight: float) -> float:
    return perl_rounded(ratio(tally[0], tally[1]))


def _exact_recall(tally: TallyLike, w_weight: float) -> float:
    return ratio(tally[0], tally[1])


def _weighted_recall(tally: TallyLike, w_weight: float) -> float:
    # f⁻¹(hit / Σ f(sentence length)): the single weighting, where the
    # printed recall weights the target twice.
    key: float = ratio(tally[0], tally[1]) ** (1 / w_weight)
    return key


# The largest gap k of rougeS{k}/rougeSU{k}: the kernels hold it (and k + 1)
# in a C int.  A larger gap would mean no limit for any text a process can
# hold; such a name is refused rather than read as another.
MAX_GAP = 10**9


def _skip_params(groups: Sequence[str]) -> Params:
    """rougeS/rougeSU's parameters; a ValueError for a gap beyond :data:`MAX_GAP`."""
    digits = groups[1] or ""
    if len(digits) > len(str(MAX_GAP)) or int(digits or -1) > MAX_GAP:
        raise ValueError(f"the gap k of rougeS{{k}} and rougeSU{{k}} is at most {MAX_GAP}")
    return Params(gap=int(digits or -1), unigrams=groups[0].upper() == "SU")


def _skip_name(params: Params) -> str:
    gap = str(params.gap) if params.gap >= 0 else ""
    return f"rouge{'SU' if params.unigrams else 'S'}{gap}"


KINDS = (
    Kind(
        NGRAM,
        "ROUGE-N",
        "n-grams in common (a multiset intersection) over the whole text",
        suffix="([1-9])",
        params=lambda groups: Params(order=int(groups[0])),
        name=lambda params: f"rouge{params.order}",
        grammar="rouge1 to rouge9",
        reads_sentences=False,
        count=_count_ngrams,
        score=_ngram_score,
        pool=_pooled,
        recall_key=_rounded_recall,
        rouge_score_names=tuple(f"rouge{n}" for n in range(1, 10)),
    ),
    Kind(
        LCS,
        "ROUGE-L",
        "the longest common subsequence of the whole texts",
        suffix="L",
        params=lambda groups: Params(),
        name=lambda params: "rougeL",
        grammar="rougeL",
        reads_sentences=False,
        count=_count_lcs,
        score=_lcs_score,
        pool=_pooled,
        recall_key=_exact_recall,
        rouge_score_names=("rougeL",),
    ),
    Kind(
        LSUM,
        "ROUGE-L (summary level)",
        "union-LCS hits of each target sentence with the prediction's sentences",
        suffix="Lsum",
        params=lambda groups: Params(),
        name=lambda params: "rougeLsum",
        grammar="rougeLsum",
        reads_sentences=True,
        count=_count_lsum,
        score=_lcs_score,
        pool=_pooled,
        recall_key=_exact_recall,
        rouge_score_names=("rougeLsum",),
    ),
    Kind(
        WLCS,
        "ROUGE-W",
        "runs of the weighted LCS of each target sentence, credited f(run) = run ** w",
        suffix="W",
        params=lambda groups: Params(),
        name=lambda params: "rougeW",
        grammar="rougeW",
        reads_sentences=True,
        count=_count_weighted,
        score=_weighted_score,
        pool=_pooled_weighted,
        recall_key=_weighted_recall,
        variant=True,
    ),
    Kind(
        SKIP,
        "ROUGE-S / ROUGE-SU",
        "skip-bigrams (ordered pairs at most k tokens apart), plus unigrams for SU",
        suffix="(SU?)([1-9][0-9]*)?",
        params=_skip_params,
        name=_skip_name,
        grammar="rougeS, rougeSU, rougeS{k}, rougeSU{k} (k >= 1)",
        reads_sentences=False,
        count=_count_skip_bigrams,
        score=_perl_score,
        pool=_pooled,
        recall_key=_rounded_recall,
        variant=True,
    ),
)
if frozenset(kind.code for kind in KINDS) != CODES:
    raise ImportError("kurenai._core.kinds.KINDS and kurenai._data.codes.CODES differ")
_BY_CODE = {kind.code: kind for kind in KINDS}


def kind_of(code: int) -> Kind:
    """The kind of a ``TypeSpec.kinds`` code."""
    return _BY_CODE[code]

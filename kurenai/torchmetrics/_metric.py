"""``ROUGEScore`` (a ``torchmetrics.Metric``) and the functional ``rouge_score``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

try:
    import torch
    from torchmetrics import Metric
    from torchmetrics.utilities.data import dim_zero_cat
except ImportError:  # pragma: no cover - without the torch extra
    # Importable all the same (pytest reads every module's docstrings); the
    # package's __getattr__ names the extra before handing out these names.
    Metric = object  # type: ignore[misc,assignment]

from kurenai.torchmetrics._scores import DEFAULT_KEYS, Engine, records

__all__ = ["ROUGEScore", "rouge_score"]


class ROUGEScore(Metric):
    """torchmetrics' ``ROUGEScore``, computed by kurenai: the same
    constructor, ``update``/``compute``/``reset``/``forward``, output keys
    (``rouge1_fmeasure``, ``rouge1_precision``, ...) and float32 numbers.

    ``metric.update("My name is John", "Is your name John")`` then
    ``metric.compute()["rouge1_fmeasure"]`` is ``tensor(0.7500)``, as
    torchmetrics gives (docs/migrate/torchmetrics.md runs the examples).

    Args:
        use_stemmer: NLTK's Porter on words longer than 3 characters.
        normalizer: a function ``str -> str`` run before the tokenizer
            (default: lower-case, every run of characters other than
            ``a-z0-9`` a space).
        tokenizer: a function ``str -> Sequence[str]`` (default: split on
            whitespace), as torchmetrics takes; or, beyond torchmetrics, a
            kurenai tokenizer name (``"mecab"``, ``"jieba"``, ``"kiwi"``,
            ``"unicode"``...) or object, which reads the raw text (or the
            normalizer's output) and stems with ``use_stemmer`` by its own rule.
        accumulate: several references per prediction: ``"best"`` (the
            reference with the highest F-measure, per key) or ``"avg"`` (the
            mean of each measure over them).
        rouge_keys: from ``rouge1`` ... ``rouge9``, ``rougeL``, ``rougeLsum``.
        lang: beyond torchmetrics: the texts' language (``"ja"``, ``"de"``):
            its kurenai tokenizer, and its stemmer with ``use_stemmer``.
        sentence_splitter: beyond torchmetrics: how ``rougeLsum`` finds
            sentences (default: ``nltk.sent_tokenize``'s English punkt, read
            offline; :func:`kurenai.sentences.split_sentences` for ``。``).
        kwargs: ``torchmetrics.Metric``'s (``dist_sync_on_step``,
            ``process_group``, ``sync_on_compute``...).

    The state is the per-prediction scores (one float32 tensor per output
    key, ``dist_reduce_fx="cat"``), never the texts: torchmetrics gathers it
    across processes, and ``compute`` takes the mean as torchmetrics does.
    """

    is_differentiable: bool = False
    higher_is_better: bool = True
    full_state_update: bool = False
    plot_lower_bound: float = 0.0
    plot_upper_bound: float = 1.0

    def __init__(
        self,
        use_stemmer: bool = False,
        normalizer: Callable[[str], str] | None = None,
        tokenizer: Callable[[str], Sequence[str]] | str | Any = None,
        accumulate: str = "best",
        rouge_keys: str | tuple[str, ...] = DEFAULT_KEYS,
        *,
        lang: str | None = None,
        sentence_splitter: Callable[[str], list[str]] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self._engine = Engine(
            rouge_keys, use_stemmer, normalizer, tokenizer, accumulate, lang, sentence_splitter
        )
        self.rouge_keys = self._engine.keys
        self.use_stemmer = bool(use_stemmer)
        self.normalizer = normalizer
        self.tokenizer = tokenizer
        self.accumulate = self._engine.accumulate
        self.lang = lang
        for key in self._engine.output_keys:
            self.add_state(key, [], dist_reduce_fx="cat")

    def update(
        self,
        preds: str | Sequence[str],
        target: str | Sequence[str] | Sequence[Sequence[str]],
    ) -> None:
        """Score a batch: a prediction or a list of them, against a reference
        each (or a list of references each)."""
        predictions, groups = records(preds, target)
        if not predictions:
            return
        for key, values in self._engine.scores(predictions, groups).items():
            getattr(self, key).append(values.to(self.device))

    def compute(self) -> dict[str, torch.Tensor]:
        """The mean of each measure over every prediction scored (NaN before any)."""
        return {key: _mean(getattr(self, key), self.device) for key in self._engine.output_keys}

    def __hash__(self) -> int:
        # States are lists (unhashable): hash them as tuples, as torchmetrics' does.
        values: list[Any] = [self.__class__.__name__]
        for key in self._defaults:
            value = getattr(self, key)
            values.append(tuple(value) if isinstance(value, list) else value)
        return hash(tuple(values))

    def plot(self, val: Any = None, ax: Any = None) -> Any:
        """Plot one value or several (``torchmetrics.Metric._plot``; needs matplotlib)."""
        return self._plot(val, ax)


def _mean(state: Any, device: torch.device) -> torch.Tensor:
    if isinstance(state, list) and not state:
        return torch.tensor([], dtype=torch.float32, device=device).mean()  # NaN, as torchmetrics
    # One contiguous float32 vector, as torchmetrics' torch.tensor(list): the same mean.
    return dim_zero_cat(state).contiguous().mean()


def rouge_score(
    preds: str | Sequence[str],
    target: str | Sequence[str] | Sequence[Sequence[str]],
    accumulate: str = "best",
    use_stemmer: bool = False,
    normalizer: Callable[[str], str] | None = None,
    tokenizer: Callable[[str], Sequence[str]] | str | Any = None,
    rouge_keys: str | tuple[str, ...] = DEFAULT_KEYS,
    *,
    lang: str | None = None,
    sentence_splitter: Callable[[str], list[str]] | None = None,
) -> dict[str, torch.Tensor]:
    """torchmetrics' ``rouge_score`` (``torchmetrics.functional.text.rouge``),
    computed by kurenai: ``{"rouge1_fmeasure": tensor, ...}``, the mean over
    the predictions; arguments as :class:`ROUGEScore`'s.
    """
    engine = Engine(
        rouge_keys, use_stemmer, normalizer, tokenizer, accumulate, lang, sentence_splitter
    )
    predictions, groups = records(preds, target)
    scores = engine.scores(predictions, groups) if predictions else {}
    empty = torch.tensor([], dtype=torch.float32)
    return {key: scores.get(key, empty).mean() for key in engine.output_keys}

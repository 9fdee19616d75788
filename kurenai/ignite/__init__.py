"""pytorch-ignite's ROUGE metrics, on kurenai's kernels: ``Rouge``, ``RougeN``
and ``RougeL`` with ``ignite.metrics``' constructors, ``update``/``compute``/
``reset``, result keys (``Rouge-1-P``, ``Rouge-L-F``...), state dicts and
numbers, bit for bit.

Change the import and nothing else::

    from kurenai.ignite import Rouge      # was: from ignite.metrics import Rouge

    rouge = Rouge(variants=[1, 2, "L"], multiref="best", alpha=0.5)
    rouge.attach(evaluator, "rouge")

Each is an ``ignite.metrics.Metric``: it attaches to an ``Engine``, takes
``output_transform`` and ``device``, and accumulates across processes as
ignite's do, through ignite's ``sync_all_reduce`` on the same four sums
(``_precision``, ``_recall``, ``_fmeasure``, ``_num_examples``).  A state
dict saved from ignite's class loads into kurenai's, and back.

Needs the ``ignite`` extra (``pip install 'kurenai[ignite]'``: pytorch-ignite
and torch); ``import kurenai`` never loads this module.  Deliberate
differences from ignite (clearer errors, never other numbers) are listed in
``docs/migrate/ignite.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Callable

import torch
from ignite.exceptions import NotComputableError
from ignite.metrics.metric import Metric, reinit__is_reduced, sync_all_reduce

from kurenai.ignite._counts import (
    Values,
    Variant,
    batch_tokens,
    batch_values,
    check_alpha,
    check_multiref,
    check_ngram,
    check_variants,
    metric_name,
    split_output,
)

__all__ = ["Rouge", "RougeL", "RougeN"]

_CPU = torch.device("cpu")


def _identity(output: Any) -> Any:
    return output


class _BaseRouge(Metric):
    """One variant's sums, as ignite's ``_BaseRouge`` keeps them."""

    _state_dict_all_req_keys = ("_recall", "_precision", "_fmeasure", "_num_examples")
    _variant: Variant

    def __init__(
        self,
        multiref: str = "average",
        alpha: float = 0,
        output_transform: Callable[..., Any] = _identity,
        device: str | torch.device = _CPU,
    ) -> None:
        self._alpha = check_alpha(alpha)
        self._multiref = check_multiref(multiref)
        super().__init__(output_transform=output_transform, device=device)

    @reinit__is_reduced
    def reset(self) -> None:
        self._recall = 0.0
        self._precision = 0.0
        self._fmeasure = 0.0
        self._num_examples = 0

    @reinit__is_reduced
    def update(self, output: Any) -> None:
        """Add a batch: ``(y_pred, y)``, ``y_pred`` a sequence of candidates (each
        a sequence of tokens), ``y`` per candidate a list of references (each a
        sequence of tokens); or ``{"y_pred": ..., "y": ...}``."""
        candidates, references = batch_tokens(*split_output(output))
        found = batch_values(candidates, references, [self._variant], self._multiref, self._alpha)
        self._add(found[0])

    @reinit__is_reduced
    def _add(self, values: Values) -> None:
        # One sample at a time, as ignite adds them: the same float sums.
        precision, recall, fmeasure = self._precision, self._recall, self._fmeasure
        for p, r, f in zip(*values):
            precision += p
            recall += r
            fmeasure += f
        self._precision, self._recall, self._fmeasure = precision, recall, fmeasure
        self._num_examples += len(values.precision)

    @sync_all_reduce("_precision", "_recall", "_fmeasure", "_num_examples")
    def compute(self) -> Mapping[str, float]:
        """``{"Rouge-<v>-P": ..., "-R": ..., "-F": ...}``: the means over the
        samples (over every process, when distributed)."""
        if self._num_examples == 0:
            raise NotComputableError(
                "Rouge metric must have at least one example before being computed"
            )
        name = metric_name(self._variant)
        return {
            f"{name}-P": float(self._precision / self._num_examples),
            f"{name}-R": float(self._recall / self._num_examples),
            f"{name}-F": float(self._fmeasure / self._num_examples),
        }


class RougeN(_BaseRouge):
    """ROUGE-N: n-gram co-occurrences of candidates and references
    (``ignite.metrics.RougeN``).

    Args:
        ngram: the n-gram order (default 4, as ignite's).
        multiref: ``"average"`` (pool the counts over a candidate's references)
            or ``"best"`` (the reference with the highest recall).
        alpha: F's weight, in [0, 1]: ``P*R / ((1-alpha)*P + alpha*R)``
            (0, the default: F is recall; 1: precision).
        output_transform: maps the engine's output to ``(y_pred, y)``.
        device: where ignite reduces the sums across processes.

    >>> m = RougeN(ngram=2, multiref="best")
    >>> candidate = "the cat is not there".split()
    >>> references = ["the cat is on the mat".split(), "there is a cat on the mat".split()]
    >>> m.update(([candidate], [references]))
    >>> m.compute()
    {'Rouge-2-P': 0.5, 'Rouge-2-R': 0.4, 'Rouge-2-F': 0.4}
    """

    def __init__(
        self,
        ngram: int = 4,
        multiref: str = "average",
        alpha: float = 0,
        output_transform: Callable[..., Any] = _identity,
        device: str | torch.device = _CPU,
    ) -> None:
        self._ngram = check_ngram(ngram)
        self._variant = self._ngram
        super().__init__(
            multiref=multiref, alpha=alpha, output_transform=output_transform, device=device
        )


class RougeL(_BaseRouge):
    """ROUGE-L: the longest common subsequence of candidates and references
    (``ignite.metrics.RougeL``); arguments as :class:`RougeN`'s, without ``ngram``.

    >>> m = RougeL(multiref="best")
    >>> candidate = "the cat is not there".split()
    >>> references = ["the cat is on the mat".split(), "there is a cat on the mat".split()]
    >>> m.update(([candidate], [references]))
    >>> m.compute()
    {'Rouge-L-P': 0.6, 'Rouge-L-R': 0.5, 'Rouge-L-F': 0.5}
    """

    _variant = "L"


class Rouge(Metric):
    """Several ROUGE-N and ROUGE-L at once (``ignite.metrics.Rouge``): one
    :class:`RougeN` or :class:`RougeL` per variant, every batch counted once
    for all of them.

    Args:
        variants: ``"L"`` and n-gram orders (default ``[1, 2, 4, "L"]``).
        multiref: as :class:`RougeN`'s.
        alpha: as :class:`RougeN`'s.
        output_transform: as :class:`RougeN`'s.
        device: as :class:`RougeN`'s.

    >>> m = Rouge(variants=["L", 2], multiref="best")
    >>> candidate = "the cat is not there".split()
    >>> references = ["the cat is on the mat".split(), "there is a cat on the mat".split()]
    >>> m.update(([candidate], [references]))
    >>> m.compute()  # doctest: +NORMALIZE_WHITESPACE
    {'Rouge-L-P': 0.6, 'Rouge-L-R': 0.5, 'Rouge-L-F': 0.5,
     'Rouge-2-P': 0.5, 'Rouge-2-R': 0.4, 'Rouge-2-F': 0.4}
    """

    _state_dict_all_req_keys = ("internal_metrics",)

    def __init__(
        self,
        variants: Sequence[str | int] | None = None,
        multiref: str = "average",
        alpha: float = 0,
        output_transform: Callable[..., Any] = _identity,
        device: str | torch.device = _CPU,
    ) -> None:
        self._variants = check_variants(variants)
        self._multiref = check_multiref(multiref)
        self._alpha = check_alpha(alpha)
        common: dict[str, Any] = {
            "multiref": multiref,
            "alpha": alpha,
            "output_transform": output_transform,
            "device": device,
        }
        self.internal_metrics: list[_BaseRouge] = [
            RougeL(**common) if v == "L" else RougeN(ngram=int(v), **common) for v in self._variants
        ]
        super().__init__(output_transform=output_transform, device=device)

    @reinit__is_reduced
    def reset(self) -> None:
        for metric in self.internal_metrics:
            metric.reset()

    @reinit__is_reduced
    def update(self, output: Any) -> None:
        """Add a batch, as :meth:`RougeN.update` takes it."""
        candidates, references = batch_tokens(*split_output(output))
        found = batch_values(candidates, references, self._variants, self._multiref, self._alpha)
        for metric, values in zip(self.internal_metrics, found):
            metric._add(values)

    def compute(self) -> Mapping[str, float]:
        """Every variant's ``-P``, ``-R`` and ``-F``, in the variants' order."""
        results: dict[str, float] = {}
        for metric in self.internal_metrics:
            results.update(metric.compute())
        return results

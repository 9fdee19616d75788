"""The reproducibility signature of a set of scores, as in sacrebleu.

A :class:`Signature` records everything that changes the numbers: the ROUGE
types, the tokenizer (its name, options and the versions of the packages it
relies on: an analyser and its dictionary), the stemming, how ROUGE-Lsum
finds sentences, ROUGE-W's weight, the multi-reference mode, the
bootstrap's settings and the approximate randomization test's (``ar``:
trials and seed) when they apply, and kurenai's version.  Two runs with
equal signatures give equal numbers.  ``str()`` gives the compact form::

    rouge:rouge1,rougeL|tok:whitespace|stem:no|split:newline|version:0.2.0
    rouge:rouge1|lang:de|tok:unicode|stem:german(pystemmer=3.1.0)|split:newline|version:0.2.0

:meth:`kurenai.rouge_scorer.RougeScorer.signature` makes one for a scorer;
``kurenai.metrics.Rouge.signature()`` and the command line (``--signature``
and the ``signature`` of JSON output) use it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Callable

from kurenai.tokenizers._protocol import own_name

__all__ = ["Bootstrap", "Randomization", "Signature", "describe"]


@dataclass(frozen=True)
class Bootstrap:
    """The resampling settings of bootstrap intervals (``paired``: a paired
    comparison with a baseline system); ``seed`` None: NumPy's global generator."""

    samples: int
    confidence: float
    seed: int | None = None
    paired: bool = False

    def __str__(self) -> str:
        """``boot:1000,0.95,seed:42`` (``paired:...`` for a comparison)."""
        seed = "none" if self.seed is None else self.seed
        kind = "paired" if self.paired else "boot"
        return f"{kind}:{self.samples},{self.confidence},seed:{seed}"


@dataclass(frozen=True)
class Randomization:
    """The settings of paired approximate randomization tests; ``seed`` None:
    NumPy's global generator."""

    trials: int
    seed: int | None = None

    def __str__(self) -> str:
        """``ar:10000,seed:42``."""
        seed = "none" if self.seed is None else self.seed
        return f"ar:{self.trials},seed:{seed}"


@dataclass(frozen=True)
class Signature:
    """What produced a set of ROUGE scores; ``str()`` is the compact form.

    ``tokenizer`` is the tokenizer's name and ``tokenizer_options`` the
    (key, value) pairs it reports (``signature_parts``); ``stemmer`` is
    ``no``, ``porter(nltk=...)`` or ``unknown`` (a tokenizer that does not
    say); ``split`` is ``newline``, ``sentences`` (kurenai's splitter) or a
    sentence splitter's qualified name.  ``rouge_w_weight`` is set only when
    a ROUGE-W type is scored, ``multi_ref_mode`` only when given, ``lang``
    (the language's code) only when ``lang=`` named one, ``paired_test`` only
    for paired tests under sacrebleu's conventions (``sacrebleu-bs``,
    ``sacrebleu-ar``: their generator is ``default_rng``, and ``seed:none``
    there means sacrebleu's default seed, 12345).
    """

    rouge_types: tuple[str, ...]
    tokenizer: str
    stemmer: str
    split: str
    version: str
    tokenizer_options: tuple[tuple[str, str], ...] = ()
    rouge_w_weight: float | None = None
    multi_ref_mode: str | None = None
    bootstrap: Bootstrap | None = None
    lang: str | None = None
    randomization: Randomization | None = None
    paired_test: str | None = None

    def fields(self) -> dict[str, str]:
        """The compact form's ``key: value`` items, in order.

        >>> Signature(("rouge1",), "char", "no", "newline", "X").fields()["tok"]
        'char'
        """
        tok = self.tokenizer
        if self.tokenizer_options:
            tok += "(" + ",".join(f"{k}={v}" for k, v in self.tokenizer_options) + ")"
        items = {"rouge": ",".join(self.rouge_types)}
        if self.lang is not None:
            items["lang"] = self.lang
        items |= {
            "tok": tok,
            "stem": self.stemmer,
            "split": self.split,
        }
        if self.rouge_w_weight is not None:
            items["w"] = repr(self.rouge_w_weight)
        if self.multi_ref_mode is not None:
            items["refs"] = self.multi_ref_mode
        if self.bootstrap is not None:
            kind, _, value = str(self.bootstrap).partition(":")
            items[kind] = value
        if self.randomization is not None:
            items["ar"] = str(self.randomization).partition(":")[2]
        if self.paired_test is not None:
            items["test"] = self.paired_test
        items["version"] = self.version
        return items

    def with_bootstrap(self, bootstrap: Bootstrap | None) -> Signature:
        """This signature with the bootstrap settings of a corpus report."""
        return dataclasses.replace(self, bootstrap=bootstrap)

    def with_randomization(self, randomization: Randomization | None) -> Signature:
        """This signature with the settings of approximate randomization tests."""
        return dataclasses.replace(self, randomization=randomization)

    def with_paired_test(self, test: str | None) -> Signature:
        """This signature naming the paired tests' convention (set for
        sacrebleu's: ``test:sacrebleu-bs``; kurenai's own are the default)."""
        return dataclasses.replace(self, paired_test=test)

    def __str__(self) -> str:
        """``rouge:...|tok:...|stem:...|split:...|...|version:...``."""
        return "|".join(f"{key}:{value}" for key, value in self.fields().items())


def describe(
    rouge_types: Sequence[str],
    tokenizer: Any,
    splitter: Callable[[str], list[str]] | None,
    rouge_w_weight: float,
    multi_ref_mode: str | None = None,
    lang: str | None = None,
) -> Signature:
    """The signature of scores computed with these settings (``splitter``
    None: ROUGE-Lsum's sentences are the lines; ``lang`` the code ``lang=``
    named)."""
    from kurenai import __version__  # the package root, loaded by now

    parts = _tokenizer_parts(tokenizer)
    name = parts.pop("name", None) or own_name(tokenizer)
    stemmer = parts.pop("stem", None) or "unknown"
    weighted = any(t.startswith("rougeW") for t in rouge_types)
    return Signature(
        rouge_types=tuple(rouge_types),
        tokenizer=name,
        stemmer=stemmer,
        split=_split_name(splitter),
        version=__version__,
        tokenizer_options=tuple((key, _quoted(value)) for key, value in parts.items()),
        rouge_w_weight=rouge_w_weight if weighted else None,
        multi_ref_mode=multi_ref_mode,
        lang=lang,
    )


def _tokenizer_parts(tokenizer: Any) -> dict[str, str]:
    method = getattr(tokenizer, "signature_parts", None)
    if not callable(method):
        return {}
    parts = method()
    if not isinstance(parts, dict):
        raise TypeError(
            f"{type(tokenizer).__name__}.signature_parts() must return a dict of str, "
            f"got {type(parts).__name__}"
        )
    return {str(key): str(value) for key, value in parts.items()}


def _quoted(value: str) -> str:
    """``value``, in double quotes if it holds a character of the compact form's syntax.

    >>> _quoted("A"), _quoted("-d /dic,x")
    ('A', '"-d /dic,x"')
    """
    if not any(c in value for c in '|,()=:"'):
        return value
    return '"' + value.replace('"', '\\"') + '"'


def _split_name(splitter: Callable[[str], list[str]] | None) -> str:
    if splitter is None:
        return "newline"
    from kurenai.sentences import punkt_sentences, split_sentences

    if splitter is split_sentences:
        return "sentences"
    if splitter is punkt_sentences:
        return "punkt"
    named = splitter if hasattr(splitter, "__qualname__") else type(splitter)
    return f"{getattr(named, '__module__', '')}.{named.__qualname__}"

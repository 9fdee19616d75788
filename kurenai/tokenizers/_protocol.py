"""What a tokenizer is: the one definition of the protocol, and the parts of
its reproducibility signature that every tokenizer here reports the same way.

Only ``tokenize`` is required (rouge-score's interface).  The optional
attributes below let kurenai go faster or say more, and each is read with a
safe default when absent.
"""

from __future__ import annotations

import importlib.metadata
from typing import Protocol, runtime_checkable

__all__ = ["Tokenizer", "distribution_version", "own_name", "scan_mode", "signature_text"]


@runtime_checkable
class Tokenizer(Protocol):
    """Anything with rouge-score's ``tokenize(text) -> list[str]``.

    Optional, read when present:

    - ``line_separable`` (class attribute, ``True``): a promise that
      ``tokenize(a + "\\n" + b) == tokenize(a) + tokenize(b)``; the scorer
      then tokenizes each line once for ROUGE-Lsum and the whole text.
    - ``scan_mode`` (declared by the tokenizer's *own* class, never
      inherited): a name of ``kurenai._data.rules.SCANS``, a promise that it
      tokenizes exactly as the compiled scan of that mode, with
    - ``stemmer``: None or ``token -> stem or None`` (None drops the token),
      applied by that scan to each token.
    - ``signature_parts() -> dict[str, str]``: what the reproducibility
      signature (``RougeScorer.signature()``) records about it: every
      setting and resource version that changes its tokens.  The key
      ``"name"`` is its name (default: its class's qualified name),
      ``"stem"`` how it stems (``"no"``; default ``"unknown"``); the other
      items are printed after the name, ``tok:jieba(jieba=0.42.1,hmm=yes)``.
    - ``load()``: load what the first ``tokenize`` would (a dictionary, a
      model) now; the command line calls it to time loading apart from
      scoring and to fail before writing anything.
    - ``tokenize_within(text, limit) -> list[str] | None``: ``tokenize(text)``
      if it has at most ``limit`` tokens, else None, stopping its work soon
      after the limit is passed.  A promise of exactness: None only when
      ``len(tokenize(text)) > limit``.  ``score_batch(max_tokens=...)``
      calls it instead of ``tokenize``.
    """

    def tokenize(self, text: str) -> list[str]: ...


def own_name(tokenizer: object) -> str:
    """``tokenizer``'s registered name, declared as ``name`` by its own class
    (a subclass may tokenize differently, so it is not inherited); else its
    class's qualified name.

    >>> class Mine:
    ...     pass
    >>> own_name(Mine())
    'kurenai.tokenizers._protocol.Mine'
    """
    cls = type(tokenizer)
    name = vars(cls).get("name")
    return name if isinstance(name, str) else f"{cls.__module__}.{cls.__qualname__}"


def scan_mode(tokenizer: object) -> str | None:
    """The compiled scan mode ``tokenizer`` declares, or None.

    Read from its own class only: a subclass may tokenize differently, and
    opts in by declaring ``scan_mode`` itself.
    """
    if "scan_mode" not in vars(type(tokenizer)):
        return None
    mode = getattr(tokenizer, "scan_mode", None)
    return mode if isinstance(mode, str) else None


def distribution_version(package: str) -> str:
    """The installed version of the pip package ``package``, read from its
    metadata (the package is not imported); ``"?"`` if it is not installed."""
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def signature_text(value: object) -> str:
    """An option's value as the signature prints it: ``yes``/``no`` for a bool.

    >>> signature_text(True), signature_text("A"), signature_text(3)
    ('yes', 'A', '3')
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)

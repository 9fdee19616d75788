"""What differs between the packages and versions that ``kurenai.compat``
reproduces: one ``Dialect`` each, looked up by (package, version).

* ``rouge==1.0.1`` (today's ``pip install rouge``): metrics ``rouge-1`` ...
  ``rouge-5`` and ``rouge-l``; stats in the order r, p, f; ``exclusive=True``
  by default, for n-grams and ROUGE-L alike.
* ``rouge==1.0.0``: only ``rouge-1``, ``rouge-2``, ``rouge-l``; stats in the
  order f, p, r; ``exclusive=False`` by default for n-grams, while its ROUGE-L
  is always exclusive whatever the argument.
* ``rouge-chinese==1.0.3``: 1.0.1's metrics, stats and default, but its own
  sentence cutting and a ROUGE-L that is the LCS of the whole word sequences
  (``exclusive`` does not touch it).
"""

from __future__ import annotations

from dataclasses import dataclass

from kurenai.compat._text import Splitter, chinese_sentences, dot_sentences

__all__ = ["DIALECTS", "Dialect", "dialect"]


@dataclass(frozen=True)
class Dialect:
    """The behaviour of one package version."""

    package: str
    version: str
    metrics: tuple[str, ...]
    stats: tuple[str, ...]
    exclusive: bool  # the constructor's default
    lcs: str  # "summary" (follows exclusive), "summary-exclusive" or "flat"
    sentences: Splitter

    @property
    def name(self) -> str:
        """``package==version``."""
        return f"{self.package}=={self.version}"


_RECENT = ("rouge-1", "rouge-2", "rouge-3", "rouge-4", "rouge-5", "rouge-l")
DIALECTS = {
    ("rouge", "1.0.1"): Dialect(
        "rouge", "1.0.1", _RECENT, ("r", "p", "f"), True, "summary", dot_sentences
    ),
    ("rouge", "1.0.0"): Dialect(
        "rouge",
        "1.0.0",
        ("rouge-1", "rouge-2", "rouge-l"),
        ("f", "p", "r"),
        False,
        "summary-exclusive",
        dot_sentences,
    ),
    ("rouge-chinese", "1.0.3"): Dialect(
        "rouge-chinese", "1.0.3", _RECENT, ("r", "p", "f"), True, "flat", chinese_sentences
    ),
}


def dialect(package: str, version: object) -> Dialect:
    """The dialect of ``package`` at ``version``; ValueError naming the known ones."""
    found = DIALECTS.get((package, version))  # type: ignore[arg-type]
    if found is None:
        known = ", ".join(repr(v) for p, v in DIALECTS if p == package)
        raise ValueError(f"unknown {package} version {version!r}; kurenai reproduces {known}")
    return found

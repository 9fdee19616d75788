"""A summary file as the script counts it: its words twice, as it reads it twice.

``whole`` holds the words of ``readText`` (ROUGE-N, ROUGE-S/SU, and the
unigram counts that clip ROUGE-L/W); ``units`` the words of each unit of
``readText_LCS`` (ROUGE-L/W).  They differ only under ``-b``, where the two
readers cut the text differently.
"""

from __future__ import annotations

import os
from typing import Callable, NamedTuple

from kurenai.rouge155._text import WORD, lcs_units, ngram_text, units
from kurenai.rouge155._tokenizer import Words

__all__ = ["Limits", "Summary", "SummaryError", "read_summary", "summary_of"]

# A cleaned unit (latin-1 text of the script's bytes) -> its words.
WordsOf = Callable[[str], list[str]]


class SummaryError(ValueError):
    """A summary file that cannot be read; ``errno`` as the script would exit."""

    def __init__(self, message: str, errno: int = 1) -> None:
        super().__init__(message)
        self.errno = errno


class Limits(NamedTuple):
    """``-l`` words and ``-b`` bytes (0: no limit), applied to every summary."""

    words: int = 0
    size: int = 0


class Summary(NamedTuple):
    """One summary's words, as the script's two readers give them.

    ``undefined``: under ``-l``/``-b`` the limit left ``readText`` no text
    (an empty summary), which the script reports on stderr each time it
    reads the file (``readText: PATH -> empty text``).
    """

    whole: list[str]
    units: list[list[str]]
    undefined: bool = False

    @property
    def joined(self) -> bool:
        """Whether ``whole`` is exactly the units' words one after another."""
        return self.whole == [word for unit in self.units for word in unit]


def summary_of(data: bytes, fmt: str, limits: Limits, words_of: WordsOf) -> Summary:
    """The words of a file's ``data`` in input format ``fmt`` (SEE, ISI, SPL)."""
    if fmt.upper() == "SPL" and limits.words == 0 and limits.size == 0 and plain(words_of):
        # The same words as below, without a call per unit: every non-empty
        # line is a unit, ASCII lower-cased (bytes.lower), its words WORD's.
        findall = WORD.findall
        per_unit = [findall(line) for line in data.lower().decode("latin-1").split("\n") if line]
        return Summary([word for unit in per_unit for word in unit], per_unit)
    sentences = units(data, fmt)
    if limits.words == 0 and limits.size == 0:
        per_unit = [words_of(s.decode("latin-1")) for s in sentences]
        return Summary([word for unit in per_unit for word in unit], per_unit)
    text = ngram_text(sentences, limits.words, limits.size)
    whole = [] if text is None else words_of(text.decode("latin-1"))
    cut = lcs_units(sentences, limits.words, limits.size)
    return Summary(whole, [words_of(s.decode("latin-1")) for s in cut], text is None)


def plain(words_of: WordsOf) -> bool:
    """Whether ``words_of`` is the script's words without ``-s`` or ``-m``."""
    return type(words_of) is Words and words_of.stopwords is None and words_of.stemmer is None


def read_summary(path: str, fmt: str, limits: Limits, words_of: WordsOf) -> Summary:
    """The file at ``path``, read and counted; a :class:`SummaryError` naming
    it if it cannot be read or is not UTF-8."""
    data = read_bytes(path)
    return summary_of(data, fmt, limits, words_of)


def read_bytes(path: str) -> bytes:
    """The bytes of ``path``, checked to be UTF-8 (the script reads bytes and
    would count the bytes of another encoding as separators, silently)."""
    try:
        # os.open/os.read: a run reads thousands of small files, and a
        # buffered file object costs more than the reading itself.
        fd = os.open(path, os.O_RDONLY)
        try:
            chunks = []
            while chunk := os.read(fd, 1 << 20):
                chunks.append(chunk)
        finally:
            os.close(fd)
        data = b"".join(chunks)
    except OSError as error:
        raise SummaryError(f"Cannot open {path}: {error.strerror}", error.errno or 2) from None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise SummaryError(
            f"{path} is not UTF-8 (byte {error.start}: {data[error.start : error.start + 1]!r})"
        ) from None
    return data


def exists(path: str) -> bool:
    """Whether the script's ``-e`` test finds ``path``."""
    return os.path.exists(path)

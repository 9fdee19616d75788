"""A built-in, offline sentence splitter for ROUGE-Lsum's ``split_summaries``.

rouge-score splits with ``nltk.sent_tokenize``, which needs a downloaded
model (``LookupError: punkt_tab`` on a fresh machine) and knows nothing of
``。！？``.  This splitter is deterministic and needs no data: a sentence ends
at a newline, after ``。！？!?``, or after ``.`` followed by whitespace or the
end of the text; closing quotes and brackets stay with their sentence.
"""

from __future__ import annotations

import re

__all__ = ["split_sentences"]

_CLOSERS = "\"'”’」』）)\\]】〕》〉｣»"
_SENTENCE_END = re.compile(
    rf"(?:[。！？!?]+|\.+(?=[{_CLOSERS}]*(?:\s|$)))[{_CLOSERS}]*"
)


def split_sentences(text: str) -> list[str]:
    """Split ``text`` into sentences, dropping surrounding whitespace.

    >>> split_sentences("今日は晴れ。明日は雨！ The cat sat. The dog ran.")
    ['今日は晴れ。', '明日は雨！', 'The cat sat.', 'The dog ran.']
    >>> split_sentences('He said "stop." Then\\nhe left')
    ['He said "stop."', 'Then', 'he left']
    """
    sentences: list[str] = []
    for line in text.split("\n"):
        start = 0
        for match in _SENTENCE_END.finditer(line):
            _append_stripped(sentences, line[start : match.end()])
            start = match.end()
        _append_stripped(sentences, line[start:])
    return sentences


def _append_stripped(sentences: list[str], piece: str) -> None:
    piece = piece.strip()
    if piece:
        sentences.append(piece)

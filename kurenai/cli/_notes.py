"""One-line notes and warnings on stderr about a likely mistake in the options.

Each looks at the options and at the first block of records only, and
prints at most one line (nothing with ``--quiet``).
"""

from __future__ import annotations

import argparse
import unicodedata
from collections.abc import Sequence

from kurenai.cli._files import stderr_line

__all__ = ["looks_unspaced", "note_lsum", "warn_unspaced"]

# Scripts written without spaces between words.
_UNSPACED = ("CJK", "HIRAGANA", "KATAKANA", "THAI", "LAO", "KHMER", "MYANMAR")
_SAMPLE = 200  # texts looked at


def note_lsum(args: argparse.Namespace, formats: Sequence[str]) -> None:
    """rougeLsum on one-line records is rougeL: say how to give it sentences."""
    escaped = args.newline_escape or args.split_summaries
    if "rougeLsum" in args.rouge_types and "text" in formats and not (escaped or args.quiet):
        stderr_line(
            "kurenai: note: one-line records have one sentence each, so rougeLsum "
            "equals rougeL; see --newline-escape, --split-summaries or JSONL input"
        )


def warn_unspaced(args: argparse.Namespace, texts: Sequence[str]) -> None:
    """The whitespace tokenizer on unspaced CJK or Thai scores whole lines as words."""
    if args.tokenizer == "whitespace" and not args.quiet and looks_unspaced(texts):
        stderr_line(
            "kurenai: warning: the texts look like Chinese, Japanese or Thai without spaces "
            "between words, which the default whitespace tokenizer takes as one word per "
            "run; use --tokenizer char (or mecab, sudachi, jieba)"
        )


def looks_unspaced(texts: Sequence[str]) -> bool:
    """Mostly CJK/Thai letters, in runs of 6+ characters between spaces on average.

    >>> looks_unspaced(["今日はとても良い天気だ"]), looks_unspaced(["今日 は とても 良い 天気 だ"])
    (True, False)
    >>> looks_unspaced(["the cat sat on the mat"])
    False
    """
    letters = unspaced = words = 0
    for text in texts[:_SAMPLE]:
        words += len(text.split())
        for char in text[:1000]:
            if char.isspace():
                continue
            letters += 1
            unspaced += unicodedata.name(char, "").startswith(_UNSPACED)
    return letters > 0 and unspaced >= letters / 2 and letters >= 6 * max(words, 1)

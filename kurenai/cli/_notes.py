"""One-line notes and warnings on stderr about a likely mistake in the options.

Each looks at the options and at the first block of records only, and
prints at most one line (nothing with ``--quiet``).
"""

from __future__ import annotations

import argparse
import re
import string
import unicodedata
from collections.abc import Sequence
from typing import Any

from kurenai.cli._files import stderr_line

__all__ = ["glued_punctuation", "looks_unspaced", "note_lsum", "note_texts", "warn_unspaced"]

# Scripts written without spaces between words.
_UNSPACED = ("CJK", "HIRAGANA", "KATAKANA", "THAI", "LAO", "KHMER", "MYANMAR")
_SAMPLE = 200  # texts looked at
_CHARS = 1000  # of each
# ASCII punctuation at the edge of an ASCII word: "sat." "hello," "(the"
_PUNCTUATION = r"[!-/:-@\[-`{-~]"
_GLUED = re.compile(
    rf"(?<!\S)\S*[A-Za-z0-9]{_PUNCTUATION}+(?!\S)|(?<!\S){_PUNCTUATION}+[A-Za-z0-9]\S*"
)


def note_lsum(args: argparse.Namespace, formats: Sequence[str]) -> None:
    """rougeLsum on one-line records is rougeL: say how to give it sentences."""
    escaped = args.newline_escape or args.split_summaries
    if "rougeLsum" in args.rouge_types and "text" in formats and not (escaped or args.quiet):
        stderr_line(
            "kurenai: note: one-line records have one sentence each, so rougeLsum "
            "equals rougeL; see --newline-escape, --split-summaries or JSONL input"
        )


def note_texts(
    args: argparse.Namespace, targets: Sequence[Any], predictions: Sequence[str]
) -> None:
    """The notes on the texts themselves, from the run's first block."""
    warn_unspaced(args, predictions)
    hint_rouge_score(args, [*predictions[:_SAMPLE], *targets[:_SAMPLE]])


def hint_rouge_score(args: argparse.Namespace, texts: Sequence[Any]) -> None:
    """The default tokenizer keeps punctuation on words, rouge-score drops it:
    say so, once, when ASCII texts have punctuation glued to words and no
    tokenizer (nor language) was chosen."""
    if getattr(args, "default_tokenizer", False) and not args.quiet:
        glued = glued_punctuation(texts)
        if glued is not None:
            word = glued[:20]
            stderr_line(
                f"kurenai: note: the default tokenizer (whitespace) keeps punctuation on words "
                f"({word!r} does not match {word.strip(string.punctuation)!r}); "
                "--tokenizer rouge-score gives rouge-score's numbers"
            )


def glued_punctuation(texts: Sequence[Any]) -> str | None:
    """The first word of ASCII punctuation glued to ASCII letters or digits
    in the ASCII texts among the first ones, else None (a text that is no
    str, a list of references, is read as its strings).

    >>> glued_punctuation(["the cat sat.", "x"]), glued_punctuation(["the cat sat", "a - b"])
    ('sat.', None)
    >>> glued_punctuation(["l'été, enfin."]) is None  # not ASCII: rouge-score drops é
    True
    """
    for item in texts[:_SAMPLE]:
        for text in [item] if isinstance(item, str) else item if isinstance(item, list) else ():
            sample = text[:_CHARS] if isinstance(text, str) else ""
            found = _GLUED.search(sample) if sample.isascii() else None
            if found is not None:
                return found.group()
    return None


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

"""The script's text path, on the bytes of a summary file.

ROUGE-1.5.5.pl reads files as bytes (no decoding): each unit (a line of an
SPL file, or the text of a SEE/ISI sentence element) is lower-cased with
``tr/A-Z/a-z/`` (ASCII only), the length limit is applied, ``-`` is split
off, every other byte outside ``[A-Za-z0-9]`` becomes a space, and the text
is split on whitespace; a token is kept only if it starts with
``[a-z0-9$]`` -- which drops exactly the ``-`` tokens, as ``$`` is already a
space by then.  So the words are the runs of ASCII ``[a-z0-9]``, and every
byte of a non-ASCII character separates.

The script reads each summary twice: ``readText`` (one text, for ROUGE-N,
ROUGE-S/SU and the unigram counts that clip ROUGE-L/W) and ``readText_LCS``
(a list of units, for ROUGE-L/W).  Both truncate to ``-l`` words or ``-b``
bytes, differently: :func:`ngram_text` and :func:`lcs_units` reproduce each.
"""

from __future__ import annotations

import re

__all__ = ["SUMMARY_FORMATS", "WORD", "lcs_units", "ngram_text", "perl_split", "units"]

# The input formats that carry text (the script's SIMPLE is for BE only).
SUMMARY_FORMATS = ("SEE", "ISI", "SPL")
# A word: what survives the script's cleanup and its [a-z0-9$] test.
WORD = re.compile(r"[a-z0-9]+")

# The script's element patterns (a SEE file is HTML, as pyrouge writes it).
_SEE = (
    re.compile(
        rb'<a size="[0-9]+" name="[0-9]+">\[([0-9]+)\]</a>\s+<a href="#[0-9]+" id=[0-9]+>([^<]+)'
    ),
    re.compile(rb'<a name="[0-9]+">\[([0-9]+)\]</a>\s+<a href="#[0-9]+" id=[0-9]+>([^<]+)'),
)
_ISI = re.compile(rb'<S SNTNO="[0-9a-z,]+">([^<]+)</S>')
# Perl's \s on bytes: space, \t, \n, \r, \f and \v (vertical tab).
_WHITESPACE = re.compile(r"[ \t\n\r\f\v]+")
_WHITESPACE_BYTES = re.compile(rb"[ \t\n\r\f\v]+")


def perl_split(text: str) -> list[str]:
    """Perl's ``split(/\\s+/, $text)``: a leading separator gives an empty
    first field, and trailing empty fields are dropped.

    >>> perl_split(" a b "), perl_split("   ")
    (['', 'a', 'b'], [])
    """
    fields = _WHITESPACE.split(text)
    while fields and fields[-1] == "":
        fields.pop()
    return fields


def _split_bytes(text: bytes) -> list[bytes]:
    fields = _WHITESPACE_BYTES.split(text)
    while fields and fields[-1] == b"":
        fields.pop()
    return fields


def units(data: bytes, fmt: str) -> list[bytes]:
    """The script's ``@sntList``: a file's units, ASCII lower-cased.

    SPL: every non-empty line, without its ``\\n`` (a ``\\r`` stays, as a
    separator).  SEE / ISI: the text of each line that starts with a
    sentence element, up to the next ``<``.  ``fmt`` is matched without case.

    >>> units(b"The Cat\\n\\n  sat.\\r\\n", "spl")
    [b'the cat', b'  sat.\\r']
    >>> units(b'<a name="1">[1]</a> <a href="#1" id=1>Hello World</a>\\n', "SEE")
    [b'hello world']
    """
    kind = fmt.upper()
    if kind == "SPL":
        return [line.lower() for line in data.split(b"\n") if line]
    pieces = data.split(b"\n")
    lines = [piece + b"\n" for piece in pieces[:-1]]
    if pieces[-1]:
        lines.append(pieces[-1])
    found: list[bytes] = []
    if kind == "SEE":
        for line in lines:
            match = _SEE[0].match(line) or _SEE[1].match(line)
            if match:
                found.append(match.group(2).lower())
    elif kind == "ISI":
        for line in lines:
            match = _ISI.match(line)
            if match:
                found.append(match.group(1).lower())
    else:
        raise ValueError(f"Unknown input format: {fmt}")
    return found


def ngram_text(sentences: list[bytes], words: int = 0, size: int = 0) -> bytes | None:
    """``readText``: the units joined by spaces, cut to ``words`` (``-l``) or
    ``size`` bytes (``-b``); None where the script's text is undefined (a
    limit left nothing).

    Words are counted by Perl's ``split(/\\s+/)`` of the raw unit (so a
    leading space counts as an empty word, and ``well-known`` as one); bytes
    by the units' lengths, without the joining spaces.  The unit that reaches
    the limit is cut and ends the text.
    """
    if words == 0 and size == 0:
        return b" ".join(sentences)
    text = b""
    used = 0
    for sentence in sentences:
        fields = _split_bytes(sentence) if words else []
        length = len(fields) if words else len(sentence)
        limit = words if words else size
        if used + length < limit:
            text += b" " + sentence if used else sentence
            used += length
            continue
        if used > 0:
            text += b" "
        text += _first_words(fields, words - used) if words else sentence[: size - used]
        break
    return text if text else None


def lcs_units(sentences: list[bytes], words: int = 0, size: int = 0) -> list[bytes]:
    """``readText_LCS``: the units up to ``words`` (``-l``) or ``size`` bytes
    (``-b``), the last one cut.

    Words are counted as in :func:`ngram_text`.  For bytes the script never
    adds up the units' lengths: every unit shorter than ``size`` is kept
    whole, and the first one that is not is cut to ``size`` bytes and ends
    the list.
    """
    if words == 0 and size == 0:
        return list(sentences)
    kept: list[bytes] = []
    used = 0
    for sentence in sentences:
        if words:
            fields = _split_bytes(sentence)
            if used + len(fields) < words:
                used += len(fields)
                kept.append(sentence)
                continue
            kept.append(_first_words(fields, words - used))
        else:
            if len(sentence) < size:
                kept.append(sentence)
                continue
            kept.append(sentence[:size])
        break
    return kept


def _first_words(fields: list[bytes], count: int) -> bytes:
    # Perl's @fields[0..count-1]: nothing when count <= 0.
    return b" ".join(fields[:count]) if count > 0 else b""

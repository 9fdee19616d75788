"""Helpers of the report tests: the data a page embeds, and small corpora."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

_DATA = re.compile(r'<script type="application/json" id="report-data">(.*?)</script>', re.DOTALL)

# English pairs with traps for a page: markup, a closing textarea, a comment opener.
ENGLISH = [
    ("The cat sat on the mat.\nIt was happy.", "the cat is on a mat", "a cat"),
    ("Running dogs run faster than cats.", "the dogs ran faster", "dogs running"),
    ("<script>alert('x')</script> is not code", "</script> is <b>text</b>", "code"),
    ("a </textarea> b <!-- c", "b </textarea> <!-- c a", "nothing"),
    ("Police killed the gunman.", "The gunman was killed by police.", "police gunman"),
]
# Japanese and Chinese, words separated by spaces (the whitespace tokenizer),
# with an astral-plane character (two UTF-16 units in the browser).
CJK = [
    ("東京 タワー に 行った", "東京 に 行った 😀", "タワー"),
    ("猫 は マット の 上 に いる", "猫 が マット に いる", "犬 が いる"),
    ("我 爱 北京 天安门", "我 爱 𠮷 北京", "北京"),
]


def page_data(path: Path) -> dict[str, Any]:
    """The JSON document a report page embeds."""
    match = _DATA.search(path.read_text(encoding="utf-8"))
    assert match is not None, "no report data in the page"
    return json.loads(match.group(1))  # type: ignore[no-any-return]


def utf16_spans(text: str, spans: list[tuple[int, int]]) -> list[int]:
    """``spans`` (code point offsets) as the page stores them: flat UTF-16 offsets."""

    def units(k: int) -> int:
        return len(text[:k].encode("utf-16-le")) // 2

    return [u for start, end in spans for u in (units(start), units(end))]

"""What the robustness test modules share: texts in many scripts, analysers.

A morphological tokenizer's package comes with the ``ja``/``zh``/``ko``/
``th``/``lo``/``km`` extras, which the ``test`` extra installs: missing, its tests are skipped on a
developer's machine but fail under ``CI``, where a skip would hide a broken
install.
"""

from __future__ import annotations

import importlib.util
import os

import pytest

from kurenai.tokenizers import available_tokenizers

# The named tokenizers and the package each needs (None: built in).
PACKAGES = {
    "burmese": None,
    "char": None,
    "jieba": "jieba",
    "khmer": "khmernltk",
    "kiwi": "kiwipiepy",
    "lao": "laonlp",
    "mecab": "fugashi",
    "rouge-score": None,
    "sudachi": "sudachipy",
    "thai": "pythainlp",
    "unicode": None,
    "whitespace": None,
}
NAMES = sorted(PACKAGES)
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]

# Pairs in the scripts every tokenizer is for, with stemmable English words,
# several lines (rougeLsum) and text no tokenizer keeps.
PAIRS = [
    ("The cats are running\nto the mats", "A cat ran to the mat"),
    ("今日はとても良い天気だ。\n明日は雨が降るでしょう。", "今日は天気が良い。明日は雨だ。"),
    ("今天天气很好。\n明天可能会下雨。", "今天天气不错，明天会下雨。"),
    ("오늘은 날씨가 아주 좋다.\n내일은 비가 올 것이다.", "오늘 날씨가 좋았다. 내일 비."),
    ("naïve café — Ünïcode ＡＢＣ１２３", "naive cafe unicode abc123"),
    ("ผมรักภาษาไทยมาก\nພາສາລາວ ខ្ញុំស្រលាញ់ភាសាខ្មែរ", "ผมรักภาษาไทย ພາສາ ខ្ញុំ"),
    ("မြန်မာနိုင်ငံ၏ သမ္မတ။\nကြေညာခဲ့သည်", "မြန်မာ သမ္မတ ကြေညာသည်။"),
    ("", "…!?"),
]


def require(name: str) -> None:
    """Skip if the package behind tokenizer ``name`` is missing, or fail under CI."""
    assert name in available_tokenizers(), name
    package = PACKAGES[name]
    if package is None or importlib.util.find_spec(package) is not None:
        return
    message = f"{package} is not installed (pip install -e '.[ja,zh,ko,th,lo,km]')"
    if os.environ.get("CI"):
        pytest.fail(f"CI must install the tokenizer extras: {message}")
    pytest.skip(message)

"""Text in the scripts written without spaces (Thai, Lao, Khmer), for the
tests of their tokenizers and ``benchmarks/bench_unspaced.py``.

``SENTENCES``: written sentences of each language, as news and everyday text
write them (spaces between phrases, numbers, Latin words, punctuation).
``analyser``: each package's own call, as the tokenizers make it.
``generated``: deterministic text made of each language's dictionary words
(PyThaiNLP's and LaoNLP's word lists; Khmer words from ``KHMER_WORDS``),
loose letters and marks of the script, digits, Latin, emoji, punctuation and
whitespace: what real text holds, in orders no sentence would.
"""

from __future__ import annotations

import random
import re
from functools import cache
from typing import Callable

SENTENCES = {
    "thai": [
        "รัฐบาลไทยประกาศมาตรการกระตุ้นเศรษฐกิจใหม่เมื่อวันจันทร์ที่ผ่านมา",
        "ผู้เชี่ยวชาญเตือนว่าฝุ่นละออง PM2.5 ในกรุงเทพมหานครสูงเกินมาตรฐานถึง 3 เท่า",
        "ธนาคารแห่งประเทศไทยคงอัตราดอกเบี้ยนโยบายไว้ที่ร้อยละ 2.50 ต่อปี",
        "การแข่งขันฟุตบอลนัดชิงชนะเลิศจะจัดขึ้นในวันเสาร์นี้ เวลา 19:30 น.",
        'นักวิจัยกล่าวว่า "ผลการทดลองเป็นที่น่าพอใจมาก" และจะตีพิมพ์ในเดือนหน้า',
        "ผมรักภาษาไทยมาก\nวันนี้อากาศดีจริงๆ",
    ],
    "lao": [
        "ພາສາລາວໃນປັດຈຸບັນ.",
        "ນະຄອນຫຼວງວຽງຈັນແມ່ນນະຄອນຫຼວງຂອງປະເທດລາວ",
        "ລັດຖະບານໄດ້ປະກາດມາດຕະການໃໝ່ ເພື່ອຊ່ວຍເຫຼືອປະຊາຊົນ 2024",
        "ສະບາຍດີ ຂ້ອຍມາຈາກປະເທດລາວ\nຂ້ອຍມັກກິນເຂົ້າໜຽວ",
    ],
    "khmer": [
        "ខ្ញុំស្រលាញ់ភាសាខ្មែរ",
        "ភ្នំពេញជារាជធានីនៃប្រទេសកម្ពុជា។",
        "រដ្ឋាភិបាលបានប្រកាសវិធានការថ្មី ដើម្បីជួយប្រជាពលរដ្ឋ ២០២៤",
        "សួស្តី ខ្ញុំឈ្មោះសុខា\nខ្ញុំចូលចិត្តញ៉ាំបាយ",
    ],
}
# Common Khmer words (khmer-nltk ships a model, not a word list).
KHMER_WORDS = [
    "ខ្ញុំ", "ស្រលាញ់", "ភាសា", "ខ្មែរ", "ប្រទេស", "កម្ពុជា", "រាជធានី", "ភ្នំពេញ",
    "រដ្ឋាភិបាល", "ប្រកាស", "ថ្មី", "ដើម្បី", "ជួយ", "ប្រជាពលរដ្ឋ", "សាលារៀន", "សៀវភៅ",
    "ទឹក", "បាយ", "ញ៉ាំ", "ចូលចិត្ត", "ធ្វើការ", "ថ្ងៃនេះ", "អាកាសធាតុ", "ល្អ",
]  # fmt: skip
# Letters, marks and digits of each script (their Unicode blocks' assigned code points).
SCRIPT_CHARACTERS = {
    "thai": [chr(c) for c in range(0x0E01, 0x0E5C) if not 0x0E3B <= c <= 0x0E3E],
    "lao": [chr(c) for c in range(0x0E81, 0x0EDC) if chr(c).isprintable()],
    "khmer": [chr(c) for c in range(0x1780, 0x17EA) if chr(c).isprintable()],
}
OTHERS = [
    " ", " ", "  ", "\n", "\t", "123", "3.14", "1,000", "12:30", "abc", "Running",
    "GPT-4", ".", ",", "!", "(", ")", '"', "-", "😀", "é", "\u0301", "\u200b",
]  # fmt: skip
LANGUAGES = sorted(SENTENCES)


@cache
def dictionary(language: str) -> tuple[str, ...]:
    """Words of ``language``'s dictionary (its analyser's package must be installed)."""
    if language == "thai":
        from pythainlp.corpus import thai_words

        return tuple(sorted(thai_words()))
    if language == "lao":
        from laonlp.corpus import lao_words

        return tuple(sorted(lao_words()))
    return tuple(KHMER_WORDS)


def generated(language: str, rng: random.Random, pieces: int) -> str:
    """A text of ``pieces`` pieces: mostly dictionary words, then loose
    characters of the script and the ``OTHERS``."""
    words, characters = dictionary(language), SCRIPT_CHARACTERS[language]
    out = []
    for _ in range(pieces):
        draw = rng.random()
        if draw < 0.6:
            out.append(rng.choice(words))
        elif draw < 0.8:
            out.append("".join(rng.choices(characters, k=rng.randint(1, 4))))
        else:
            out.append(rng.choice(OTHERS))
    return "".join(out)


def analyser(language: str) -> Callable[[str], list[str]]:
    """The analyser's own words of a text, as its package gives them to the
    tokenizer of ``language`` (khmer-nltk gets whitespace runs as one space)."""
    if language == "thai":
        from pythainlp.tokenize import word_tokenize

        return lambda text: word_tokenize(text, engine="newmm")  # type: ignore[no-any-return]
    if language == "lao":
        from laonlp.tokenize import word_tokenize as lao

        return lao  # type: ignore[no-any-return]
    from khmernltk import word_tokenize as khmer

    return lambda text: khmer(re.sub(r"\s+", " ", text))  # type: ignore[no-any-return]

"""Real-ish sentences in each of XL-Sum's scripts: a (target, prediction)
pair per script, for tests/compat/test_xlsum.py and benchmarks/bench_xlsum.py;
and the Bengali stemmer the reference package's wheel cannot build."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any, Callable

RULES = Path(__file__).resolve().parents[1] / "data" / "xlsum" / "bengali_common.rules"


def reference_bengali_stemmer() -> Callable[[], Callable[[str], str]]:
    """The package's Bengali stemmer (its own parser, RafiStemmer) on the
    upstream rules file, which its 0.0.1 wheel lacks: a class to put in
    ``multilingual_rouge.stemmers.LANG2STEMMER["bengali"]``."""
    from multilingual_rouge.bengali_stemmer import RafiStemmer

    rules = RULES.read_text(encoding="utf-8")

    def make() -> Callable[[str], str]:
        stemmer: Any = RafiStemmer(io.StringIO(rules))
        return stemmer.stem_word  # type: ignore[no-any-return]

    return make


SAMPLES = {
    "latin": (
        "The quick brown foxes were jumping over their lazy dogs, because it's 2021! Running...\n"
        "Les enfants jouaient dans le jardin; nous sommes arrivés à 10h30.",
        "Quick brown dogs jumped over the lazy foxes in 2021.\nLes enfants jouent au jardin.",
    ),
    "cyrillic": (
        "Президент России Владимир Путин заявил, что экономика растёт.\nЭто произошло в 2020 году.",
        "Путин заявил: экономика России растёт быстро.",
    ),
    "arabic": (
        "قال الرئيس إن الاقتصاد ينمو بسرعة، وذلك في عام ٢٠٢٠.\nهذه هي الأخبار.",
        "قال الرئيس إن الاقتصاد ينمو.",
    ),
    "devanagari": (
        "भारत के प्रधानमंत्री ने कहा कि लड़कियों की शिक्षा ज़रूरी है।\nयह 2021 में हुआ।",
        "प्रधानमंत्री ने लड़कियाँ और शिक्षा पर बात की।",
    ),
    "bengali": (
        "বাংলাদেশের প্রধানমন্ত্রী বলেছেন, তারা করেছিলেন সবকিছু।\nরহিমেরগুলোর দাম ১০ টাকা।",
        "প্রধানমন্ত্রী বলেছিলেন তারা সবকিছু করেছেন।",
    ),
    "gurmukhi": ("ਪੰਜਾਬ ਦੇ ਮੁੱਖ ਮੰਤਰੀ ਨੇ ਕਿਹਾ।", "ਮੁੱਖ ਮੰਤਰੀ ਨੇ ਕਿਹਾ ਕਿ ਪੰਜਾਬ।"),
    "gujarati": ("ગુજરાતના મુખ્યમંત્રીએ કહ્યું કે વિકાસ થશે.", "મુખ્યમંત્રીએ વિકાસ વિશે કહ્યું."),
    "tamil": ("தமிழ்நாடு முதல்வர் இன்று அறிவித்தார்.", "முதல்வர் அறிவித்தார் இன்று."),
    "telugu": ("తెలంగాణ ముఖ్యమంత్రి ప్రకటించారు.", "ముఖ్యమంత్రి ఈ రోజు ప్రకటించారు."),
    "sinhala": ("ශ්‍රී ලංකාවේ ජනාධිපති ප්‍රකාශ කළේය.", "ජනාධිපති අද ප්‍රකාශ කළේය."),
    "thai": ("นายกรัฐมนตรีประกาศว่าเศรษฐกิจกำลังเติบโต เมื่อวันที่ 5", "นายกรัฐมนตรี ประกาศ เศรษฐกิจ โต"),
    "burmese": (
        "မြန်မာနိုင်ငံ၏ နိုင်ငံတော်သမ္မတက ကြေညာခဲ့သည်။ ၂၀၂၁ ခုနှစ်",
        "နိုင်ငံတော်သမ္မတ ကြေညာသည်။",
    ),
    "han": (
        "中国人民银行今天宣布降息，经济发展迅速。\n會議在北京舉行。",
        "人民银行宣布降息。经济发展",
    ),
    "japanese": (
        "東京都は今日、新しい政策を発表しました。\nカタカナのテスト。",
        "東京都が政策を発表した。",
    ),
    "hangul": ("서울대학교 학생들이 오늘 시위를 했다.", "오늘 서울대학교 학생들이 시위했다."),
    "ethiopic": ("የኢትዮጵያ ጠቅላይ ሚኒስትር ዛሬ አስታወቁ።", "ጠቅላይ ሚኒስትሩ አስታወቁ።"),
    "greek": ("Ο πρωθυπουργός της Ελλάδας δήλωσε σήμερα.", "Ο πρωθυπουργός δήλωσε."),
}

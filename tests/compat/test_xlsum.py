"""kurenai.compat.xlsum against XL-Sum's own package (``multilingual_rouge``).

Every test scores the same texts with the package and with kurenai and wants
the same ``Score`` values (``==`` on floats), for each language XL-Sum lists
(by its names and aliases) and for ``lang=None``, with and without the
stemmer, for rouge1, rouge2, rougeL and rougeLsum.  Two things the package
needs are not on this machine, and both sides get the same stand-in:

- full UniDic for Japanese (a download): both sides' fugashi finds
  unidic-lite's dictionary instead (``unidic.DICDIR`` pointed at it);
- NLTK's stopwords corpus (a download) for the Snowball stemmers'
  ``ignore_stopwords=True``: both sides read, through NLTK's own corpus
  reader, the real lists where kurenai ships them (Snowball's, for danish,
  dutch, finnish, hungarian, italian, norwegian, russian and swedish) and a
  small stand-in list for every other language.

The package's wheel also lacks the Bengali stemmer's rules file; its own
parser reads the upstream file from ``tests/data/xlsum``.
"""

from __future__ import annotations

import logging
import warnings
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from optional import missing
from xlsum_samples import SAMPLES, nltk_stopwords, reference_bengali_stemmer

from kurenai.compat import xlsum
from kurenai.compat._xlsum_stemmers import shipped_stopwords
from kurenai.tokenizers import get_tokenizer

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]

# XL-Sum's 45 languages (its directory names), by script.
SCRIPTS: dict[str, str] = {
    "latin": "abcdefghijklmnopqrstuvwxyzçğışöüéèàâêñãõơưđạảấ",
    "cyrillic": "абвгдеёжзийклмнопрстуфхцчшщъыьэюяіїєґңүө",
    "arabic": "ابتثجحخدذرزسشصضطظعغفقكلمنهويءآأؤإئةپچژکگیےۓٹڈڑں",
    "devanagari": "अआइईउऊएऐओऔकखगघचछजझटठडढणतथदधनपफबभमयरलवशषसह" + "ािीुूेैोौंःँ्",
    "bengali": "অআইঈউঊএঐওঔকখগঘচছজঝটঠডঢণতথদধনপফবভমযরলশষসহড়ঢ়য়" + "ািীুূেৈোৌংঃঁ্",
    "gurmukhi": "ਅਆਇਈਉਊਏਐਓਔਕਖਗਘਚਛਜਝਟਠਡਢਣਤਥਦਧਨਪਫਬਭਮਯਰਲਵਸਹ" + "ਾਿੀੁੂੇੈੋੌਂੰ੍",
    "gujarati": "અઆઇઈઉઊએઐઓઔકખગઘચછજઝટઠડઢણતથદધનપફબભમયરલવશષસહ" + "ાિીુૂેૈોૌં્",
    "tamil": "அஆஇஈஉஊஎஏஐஒஓஔகஙசஞடணதநபமயரலவழளறன" + "ாிீுூெேைொோௌ்",
    "telugu": "అఆఇఈఉఊఎఏఐఒఓఔకఖగఘచఛజఝటఠడఢణతథదధనపఫబభమయరలవశషసహ" + "ాిీుూెేైొోౌం్",
    "sinhala": "අආඇඈඉඊඋඌඑඒඓඔඕකඛගඝචඡජඣටඨඩඪණතථදධනපඵබභමයරලවශෂසහළ" + "ාැෑිීුූෙේෛොෝෞං්",
    "thai": "กขคฆงจฉชซฌญฎฏฐฑฒณดตถทธนบปผฝพฟภมยรลวศษสหฬอฮ" + "ะัาำิีึืุูเแโใไ่้๊๋็์",
    "burmese": "ကခဂဃငစဆဇဈညဋဌဍဎဏတထဒဓနပဖဗဘမယရလဝသဟဠအဣဤဥဦဧဩဪ" + "ါာိီုူေဲံ့း်ျြွှ္၊။၀၁၂",
    "han": "中国人民银行今天宣布降息东京都政府會議經濟發展学校大学生",
    "japanese": "東京都はれですきょういいてんきカタカナテストの人が行った。",
    "hangul": "한국어문장서울대학교정부경제발전오늘날씨",
    "ethiopic": "ሀለሐመሠረሰሸቀበተቸኀነኘአከኸወዐዘዠየደጀገጠጨጰጸፀፈፐ" + "ሁሂሃሄህሆ፡።፣",
    "greek": "αβγδεζηθικλμνξοπρστυφχψωάέήίόύώ",
}
LANGUAGES: dict[str, str] = {
    **dict.fromkeys(
        [
            "english",
            "french",
            "hausa",
            "igbo",
            "indonesian",
            "kirundi",
            "oromo",
            "pidgin",
            "portuguese",
            "scottish_gaelic",
            "serbian_latin",
            "somali",
            "spanish",
            "swahili",
            "turkish",
            "uzbek",
            "vietnamese",
            "welsh",
            "yoruba",
            "azerbaijani",
        ],
        "latin",
    ),
    **dict.fromkeys(["russian", "ukrainian", "kyrgyz", "serbian_cyrillic"], "cyrillic"),
    **dict.fromkeys(["arabic", "persian", "pashto", "urdu"], "arabic"),
    **dict.fromkeys(["hindi", "marathi", "nepali"], "devanagari"),
    "bengali": "bengali",
    "punjabi": "gurmukhi",
    "gujarati": "gujarati",
    "tamil": "tamil",
    "telugu": "telugu",
    "sinhala": "sinhala",
    "thai": "thai",
    "burmese": "burmese",
    **dict.fromkeys(["chinese_simplified", "chinese_traditional"], "han"),
    "japanese": "japanese",
    "korean": "hangul",
    **dict.fromkeys(["amharic", "tigrinya"], "ethiopic"),
}
# Names of XL-Sum's package beyond its 45 (aliases, its canonical names,
# Snowball's other languages) and no language at all.
EXTRA_NAMES = ["bangla", "turkce", "chinese", "mundo", "german", "porter", "greek", None, ""]
# Stand-ins for NLTK's stopwords corpus (see the module docstring).
STOPWORDS = {
    "english": ["because", "their", "which", "were", "have", "about", "the"],
    "french": ["avec", "nous", "sont", "dans"],
    "spanish": ["porque", "estos", "sobre", "entre"],
    "portuguese": ["porque", "estes", "sobre", "entre"],
    "arabic": ["الذي", "التي", "هذه", "عندما"],
}


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The package's RougeScorer class, with the stand-ins installed on both sides."""
    try:
        from multilingual_rouge import rouge_scorer, stemmers
    except ImportError:
        missing("multilingual-rouge is not installed (the test extra)")
    try:
        import nltk.stem.snowball
        import unidic
        import unidic_lite
    except ImportError:
        missing("unidic/unidic-lite or nltk is not installed (the xlsum and test extras)")
    logging.getLogger("jieba").setLevel(logging.WARNING)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(unidic, "DICDIR", unidic_lite.DICDIR)
        lists = {
            language: shipped_stopwords(language) or STOPWORDS.get(language, ["zzzz"])
            for language in nltk.stem.snowball.SnowballStemmer.languages
        }
        corpus = nltk_stopwords(tmp_path_factory.mktemp("nltk_data"), lists, patch)
        patch.setattr(nltk.stem.snowball, "stopwords", corpus)
        patch.setitem(stemmers.LANG2STEMMER, "bengali", reference_bengali_stemmer())
        yield rouge_scorer.RougeScorer


def _pair(reference: Any, lang: str | None, stem: bool) -> tuple[Any, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = reference(TYPES, lang=lang, use_stemmer=stem)
        ours = xlsum.RougeScorer(TYPES, lang=lang, use_stemmer=stem)
    return theirs, ours


def _same(theirs: Any, ours: Any, target: str, prediction: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = theirs.score(target, prediction)
        got = ours.score(target, prediction)
    assert list(got) == list(expected)
    for rouge_type, score in expected.items():
        assert tuple(got[rouge_type]) == tuple(score), (rouge_type, target, prediction)


@pytest.mark.parametrize("stem", [False, True], ids=["plain", "stem"])
@pytest.mark.parametrize("lang", sorted(LANGUAGES) + EXTRA_NAMES)
def test_real_text_in_every_language(
    reference: Any, backend: str, lang: str | None, stem: bool
) -> None:
    theirs, ours = _pair(reference, lang, stem)
    for target, prediction in SAMPLES.values():
        _same(theirs, ours, target, prediction)
        _same(theirs, ours, prediction, target)
    _same(theirs, ours, "", "")
    _same(theirs, ours, "...", "a")


def _texts(script: str) -> st.SearchStrategy[str]:
    alphabet = (
        SCRIPTS[script] + SCRIPTS["latin"][:6] + "0123456789 .,!?-'\"()\n\t\u200b\u200c\u00a0。、"
    )
    return st.text(st.sampled_from(alphabet), max_size=60)


@pytest.mark.parametrize("stem", [False, True], ids=["plain", "stem"])
@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_generated_text_in_each_script(reference: Any, lang: str, stem: bool) -> None:
    theirs, ours = _pair(reference, lang, stem)
    texts = _texts(LANGUAGES[lang])

    @settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
    @given(texts, texts)
    def check(target: str, prediction: str) -> None:
        _same(theirs, ours, target, prediction)

    check()


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.text(max_size=40), st.text(max_size=40), st.booleans())
def test_any_unicode_without_a_language(
    reference: Any, target: str, prediction: str, stem: bool
) -> None:
    # Every code point: the sanitizer's classes, pyonmttok and the Han split.
    theirs, ours = _pair(reference, None, stem)
    _same(theirs, ours, target, prediction)


def test_callables_replace_the_segmenter_and_the_stemmer(reference: Any) -> None:
    def split_twice(text: str) -> list[str]:
        return text.split() * 2

    def first_two(token: str) -> str:
        return token[:2]

    kwargs = {"callable_tokenizer": split_twice, "callable_stemmer": first_two, "use_stemmer": True}
    theirs = reference(TYPES, lang="thai", **kwargs)
    ours = xlsum.RougeScorer(TYPES, lang="thai", **kwargs)
    for target, prediction in SAMPLES.values():
        _same(theirs, ours, target, prediction)


def test_the_harness_sees_a_difference(reference: Any) -> None:
    # Negative control: the package's Chinese against kurenai's lang=None
    # (pyonmttok and one token per character instead of jieba's words).
    theirs = reference(TYPES, lang="chinese")
    ours = xlsum.RougeScorer(TYPES)
    target, prediction = SAMPLES["han"]
    with pytest.raises(AssertionError):
        _same(theirs, ours, target, prediction)


def test_the_rouge_types_are_checked_when_scoring(reference: Any) -> None:
    for bad in (["rougeX"], ["rouge0"], ["rouge10"]):
        ours = xlsum.RougeScorer(bad)
        theirs = reference(bad)
        with pytest.raises(ValueError) as expected:
            theirs.score("a", "a")
        with pytest.raises(ValueError, match=str(expected.value)):
            ours.score("a", "a")
    assert (
        xlsum.RougeScorer(["rouge1\n"]).score("a b", "a")["rouge1\n"]
        == reference(["rouge1\n"]).score("a b", "a")["rouge1\n"]
    )


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.text(st.sampled_from(SCRIPTS["burmese"] + " abc,.\u200c\u1037\u103a"), max_size=50))
def test_the_burmese_tokenizer_segments_as_xlsum(reference: Any, text: str) -> None:
    from multilingual_rouge import tokenization_wrapper
    from multilingual_rouge.rouge_scorer import MultiTokenizer

    expected = tokenization_wrapper.tokenize(text, None, MultiTokenizer("burmese"))
    assert get_tokenizer("burmese").tokenize(text) == expected


@pytest.mark.slow
def test_the_analysers_run_in_worker_processes_with_the_same_scores() -> None:
    # score_batch(n_jobs=2) of enough pairs sends chunks to kurenai's workers.
    target, prediction = SAMPLES["han"]
    targets = [target[i % 7 :] for i in range(1200)]
    predictions = [prediction[: 5 + i % 9] for i in range(1200)]
    scorer = xlsum.RougeScorer(TYPES, lang="chinese_simplified")
    assert scorer._in_workers(len(targets))
    assert scorer.score_batch(targets, predictions, n_jobs=2) == [
        scorer.score(t, p) for t, p in zip(targets, predictions)
    ]


def test_a_scorer_with_callables_stays_in_this_process() -> None:
    scorer = xlsum.RougeScorer(TYPES, lang="thai", callable_tokenizer=str.split)
    assert not scorer._in_workers(5000)
    assert scorer.score_batch(["a b"], ["a"], n_jobs=4) == [scorer.score("a b", "a")]
    with pytest.raises(ValueError, match="1 targets but 2 predictions"):
        scorer.score_batch(["a"], ["a", "b"])


@pytest.mark.parametrize(
    "types",
    [[], ["rougeLsum"], ["rougeL"], ["rouge3", "rougeLsum", "rouge1"], ["rougeLsum", "rougeLsum"]],
)
@pytest.mark.parametrize(
    ("lang", "stem"), [(None, True), ("arabic", True), ("chinese", False), ("japanese", False)]
)
def test_any_choice_and_order_of_types(
    reference: Any, types: list[str], lang: str | None, stem: bool
) -> None:
    # Each type list takes its own path through the counts; NLTK's Arabic
    # stemmer (stateful) also sees the package's order of calls.
    theirs = reference(types, lang=lang, use_stemmer=stem)
    ours = xlsum.RougeScorer(types, lang=lang, use_stemmer=stem)
    for target, prediction in [*SAMPLES.values(), ("", "a"), ("\n\n", "\n")]:
        _same(theirs, ours, target, prediction)


# Japanese without a stemmer counts MeCab's output as text (_xlsum_fused).
# Its alphabet: what the sanitizer deletes or splits at, line breaks and
# empty lines, characters whose lowercase is special (final sigma, dotted I).
_JAPANESE = st.text(
    st.sampled_from(SCRIPTS["japanese"] + "ABCΣΑİß 0123\n\n\t.,。、「」\u200b\x1c\x85\u2028\u3000"),
    max_size=50,
)


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(_JAPANESE, _JAPANESE, st.sampled_from([TYPES, ["rougeLsum"], ["rouge2", "rougeL"]]))
def test_japanese_counts_mecabs_text_as_the_package_splits_it(
    reference: Any, target: str, prediction: str, types: list[str]
) -> None:
    theirs = reference(types, lang="japanese")
    ours = xlsum.RougeScorer(types, lang="japanese")
    assert ours._wakati is not None
    _same(theirs, ours, target, prediction)


def test_the_wakati_path_is_taken_only_where_it_applies() -> None:
    assert xlsum.RougeScorer(TYPES, lang="japanese")._wakati is not None
    for kwargs in (
        {"use_stemmer": True},
        {"callable_tokenizer": str.split},
        {"rouge_types": ["rouge1", "rouge1"]},
        {"rouge_types": ["rouge1\n"]},
        {"rouge_types": []},
        {"lang": "chinese"},
    ):
        arguments: dict[str, Any] = {"rouge_types": TYPES, "lang": "japanese", **kwargs}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert xlsum.RougeScorer(**arguments)._wakati is None, kwargs


def test_a_segmenter_that_finds_nothing_falls_back_as_the_package_does() -> None:
    from kurenai.compat._xlsum_fused import WakatiScores

    silent = WakatiScores(TYPES, lambda text: " ")
    assert silent.score("東京", "東京") is None
    assert silent.score("", "...") == xlsum.RougeScorer(TYPES).score("", "...")


def test_the_wakati_harness_sees_a_difference(reference: Any) -> None:
    # Negative control: MeCab's output with its last token dropped.
    from kurenai.compat._xlsum_fused import WakatiScores
    from kurenai.compat._xlsum_tokens import wakati

    write = wakati("japanese")
    assert write is not None
    ours = xlsum.RougeScorer(TYPES, lang="japanese")
    ours._wakati = WakatiScores(TYPES, lambda text: " ".join(write(text).split()[:-1]))
    target, prediction = SAMPLES["japanese"]
    with pytest.raises(AssertionError):
        _same(reference(TYPES, lang="japanese"), ours, target, prediction)


def test_lowercasing_is_idempotent_on_every_code_point() -> None:
    # The wakati path hands lowercased text to scorers that lowercase again.
    changed = [
        hex(code)
        for code in range(0x110000)
        if not 0xD800 <= code < 0xE000 and chr(code).lower().lower() != chr(code).lower()
    ]
    assert changed == []

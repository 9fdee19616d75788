"""kurenai's Punkt (``kurenai._punkt`` and its twin) against NLTK's ``PunktSentenceTokenizer``.

The product is exactness: for the same tables, ``tokenize`` must return
NLTK's list, ``==``.  Texts: generated from pieces rich in Punkt's hard cases
(the model's abbreviations, sentence starters and collocations, initials,
ordinals and numbers, ellipses, ``?!``, quotes and brackets after a period,
line breaks, tabs and the whitespace on which ``str.isspace``, ``re`` and
NLTK's ``regex`` engine disagree, non-ASCII letters and digits, upper- and
lower-case starts), any text at all, SciTLDR-like generated English and the
English texts in tests/data.  The negative control: with one table changed,
kurenai follows NLTK built from the changed table, and the comparison finds a
text where that split differs from the English model's.
"""

from __future__ import annotations

import random
from collections import defaultdict
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.english_text import english_texts
from support.optional import missing

from kurenai import _punkt_py, sentences

try:
    from kurenai import _punkt
except ImportError:  # the pure-Python run
    _punkt = None  # type: ignore[assignment]

DATA = Path(__file__).resolve().parents[1] / "data"
MODULES = [
    pytest.param(_punkt_py, id="python"),
    pytest.param(_punkt, id="compiled", marks=pytest.mark.compiled_only),
]


def _english() -> Any:
    try:
        return sentences._english_params()
    except ImportError as error:
        missing(f"NLTK's punkt model is not installed (the punkt extra): {error}")


@pytest.fixture(scope="module")
def params() -> Any:
    return _english()


@pytest.fixture(scope="module")
def rules() -> Any:
    import nltk

    _english()
    if not nltk.__version__.startswith("3.10."):
        # Python 3.9 gets at most NLTK 3.9, whose Punkt compiles its patterns
        # with ``re``: kurenai splits with NLTK's own code there (tested by
        # test_another_nltk_gets_nltks_own_tokenizer).
        pytest.skip(f"kurenai reproduces NLTK 3.10's Punkt; this is NLTK {nltk.__version__}")
    found = sentences._nltk_rules()
    assert found is not None, "NLTK 3.10's Punkt is no longer the one kurenai reproduces"
    return found


@pytest.fixture(scope="module")
def nltk_english() -> Any:
    _english()
    return sentences._nltk_punkt_english()


@pytest.fixture(scope="module", params=MODULES)
def ours(request: pytest.FixtureRequest, params: Any, rules: Any) -> Any:
    module: ModuleType = request.param
    return module.PunktSplitter(params, rules)


def _pieces() -> list[str]:
    """Words and marks of Punkt's hard cases, from the English model's own tables."""
    from punkt.data import english

    rng = random.Random(5)
    abbreviations = sorted(english.ABBREV_TYPES)
    starters = sorted(english.SENT_STARTERS)
    collocations = sorted(english.COLLOCATIONS)
    words = [f"{a}." for a in rng.sample(abbreviations, 25)]
    words += [f"{a.capitalize()}." for a in rng.sample(abbreviations, 10)]
    words += ["dr.", "Dr.", "e.g.", "i.e.", "U.S.", "u.s.", "p.m.", "etc.", "No.", "Mr.", "vs."]
    words += [s.capitalize() for s in rng.sample(starters, 12)] + rng.sample(starters, 5)
    for first, second in rng.sample(collocations, 8):
        words += [f"{first.capitalize()}.", second.capitalize(), second]
    # Orthographic evidence: words seen only upper-case, only lower-case, both.
    words += [w for w, _ in sorted(english.ORTHO_CONTEXT.items())[::997]][:20]
    words += ["J.", "K.", "a.", "Z.", "É.", "3.", "12.", "No. 5", "1,000.", "-3.5", ".5", "3.14"]
    words += ["The", "the", "It", "it", "Smith", "smith", "He", "she", "Bach", "model", "Über"]
    words += ["élan", "Ça", "ßtraße", "İstanbul", "ǅemal", "٣.", "𑛑.", "é\u0301.", "Ⅻ.", "x²."]
    marks = [".", ".", ".", "?", "!", "?!", "...", "..", ". . .", ". . . .", "--", "-", ",", ";"]
    marks += [":", '"', "'", ")", "(", "]", "[", "}", "{", "“", "”", "‘", "’", "«", "»", "`"]
    marks += ['."', ".'", ".)", '.")', "?)", "!”", ".»", "&", "#", "*", "@", "%", ",,"]
    spaces = [" ", " ", " ", " ", "  ", "\t", "\n", "\n\n", "\r\n", " \n ", "\x0b", "\x0c"]
    spaces += ["\xa0", "\u2028", "\x85", "\x1c", "\x1f", "\u3000", "\u200b", "\r"]
    return words + marks + spaces


try:
    PIECES = _pieces()
except ImportError:  # the punkt extra is missing: the fixtures say so
    PIECES = [""]
hard_texts = st.lists(st.sampled_from(PIECES), max_size=24).map("".join)
spaced_texts = st.lists(st.sampled_from(PIECES), max_size=16).map(" ".join)
any_texts = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=30) | st.text(
    st.sampled_from(list(".?!\"')(]-, \n\t\xa0\x1cAaJ3é…")), max_size=30
)


def _real_english() -> list[str]:
    """The English texts of tests/data: RealSumm's references and system
    summaries (CNN/DailyMail, lower-cased), a blog post."""
    import json

    texts = [(DATA / "compat" / "seed_003_pltrdy_blog.txt").read_text(encoding="utf-8")]
    for name, field in (("references.jsonl", "reference"), ("judgments.jsonl", "prediction")):
        with open(DATA / "realsumm" / name, encoding="utf-8") as lines:
            texts += [json.loads(line)[field] for line in lines]
    # The same texts on one line each, and with sentence starts capitalised.
    texts += [text.replace("\n", " ") for text in texts]
    texts += [". ".join(part.strip().capitalize() for part in text.split(" .")) for text in texts]
    return texts


CORNERS = [
    "",
    " ",
    " \n\t ",
    ".",
    "?!",
    "...",
    "Hello.",
    " Hello. World",
    "a. b. c",
    "(Sent1.) Sent2.",
    '"Stop." He left.',
    "He said “yes.” Then left.",
    "Mr. Smith went to Washington. He arrived at 3 p.m. on Monday.",
    "J. K. Rowling wrote it. The end.",
    "It costs No. 5 now. Next. 3. Then.",
    "Very bad acting!!! I promise.",
    "Wait... What? Really?! Yes.",
    "End. . . . Start again.",
    "One.\n\nTwo.\nthree. Four",
    "See e.g. the U.S. economy. It grew.",
    "A sentence.) ) Another.",
    'Quote.")-- more text.',
    "Dots.. two. x",
    "Tab.\tNext.\x0bVertical.\x0cFeed.",
    "Nbsp.\xa0Next. Sep.\u2028Line. Ctl.\x1cX. Ideo.\u3000Next.",
    "Trailing space.   ",
    "Leading.   \n  ",
    "Ünïcödé. Ärger. öl. İ. ǅ.",
    "Initial É. Bach and J. bach. A. The.",
    "The year 1999. in 2000. The end.",
]


def _check(ours: Any, reference: Any, text: str) -> None:
    assert ours.tokenize(text) == reference.tokenize(text), repr(text)


def test_corner_cases_split_as_nltk(ours: Any, nltk_english: Any) -> None:
    for text in CORNERS:
        _check(ours, nltk_english, text)


def test_real_and_generated_english_split_as_nltk(ours: Any, nltk_english: Any) -> None:
    texts = _real_english() + english_texts(300)
    found = [ours.tokenize(text) for text in texts]
    assert found == [nltk_english.tokenize(text) for text in texts]
    assert sum(map(len, found)) > 2 * len(texts)  # the texts do have sentences to find


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=hard_texts | spaced_texts)
def test_hard_cases_split_as_nltk(ours: Any, nltk_english: Any, text: str) -> None:
    _check(ours, nltk_english, text)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=any_texts)
def test_any_text_splits_as_nltk(ours: Any, nltk_english: Any, text: str) -> None:
    _check(ours, nltk_english, text)


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(context=hard_texts)
def test_context_decisions_are_nltks(ours: Any, nltk_english: Any, context: str) -> None:
    assert ours.contains_break(context) == nltk_english.text_contains_sentbreak(context)


def test_spans_are_nltks(ours: Any, nltk_english: Any) -> None:
    for text in CORNERS:
        assert ours.spans(text) == list(nltk_english.span_tokenize(text))


def _perturbed(params: Any) -> Any:
    """The English tables without the abbreviations of "dr", "e.g" and "u.s"
    and with no orthographic evidence for "the"."""
    from nltk.tokenize.punkt import PunktParameters

    changed = PunktParameters()
    changed.abbrev_types = set(params.abbrev_types) - {"dr", "e.g", "u.s"}
    changed.collocations = set(params.collocations)
    changed.sent_starters = set(params.sent_starters)
    changed.ortho_context = defaultdict(int, params.ortho_context)
    changed.ortho_context.pop("the", None)
    return changed


def test_negative_control_other_tables_split_otherwise(
    ours: Any, params: Any, rules: Any, nltk_english: Any
) -> None:
    from nltk.tokenize.punkt import PunktSentenceTokenizer

    changed = _perturbed(params)
    theirs = PunktSentenceTokenizer(changed)
    mine = type(ours)(changed, rules)
    texts = CORNERS + english_texts(200) + _real_english()
    differing = [text for text in texts if mine.tokenize(text) != nltk_english.tokenize(text)]
    assert differing  # the comparison does see a change of tables...
    for text in texts:
        _check(mine, theirs, text)  # ...and kurenai follows NLTK's tables, whatever they are


def test_the_tables_are_copied(params: Any, rules: Any, ours: Any) -> None:
    changed = _perturbed(params)
    splitter = type(ours)(changed, rules)
    before = splitter.tokenize("See Dr. Who. He came.")
    changed.abbrev_types.add("dr")
    assert splitter.tokenize("See Dr. Who. He came.") == before


def test_punkt_sentences_is_the_fast_splitter_and_nltks_split(
    nltk_english: Any, rules: Any
) -> None:
    from kurenai import _backend

    assert isinstance(sentences._punkt_english(), _backend.punkt.PunktSplitter)
    for text in CORNERS:
        assert sentences.punkt_sentences(text) == nltk_english.tokenize(text)


def test_another_nltk_gets_nltks_own_tokenizer(
    monkeypatch: pytest.MonkeyPatch, params: Any
) -> None:
    import nltk
    from nltk.tokenize.punkt import PunktSentenceTokenizer

    sentences._nltk_rules.cache_clear()
    monkeypatch.setattr(nltk, "__version__", "3.11.0")
    try:
        assert type(sentences.punkt_tokenizer(params)) is PunktSentenceTokenizer
    finally:
        sentences._nltk_rules.cache_clear()


def test_other_patterns_get_nltks_own_tokenizer(
    monkeypatch: pytest.MonkeyPatch, params: Any, rules: Any
) -> None:
    # NLTK 3.10 with one pattern changed (a later patch release, say): the
    # fingerprint differs, so NLTK's own code splits.
    from nltk import redos
    from nltk.tokenize import punkt
    from nltk.tokenize.punkt import PunktSentenceTokenizer

    sentences._nltk_rules.cache_clear()
    changed = redos.compile(r"\.\.\.+$")  # was: two periods or more
    monkeypatch.setattr(punkt.PunktToken, "_RE_ELLIPSIS", changed)
    try:
        assert type(sentences.punkt_tokenizer(params)) is PunktSentenceTokenizer
    finally:
        sentences._nltk_rules.cache_clear()


@pytest.mark.compiled_only
def test_the_compiled_decision_is_the_twins(params: Any, rules: Any) -> None:
    tables = _punkt_py.tables_of(params)
    tokens = [*PIECES, *(f"{word}." for word in sorted(tables.sent_starters))]
    facts = [_punkt_py.token_facts(token, tables, rules) for token in tokens if token.strip()]
    assert len({fact[:6] for fact in facts}) > 20 and len({fact[6:] for fact in facts}) > 20
    for first in facts:
        for second in facts:
            expected = _punkt_py.breaks_between(first, second, tables.collocations)
            assert _punkt.breaks_between(first, second, tables.collocations) == expected


def test_threads_share_a_splitter(params: Any, rules: Any, ours: Any, nltk_english: Any) -> None:
    import sys
    from concurrent.futures import ThreadPoolExecutor

    texts = english_texts(150, seed=3) + CORNERS * 3
    splitter = type(ours)(params, rules)  # its facts filled by the threads, concurrently
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        with ThreadPoolExecutor(4) as pool:
            found = list(pool.map(splitter.tokenize, texts))
    finally:
        sys.setswitchinterval(interval)
    assert found == [nltk_english.tokenize(text) for text in texts]


@pytest.mark.parametrize("value", [None, b"One. Two.", 3, ["One. Two."]])
def test_what_is_not_text_is_refused_as_nltk_refuses_it(
    ours: Any, nltk_english: Any, value: Any
) -> None:
    with pytest.raises(TypeError):
        nltk_english.tokenize(value)
    with pytest.raises(TypeError):
        ours.tokenize(value)


def test_many_distinct_characters_and_tokens(ours: Any, nltk_english: Any) -> None:
    # More distinct non-ASCII code points than the compiled splitter remembers
    # the whitespace class of, and distinct tokens at sentence ends.
    wide = "".join(chr(code) for code in range(0x4E00, 0x4E00 + 6000))
    text = f"Start. {wide}. Next \u2003{wide[:50]}.\u2003 " + " ".join(
        f"W{index}. w{index}." for index in range(3000)
    )
    _check(ours, nltk_english, text)


def test_period_dense_text_holds_no_more_than_its_output(ours: Any, nltk_english: Any) -> None:
    """Each slice is realigned as soon as the next one is known and goes
    straight to the output: beyond the list returned (whose growth may hold
    its old and new arrays at once), a split holds one sentence's worth, not
    ~130 bytes per input character (the slices, then the spans, then the
    sentences, all held together)."""
    import sys
    import tracemalloc

    text = ". " * 100_000  # 100,000 one-character sentences
    assert ours.tokenize(text[:2000]) == nltk_english.tokenize(text[:2000])
    tracemalloc.start()
    try:
        found = ours.tokenize(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert found == ["."] * 100_000
    output = sys.getsizeof(found)  # the sentences are Python's cached one-character strings
    assert peak < 3 * output + (256 << 10), (peak >> 10, output >> 10)

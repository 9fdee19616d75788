"""kurenai.compat.xlsum against XL-Sum's package (``multilingual_rouge``), per
language, in one run.

    python benchmarks/bench_xlsum.py [--texts fresh|samples] [--pairs 200] [--repeats 5]
                                     [--langs english ...] [--tiny]

Needs the ``xlsum`` extra (and ``bench``, for Faker).  ``--texts fresh``
(the default): for each of 13 languages with a word list of their own in
Faker (:data:`_text.FAKER_LOCALES`; none runs an analyser), ``--pairs``
pairs of new paragraphs in each round (3-4 sentences of 10-25 words a side,
SciTLDR's shape; no round repeats a text: :func:`pairs`), without the
stemmer, and with it where both sides can stem without NLTK's ``stopwords``
corpus (Porter, ``lang=None``, on the English paragraphs; every Snowball
language too when the corpus is installed).  Loading (building both scorers)
is timed apart.  Target: >= 10x on every language.

``--texts samples`` (a checkout only: it reads tests/compat's samples): for
each language, ``--pairs`` summary pairs of about 40 words (XL-Sum's
summaries' length) are made from real sentences of the language's script,
their words shuffled (a fixed seed).  Both scorers score rouge1, rouge2,
rougeL and rougeLsum; the results are first checked equal.  Printed per
language: the package's and kurenai's seconds (medians of interleaved
repeats), the ratio, and where an analyser runs (jieba, MeCab, pythainlp) the
analyser's own seconds on the same sanitized texts and kurenai's time as a
multiple of it.  Targets: >= 10x where no analyser runs; <= 1.25x the
analyser's own time where one does.

Japanese runs on unidic-lite when full UniDic is not downloaded (both sides).
Snowball's languages are timed without the stemmer (NLTK's stopwords corpus is
a download); Porter (no language), Hindi, Bengali and Turkish with it.
``--tiny``: two pairs per language, the package not timed.
"""

from __future__ import annotations

import argparse
import logging
import random
import statistics
import sys
import time
import warnings
from pathlib import Path
from typing import Any, Callable

from _common import add_common_options, header, interleaved, run_child
from _text import FAKER_LOCALES, fresh_pairs, text_source

REPO = Path(__file__).resolve().parents[1]

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
# language -> (its script's pair in tests/compat/xlsum_samples.py, stem?)
LANGS = {
    None: ("latin", True),
    "english": ("latin", False),
    "russian": ("cyrillic", False),
    "arabic": ("arabic", False),
    "hindi": ("devanagari", True),
    "bengali": ("bengali", True),
    "turkish": ("latin", True),
    "tamil": ("tamil", False),
    "amharic": ("ethiopic", False),
    "korean": ("hangul", False),
    "burmese": ("burmese", False),
    "chinese": ("han", False),
    "japanese": ("japanese", False),
    "thai": ("thai", False),
}
ANALYSED = {"chinese", "japanese", "thai"}


def pairs(count: int, seed: int, locale: str = "en_US") -> tuple[list[str], list[str]]:
    """Round ``seed``'s fresh pairs in ``locale`` (the benchmarks' fresh-text
    hook): (predictions, references), no text of another round."""
    return fresh_pairs(count, seed=1_000 * seed, locale=locale)


def _samples() -> Any:
    if str(REPO / "tests" / "compat") not in sys.path:
        sys.path.insert(0, str(REPO / "tests" / "compat"))
    import xlsum_samples

    return xlsum_samples


def _texts(script: str, pairs: int, seed: int) -> list[tuple[str, str]]:
    SAMPLES = _samples().SAMPLES

    target, prediction = SAMPLES[script]
    unspaced = script in ("han", "japanese", "thai", "burmese")
    units = (
        list((target + prediction).replace("\n", ""))
        if unspaced
        else (target + " " + prediction).split()
    )
    rng = random.Random(seed)
    join = "" if unspaced else " "
    size = 60 if unspaced else 40

    def one() -> str:
        first = join.join(rng.choice(units) for _ in range(size // 2))
        return first + ".\n" + join.join(rng.choice(units) for _ in range(size // 2))

    return [(one(), one()) for _ in range(pairs)]


def _reference(lang: str | None, stem: bool) -> Any:
    from multilingual_rouge import rouge_scorer, stemmers

    if lang == "bengali" and stem:
        stemmers.LANG2STEMMER["bengali"] = _samples().reference_bengali_stemmer()
    return rouge_scorer.RougeScorer(TYPES, lang=lang, use_stemmer=stem)


def _use_unidic_lite_if_needed() -> None:
    try:
        import unidic
        import unidic_lite
    except ImportError:
        return
    if not (Path(unidic.DICDIR) / "mecabrc").exists():
        unidic.DICDIR = unidic_lite.DICDIR


def _analyser_only(lang: str) -> Callable[[list[str]], object]:
    from kurenai.compat._xlsum_tokens import segmenter
    from kurenai.tokenizers._xlsum_text import bert_words

    segment = segmenter(lang)
    assert segment is not None

    def run(joined: list[str]) -> object:
        return [segment(text) for text in joined]

    def prepared(texts: list[str]) -> list[str]:
        return [" ".join(bert_words(t.lower().strip())) for t in texts]

    return lambda texts: run(prepared(texts))


def _row(lang: str | None, args: argparse.Namespace) -> None:
    from kurenai.compat.xlsum import RougeScorer

    script, stem = LANGS[lang]
    pairs = _texts(script, 2 if args.tiny else args.pairs, seed=len(str(lang)))
    ours = RougeScorer(TYPES, lang=lang, use_stemmer=stem)

    def score_ours() -> object:
        return [ours.score(t, p) for t, p in pairs]

    if args.tiny:
        score_ours()
        print(f"{lang!s:10} ok ({len(pairs)} pairs)")
        return
    theirs = _reference(lang, stem)

    def score_theirs() -> object:
        return [theirs.score(t, p) for t, p in pairs]

    assert score_ours() == score_theirs(), f"{lang}: kurenai differs from multilingual_rouge"
    contenders: dict[str, Callable[[], object]] = {"theirs": score_theirs, "ours": score_ours}
    if lang in ANALYSED:
        analyse = _analyser_only(lang)
        texts = [text for pair in pairs for text in pair]
        contenders["analyser"] = lambda: analyse(texts)
    times = interleaved(contenders, args.repeats)
    theirs_s, ours_s = times["theirs"], times["ours"]
    line = f"{lang!s:10} {theirs_s:8.4f} {ours_s:8.4f} {theirs_s / ours_s:7.1f}x"
    if "analyser" in times:
        own = times["analyser"]
        line += f"   analyser {own:8.4f}  ours/analyser {ours_s / own:5.2f}"
    print(line)


def _can_stem(lang: str | None) -> bool:
    """Whether both sides stem ``lang`` here: Porter always; a Snowball
    language with NLTK's stopwords corpus (both read it), which
    :func:`_shipped_stopwords_corpus` gives the languages kurenai ships."""
    if lang is None:
        return True
    from kurenai.compat._xlsum_stemmers import SHIPPED_STOPWORDS

    return lang in SHIPPED_STOPWORDS or _has_stopwords_corpus()


def _has_stopwords_corpus() -> bool:
    import nltk

    try:
        nltk.data.find("corpora/stopwords/english")
    except LookupError:
        return False
    return True


def _shipped_stopwords_corpus() -> None:
    """Without NLTK's stopwords corpus (a download), write the lists kurenai
    ships (Snowball's, NLTK's words) as NLTK's corpus files in a temporary
    folder on NLTK's path: both sides then stem those languages."""
    if _has_stopwords_corpus():
        return
    import tempfile

    import nltk

    from kurenai.compat._xlsum_stemmers import SHIPPED_STOPWORDS, shipped_stopwords

    root = Path(tempfile.mkdtemp(prefix="nltk_data_"))
    folder = root / "corpora" / "stopwords"
    folder.mkdir(parents=True)
    for language in SHIPPED_STOPWORDS:
        words = shipped_stopwords(language) or []
        (folder / language).write_text("\n".join(words) + "\n", encoding="utf-8")
    nltk.data.path.insert(0, str(root))


def _fresh_row(lang: str, stem: bool, args: argparse.Namespace) -> None:
    from kurenai.compat.xlsum import RougeScorer

    locale = FAKER_LOCALES[lang]
    scorer_lang = None if (lang == "english" and stem) else lang
    label = f"{lang}{' (Porter)' if scorer_lang is None else ''}"
    count = 2 if args.tiny else args.pairs
    rounds = [pairs(count, seed, locale) for seed in range(1 if args.tiny else args.repeats + 1)]
    if args.tiny:
        ours = RougeScorer(TYPES, lang=scorer_lang, use_stemmer=stem)
        [ours.score(t, p) for p, t in zip(*rounds[0])]
        print(f"{label:22} {'on' if stem else 'off':4} ok ({count} pairs)")
        return
    preds, targets = rounds[-1]  # the check's round, never timed
    check_ours = RougeScorer(TYPES, lang=scorer_lang, use_stemmer=stem)
    check_theirs = _reference(scorer_lang, stem)
    assert [check_ours.score(t, p) for p, t in zip(preds, targets)] == [
        check_theirs.score(t, p) for p, t in zip(preds, targets)
    ], f"{lang}: kurenai differs from multilingual_rouge"
    times: dict[str, list[float]] = {"theirs": [], "ours": []}
    for index, (preds, targets) in enumerate(rounds[:-1]):
        # New scorers each round (no memo of an earlier round), sides alternating.
        scorers = {
            "ours": RougeScorer(TYPES, lang=scorer_lang, use_stemmer=stem),
            "theirs": _reference(scorer_lang, stem),
        }
        for name in ["ours", "theirs"] if index % 2 else ["theirs", "ours"]:
            scorer = scorers[name]
            start = time.thread_time()
            for prediction, target in zip(preds, targets):
                scorer.score(target, prediction)
            times[name].append(time.thread_time() - start)
    theirs_s, ours_s = statistics.median(times["theirs"]), statistics.median(times["ours"])
    print(
        f"{label:22} {'on' if stem else 'off':4} {1e6 * theirs_s / count:9.0f} "
        f"{1e6 * ours_s / count:9.0f} {theirs_s / ours_s:7.1f}x"
    )
    sys.stdout.flush()


def loading() -> dict[str, float]:
    """Wall seconds to import each side and score its first pair (Russian,
    no stemmer), each in a fresh process."""
    code = (
        "import json, time, warnings\nwarnings.simplefilter('ignore')\n"
        "start = time.perf_counter()\n{imports}\n"
        "RougeScorer(['rouge1', 'rougeL'], lang='russian').score('Путин заявил', 'Путин')\n"
        "print(json.dumps({{'seconds': time.perf_counter() - start}}))\n"
    )
    sides = {
        "kurenai": "from kurenai.compat.xlsum import RougeScorer",
        "multilingual_rouge": "from multilingual_rouge.rouge_scorer import RougeScorer",
    }
    return {
        name: run_child(code.format(imports=line)).get("seconds", float("nan"))
        for name, line in sides.items()
    }


def fresh(args: argparse.Namespace) -> None:
    chosen = [lang for lang in FAKER_LOCALES if args.langs is None or lang in args.langs]
    _shipped_stopwords_corpus()
    if not args.tiny:
        load = loading()
        print(
            "loading (import + first pair, wall, fresh process): "
            + ", ".join(f"{name} {seconds:.2f} s" for name, seconds in load.items())
        )
    print(
        f"{'' if args.tiny else args.pairs} fresh pairs a round ({text_source()}), "
        f"{args.repeats} rounds, thread CPU time, us a pair (target, prediction):"
    )
    print(f"{'lang':22} {'stem':4} {'theirs':>9} {'ours':>9} {'ratio':>8}")
    for lang in chosen:
        _fresh_row(lang, False, args)
    for lang in chosen:
        if _can_stem(None if lang == "english" else lang):
            _fresh_row(lang, True, args)
        elif not args.tiny:
            print(f"{lang:22} on   not timed: NLTK's stopwords corpus is not installed here")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_common_options(parser)
    parser.add_argument("--texts", choices=("fresh", "samples"), default="fresh")
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument(
        "--langs",
        nargs="+",
        metavar="LANG",
        help=f"only these languages (of: {', '.join(map(str, LANGS))})",
    )
    args = parser.parse_args()
    known = list(FAKER_LOCALES) if args.texts == "fresh" else list(map(str, LANGS))
    chosen = [lang for lang in LANGS if args.langs is None or str(lang) in args.langs]
    if args.langs is not None and not set(args.langs) <= set(known):
        parser.error(f"--langs: choose among {', '.join(known)}")
    header(args)
    warnings.simplefilter("ignore")
    logging.getLogger("jieba").setLevel(logging.WARNING)
    if args.texts == "fresh":
        fresh(args)
        return 0
    _use_unidic_lite_if_needed()
    print(f"{'lang':10} {'theirs':>8} {'ours':>8} {'ratio':>8}")
    for lang in chosen:
        _row(lang, args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

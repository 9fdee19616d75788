"""kurenai.compat.xlsum against XL-Sum's package (``multilingual_rouge``), per
language, in one run.

    python benchmarks/bench_xlsum.py [--pairs 200] [--repeats 5] [--langs japanese ...] [--tiny]

For each language, ``--pairs`` summary pairs of about 40 words (XL-Sum's
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
import sys
import warnings
from pathlib import Path
from typing import Any, Callable

from _common import add_common_options, header, interleaved

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "compat"))

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


def _texts(script: str, pairs: int, seed: int) -> list[tuple[str, str]]:
    from xlsum_samples import SAMPLES

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
    from xlsum_samples import reference_bengali_stemmer

    stemmers.LANG2STEMMER["bengali"] = reference_bengali_stemmer()
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_common_options(parser)
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument(
        "--langs",
        nargs="+",
        metavar="LANG",
        help=f"only these languages (of: {', '.join(map(str, LANGS))})",
    )
    args = parser.parse_args()
    chosen = [lang for lang in LANGS if args.langs is None or str(lang) in args.langs]
    if args.langs is not None and len(chosen) != len(set(args.langs)):
        parser.error(f"--langs: choose among {', '.join(map(str, LANGS))}")
    header(args)
    warnings.simplefilter("ignore")
    logging.getLogger("jieba").setLevel(logging.WARNING)
    _use_unidic_lite_if_needed()
    print(f"{'lang':10} {'theirs':>8} {'ours':>8} {'ratio':>8}")
    for lang in chosen:
        _row(lang, args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

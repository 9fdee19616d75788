"""kurenai against the original Perl ROUGE-1.5.5, to its printed 5 decimals.

Texts are lower-case ASCII words (so Perl's own tokenization changes
nothing), one sentence per line, no stemming, no stopwords.  Perl prints R
and P rounded to 5 decimals and F computed from those rounded values;
kurenai's F is computed from the exact P and R, so for F the test checks
that Perl's F is Perl's formula on its printed R and P (which equal ours),
and that kurenai's exact F is within the rounding that explains.
"""

from __future__ import annotations

import functools
import os
import random
import re
from collections.abc import Iterator

import perl_rouge
import pytest
from corpora import records_or_skip

from kurenai import _backend, _lcs_py, _variants_py
from kurenai.rouge_scorer import RougeScorer

Record = tuple[list[str], str]
# Perl's ROUGE-L is summary-level (union LCS over sentences): rougeLsum.
PERL_TO_KURENAI = {"rougeL": "rougeLsum"}
MODE_BY_F = {"A": "average", "B": "best-recall"}  # ROUGE-1.5.5 -f letter -> mode


@pytest.fixture(scope="module", autouse=True)
def perl_available() -> Iterator[None]:
    reason = perl_rouge.unavailable()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"the Perl check must run in CI: {reason}")
        pytest.skip(reason)
    yield


@pytest.fixture(autouse=True, params=["compiled", "python"], ids=lambda n: f"kernels={n}")
def implementation(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each test runs on the compiled plan and on the pure Python one."""
    if request.param == "python":
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(_backend, "kernels", _lcs_py)
            patch.setattr(_backend, "variants", _variants_py)
            patch.setattr(_backend, "fused", None)
            yield request.param
    elif _backend.IMPLEMENTATION != "compiled":
        pytest.skip("the compiled kernels are not live")
    else:
        yield request.param


Frozen = tuple[tuple[tuple[str, ...], str], ...]


@functools.cache
def _perl(records: Frozen, gap: int, mode: str, weight: float) -> list[perl_rouge.PerlRow]:
    # One Perl run per input set, shared by both implementations.
    return perl_rouge.perl_scores(records, gap, mode, weight)


def _text(rng: random.Random, vocabulary: list[str]) -> str:
    lines = []
    for _ in range(rng.randint(1, 3)):
        lines.append(" ".join(rng.choice(vocabulary) for _ in range(rng.randint(1, 9))))
    return "\n".join(lines)


def generated(seed: int, count: int = 60) -> list[Record]:
    """Tie-heavy texts over a tiny vocabulary, 1-3 lines, 1-3 references."""
    rng = random.Random(seed)
    records = []
    for _ in range(count):
        vocabulary = ["a", "b", "c", "d", "e", "the", "cat", "sat"][: rng.randint(2, 8)]
        references = [_text(rng, vocabulary) for _ in range(rng.randint(1, 3))]
        records.append((references, _text(rng, vocabulary)))
    return records


def corpus(count: int = 30) -> list[Record]:
    """English SciTLDR summaries lower-cased and stripped to ``[a-z0-9 ]``; each
    prediction scored against its reference and the next record's."""
    rows = records_or_skip("en_scitldr_test.jsonl")[: count + 1]

    def clean(text: str) -> str:
        kept = (" ".join(re.sub(r"[^a-z0-9 ]", " ", s.lower()).split()) for s in text.split("\n"))
        return "\n".join(s for s in kept if s)

    return [
        ([clean(row["target"]), clean(following["target"])], clean(row["prediction"]))
        for row, following in zip(rows, rows[1:])
    ]


def assert_like_perl(records: list[Record], gap: int, mode: str, weight: float = 1.2) -> None:
    suffix = "" if gap < 0 else str(gap)
    types = ["rouge1", "rouge2", "rougeLsum", "rougeW", f"rougeS{suffix}", f"rougeSU{suffix}"]
    scorer = RougeScorer(types, rouge_w_weight=weight)
    frozen = tuple((tuple(references), prediction) for references, prediction in records)
    expected = _perl(frozen, gap, mode, weight)
    for (references, prediction), perl_row in zip(records, expected):
        ours = scorer.score_multi(references, prediction, mode=MODE_BY_F[mode])
        assert len(perl_row) == len(types)
        for perl_type, (recall, precision, f) in perl_row.items():
            score = ours[PERL_TO_KURENAI.get(perl_type, perl_type)]
            where = f"{perl_type} -f {mode} refs={references!r} pred={prediction!r}"
            assert (f"{score.recall:7.5f}", f"{score.precision:7.5f}") == (recall, precision), where
            assert perl_rouge.perl_f(recall, precision) == f, where
            assert abs(score.fmeasure - float(f)) <= 1.6e-5, where


@pytest.mark.parametrize("mode", ["A", "B"])
@pytest.mark.parametrize("gap", [4, -1, 1])
def test_generated_texts_equal_perl(gap: int, mode: str) -> None:
    assert_like_perl(generated(seed=gap + 10 * len(mode) + ord(mode)), gap, mode)


@pytest.mark.parametrize("weight", [1.5, 2])
def test_other_weights_equal_perl(weight: float) -> None:
    assert_like_perl(generated(seed=7, count=30), 4, "A", weight)


@pytest.mark.parametrize("mode", ["A", "B"])
def test_english_corpus_equals_perl(mode: str) -> None:
    assert_like_perl(corpus(), 4, mode)


def test_one_sentence_rouge_l_is_perl_rouge_l() -> None:
    records = [(refs[:1], pred) for refs, pred in generated(seed=3) if "\n" not in refs[0] + pred]
    scorer = RougeScorer(["rougeL"])
    frozen = tuple((tuple(references), prediction) for references, prediction in records)
    for (references, prediction), row in zip(records, _perl(frozen, 4, "A", 1.2)):
        score = scorer.score(references[0], prediction)["rougeL"]
        assert (f"{score.recall:7.5f}", f"{score.precision:7.5f}") == row["rougeL"][:2]

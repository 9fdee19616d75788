"""ROUGE-1.5.5's own jackknifing, as its RELEASE-NOTE describes it (one run
per set of models less one, the scores averaged), against
mode="jackknife-best-recall" (-f B) and mode="jackknife-average" (-f A)."""

from __future__ import annotations

import random

import perl_rouge
import pytest
from perl_rouge import perl  # noqa: F401 - the fixture

from kurenai.rouge_scorer import RougeScorer

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("perl")]

TYPES = ["rouge1", "rouge2", "rougeLsum", "rougeW", "rougeS4", "rougeSU4"]
PERL_TO_KURENAI = {"rougeL": "rougeLsum"}
MODE_BY_F = {"A": "jackknife-average", "B": "jackknife-best-recall"}
# Perl prints P and R to 5 decimals: a mean of rounded values is within half
# a unit of the last place of the mean of the exact ones.
PRINTED = 0.5e-5 + 1e-12


def records(seed: int, count: int = 25) -> list[tuple[list[str], str]]:
    """Texts over a small vocabulary, 1-2 lines, 2-4 references each."""
    rng = random.Random(seed)
    vocabulary = ["a", "b", "c", "d", "the", "cat", "sat", "on", "mat"]

    def text() -> str:
        lines = [
            " ".join(rng.choice(vocabulary) for _ in range(rng.randint(1, 8)))
            for _ in range(rng.randint(1, 2))
        ]
        return "\n".join(lines)

    return [([text() for _ in range(rng.randint(2, 4))], text()) for _ in range(count)]


def perl_jackknife(
    found: list[tuple[list[str], str]], f: str
) -> list[dict[str, tuple[float, float]]]:
    """Per record, per type, the mean of Perl's (R, P) over the leave-one-out sets."""
    subsets = [
        (refs[:j] + refs[j + 1 :], prediction)
        for refs, prediction in found
        for j in range(len(refs))
    ]
    rows = iter(perl_rouge.perl_scores(subsets, 4, f, 1.2))
    means = []
    for refs, _ in found:
        runs = [next(rows) for _ in refs]
        means.append(
            {
                name: (
                    sum(float(r[name][0]) for r in runs) / len(runs),
                    sum(float(r[name][1]) for r in runs) / len(runs),
                )
                for name in runs[0]
            }
        )
    return means


@pytest.mark.parametrize("f", ["A", "B"])
def test_equals_perls_jackknifing(f: str) -> None:
    found = records(seed=ord(f))
    scorer = RougeScorer(TYPES, rouge_w_weight=1.2)
    expected = perl_jackknife(found, f)
    other = perl_jackknife(found, "B" if f == "A" else "A")
    differs = False
    for (refs, prediction), perl_row, other_row in zip(found, expected, other):
        ours = scorer.score_multi(refs, prediction, mode=MODE_BY_F[f])
        assert len(perl_row) == len(TYPES)
        for perl_type, (recall, precision) in perl_row.items():
            score = ours[PERL_TO_KURENAI.get(perl_type, perl_type)]
            where = f"{perl_type} -f {f} refs={refs!r} pred={prediction!r}"
            assert abs(score.recall - recall) <= PRINTED, where
            assert abs(score.precision - precision) <= PRINTED, where
            o_recall, o_precision = other_row[perl_type]
            differs |= (
                abs(score.recall - o_recall) > PRINTED
                or abs(score.precision - o_precision) > PRINTED
            )
    assert differs  # negative control: the other -f's jackknife is told apart

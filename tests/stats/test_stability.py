"""Rank stability under resampled references, against the definition written
plainly (score_multi against each drawn reference set)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from kurenai.rouge_scorer import RougeScorer
from kurenai.stats import rank_stability

WORDS = ["the", "cat", "sat", "on", "a", "mat", "dog", "ran", "far", "away"]


def _corpus(documents: int, references: int, seed: int = 0):
    rng = random.Random(seed)

    def text() -> str:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 8)))

    refs = [[text() for _ in range(references)] for _ in range(documents)]
    systems = {name: [text() for _ in range(documents)] for name in ("a", "b", "c", "d")}
    return refs, systems


def _plain(scorer, refs, systems, n, seed, mode):
    """Per sample, each system's mean F against the drawn references (score_multi)."""
    rng = np.random.default_rng(seed)
    names = list(systems)
    totals = np.zeros((n, len(names)))
    for d, group in enumerate(refs):
        drawn = rng.integers(0, len(group), size=(n, len(group)))
        for k in range(n):
            chosen = [group[i] for i in drawn[k]]
            for s, name in enumerate(names):
                score = scorer.score_multi(chosen, systems[name][d], mode=mode)["rouge1"]
                totals[k, s] += score.fmeasure
    return totals / len(refs)


@pytest.mark.parametrize("mode", ["best", "mean"])
def test_each_sample_is_score_multi_against_the_drawn_references(mode: str) -> None:
    scorer = RougeScorer(["rouge1"])
    refs, systems = _corpus(6, 4)
    found = rank_stability(scorer, refs, systems, 40, mode=mode, seed=3)
    means = _plain(scorer, refs, systems, 40, 3, mode)
    names = list(systems)
    ranks = np.argsort(np.argsort(-means, axis=1, kind="stable"), axis=1, kind="stable")
    for s, name in enumerate(names):
        assert found.ranks[name] == np.bincount(ranks[:, s], minlength=4).tolist()
    for (a, b), share in found.swaps.items():
        ia, ib = names.index(a), names.index(b)
        assert share == np.mean(ranks[:, ia] > ranks[:, ib])
    assert any(0 < v < 1 for v in found.swaps.values())  # the corpus does swap
    # Negative control: another seed's draws give other counts.
    other = rank_stability(scorer, refs, systems, 40, mode=mode, seed=4)
    assert other.ranks != found.ranks


def test_one_reference_per_document_never_swaps() -> None:
    refs, systems = _corpus(5, 1)
    found = rank_stability(RougeScorer(["rouge1"]), refs, systems, 30, seed=1)
    assert set(found.swaps.values()) == {0.0}
    for k, name in enumerate(found.systems):
        assert found.ranks[name][k] == 30
    assert "no pair of systems ever swaps" in found.text()


def test_resampling_documents_too_and_the_outputs() -> None:
    refs, systems = _corpus(8, 3)
    found = rank_stability(RougeScorer(["rouge1", "rouge2"]), refs, systems, 50,
                           documents=True, seed=2, rouge_type="rouge2")  # fmt: skip
    assert found.rouge_type == "rouge2" and found.documents
    assert all(sum(counts) == 50 for counts in found.ranks.values())
    document = found.as_dict()
    assert document["resample_documents"] and len(document["systems"]) == 4
    assert "rank stability of rouge2 F (best reference) over 50" in found.text()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"mode": "jackknife"}, "unknown mode 'jackknife'"),
        ({"n_samples": 10**7}, "at most 1,000,000"),
        ({"rouge_type": "rougeL"}, "unknown rouge type 'rougeL'"),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict, message: str) -> None:
    refs, systems = _corpus(3, 2)
    with pytest.raises(ValueError, match=message):
        rank_stability(RougeScorer(["rouge1"]), refs, systems, **kwargs)


def test_correlate_reports_rank_stability(tmp_path, capsys) -> None:
    import json

    from kurenai.cli import main

    pytest.importorskip("scipy")
    refs, systems = _corpus(6, 3, seed=5)
    rows = []
    for name, texts in systems.items():
        for d, text in enumerate(texts):
            rows.append({"system": name, "document": f"d{d}", "prediction": text,
                         "references": refs[d], "quality": random.Random(d).random()
                         + "abcd".index(name)})  # fmt: skip
    path = tmp_path / "judged.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    options = ["--bootstrap-samples", "0", "--tests", "--rouge-types", "rouge1", "--seed", "7"]
    code = main(["correlate", "--judgments", str(path), *options, "--reference-resamples", "60",
                 "--output-format", "json"])  # fmt: skip
    out = capsys.readouterr()
    assert code == 0, out.err
    found = json.loads(out.out)["rank_stability"]
    expected = rank_stability(RougeScorer(["rouge1"]), refs, systems, 60, seed=7)
    assert found == json.loads(json.dumps(expected.as_dict()))
    assert main(["correlate", "--judgments", str(path), *options, "--reference-resamples",
                 "60"]) == 0  # fmt: skip
    assert "rank stability of rouge1 F (best reference) over 60" in capsys.readouterr().out

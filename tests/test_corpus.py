"""Real text: kurenai's fused path against rouge-score on the English corpus.

Skipped where the shared corpora are absent (they are not in the repository).
"""

from __future__ import annotations

import pytest
from corpora import records_or_skip
from rouge_score import rouge_scorer as rs
from rouge_score import tokenizers as rs_tokenizers

from kurenai.rouge_scorer import ROUGE_TYPES, RougeScorer
from kurenai.tokenizers import RougeScoreTokenizer

CORPUS = "en_scitldr_test.jsonl"


@pytest.mark.parametrize("stem", [False, True], ids=["plain", "stemmer"])
def test_compiled_tokenization_equals_default_tokenizer(stem: bool) -> None:
    ours = RougeScoreTokenizer(use_stemmer=stem)
    theirs = rs_tokenizers.DefaultTokenizer(use_stemmer=stem)
    for record in records_or_skip(CORPUS):
        for text in (record["target"], record["prediction"], record["abstract"]):
            assert ours.tokenize(text) == theirs.tokenize(text)


@pytest.mark.parametrize("stem", [False, True], ids=["plain", "stemmer"])
def test_every_pair_scores_as_rouge_score(backend: str, stem: bool) -> None:
    records = records_or_skip(CORPUS)[:200]
    ours = RougeScorer(list(ROUGE_TYPES), tokenizer=rs_tokenizers.DefaultTokenizer(stem))
    theirs = rs.RougeScorer(list(ROUGE_TYPES), use_stemmer=stem)
    targets = [r["target"] for r in records]
    predictions = [r["abstract"] for r in records]
    expected = [theirs.score(t, p) for t, p in zip(targets, predictions)]
    assert [ours.score(t, p) for t, p in zip(targets, predictions)] == expected
    assert ours.score_batch(targets, predictions, n_jobs=2) == expected

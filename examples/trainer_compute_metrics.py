"""ROUGE in a HuggingFace ``Trainer``: a ``compute_metrics`` built on kurenai.

    trainer = Seq2SeqTrainer(..., compute_metrics=make_compute_metrics(tokenizer))

The usual recipe splits sentences with ``nltk.sent_tokenize`` (after
``nltk.download("punkt")``) so that ``rougeLsum`` sees one sentence per line;
kurenai's own splitter needs no download and knows ``。！？`` too.  Run this
file to see it work on token IDs from a small stand-in tokenizer (any object
with ``batch_decode`` and ``pad_token_id``, as a transformers tokenizer has).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from kurenai import metrics
from kurenai.sentences import split_sentences


def make_compute_metrics(tokenizer: Any, tokenizer_name: str | None = None) -> Callable[..., Any]:
    """A ``compute_metrics(eval_pred)`` for ``Seq2SeqTrainer(predict_with_generate=True)``."""

    def compute_metrics(eval_pred: Any) -> dict[str, float]:
        predictions, labels = eval_pred
        # Labels pad with -100 (ignored by the loss); the tokenizer cannot decode it.
        labels = np.where(labels != -100, labels, tokenizer.pad_token_id)
        decoded_predictions = tokenizer.batch_decode(predictions, skip_special_tokens=True)
        decoded_labels = tokenizer.batch_decode(labels, skip_special_tokens=True)
        # rougeLsum expects one sentence per line.
        decoded_predictions = ["\n".join(split_sentences(p)) for p in decoded_predictions]
        decoded_labels = ["\n".join(split_sentences(label)) for label in decoded_labels]
        scores = metrics.compute(
            predictions=decoded_predictions,
            references=decoded_labels,
            use_stemmer=True,
            tokenizer=tokenizer_name,
            seed=42,
        )
        return {name: round(value * 100, 4) for name, value in scores.items()}

    return compute_metrics


class WordTokenizer:
    """A stand-in for a transformers tokenizer: one ID per word, 0 pads."""

    pad_token_id = 0

    def __init__(self, vocabulary: list[str]) -> None:
        self.words = ["<pad>", *vocabulary]

    def encode(self, text: str, length: int) -> list[int]:
        ids = [self.words.index(word) for word in text.split()]
        return ids + [self.pad_token_id] * (length - len(ids))

    def batch_decode(self, batch: Any, skip_special_tokens: bool = True) -> list[str]:
        return [" ".join(self.words[i] for i in row if i != self.pad_token_id) for row in batch]


def main() -> dict[str, float]:
    predictions = ["The cat sat on the mat. It slept.", "Dogs are running fast."]
    references = ["The cat was on the mat. It slept well.", "The dog runs fast."]
    vocabulary = sorted({word for text in predictions + references for word in text.split()})
    tokenizer = WordTokenizer(vocabulary)
    prediction_ids = np.array([tokenizer.encode(p, 12) for p in predictions])
    label_ids = np.array([tokenizer.encode(r, 12) for r in references])
    label_ids[label_ids == 0] = -100  # what DataCollatorForSeq2Seq does
    scores = make_compute_metrics(tokenizer)((prediction_ids, label_ids))
    print(scores)
    return scores


if __name__ == "__main__":
    main()

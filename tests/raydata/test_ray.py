"""``kurenai.ray``: ``RougeScores`` in ``Dataset.map_batches`` on a local Ray
cluster started here, held to ``score_arrow`` on the same columns."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

if os.environ.get("CI") != "true":
    pytest.importorskip("ray")
    pytest.importorskip("pyarrow")
    pytest.importorskip("pandas")

import pandas as pd
import pyarrow as pa
import ray

from kurenai.ray import SIGNATURE_KEY, RougeScores
from kurenai.rouge_scorer import RougeScorer

TYPES = ["rouge1", "rougeL", "rougeSU4"]
ROWS = [
    {"id": 0, "target": "the cat sat on the mat", "prediction": "the cat sat"},
    {"id": 1, "target": None, "prediction": "a dog"},
    {"id": 2, "target": "Running dogs bark", "prediction": "dogs ran and barked"},
    {"id": 3, "target": "x " * 50, "prediction": "x"},
    {"id": 6, "target": "x", "prediction": None},
    {"id": 4, "target": "東京 に 行く", "prediction": "東京 へ 行った"},
    {"id": 5, "target": "a b c d e f g h", "prediction": "a b c d e f g h i j k l"},
]


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        yield
    finally:
        ray.shutdown()


def expected() -> Any:
    scorer = RougeScorer(TYPES, use_stemmer=True)
    rows = sorted(ROWS, key=lambda row: row["id"])  # as the tests sort Ray's output
    targets = pa.array([row["target"] for row in rows], pa.string())
    predictions = pa.array([row["prediction"] for row in rows], pa.string())
    return scorer.score_arrow(targets, predictions, max_tokens=30).to_pylist()


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.filterwarnings("ignore::FutureWarning")
@pytest.mark.parametrize("batch_format", ["pyarrow", "pandas"])
def test_map_batches_gives_score_arrows_numbers(cluster: None, batch_format: str) -> None:
    options = {"rouge_types": TYPES, "use_stemmer": True, "max_tokens": 30}
    scored = ray.data.from_items(ROWS).map_batches(
        RougeScores,
        fn_constructor_kwargs=options,
        batch_format=batch_format,
        batch_size=4,
        concurrency=1,
    )
    table = pa.concat_tables(ray.get(scored.to_arrow_refs()))
    table = table.sort_by("id")
    assert table.column("rouge").to_pylist() == expected()
    assert table.column("rouge").null_count == 3  # two null sides, one over max_tokens
    signature = table.schema.field("rouge").metadata[SIGNATURE_KEY].decode()
    assert signature == str(RougeScorer(TYPES, use_stemmer=True).signature())


def test_a_batch_without_ray() -> None:
    scores = RougeScores(TYPES, use_stemmer=True, max_tokens=30)
    frame = pd.DataFrame(ROWS)
    found = scores(frame).sort_by("id")
    assert isinstance(found, pa.Table)
    assert found.column("rouge").to_pylist() == expected()
    # Negative control: another option, other numbers.
    other = RougeScores(TYPES)(frame).sort_by("id")
    assert other.column("rouge").to_pylist() != expected()
    with pytest.raises(KeyError, match="no column 'reference'"):
        RougeScores(TYPES, target_column="reference")(frame)
    with pytest.raises(ValueError, match="already has a column 'id'"):
        RougeScores(TYPES, output_column="id")(frame)
    with pytest.raises(TypeError, match=r"pyarrow\.Table or a pandas\.DataFrame"):
        scores([1, 2])

from collections.abc import Sequence
from typing import Any

ZERO_BASE: str

def rounded(value: float) -> float: ...
def peer_values(
    metrics: Sequence[Any],
    models: Sequence[Sequence[Sequence[str]]],
    peer: Sequence[Sequence[str]],
    best: bool,
    counting: int | None,
    alpha: float,
) -> list[float]: ...
def spl_values(
    metrics: Sequence[Any],
    models: Sequence[bytes],
    peer: bytes,
    best: bool,
    counting: int | None,
    alpha: float,
) -> list[float]: ...
def corpus_values(
    values: Any,
    metrics: int,
    counting: int | None,
    alpha: float,
    resamples: int,
    confidence: float,
) -> list[float]: ...

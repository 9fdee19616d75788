from typing import Any

KINDS: frozenset[int]
_POPCOUNT: str
EVERY: int
MIRRORED: int
PAIRED: int

def fill(
    ids: Any,
    starts: Any,
    vocab: int,
    grams: tuple[tuple[Any, Any, int], ...],
    orders: Any,
    kinds: Any,
    slots: Any,
    rows: Any,
    cols: Any,
    row_start: int,
    row_stop: int,
    layout: int,
    out: Any,
) -> None: ...

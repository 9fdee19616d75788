from collections.abc import Callable, Sequence
from typing import Any

from kurenai.scoring import Score

MODES: dict[str, int]

def set_char_classes(classes: bytes) -> None: ...
def _set_hash_key(key: bytes) -> None: ...
def _token_hash(token: str) -> int: ...

class Plan:
    rouge_types: tuple[str, ...]
    mode: int
    stem: Callable[[str], str] | None
    score_class: type[Score]
    def __init__(
        self,
        rouge_types: Sequence[str],
        mode: int,
        stem: Callable[[str], str] | None,
        score_class: type[Score],
    ) -> None: ...
    def score(self, target: str, prediction: str) -> dict[str, Score]: ...
    def tokens(self, text: str) -> list[str]: ...
    def _probes(self, text: str) -> tuple[int, int]: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    def score_many(
        self,
        targets: list[str],
        predictions: list[str],
        max_tokens: int = -1,
        out: Any = None,
    ) -> list[dict[str, Score] | None] | None: ...

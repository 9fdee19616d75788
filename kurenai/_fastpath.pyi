from collections.abc import Callable
from typing import Any

from kurenai._core.plan import ScoreDict, Tallies, TypeSpec
from kurenai.scoring import Score

MODES: dict[str, int]
KINDS: frozenset[int]

def set_char_classes(classes: bytes) -> None: ...
def _set_hash_key(key: bytes) -> None: ...
def _token_hash(token: str) -> int: ...
def _degrade_fast_hash(on: bool) -> None: ...

class Plan:
    spec: TypeSpec
    rouge_types: tuple[str, ...]
    mode: int
    stem: Callable[[str], str | None] | None
    score_class: type[Score]
    threads: int
    def __init__(
        self,
        spec: TypeSpec,
        mode: int,
        stem: Callable[[str], str | None] | None,
        score_class: type[Score],
        threads: int = 1,
    ) -> None: ...
    def score(self, target: str, prediction: str) -> ScoreDict: ...
    def tallies(self, target: str, prediction: str) -> Tallies: ...
    def tokens(self, text: str) -> list[str]: ...
    def _probes(self, text: str) -> tuple[int, int]: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    def score_many(
        self,
        targets: list[str],
        predictions: list[str],
        max_tokens: int = -1,
        out: object = None,
    ) -> list[ScoreDict | None] | None: ...

from collections.abc import Hashable, Sequence

POPCOUNT: str
THREADS: bool

def _set_parallel_min_tokens(tokens: int) -> int: ...
def _set_rows_limit(words: int) -> int: ...
def _set_index_min_sents(sents: int) -> int: ...

class Interned:
    """Two sentence lists as the kernels' C-level Docs (no Python attributes)."""

    def __init__(
        self, a_sents: Sequence[Sequence[Hashable]], b_sents: Sequence[Sequence[Hashable]]
    ) -> None: ...

def lcs_length(a: Sequence[Hashable], b: Sequence[Hashable], threads: int = 1) -> int: ...
def lcs_indices(ref: Sequence[Hashable], can: Sequence[Hashable]) -> list[int]: ...
def summary_lcs_hits(
    ref_sents: Sequence[Sequence[Hashable]], can_sents: Sequence[Sequence[Hashable]]
) -> int: ...
def ngram_overlap(a: Sequence[Hashable], b: Sequence[Hashable], n: int) -> int: ...
def intern_sentences(
    sentences: Sequence[Sequence[Hashable]], vocab: dict[Hashable, int]
) -> list[list[int]]: ...
def pair_counts(
    target_sents: Sequence[Sequence[str]],
    prediction_sents: Sequence[Sequence[str]],
    orders: tuple[int, ...],
    want_lcs: bool,
    want_lsum: bool,
    target_whole: Sequence[str] | None = None,
    prediction_whole: Sequence[str] | None = None,
    threads: int = 1,
) -> tuple[tuple[int, ...], int, int, int, int, int, int]: ...

from collections.abc import Hashable, Sequence

POPCOUNT: str
THREADS: bool

def _set_parallel_min_tokens(tokens: int) -> int: ...
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

from collections.abc import Sequence

def skip_bigram_counts(
    t: Sequence[int], p: Sequence[int], gap: int, unigrams: bool
) -> tuple[int, int, int]: ...
def weighted_lcs(
    t_sents: Sequence[Sequence[int]], p_sents: Sequence[Sequence[int]], weight: float
) -> tuple[float, float]: ...

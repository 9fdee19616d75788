from collections.abc import Hashable, Sequence

def skip_bigram_counts(
    t: Sequence[Hashable], p: Sequence[Hashable], gap: int, unigrams: bool
) -> tuple[int, int, int]: ...
def weighted_lcs(
    t_sents: Sequence[Sequence[Hashable]], p_sents: Sequence[Sequence[Hashable]], weight: float
) -> tuple[float, float]: ...

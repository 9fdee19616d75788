"""The compiled scan's interning hash cannot be flooded.

Its first hash (a rotate-xor per code point, the same in every process)
let crafted tokens share one hash: interning N of them took N**2 / 2
comparisons.  These tests check the property, not a time: the table's probe
count for crafted tokens stays that of random ones, and the key differs
between processes.  ``benchmarks/bench_hash_flood.py`` measures the times.
"""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from kurenai._core.plan import parse_types
from kurenai.rouge_scorer import RougeScorer
from kurenai.scoring import Score

_fused = pytest.importorskip("kurenai._fused")

MASK = (1 << 64) - 1


def old_hash(token: str) -> int:
    """The unkeyed hash the compiled scan used before."""
    h = 14695981039346656037
    for ch in token:
        h = (((h << 5) | (h >> 59)) & MASK) ^ ord(ch)
    h = (h * 1099511628211) & MASK
    return h ^ (h >> 29)


def _plain(code: int) -> bool:
    char = chr(code)
    return not (0xD800 <= code < 0xE000 or char.isspace()) and char.lower() == char


def colliding_tokens(n: int) -> list[str]:
    """``n`` two-code-point tokens ``a, a << 5``: rotl5(a) ^ (a << 5) == 0."""
    heads = (a for a in range(0x21, 0x8000) if _plain(a) and _plain(a << 5))
    return [chr(a) + chr(a << 5) for a, _ in zip(heads, range(n))]


def random_tokens(n: int, seed: int = 0) -> list[str]:
    """``n`` distinct two-code-point tokens from the same ranges."""
    rng = random.Random(seed)
    tokens: set[str] = set()
    while len(tokens) < n:
        a, b = rng.randrange(0x21, 0x8000), rng.randrange(0x21, 0x100000)
        if _plain(a) and _plain(b):
            tokens.add(chr(a) + chr(b))
    return list(tokens)


@pytest.fixture(scope="module")
def plan() -> object:
    return _fused.FusedPlan(parse_types(["rouge1"]), _fused.SCAN_MODES["whitespace"], None, Score)


def test_the_crafted_tokens_all_collide_under_the_old_hash() -> None:
    tokens = colliding_tokens(20_000)
    assert len(set(tokens)) == 20_000
    assert len({old_hash(token) for token in tokens}) == 1


def test_crafted_tokens_probe_the_table_as_little_as_random_ones(plan: object) -> None:
    crafted = colliding_tokens(20_000)
    distinct, probes = plan._probes(" ".join(crafted))  # type: ignore[attr-defined]
    assert distinct == 20_000
    # Linear probing at load <= 1/2 reads ~1.5 slots a token; the old hash read
    # 10,000 on average here.
    assert probes < 3 * distinct
    _, random_probes = plan._probes(" ".join(random_tokens(20_000)))  # type: ignore[attr-defined]
    assert probes < 2 * random_probes


def test_the_hash_is_keyed() -> None:
    tokens = ["kurenai", "紅", "a", ""]
    try:
        _fused._set_hash_key(bytes(16))
        zero_key = [_fused._token_hash(t) for t in tokens]
        _fused._set_hash_key(bytes(range(16)))
        other_key = [_fused._token_hash(t) for t in tokens]
        _fused._set_hash_key(bytes(16))
        assert [_fused._token_hash(t) for t in tokens] == zero_key
        assert all(a != b for a, b in zip(zero_key, other_key))
        with pytest.raises(ValueError, match="16 bytes"):
            _fused._set_hash_key(b"short")
    finally:
        _fused._set_hash_key(bytes(random.Random().getrandbits(8) for _ in range(16)))


def test_each_process_draws_its_own_key() -> None:
    code = "from kurenai import _fused; print(_fused._token_hash('kurenai'))"
    hashes = {
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout.strip()
        for _ in range(2)
    }
    assert len(hashes) == 2


def test_tokens_hash_by_code_points_whatever_the_string_kind() -> None:
    # "ab" is 1 byte a code point in the target, 2 in the prediction (€), 4 in
    # the third text (😀): the same token all the same.
    scorer = RougeScorer(["rouge1"])
    assert scorer.score("ab x", "ab €")["rouge1"].precision == 0.5
    assert scorer.score("ab €", "ab 😀")["rouge1"].precision == 0.5
    stemmed = RougeScorer(["rouge1"], use_stemmer=True)
    assert stemmed.score("running €", "runs 😀")["rouge1"].precision == 0.5


def test_a_table_whose_fast_hash_collides_switches_to_siphash(plan: object) -> None:
    # With the fast hash made a constant every token collides: the table must
    # notice the long chain and rehash with SipHash, keeping probes short.
    text = " ".join(random_tokens(5_000))
    _fused._degrade_fast_hash(True)
    try:
        distinct, probes = plan._probes(text)  # type: ignore[attr-defined]
    finally:
        _fused._degrade_fast_hash(False)
    assert distinct == 5_000
    assert probes < 3 * distinct


def test_scores_do_not_depend_on_which_hash_a_table_uses() -> None:
    scorer = RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"])
    target = " ".join(random_tokens(300, seed=1)) + "\n" + " ".join(random_tokens(300, seed=2))
    prediction = " ".join(random_tokens(300, seed=2)[::-1] + random_tokens(50, seed=3))
    expected = scorer.score(target, prediction)
    _fused._degrade_fast_hash(True)
    try:
        assert scorer.score(target, prediction) == expected
    finally:
        _fused._degrade_fast_hash(False)


@pytest.mark.parametrize("length", range(1, 26))
def test_tokens_that_share_a_hash_are_told_apart(plan: object, length: int) -> None:
    # Every token hashes to 0, so the table tells them apart by content alone
    # (compared several bytes at a time): tokens of one length that differ in
    # one position, each position in turn (fewer than the chain length that
    # would switch the table to SipHash).
    words = ["a" * length] + ["a" * k + "b" + "a" * (length - k - 1) for k in range(length)]
    _fused._degrade_fast_hash(True)
    try:
        tokens = plan.tokens(" ".join(words + words[::-1]))  # type: ignore[attr-defined]
    finally:
        _fused._degrade_fast_hash(False)
    assert tokens == words + words[::-1]

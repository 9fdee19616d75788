"""One long pair's LCS on several threads: the same numbers as one thread.

The wavefront kernel (kurenai/_kernels/_lcs_threads.h) runs only on long pairs; a
testing hook lowers that length to 0, so small, edge-case inputs take it:
sizes around the 64-bit words, fewer words than threads, empty and identical
texts, chunks of one token.  The reference is the strip-major serial kernel
(``_lcs_length``, the hook raised past any pair) and the pure twin.
"""

from __future__ import annotations

import pickle
import random
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer as rs

from kurenai import RougeScorer, _lcs_py
from kurenai._core import checks as _checks

AROUND_WORDS = [0, 1, 63, 64, 65, 127, 128, 129, 300, 1000]
THREADS = [1, 2, 3, 4, 8, 64]
NEVER = 1 << 40  # a pair length no test reaches


@contextmanager
def wavefront_from(tokens: int) -> Iterator[None]:
    """Pairs of at least ``tokens`` tokens a side take the wavefront kernel."""
    from kurenai import _lcs

    previous = _lcs._set_parallel_min_tokens(tokens)
    try:
        yield
    finally:
        _lcs._set_parallel_min_tokens(previous)


def strip_major(a: list[int], b: list[int]) -> int:
    """The serial kernel's LCS length, whatever the pair's length."""
    from kurenai import _lcs

    with wavefront_from(NEVER):
        return _lcs.lcs_length(a, b)


@pytest.fixture
def always_threaded() -> Iterator[None]:
    """Every pair's LCS takes the wavefront kernel, however short (nothing to
    do in the pure-Python run)."""
    try:
        from kurenai import _lcs  # noqa: F401
    except ImportError:
        yield
        return
    with wavefront_from(0):
        yield


def _tokens(rng: random.Random, length: int, alphabet: int) -> list[int]:
    return [rng.randrange(alphabet) for _ in range(length)]


@pytest.mark.compiled_only
@pytest.mark.usefixtures("always_threaded")
@pytest.mark.parametrize("la", AROUND_WORDS)
@pytest.mark.parametrize("lb", [0, 1, 5, 64, 300])
@pytest.mark.parametrize("alphabet", [2, 50])
def test_threads_match_one_thread_around_words(la: int, lb: int, alphabet: int) -> None:
    from kurenai import _lcs

    rng = random.Random(la * 1000 + lb * 10 + alphabet)
    a, b = _tokens(rng, la, alphabet), _tokens(rng, lb, alphabet)
    serial = strip_major(a, b)
    assert [_lcs.lcs_length(a, b, threads) for threads in THREADS] == [serial] * len(THREADS)
    assert [_lcs.lcs_length(b, a, threads) for threads in THREADS] == [serial] * len(THREADS)
    if la * lb <= 300 * 300:
        assert serial == _lcs_py.lcs_length(a, b)


@pytest.mark.compiled_only
@pytest.mark.usefixtures("always_threaded")
@pytest.mark.parametrize("length", [1, 64, 65, 500, 3000])
def test_identical_texts_are_their_length(length: int) -> None:
    from kurenai import _lcs

    tokens = _tokens(random.Random(length), length, 7)
    assert [_lcs.lcs_length(tokens, tokens, n) for n in THREADS] == [length] * len(THREADS)


@pytest.mark.compiled_only
@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 3), max_size=700),
    st.lists(st.integers(0, 3), max_size=700),
    st.integers(1, 12),
)
def test_threads_match_one_thread(a: list[int], b: list[int], threads: int) -> None:
    from kurenai import _lcs

    with wavefront_from(0):
        assert _lcs.lcs_length(a, b, threads) == strip_major(a, b)


@pytest.mark.compiled_only
@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 4), max_size=150),
    st.lists(st.integers(0, 4), max_size=150),
    st.integers(1, 5),
)
def test_threads_match_the_twin(a: list[int], b: list[int], threads: int) -> None:
    from kurenai import _lcs

    with wavefront_from(0):
        assert _lcs.lcs_length(a, b, threads) == _lcs_py.lcs_length(a, b, threads)


@pytest.mark.compiled_only
def test_long_pairs_take_threads_by_default() -> None:
    from kurenai import _lcs

    length = _lcs._set_parallel_min_tokens(0)
    _lcs._set_parallel_min_tokens(length)
    rng = random.Random(5)
    a, b = _tokens(rng, length, 300), _tokens(rng, length, 300)
    assert _lcs.lcs_length(a, b, 2) == _lcs.lcs_length(a, b) == strip_major(a, b)


@pytest.mark.usefixtures("always_threaded")
@pytest.mark.parametrize("threads", [1, 2, 5])
def test_pair_counts_take_threads(kernels: ModuleType, threads: int) -> None:
    sentences = [["a", "b", "c"] * 40, ["b", "a"] * 50]
    others = [["c", "b", "a"] * 30, ["a", "a", "b"] * 40]
    counts = kernels.pair_counts(sentences, others, (1, 2), True, True, None, None, threads)
    assert counts == _lcs_py.pair_counts(sentences, others, (1, 2), True, True)


def _words(rng: random.Random, length: int) -> str:
    vocabulary = ["the", "cat", "sat", "on", "a", "mat", "dog", "ran", "far", "away", "and"]
    return " ".join(rng.choice(vocabulary) for _ in range(length))


@pytest.fixture
def eight_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scorer sees 8 available cores: ``threads`` up to 8 is kept as
    asked (past the cores it is capped), so these tests run 3 or 6 threads
    on any machine."""
    monkeypatch.setattr(_checks, "available_cores", lambda: 8)


@pytest.mark.usefixtures("always_threaded", "eight_cores")
@pytest.mark.parametrize("length", [70, 450, 900])
def test_scores_equal_rouge_score(backend: str, length: int) -> None:
    rng = random.Random(length)
    target, prediction = _words(rng, length), _words(rng, length - 7)
    expected = rs.RougeScorer(["rougeL", "rouge2"]).score(target, prediction)
    for threads in (1, 2, 3):
        scorer = RougeScorer(["rougeL", "rouge2"], threads=threads)
        assert scorer.plan.threads == threads
        assert scorer.score(target, prediction) == expected
        assert scorer.score_batch([target] * 3, [prediction] * 3, n_jobs=2) == [expected] * 3


@pytest.mark.usefixtures("eight_cores")
def test_threads_is_kept_through_pickling() -> None:
    scorer = RougeScorer(["rougeL"], threads=3)
    copy = pickle.loads(pickle.dumps(scorer))
    assert copy.plan.threads == 3
    every_core = pickle.loads(pickle.dumps(RougeScorer(["rougeL"], threads=-1)))
    assert every_core.plan.threads == 8


@pytest.mark.usefixtures("eight_cores")
def test_variant_scorers_take_threads() -> None:
    scorer = RougeScorer(["rougeL", "rougeW"], threads=2)
    assert scorer.plan.threads == 2
    assert scorer.score("a b c d", "a c d") == RougeScorer(["rougeL", "rougeW"]).score(
        "a b c d", "a c d"
    )


@pytest.mark.usefixtures("eight_cores")
@pytest.mark.parametrize(("threads", "jobs", "each"), [(4, 2, 2), (4, 3, 1), (2, 8, 1), (6, 1, 6)])
def test_batch_workers_share_the_threads(threads: int, jobs: int, each: int) -> None:
    scorer = RougeScorer(["rougeL"], threads=threads)
    assert scorer._batch_plan(jobs).threads == each


@pytest.mark.parametrize(
    ("threads", "error", "message"),
    [
        (0, ValueError, "positive count or -1"),
        (-2, ValueError, "got -2"),
        (2.0, TypeError, "must be an int, got float"),
        (True, TypeError, "got bool"),
        ("4", TypeError, "got str"),
    ],
)
def test_threads_is_checked(threads: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        RougeScorer(["rougeL"], threads=threads)  # type: ignore[arg-type]


# A C program holding the header alone: every lane count against a naive DP,
# with POSIX threads and as built where there are none (the serial fallback).
DRIVER = r"""
#include <stdio.h>
#include "_lcs_threads.h"

static ptrdiff_t naive(const int32_t *a, ptrdiff_t la, const int32_t *b, ptrdiff_t lb) {
    ptrdiff_t *prev = calloc(lb + 1, sizeof *prev), *cur = calloc(lb + 1, sizeof *cur);
    ptrdiff_t i, j, result;
    for (i = 0; i < la; i++) {
        ptrdiff_t *swap;
        for (j = 1; j <= lb; j++) {
            ptrdiff_t left = cur[j - 1] > prev[j] ? cur[j - 1] : prev[j];
            cur[j] = a[i] == b[j - 1] ? prev[j - 1] + 1 : left;
        }
        swap = prev, prev = cur, cur = swap;
    }
    result = prev[lb];
    free(prev);
    free(cur);
    return result;
}

static unsigned next(unsigned *seed) { return (*seed = *seed * 1103515245u + 12345u) >> 16; }

int main(void) {
    int32_t a[600], b[600];
    unsigned seed = 7, trial;
    for (trial = 0; trial < 1500; trial++) {
        ptrdiff_t la = next(&seed) % 600, lb = next(&seed) % 600, i;
        int threads = 1 + (int) (next(&seed) % 9);
        for (i = 0; i < la; i++) a[i] = (int32_t) (next(&seed) & 3);
        for (i = 0; i < lb; i++) b[i] = (int32_t) (next(&seed) & 3);
        if (kurenai_lcs_length_threads(a, la, b, lb, 4, threads) != naive(a, la, b, lb)) {
            printf("differs: la=%ld lb=%ld threads=%d\n", (long) la, (long) lb, threads);
            return 1;
        }
    }
    printf("threads built: %d\n", KURENAI_THREADS);
    return 0;
}
"""


@pytest.mark.compiled_only
@pytest.mark.parametrize(("flags", "built"), [([], 1), (["-D_WIN32"], 0)], ids=["posix", "none"])
def test_header_alone_matches_a_naive_dp(tmp_path: Path, flags: list[str], built: int) -> None:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None or sys.platform == "win32":
        pytest.skip("needs a POSIX C compiler")
    (tmp_path / "driver.c").write_text(DRIVER)
    program = tmp_path / "driver"
    include = Path(__file__).resolve().parents[2] / "kurenai" / "_kernels"
    command = [compiler, "-std=c99", "-O1", "-Wall", "-Wextra", "-Werror", "-pthread", *flags]
    command += [
        "-Wno-unused-function",
        f"-I{include}",
        str(tmp_path / "driver.c"),
        "-o",
        str(program),
    ]
    subprocess.run(command, check=True)
    out = subprocess.run([str(program)], capture_output=True, text=True, timeout=120)
    assert (out.returncode, out.stdout.strip()) == (0, f"threads built: {built}")

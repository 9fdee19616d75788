"""The fused compiled plan: its scan against the Python tokenizers it reproduces,
token for token, and its pickling."""

from __future__ import annotations

import pickle
import random
import subprocess
import sys

import pytest
from conftest import _lcs, on_compiled_plan
from hypothesis import given, settings
from hypothesis import strategies as st

from kurenai._core.python_plan import PythonPlan
from kurenai._data.rules import SCANS
from kurenai.rouge_scorer import RougeScorer
from kurenai.tokenizers import get_tokenizer

pytestmark = pytest.mark.compiled_only

# Every scan mode, each reproducing kurenai's tokenizer of the same name.
FUSED = list(SCANS)


def plan_of(name: str) -> object:
    scorer = RougeScorer(["rouge1"], tokenizer=name)
    assert on_compiled_plan(scorer), f"{name} is not on the compiled path"
    return scorer.plan


@pytest.mark.parametrize("name", FUSED)
def test_a_fresh_process_scans_with_the_table_the_plan_installed(name: str) -> None:
    # Nothing but the plan itself installs the code point table its mode reads.
    code = (
        "from kurenai.rouge_scorer import RougeScorer\n"
        f"scorer = RougeScorer(['rouge1'], tokenizer={name!r})\n"
        "print(type(scorer.plan).__module__, scorer.plan.tokens('今日は Café ５'))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    expected = get_tokenizer(name).tokenize("今日は Café ５")
    assert result.stdout.strip() == f"kurenai._fused {expected}"


@pytest.mark.parametrize("name", FUSED)
def test_every_code_point_is_classified_as_in_python(name: str) -> None:
    plan, tokenizer = plan_of(name), get_tokenizer(name)
    blocks = [range(base, base + 256) for base in range(0, 0x40000, 256)]
    blocks.append(range(0xE0000, 0xE1000))  # plane 14: tags, variation selectors
    for block in blocks:
        chars = [chr(code) for code in block]
        # Alone, run together, after a letter, and each followed by a mark.
        for text in (
            " ".join(chars),
            "".join(chars),
            "a".join(chars),
            "".join(c + "\u0301" for c in chars),
        ):
            assert plan.tokens(text) == tokenizer.tokenize(text), hex(block[0])  # type: ignore[attr-defined]


mixed = st.lists(
    st.sampled_from(
        [
            "今日は",
            "猫",
            "ｶﾀｶﾅ",
            "한국어",
            "ภาษา",
            "Café",
            "e\u0301",
            "\u0301",
            "😀\ufe0f",
            "𠮷",
            "x_y",
            "١٢",
            "Ⅻ",
            "ǅ",
            "İ",
            " ",
            "\n",
            "\u3000",
            "-",
            "Running",
            "A1",
        ]
    ),
    max_size=40,
).map("".join)


@pytest.mark.parametrize("name", FUSED)
@settings(max_examples=200, deadline=None)
@given(text=mixed | st.text(max_size=40))
def test_tokens_on_mixed_scripts(name: str, text: str) -> None:
    assert plan_of(name).tokens(text) == get_tokenizer(name).tokenize(text)  # type: ignore[attr-defined]


def test_normalising_tokenizers_stay_on_the_python_path() -> None:
    scorer = RougeScorer(["rouge1"], tokenizer=get_tokenizer("char", normalize="NFKC"))
    assert not on_compiled_plan(scorer)
    assert scorer.score("ＡＢＣ", "abc")["rouge1"].fmeasure == 1.0


@pytest.mark.parametrize(
    ("name", "stem"), [("rouge-score", True), ("char", False), ("unicode", True)]
)
def test_a_pickled_plan_scores_as_the_original(name: str, stem: bool) -> None:
    """A plan travels to worker processes by pickle: it must come back whole."""
    scorer = RougeScorer(
        ["rouge1", "rouge3", "rougeL", "rougeLsum", "rougeW", "rougeSU4"],
        tokenizer=name,
        use_stemmer=stem,
        threads=2,
    )
    plan = scorer.plan
    copy = pickle.loads(pickle.dumps(plan))
    assert type(copy).__module__ == "kurenai._fused"
    assert type(copy).__name__ == "FusedPlan"
    assert (copy.mode, copy.threads, copy.rouge_types) == (plan.mode, 2, plan.rouge_types)
    pair = ("Running dogs ran far.\n猫が走る。 The cats", "the dog runs\n猫は走った cats ran")
    assert copy.score(*pair) == plan.score(*pair)
    assert copy.tallies(*pair) == plan.tallies(*pair)


def python_twin(scorer: RougeScorer) -> PythonPlan:
    """The Python plan of ``scorer``'s types and tokenizer, on the compiled kernels."""
    return PythonPlan(scorer.plan.spec, scorer.tokenizer, _lcs, None)  # type: ignore[attr-defined]


def test_a_long_text_is_lowercased_only_when_it_has_capitals() -> None:
    # From LOWER_CHECK_MIN code units a lowercase 1-byte text is scanned in
    # place; one with capitals is still lowercased first.
    rng = random.Random(5)
    words = [f"w{rng.randrange(3_000)}" for _ in range(14_000)]
    lower = " ".join(words)
    upper = " ".join(w.upper() if rng.random() < 0.3 else w for w in words)
    other = " ".join(w for w in words if rng.random() < 0.9).replace("w1", "W1")
    assert len(lower) > 1 << 16
    scorer = RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"])
    assert on_compiled_plan(scorer)
    twin = python_twin(scorer)
    for target, prediction in ((lower, other), (upper, other), (upper, lower), ("A b", lower)):
        expected = twin.tallies(target, prediction)
        assert scorer.plan.tallies(target, prediction) == expected  # type: ignore[attr-defined]
        assert scorer.plan.tallies(target.lower(), prediction.lower()) == expected  # type: ignore[attr-defined]


def test_a_long_pair_grows_its_table_past_its_first_size() -> None:
    # A long pair's interning table starts at TABLE_START_MAX entries.
    rng = random.Random(7)
    words = [f"t{k}" for k in range(70_000)]
    target = " ".join(words)
    rng.shuffle(words)
    prediction = " ".join([*words[:60_000], "u2"])
    scorer = RougeScorer(["rouge1", "rougeLsum"])
    expected = python_twin(scorer).tallies(target, prediction)
    assert scorer.plan.tallies(target, prediction) == expected  # type: ignore[attr-defined]
    assert expected[0][0] == 60_000

"""The seed's blog post on pltrdy's ``rouge`` (shared/seeds/003_...; a copy in
tests/data/compat, so that the suite runs where shared/ is not beside the
tree): its code runs with one changed import, ``from kurenai.compat import
Rouge`` and ``Rouge(version="1.0.0")`` (the release its outputs were printed
with), and gives exactly the outputs it prints."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest
from compat_references import started

SEED = Path(__file__).resolve().parents[1] / "data" / "compat" / "seed_003_pltrdy_blog.txt"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "003_fea32c013fede565.txt"
CODE = re.compile(r"^(from |model_out|reference|rouge|\s+\")")


def _examples() -> list[tuple[str, Any]]:
    """(code, printed value) for each output the post prints."""
    text = SEED.read_text(encoding="utf-8")
    examples, start = [], 0
    for found in re.finditer(r"^\[?\{'rouge-1'", text, re.MULTILINE):
        depth, end = 0, found.start()
        for end in range(found.start(), len(text)):
            depth += {"[": 1, "{": 1, "]": -1, "}": -1}.get(text[end], 0)
            if depth == 0:
                break
        code = [line for line in text[start : found.start()].splitlines() if CODE.match(line)]
        examples.append(("\n".join(code), ast.literal_eval(text[found.start() : end + 1])))
        start = end + 1
    return examples


def _run(codes: list[str], version: str) -> list[Any]:
    """Run ``codes`` as notebook cells, in one namespace as a notebook does,
    with the changed import: each cell's last expression's value."""
    namespace: dict[str, Any] = {}
    values = []
    for code in codes:
        code = code.replace("from rouge import Rouge", "from kurenai.compat import Rouge")
        tree = ast.parse(code.replace("Rouge()", f"Rouge(version={version!r})"))
        last = tree.body.pop()
        assert isinstance(last, ast.Expr)
        exec(compile(tree, "<seed>", "exec"), namespace)
        values.append(eval(compile(ast.Expression(last.value), "<seed>", "eval"), namespace))
    return values


def test_the_copy_is_the_seed() -> None:
    if not SHARED.exists():
        pytest.skip("shared/ is not beside this tree")
    assert SEED.read_bytes() == SHARED.read_bytes()


def test_the_seed_has_two_examples() -> None:
    examples = _examples()
    assert len(examples) == 2
    assert "avg=True" in examples[1][0]


def test_seed_examples_print_their_outputs() -> None:
    examples = _examples()
    results = _run([code for code, _ in examples], "1.0.0")
    for result, (_, printed) in zip(results, examples):
        assert result == printed
        # Keys in the printed order too: f, p, r is rouge 1.0.0's.
        assert repr(result) == repr(printed)


@pytest.mark.index
def test_rouge_1_0_1_changes_the_seed_figures() -> None:
    rouge_101 = started("rouge_101")
    # Today's release counts distinct n-grams: the average moves, and kurenai
    # follows the release it is asked for.
    examples = _examples()
    result = _run([code for code, _ in examples], "1.0.1")[1]
    assert result["rouge-1"]["f"] != examples[1][1]["rouge-1"]["f"]
    model_out, reference = _seed_lists(examples[1][0])
    theirs = rouge_101.call(([], {}), ([model_out, reference], {"avg": True}))
    assert repr(theirs["ok"]) == repr(result)


def _seed_lists(code: str) -> tuple[list[str], list[str]]:
    namespace: dict[str, Any] = {}
    exec(
        compile(
            "\n".join(
                line
                for line in code.splitlines()
                if "Rouge" not in line and not line.startswith("rouge")
            ),
            "<seed>",
            "exec",
        ),
        namespace,
    )
    return namespace["model_out"], namespace["reference"]

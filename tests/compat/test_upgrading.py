"""docs/upgrading.md's table of numbers, against kurenai 0.1.0 itself.

0.1.0 (the package index's ``kurenai``, the thin rouge-score wrapper this
project grew from) is installed into a directory of its own and scores each
row in a subprocess; today's kurenai scores it here.  Both columns must be
what the page says, stemmed and not.  The negative control: the rows differ,
so the check would catch a page that claimed no change.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from compat_references import _root, install

from kurenai.rouge_scorer import RougeScorer

pytestmark = pytest.mark.index
PAGE = Path(__file__).resolve().parents[2] / "docs" / "upgrading.md"
ROW = re.compile(r"^\| (rouge\w+) \| `(.*?)` \| `(.*?)` \| ([\d., ]+) \| ([\d., ]+) \|$", re.M)
SCORE_010 = """
import json, sys
import kurenai
from kurenai.rouge_scorer import RougeScorer
assert kurenai.__version__ == "0.1.0", kurenai.__file__
rows = json.loads(sys.argv[1])
print(json.dumps([[list(RougeScorer([kind], use_stemmer=stem).score(t, p)[kind])
                   for kind, t, p in rows] for stem in (False, True)]))
"""


def _rows() -> list[tuple[str, str, str, tuple[float, ...], tuple[float, ...]]]:
    found = ROW.findall(PAGE.read_text(encoding="utf-8"))
    assert len(found) >= 6, "docs/upgrading.md's table was not found"

    def numbers(cell: str) -> tuple[float, ...]:
        return tuple(float(x) for x in cell.split(","))

    return [
        (kind, ast.literal_eval(t), ast.literal_eval(p), numbers(old), numbers(new))
        for kind, t, p, old, new in found
    ]


def _rounded(values: list[float]) -> tuple[float, ...]:
    return tuple(round(float(v), 6) for v in values)


def test_the_page_states_what_0_1_0_and_today_give() -> None:
    rows = _rows()
    target = install(_root(), "kurenai==0.1.0")
    # 0.1.0 imports rouge-score (installed here); its own directory comes first.
    env = {**os.environ, "PYTHONPATH": str(target), "PYTHONNOUSERSITE": "1"}
    env.pop("KURENAI_IMPLEMENTATION", None)
    out = subprocess.run(
        [sys.executable, "-c", SCORE_010, json.dumps([row[:3] for row in rows])],
        capture_output=True,
        text=True,
        env=env,
        cwd=target,  # not the checkout: python -c puts the working directory first
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    old_runs = json.loads(out.stdout)
    for stem, old_scores in zip((False, True), old_runs):
        for (kind, t, p, old, new), old_score in zip(rows, old_scores):
            assert _rounded(old_score) == old, (kind, t, p, stem)
            today = RougeScorer([kind], use_stemmer=stem).score(t, p)[kind]
            assert _rounded(list(today)) == new, (kind, t, p, stem)
    assert all(old != new for *_, old, new in rows), "a row shows no difference"

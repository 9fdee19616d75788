"""The pipeline scripts in examples/ run and give kurenai's numbers.

The Trainer recipe needs nothing beyond kurenai.  ``datasets`` and Ray are
deliberately not test dependencies (heavy, and not needed by kurenai): their
scripts run where they are installed and skip elsewhere, CI included.
"""

from __future__ import annotations

import importlib.util
import json
import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

from kurenai import metrics
from kurenai.sentences import split_sentences

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def test_trainer_compute_metrics_decodes_splits_and_scores(
    capsys: pytest.CaptureFixture[str],
) -> None:
    example = runpy.run_path(str(EXAMPLES / "trainer_compute_metrics.py"))
    scores = example["main"]()
    predictions = ["The cat sat on the mat. It slept.", "Dogs are running fast."]
    references = ["The cat was on the mat. It slept well.", "The dog runs fast."]
    expected = metrics.compute(
        ["\n".join(split_sentences(p)) for p in predictions],
        ["\n".join(split_sentences(r)) for r in references],
        use_stemmer=True,
        seed=42,
    )
    assert scores == {name: round(value * 100, 4) for name, value in expected.items()}
    assert str(scores) in capsys.readouterr().out


def run_example(name: str, module: str) -> str:
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed (not a test dependency)")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / name)], capture_output=True, text=True, env=env,
        timeout=600, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


EXPECTED_FIRST = {"precision": 1.0, "recall": 0.5, "fmeasure": 0.6666666666666666}


@pytest.mark.parametrize(
    ("name", "module"), [("datasets_map.py", "datasets"), ("ray_data.py", "ray")]
)
def test_arrow_pipelines(name: str, module: str) -> None:
    lines = run_example(name, module).splitlines()
    assert lines[0].startswith("the cat sat on the mat | the cat sat -> ")
    first = json.loads(lines[0].split(" -> ")[1].replace("'", '"'))
    assert first["rouge1"] == EXPECTED_FIRST
    assert "None | x -> None" in lines

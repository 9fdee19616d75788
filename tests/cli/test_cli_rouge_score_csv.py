"""The command line's CSV reports against rouge-score's own command line
(``python -m rouge_score.rouge``): the same rows, in the same order, to the
last printed digit.

rouge-score writes per-record columns as P, R, F and the aggregate's rows as
R, P, F per type (``rouge_score/io.py``); kurenai 0.1.0 printed the same, and
its README (the seed specification) shows it.  rouge-score's aggregator draws
from NumPy's global generator: seeding it with N gives ``--seed N``'s draws.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from cli_support import call_main
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rouge_score import io as rouge_io
from rouge_score import rouge_scorer, scoring

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# rouge-score's command line, its NumPy generator seeded first.
_SEEDED_ROUGE = (
    "import sys, numpy; numpy.random.seed(int(sys.argv.pop(1))); "
    "from absl import app; from rouge_score import rouge; "
    "rouge.flags.mark_flag_as_required('target_filepattern'); app.run(rouge.main)"
)


def differences(kurenai: str, reference: str) -> list[tuple[int, str, str]]:
    """The lines (number, kurenai's, the reference's) where two reports differ."""
    ours, theirs = kurenai.splitlines(), reference.splitlines()
    diff = [(i, a, b) for i, (a, b) in enumerate(zip(ours, theirs)) if a != b]
    if len(ours) != len(theirs):
        diff.append((min(len(ours), len(theirs)), f"{len(ours)} lines", f"{len(theirs)} lines"))
    return diff


def kurenai_csv(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    result = call_main(capsys, *argv, "--quiet")
    assert result.code == 0, result.err
    return result.out


def rouge_score_csv(
    tmp_path: Path, targets: Path, predictions: Path, types: list[str], seed: int | None
) -> str:
    """rouge-score's own CSV writer on the files (its command line's ``main``,
    without the flag parsing), its aggregator seeded with ``seed`` if given."""
    output = tmp_path / "rouge_score.csv"
    scorer = rouge_scorer.RougeScorer(types)
    if seed is not None:
        np.random.seed(seed)
    aggregator = scoring.BootstrapAggregator() if seed is not None else None
    rouge_io.compute_scores_and_write_to_csv(
        str(targets), str(predictions), str(output), scorer, aggregator
    )
    return output.read_text(encoding="utf-8")


def test_rouge_score_command_line_writes_the_same_csv(tmp_path: Path) -> None:
    """``python -m rouge_score.rouge --aggregate`` itself, in a process."""
    output = tmp_path / "rouge_score.csv"
    command = [
        sys.executable,
        "-c",
        _SEEDED_ROUGE,
        "3",
        f"--target_filepattern={EXAMPLES / 'targets.txt'}",
        f"--prediction_filepattern={EXAMPLES / 'predictions.txt'}",
        f"--output_filename={output}",
        "--rouge_types=rouge1,rouge2,rougeLsum",
        "--aggregate",
    ]
    subprocess.run(command, check=True, capture_output=True, timeout=120)
    argv = ["--quiet", "--use-aggregator", "--seed", "3", "--tokenizer", "rouge-score"]
    argv += ["--rouge-types", "rouge1,rouge2,rougeLsum"]
    argv += ["--target-file", str(EXAMPLES / "targets.txt")]
    argv += ["--prediction-file", str(EXAMPLES / "predictions.txt")]
    command = [sys.executable, "-m", "kurenai", *argv]
    ours = subprocess.run(command, check=True, capture_output=True, text=True, timeout=120).stdout
    reference = output.read_text(encoding="utf-8")
    assert [line.split(",")[0] for line in reference.splitlines()[1:4]] == [
        "rouge1-R",
        "rouge1-P",
        "rouge1-F",
    ]
    assert differences(ours, reference) == []
    # Negative control: the order kurenai printed before (P, R, F) is caught.
    lines = ours.splitlines()
    swapped = "\n".join([lines[0], lines[2], lines[1], *lines[3:]]) + "\n"
    assert differences(swapped, reference) != []


_WORDS = st.sampled_from(["the", "cat", "sat", "on", "a", "mat", "dog", "ran", "b2", "z"])
_TEXTS = st.lists(_WORDS, min_size=0, max_size=8).map(" ".join)
# Sorted: rouge-score sorts the per-record columns' types, kurenai keeps
# --rouge-types' order (docs/compatibility.md).
_TYPES = st.lists(
    st.sampled_from(["rouge1", "rouge2", "rouge3", "rougeL"]), min_size=1, max_size=3, unique=True
).map(sorted)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    pairs=st.lists(st.tuples(_TEXTS, _TEXTS), min_size=1, max_size=6),
    types=_TYPES,
    seed=st.integers(0, 2**32 - 1),
    aggregate=st.booleans(),
)
def test_generated_files_give_rouge_scores_csv(
    capsys: pytest.CaptureFixture[str],
    tmp_path_factory: pytest.TempPathFactory,
    pairs: list[tuple[str, str]],
    types: list[str],
    seed: int,
    aggregate: bool,
) -> None:
    tmp_path = tmp_path_factory.mktemp("csv")
    targets, predictions = tmp_path / "targets.txt", tmp_path / "predictions.txt"
    # rouge-score splits on "\n" and drops the last, empty record.
    targets.write_text("".join(t + "\n" for t, _ in pairs), encoding="utf-8")
    predictions.write_text("".join(p + "\n" for _, p in pairs), encoding="utf-8")
    argv = ["--rouge-types", ",".join(types), "--tokenizer", "rouge-score"]
    argv += ["--target-file", str(targets), "--prediction-file", str(predictions)]
    if aggregate:
        argv += ["--use-aggregator", "--seed", str(seed)]
    got = kurenai_csv(capsys, *argv)
    reference = rouge_score_csv(tmp_path, targets, predictions, types, seed if aggregate else None)
    assert differences(got, reference) == []

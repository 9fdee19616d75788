"""Every benchmark script still runs, and measures the kurenai it names.

Each ``benchmarks/bench_*.py`` runs in its ``--tiny`` mode (a few generated
pairs, no rouge-score timing, no corpus) from a working directory holding a
decoy ``kurenai`` package: the script and its child processes must import the
kurenai under test and say so in their header.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import kurenai

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
# Every benchmark script, by name: a script added, renamed or removed must be
# named here too, so none leaves the tiny runs below unnoticed.
BENCHMARK_SCRIPTS = (
    "bench_bootstrap.py",
    "bench_builds.py",
    "bench_cli.py",
    "bench_cli_throughput.py",
    "bench_compat.py",
    "bench_correlate.py",
    "bench_correlate_peers.py",
    "bench_floor.py",
    "bench_frames.py",
    "bench_hash_flood.py",
    "bench_ignite.py",
    "bench_longline_memory.py",
    "bench_metrics.py",
    "bench_multiref.py",
    "bench_pairs.py",
    "bench_parallel.py",
    "bench_patch.py",
    "bench_punkt.py",
    "bench_randomization.py",
    "bench_regimes_lsum.py",
    "bench_report.py",
    "bench_robustness.py",
    "bench_rouge.py",
    "bench_rouge155.py",
    "bench_spark.py",
    "bench_stemmers.py",
    "bench_tokenizer_processes.py",
    "bench_tokenizers.py",
    "bench_torchmetrics.py",
    "bench_unspaced.py",
    "bench_variants.py",
    "bench_xlsum.py",
)
SCRIPTS = [BENCHMARKS / name for name in BENCHMARK_SCRIPTS]
KURENAI_DIR = Path(kurenai.__file__).resolve().parent
# The pure-Python run runs these few (a script of each kind: text pairs, the
# command line, processes); the compiled run runs them all.
PURE_RUN_SCRIPTS = {"bench_rouge.py", "bench_cli.py", "bench_tokenizer_processes.py"}


def _run(script: Path, cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    decoy = cwd / "kurenai"
    decoy.mkdir(exist_ok=True)
    (decoy / "__init__.py").write_text("raise ImportError('the decoy kurenai was imported')\n")
    path = os.pathsep.join([str(KURENAI_DIR.parent), os.environ.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, str(script), *args],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": path, "KURENAI_BENCH_DATA": str(cwd / "absent"), **env},
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_list_is_the_benchmarks_folder() -> None:
    found = sorted(path.name for path in BENCHMARKS.glob("bench_*.py"))
    assert found == sorted(BENCHMARK_SCRIPTS)
    assert set(BENCHMARK_SCRIPTS) >= PURE_RUN_SCRIPTS


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda script: script.stem)
def test_tiny_run_names_what_it_measures(script: Path, tmp_path: Path) -> None:
    implementation = kurenai.IMPLEMENTATION
    if implementation == "python" and script.name not in PURE_RUN_SCRIPTS:
        pytest.skip("the compiled run runs every script; the pure-Python run a few")
    out = _run(script, tmp_path, "--tiny", "--implementation", implementation)
    assert out.returncode == 0, out.stderr
    first = out.stdout.splitlines()[0]
    assert f"at {KURENAI_DIR}:" in first
    assert f"{implementation} implementation" in first
    assert "popcount " in first
    assert "failed" not in out.stdout, out.stdout


def test_pure_python_figures_are_refused_unless_asked(tmp_path: Path) -> None:
    script = BENCHMARKS / "bench_rouge.py"
    out = _run(script, tmp_path, "--tiny", "--skip-long", KURENAI_IMPLEMENTATION="python")
    assert out.returncode != 0
    assert "python implementation" in out.stdout
    assert "refusing to time kurenai's python implementation" in out.stderr
    assert "us/pair" not in out.stdout

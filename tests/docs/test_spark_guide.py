"""The Spark guide's examples run as shown: the column function's table, then
the SQL registration, in a fresh Python with its own Spark session."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import kurenai

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "guides" / "spark.md"


def _blocks() -> list[str]:
    text = GUIDE.read_text(encoding="utf-8")
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.M | re.S)


@pytest.mark.slow
@pytest.mark.skipif(kurenai.IMPLEMENTATION != "compiled", reason="one JVM start: the compiled run")
def test_spark_guide_examples_print_what_the_guide_shows(tmp_path: Path) -> None:
    if os.environ.get("CI") != "true":
        pytest.importorskip("pyspark")
        if shutil.which("java") is None:
            pytest.skip("Spark needs Java")
    columns, sql = _blocks()[:2]
    expected = [line[2:] for line in columns.splitlines() if line.startswith("# ")]
    code = "\n".join(line for line in columns.splitlines() if not line.startswith("# "))
    script = tmp_path / "guide.py"
    script.write_text(f"{code}\nprint('-- sql')\n{sql}\nspark.stop()\n", encoding="utf-8")
    # The guide's plain session, started as tests/spark starts theirs: no UI,
    # the quick JIT tier and one GC thread (a short job starts faster).
    submit = '--driver-java-options "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"'
    environment = {
        **os.environ,
        "PYSPARK_PYTHON": sys.executable,
        "PYSPARK_SUBMIT_ARGS": f"{submit} --conf spark.ui.enabled=false pyspark-shell",
    }
    result = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, env=environment,
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    shown, sql_output = result.stdout.split("-- sql\n")
    assert shown.rstrip("\n").splitlines() == expected
    assert "|0.6666666666666666|" in sql_output  # rouge_score(...).fmeasure AS f

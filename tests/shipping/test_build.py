"""The built extension is portable and lean.

On x86-64 the kernels use the POPCNT instruction only after the CPU said it
has it (kurenai/_kernels/_popcount.h): the modules must run on a CPU without POPCNT,
which qemu emulates here.  Release builds carry no debug info and, compiled
as C, do not need the C++ runtime.
"""

from __future__ import annotations

import json
import os
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import kurenai

pytestmark = pytest.mark.skipif(
    kurenai.IMPLEMENTATION != "compiled", reason="checks the compiled extension"
)
X86_64_LINUX = sys.platform.startswith("linux") and platform.machine() in ("x86_64", "AMD64")
CPU_CHECK = re.compile(r"<kurenai_(has_popcnt|popcnt_ok)>")  # the flag, or its reader


def _tool(name: str) -> str:
    """The path of a command-line tool; CI must have it (.ci/run installs it)."""
    path = shutil.which(name)
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"{name} is missing: .ci/run must install it")
        pytest.skip(f"{name} is not installed")
    return path


def _extensions() -> list[Path]:
    import kurenai._fused
    import kurenai._lcs

    return [Path(kurenai._lcs.__file__), Path(kurenai._fused.__file__)]


def _popcnt_functions(library: Path) -> dict[str, bool]:
    """Each function holding a POPCNT instruction -> whether it reads the CPU flag."""
    listing = subprocess.run(
        [_tool("objdump"), "-d", "--no-show-raw-insn", str(library)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found: dict[str, bool] = {}
    for body in re.split(r"\n(?=[0-9a-f]+ <[^>]+>:\n)", listing):
        name = body.split(">:", 1)[0].split("<")[-1]
        if re.search(r"^\s+[0-9a-f]+:\s+popcnt\s", body, re.MULTILINE):
            found[name] = CPU_CHECK.search(body) is not None
    return found


@pytest.mark.skipif(not X86_64_LINUX, reason="POPCNT is an x86-64 instruction")
def test_popcnt_runs_only_behind_the_cpu_check() -> None:
    lcs, fused = _extensions()
    in_lcs = _popcnt_functions(lcs)
    assert in_lcs, "the kernels never use POPCNT: current CPUs would run the slow count"
    assert all(in_lcs.values()), f"POPCNT without the CPU check in {in_lcs}"
    assert _popcnt_functions(fused) == {}


@pytest.mark.skipif(not X86_64_LINUX, reason="reads /proc/cpuinfo")
def test_popcount_follows_this_cpu() -> None:
    from kurenai import _lcs

    has_popcnt = " popcnt" in Path("/proc/cpuinfo").read_text()
    expected = "POPCNT (chosen at run time)" if has_popcnt else "portable (this CPU has no POPCNT)"
    popcount = _lcs.POPCOUNT
    assert popcount == expected


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF files")
def test_release_build_has_no_debug_info_and_no_cxx_runtime() -> None:
    for library in _extensions():
        headers = subprocess.run(
            [_tool("readelf"), "-S", "-d", "-W", str(library)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert ".debug_" not in headers, f"{library.name} carries debug info"
        assert "libstdc++" not in headers, f"{library.name} was compiled as C++"


# Loads the compiled modules without kurenai/__init__.py (NumPy >= 2.4 itself
# needs POPCNT), then checks them against the pure twin, past one machine word
# and through the checkpointed LCS path.
PROBE = """
import json, random, sys, types
package = types.ModuleType("kurenai")
package.__path__ = [sys.argv[1]]
sys.modules["kurenai"] = package
from kurenai import _lcs, _lcs_py  # _fused reads kurenai._core.plan, which imports NumPy
rng = random.Random(7)
cases = [([rng.randrange(5) for _ in range(rng.randrange(1, 150))],
          [rng.randrange(5) for _ in range(rng.randrange(1, 150))]) for _ in range(12)]
same = all(_lcs.lcs_length(a, b) == _lcs_py.lcs_length(a, b)
           and _lcs.lcs_indices(a, b) == _lcs_py.lcs_indices(a, b) for a, b in cases)
sents = [[a[:70], b[:90]] for a, b in cases]
same = same and all(_lcs.summary_lcs_hits(x, y) == _lcs_py.summary_lcs_hits(x, y)
                    for x, y in zip(sents, sents[1:]))
_lcs._set_rows_limit(8)
same = same and all(_lcs.lcs_indices(a, b) == _lcs_py.lcs_indices(a, b) for a, b in cases)
print(json.dumps({"popcount": _lcs.POPCOUNT, "same": same}))
"""


@pytest.mark.skipif(not X86_64_LINUX, reason="emulates x86-64 CPUs")
@pytest.mark.parametrize(
    ("cpu", "popcount"),
    [
        ("core2duo", "portable (this CPU has no POPCNT)"),
        ("Nehalem", "POPCNT (chosen at run time)"),
    ],
)
def test_runs_on_a_cpu_without_popcnt(cpu: str, popcount: str) -> None:
    """core2duo (2006) has no POPCNT: the old -mpopcnt build died with SIGILL."""
    out = _on_emulated_cpu(cpu, PROBE)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f'{{"popcount": "{popcount}", "same": true}}'


# The bootstrap's kernel refills the generator's words on AVX2 lanes only
# where the CPU has them (kurenai/_kernels/_resample_mt.h): its sums, without NumPy, with
# AVX2 allowed and forbidden, must agree, on a CPU without AVX2 as on one with.
RESAMPLE_PROBE = """
import json, random, sys, types
package = types.ModuleType("kurenai")
package.__path__ = [sys.argv[1]]
sys.modules["kurenai"] = package
from array import array
from kurenai import _resample
rng = random.Random(7)
records = 3000
flat = array("d", [rng.choice([0.0, 0.25, 1.0, rng.random()]) for _ in range(records * 4)])
values = memoryview(flat).cast("B").cast("d", shape=[records, 4])
key = array("I", [rng.getrandbits(32) for _ in range(624)])

def sums(avx2):
    lanes = _resample._set_avx2(avx2)
    out = array("d", [0.0] * 27)
    stream = _resample.LegacyStream(key, 624)
    stream.sums(_resample.Rows(values, 3), memoryview(out).cast("B").cast("d", shape=[9, 3]))
    return lanes, list(out), stream.state()

lanes, *with_lanes = sums(True)
_, *without = sums(False)
print(json.dumps({"avx2": lanes, "same": with_lanes == without}))
"""


@pytest.mark.skipif(not X86_64_LINUX, reason="emulates x86-64 CPUs")
@pytest.mark.parametrize(("cpu", "avx2"), [("core2duo", False), ("Haswell-noTSX", True)])
def test_the_bootstrap_kernel_takes_avx2_only_where_the_cpu_has_it(cpu: str, avx2: bool) -> None:
    out = _on_emulated_cpu(cpu, RESAMPLE_PROBE)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"avx2": avx2, "same": True}


def _on_emulated_cpu(cpu: str, probe: str) -> subprocess.CompletedProcess[str]:
    """``probe`` run by this interpreter on qemu's model of ``cpu``, given the
    folder of the built extension modules."""
    command = [_tool("qemu-x86_64"), "-cpu", cpu, sys.executable, "-c", probe]
    return subprocess.run(
        [*command, str(_extensions()[0].parent)], capture_output=True, text=True, timeout=600
    )

"""What the kernels define once: Perl's rounding in Python, the kind codes in C.

The script's ``sprintf("%07.5f")`` rounding is one Python function, which
the registry and ``kurenai.rouge155`` both call (the C one is held to it in
``test_perl_kernels.py``).  The C switches of ``_fused`` and ``_perl`` read
one enum of kind codes, which each module holds to ``kurenai._data.codes``
when it loads.
"""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
from decimal import ROUND_HALF_EVEN, Decimal
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import kurenai
from kurenai._core import kinds
from kurenai._data import codes, rounding
from kurenai.rouge155 import _counts

PACKAGE = Path(kurenai.__file__).resolve().parent


def test_perl_rounding_is_one_function() -> None:
    assert kinds.perl_rounded is rounding.perl_rounded
    assert _counts.perl_rounded is rounding.perl_rounded


def _exactly_rounded(value: float) -> float:
    """The naive reference: the exact binary value of ``value`` (a Decimal
    holds it exactly) rounded to 5 decimals, ties to even, as C's printf
    rounds it under the default rounding mode; no float formatting involved."""
    return float(Decimal(value).quantize(Decimal("0.00001"), rounding=ROUND_HALF_EVEN))


# What perl -e 'printf("%07.5f", $value)' printed (Perl 5.36, glibc): near
# ties on either side, and exact binary ties (odd multiples of 1/64), which go
# to the even digit.
PERL_PRINTF = [
    (0.000005, 0.00001),
    (0.000015, 0.00002),
    (0.0000349999, 0.00003),
    (0.123455, 0.12345),
    (0.123465, 0.12347),
    (2.5e-06, 0.0),
    (0.999995, 0.99999),
    (1.000005, 1.00001),
    (-0.000005, -0.00001),
    (0.015625, 0.01562),
    (0.046875, 0.04688),
    (0.078125, 0.07812),
    (0.109375, 0.10938),
    (-0.015625, -0.01562),
]


@pytest.mark.parametrize(("value", "printed"), PERL_PRINTF)
def test_perl_rounding_is_the_scripts_sprintf(value: float, printed: float) -> None:
    assert rounding.perl_rounded(value) == printed
    assert _exactly_rounded(value) == printed  # the reference below agrees with Perl


@given(
    st.one_of(
        st.floats(-2, 2),
        st.integers(0, 10**9).map(lambda k: (2 * k + 1) / 200000),
        st.integers(0, 10**6).map(lambda k: (2 * k + 1) / 64),  # exact ties
        st.floats(allow_nan=False, allow_infinity=False, min_value=-1e12, max_value=1e12),
    )
)
def test_perl_rounding_is_the_exact_value_rounded_half_to_even(value: float) -> None:
    assert rounding.perl_rounded(value) == _exactly_rounded(value)


def test_perl_rounding_keeps_infinities_and_nan() -> None:
    assert rounding.perl_rounded(math.inf) == math.inf
    assert rounding.perl_rounded(-math.inf) == -math.inf
    assert math.isnan(rounding.perl_rounded(math.nan))


def _c_sources() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*") if p.suffix in (".pyx", ".pxd"))


def test_one_c_enum_numbers_the_kinds() -> None:
    """Only one C file declares the kinds' enum, with the registry's numbers."""
    declaring = [p for p in _c_sources() if "cdef enum Kind" in p.read_text(encoding="utf-8")]
    assert len(declaring) == 1, declaring
    block = declaring[0].read_text(encoding="utf-8").split("cdef enum Kind:")[1]
    numbers = dict(re.findall(r"^\s+([A-Z]+) = (\d+)$", block, re.MULTILINE))
    assert {name: int(number) for name, number in numbers.items()} == codes.BY_NAME


def test_the_modules_switching_on_kinds_cimport_the_one_enum() -> None:
    for name in ("_fused.pyx", "_perl.pyx"):
        source = (PACKAGE / name).read_text(encoding="utf-8")
        assert re.search(r"^from kurenai\.\S*_codes cimport", source, re.MULTILINE), name
        assert "check_c_kinds(" in source, name


def test_a_module_built_with_other_codes_is_refused() -> None:
    codes.check_c_kinds("kurenai._perl", dict(codes.BY_NAME))
    swapped = {**codes.BY_NAME, "LSUM": codes.WLCS, "WLCS": codes.LSUM}
    for declared in (swapped, {"NGRAM": 0, "LCS": 1, "WLCS": 2, "SKIP": 3}):
        with pytest.raises(ImportError, match=r"kurenai\._perl was built with the kind codes"):
            codes.check_c_kinds("kurenai._perl", declared)


# A registry that numbers LSUM and WLCS the other way round, installed before
# kurenai loads its compiled modules.
_SWAPPED = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("kurenai._data.codes", sys.argv[1])
codes = importlib.util.module_from_spec(spec)
sys.modules["kurenai._data.codes"] = codes
spec.loader.exec_module(codes)
codes.BY_NAME = {**codes.BY_NAME, "LSUM": 3, "WLCS": 2}
import kurenai._perl
"""


@pytest.mark.slow
@pytest.mark.compiled_only
def test_importing_a_compiled_module_checks_its_codes() -> None:
    """The compiled module itself calls the check when it loads: an
    ImportError naming it, not a kind counted as another."""
    env = {**os.environ, "KURENAI_IMPLEMENTATION": "compiled"}
    done = subprocess.run(
        [sys.executable, "-c", _SWAPPED, str(PACKAGE / "_data" / "codes.py")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode != 0
    assert "ImportError" in done.stderr
    assert re.search(r"kurenai\._(perl|fused) was built with the kind codes", done.stderr)

"""The one choice of plan: the compiled twin (``kurenai._fused.FusedPlan``)
when it reproduces a scorer's tokenizer and types exactly, else the Python
twin (``PythonPlan``) on the kernels ``kurenai._backend`` chose.

Here rather than in ``_backend``: the plans are this layer's, and the kernels'
choice below it must not import them (``tests/test_layout.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kurenai import _backend
from kurenai.tokenizers._protocol import scan_mode

if TYPE_CHECKING:
    from kurenai._core.plan import Plan, TypeSpec
    from kurenai._core.python_plan import PythonPlan, Splitter

__all__ = ["make_plan", "python_plan", "scan_mode"]


def make_plan(spec: TypeSpec, tokenizer: Any, splitter: Splitter | None, threads: int = 1) -> Plan:
    """The plan a scorer runs: the compiled twin when it reproduces this
    tokenizer and these types exactly, else the Python twin on ``kernels``
    and ``variants``.  ``threads``: how many threads one long pair's LCS may use."""
    # On first use: the compiled plan needs neither the Python plan nor Score's module.
    from kurenai._core.python_plan import PythonPlan
    from kurenai.scoring import Score

    mode = scan_mode(tokenizer) if splitter is None else None
    fused = _backend.fused
    if fused is not None and mode in fused.SCAN_MODES and set(spec.kinds) <= fused.KINDS:
        # (The plan installs the code point table its scan mode needs itself.)
        stemmer = getattr(tokenizer, "stemmer", None)
        return fused.FusedPlan(spec, fused.SCAN_MODES[mode], stemmer, Score, threads)  # type: ignore[no-any-return]
    return PythonPlan(spec, tokenizer, _backend.kernels, splitter, _backend.variants, threads)


def python_plan(spec: TypeSpec, tokenizer: Any, splitter: Splitter | None) -> PythonPlan:
    """The Python twin on the chosen kernels, whatever the compiled plan could
    do: for scoring tokens found once (``PythonPlan.score_tokenized``), which
    only it can.  The numbers are the same as ``make_plan``'s plan's."""
    from kurenai._core.python_plan import PythonPlan

    return PythonPlan(spec, tokenizer, _backend.kernels, splitter, _backend.variants, 1)

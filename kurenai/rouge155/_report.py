"""The script's report, line for line (``printResults``, ``printPerEvalData``)."""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable, Sequence

from kurenai.rouge155._corpus import Average, perl_fixed

__all__ = ["by_eval_id", "metric_block", "perl_number"]

RULE = "-" * 45
DOTS = "." * 45
_LEADING_DIGITS = re.compile(r"[0-9]+")


def perl_number(value: float) -> str:
    """A number as Perl prints it: integers plainly, other floats with 15
    significant digits (``%.15g``).

    >>> perl_number(17.0), perl_number(39.98289788586884), perl_number(0.0)
    ('17', '39.9828978858688', '0')
    """
    if value != value or value in (float("inf"), float("-inf")):
        return perl_fixed(value).strip()
    return f"{value:.15g}"


def perl_int(value: float) -> str:
    """Perl's ``int(value)`` printed: truncated, then as :func:`perl_number`
    (``Inf`` stays ``Inf``; an integer past 1e15 prints as ``%.15g``)."""
    return perl_number(float(math.trunc(value)) if math.isfinite(value) else value)


def _by_eval_id(a: str, b: str) -> int:
    """The script's ``by_evalID``: numerically by leading digits when both
    names have them (equal numbers tie), else as strings."""
    found_a, found_b = _LEADING_DIGITS.match(a), _LEADING_DIGITS.match(b)
    if found_a and found_b:
        x, y = int(found_a.group()), int(found_b.group())
    else:
        x, y = a, b  # type: ignore[assignment]
    return (x > y) - (x < y)


def by_eval_id(names: Iterable[str]) -> list[str]:
    """``names`` in the order the script prints them with ``-d``.

    The script sorts its hash's keys, in Perl's random hash order, so names
    that tie (``1.A`` and ``01.A``) come out in any order there; here they
    keep their string order.

    >>> by_eval_id(["10.A", "9.A", "b.A", "a.A"])
    ['9.A', '10.A', 'a.A', 'b.A']
    """
    return sorted(sorted(names), key=functools.cmp_to_key(_by_eval_id))


def metric_block(
    peer: str,
    tag: str,
    average: Average,
    confidence: str,
    per_eval: Sequence[tuple[str, tuple[float, float, float]]] | None,
    counting: int | None,
) -> str:
    """One metric's lines of the report for system ``peer``.

    ``per_eval`` (``-d``): each evaluation's name and values, printed in the
    script's ``by_evalID`` order; ``counting`` is ``-t`` (None for 0).
    """
    lines = [RULE]
    if counting == 2:
        m_count, p_count, hit = average.counts
        lines.append(
            f"{peer} {tag} M_count: {perl_int(m_count)} P_count: {perl_int(p_count)} "
            f"H_count: {perl_int(hit)}"
        )
    else:
        for name, interval in (
            ("R", average.recall),
            ("P", average.precision),
            ("F", average.f_measure),
        ):
            assert interval is not None
            lines.append(
                f"{peer} {tag} Average_{name}: {interval.mean} "
                f"({confidence}%-conf.int. {interval.low} - {interval.high})"
            )
    if per_eval is not None:
        lines.append(DOTS)
        values = dict(per_eval)
        shown = perl_fixed if counting is None else perl_number
        for name in by_eval_id(values):
            r, p, f = values[name]
            lines.append(f"{peer} {tag} Eval {name} R:{shown(r)} P:{shown(p)} F:{shown(f)}")
    return "".join(f"{line}\n" for line in lines)

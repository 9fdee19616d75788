"""The HTML page of a :func:`~kurenai.report.correlate` run.

One self-contained file, made by the report's machinery
(:func:`kurenai.report._render.render_page`: Jinja2 with auto-escaping, the
report's style, Plotly inlined, the data as embedded JSON): per criterion,
the table of correlations with their bootstrap intervals, a chart of the
intervals per level, one scatter per metric (each system's mean score
against its mean judgment; each summary's behind them, faint), and the
tests between metrics.
"""

from __future__ import annotations

import os
from typing import IO, Any

import numpy as np

from kurenai.report._render import render_page
from kurenai.stats._correlations import Correlations

__all__ = ["SCATTER_LIMIT", "write_correlation_report"]

# Summaries drawn per scatter (the first ones, by system then document).
SCATTER_LIMIT = 5_000


def write_correlation_report(
    path: str | os.PathLike[str] | IO[str], found: Correlations, title: str | None = None
) -> None:
    """Write the page of ``found`` to ``path`` (a file name or a text stream).

    Raises ImportError without the ``report`` extra."""
    shown = title or "kurenai correlations"
    if isinstance(path, (str, os.PathLike)):
        with open(path, "w", encoding="utf-8", newline="\n") as stream:
            _render(stream, found, title or f"{shown} — {os.path.basename(os.fspath(path))}")
    else:
        _render(path, found, shown)


def _render(stream: IO[str], found: Correlations, title: str) -> None:
    data = found.as_dict()
    data["scatter"] = _scatter(found)
    levels = list(dict.fromkeys(c.level for c in found.correlations))
    coefficients = list(dict.fromkeys(c.coefficient for c in found.correlations))
    rows = {(c.criterion, c.level, c.metric, c.coefficient): c for c in found.correlations}
    render_page(
        stream,
        "correlation.html.j2",
        data,
        script_name="correlation.js",
        title=title,
        found=found,
        rows=rows,
        levels=levels,
        coefficients=coefficients,
        settings=found.settings,
    )


def _scatter(found: Correlations) -> dict[str, Any]:
    """Per criterion and metric: the systems' means and the summaries' scores."""
    out: dict[str, Any] = {}
    for criterion, human in found.human_scores.items():
        judged = ~np.isnan(human)
        rows, cols = np.nonzero(judged)
        rows, cols = rows[:SCATTER_LIMIT], cols[:SCATTER_LIMIT]
        entry: dict[str, Any] = {
            "system_means": _rounded(_means(human)),
            "summaries": _rounded(human[rows, cols]),
            "summary_systems": rows.tolist(),
            "metrics": {},
        }
        for name, matrix in found.metric_scores.items():
            masked = np.where(judged, matrix, np.nan)
            entry["metrics"][name] = {
                "system_means": _rounded(_means(masked)),
                "summaries": _rounded(masked[rows, cols]),
            }
        out[criterion] = entry
    return out


def _means(matrix: Any) -> Any:
    counts = (~np.isnan(matrix)).sum(axis=1)
    return np.where(counts > 0, np.nansum(matrix, axis=1) / np.maximum(counts, 1), np.nan)


def _rounded(values: Any) -> list[float | None]:
    return [None if np.isnan(v) else round(float(v), 6) for v in values]

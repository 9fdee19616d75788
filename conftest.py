"""pytest collects the doctests of kurenai's own modules (``testpaths``):
the modules of an optional front end that import its package at the top
and whose examples use it (``kurenai/torchmetrics/``: torch and torchmetrics)
are left out where that package is not installed, except under ``CI=true``,
where it must be."""

from __future__ import annotations

import importlib.util
import os

collect_ignore_glob: list[str] = []
if os.environ.get("CI", "").lower() != "true" and importlib.util.find_spec("torchmetrics") is None:
    collect_ignore_glob.append("kurenai/torchmetrics/*")

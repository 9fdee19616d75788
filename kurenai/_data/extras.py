"""The command that installs an extra, for the way kurenai was installed.

Every message that names a missing optional package (a tokenizer's analyser,
the HTML report, Spark, DuckDB, punkt, torchmetrics...) ends with
:func:`pip_install`: ``pip install 'kurenai[ja]'`` where kurenai is an
installed package (a wheel, an sdist), ``pip install -e '.[ja]'`` only where
it is an editable checkout (pip's ``direct_url.json`` says
``dir_info.editable``) or a source tree that is not installed at all.
Imports nothing of kurenai.

>>> pip_install("ja") in ("pip install 'kurenai[ja]'",
...                       "pip install -e '.[ja]' in a kurenai checkout")
True
"""

from __future__ import annotations

import functools
import json
import os

__all__ = ["editable", "pip_install"]


def pip_install(extra: str) -> str:
    """The pip command that adds ``extra`` to this kurenai."""
    if editable():
        return f"pip install -e '.[{extra}]' in a kurenai checkout"
    return f"pip install 'kurenai[{extra}]'"


@functools.lru_cache(maxsize=1)
def editable() -> bool:
    """Whether kurenai runs from a checkout: installed editable, or not
    installed at all (a source tree on ``sys.path``)."""
    from importlib import metadata

    if _in_source_tree():
        return True
    try:
        distribution = metadata.distribution("kurenai")
    except metadata.PackageNotFoundError:
        return True
    text = distribution.read_text("direct_url.json")
    if not text:
        return False  # from an index or a wheel file: no direct URL recorded
    try:
        found = json.loads(text)
    except ValueError:
        return False
    info = found.get("dir_info") if isinstance(found, dict) else None
    return isinstance(info, dict) and info.get("editable") is True


def _in_source_tree() -> bool:
    """Whether this kurenai is imported from a checkout: its folder beside the
    tree's ``setup.py`` and ``pyproject.toml`` (an editable install, or a tree
    on ``sys.path``).  pip's record alone can mislead there: the
    ``kurenai.egg-info`` an editable build leaves in the checkout is found
    first on ``sys.path`` and records no direct URL."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return all(os.path.isfile(os.path.join(root, name)) for name in ("setup.py", "pyproject.toml"))

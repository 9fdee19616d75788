"""Shared by the compat tests: calling kurenai's classes the way
``reference_server.py`` calls the real packages, and comparing answers."""

from __future__ import annotations

import json
from typing import Any

from reference_server import untagged

from kurenai import compat

# The real package's class name -> kurenai's class, per reference module.
CLASSES = {
    "rouge": {"Rouge": compat.Rouge, "FilesRouge": compat.FilesRouge},
    "rouge_chinese": {"Rouge": compat.RougeChinese, "FilesRouge": compat.FilesRougeChinese},
}


def ours(
    module: str,
    version: str,
    init: tuple[list[Any], dict[str, Any]],
    call: tuple[list[Any], dict[str, Any]],
    cls: str = "Rouge",
) -> dict[str, Any]:
    """kurenai's answer in the reference server's format."""
    args, kwargs = init
    kwargs = dict(kwargs)
    if cls == "FilesRouge" or module == "rouge":
        kwargs["version"] = version
    try:
        scorer = CLASSES[module][cls](*args, **kwargs)
        return {"ok": json.loads(json.dumps(scorer.get_scores(*untagged(call[0]), **call[1])))}
    except Exception as error:
        return {"error": [type(error).__name__, str(error)]}


def assert_same(reference: Any, init: Any, call: Any, cls: str = "Rouge") -> dict[str, Any]:
    """kurenai answers as the real package does: the same result, keys in the
    same order and floats equal bit for bit; or an error of the same type
    (the same message too where the package's says something)."""
    theirs = reference.call(init, call, cls)
    mine = ours(reference.module, reference.version, init, call, cls)
    if "ok" in theirs:
        assert "ok" in mine, (mine, theirs)
        # json.dumps keeps key order and writes floats' exact repr.
        assert json.dumps(mine["ok"]) == json.dumps(theirs["ok"])
    else:
        assert "error" in mine, (mine, theirs)
        assert mine["error"][0] == theirs["error"][0], (mine, theirs)
        if theirs["error"][0] == "ValueError" and "unpack" not in theirs["error"][1]:
            assert mine["error"][1] == theirs["error"][1]
    return theirs

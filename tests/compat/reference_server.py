"""Runs inside a subprocess whose path holds one real reference package:
answers JSON requests, one per line on stdin, one answer per line on stdout.

A request: ``{"module": "rouge", "class": "Rouge", "init": [args, kwargs],
"call": [args, kwargs], "recursion_limit": int or null}``.  The answer:
``{"ok": result}`` or ``{"error": [exception type name, message]}``.  Floats
travel exactly: JSON writes Python's shortest round-tripping repr.
The first line out says which package file was imported, and its version.
"""

import importlib
import json
import sys


def untagged(value):
    """JSON has no tuples: ``{"__tuple__": [...]}`` stands for one."""
    if isinstance(value, dict) and list(value) == ["__tuple__"]:
        return tuple(value["__tuple__"])
    if isinstance(value, list):
        return [untagged(v) for v in value]
    return value


def _answer(request):
    module = importlib.import_module(request["module"])
    cls = getattr(module, request["class"])
    limit = request.get("recursion_limit")
    old = sys.getrecursionlimit()
    if limit:
        sys.setrecursionlimit(limit)
    try:
        args, kwargs = request["init"]
        scorer = cls(*args, **kwargs)
        args, kwargs = request["call"]
        args = untagged(args)
        return {"ok": scorer.get_scores(*args, **kwargs)}
    except Exception as error:
        return {"error": [type(error).__name__, str(error)]}
    finally:
        sys.setrecursionlimit(old)


def main():
    name = sys.argv[1]
    module = importlib.import_module(name)
    print(json.dumps({"file": module.__file__, "version": module.__version__}), flush=True)
    for line in sys.stdin:
        print(json.dumps(_answer(json.loads(line))), flush=True)


if __name__ == "__main__":
    main()

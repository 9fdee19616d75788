"""``python -m kurenai.compat.patched [-m module | script.py] [args ...]``:
run a program that uses rouge-score with ``patch_rouge_score()`` applied.

Like ``python script.py args`` or ``python -m module args`` (the program
sees the same ``sys.argv`` and ``sys.path[0]``), after patching; set
``KURENAI_PATCH_ROUGE_SCORE=0`` to run it unpatched with the same command.
Child processes the program starts are not patched (see
:func:`kurenai.compat.patch_from_env` for a ``sitecustomize.py`` that is).
"""

from __future__ import annotations

import os
import runpy
import sys
from collections.abc import Sequence

from kurenai._core import runner
from kurenai.compat._patch import ENV_VAR, patch_from_env, patch_rouge_score

__all__ = ["main"]

_USAGE = "usage: python -m kurenai.compat.patched [-m module | script.py] [args ...]"


def main(argv: Sequence[str] | None = None) -> int:
    """Patch, then run the module or script ``argv`` names; its exit code.

    Through the one runner (:mod:`kurenai._core.runner`): a usage error is
    status 2, Ctrl-C 130 and a signal 128+N; the program's own exceptions
    are its own (a traceback, as ``python script.py`` shows them)."""
    args = list(sys.argv[1:] if argv is None else argv)
    return runner.run("kurenai.compat.patched", lambda: _main(args), failures=())


def _main(args: list[str]) -> int:
    if args[:1] in (["-h"], ["--help"]):
        print(_USAGE)
        return 0
    if not args or (args[:1] == ["-m"] and len(args) < 2):
        raise runner.CommandError(f"name a script or -m MODULE ({_USAGE})", runner.USAGE)
    if ENV_VAR in os.environ:
        patch_from_env()  # honours an explicit 0 (and rejects a typo)
    else:
        patch_rouge_score()
    try:
        if args[0] == "-m":
            sys.argv = [args[1], *args[2:]]
            runpy.run_module(args[1], run_name="__main__", alter_sys=True)
        else:
            sys.argv = args
            sys.path[0] = os.path.dirname(os.path.abspath(args[0]))
            runpy.run_path(args[0], run_name="__main__")
    except SystemExit as done:
        code = done.code
        if code is None or isinstance(code, int):
            return code or 0
        print(code, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

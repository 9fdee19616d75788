"""``python -m kurenai.compat rouge ...``: the same as ``kurenai rouge ...``."""

from kurenai.compat.cli import main

if __name__ == "__main__":
    raise SystemExit(main())

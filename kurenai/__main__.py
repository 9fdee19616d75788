"""``python -m kurenai``: the command line of :mod:`kurenai.cli`."""

from kurenai.cli import main

if __name__ == "__main__":
    raise SystemExit(main())

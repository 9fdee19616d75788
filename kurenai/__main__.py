"""``python -m kurenai``: the command line of :mod:`kurenai.cli`."""

import signal

from kurenai.cli import main

if __name__ == "__main__":
    code = main()
    # The run is over (its output in place): a Ctrl-C now changes nothing,
    # and must not print a traceback from the interpreter's exit.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise SystemExit(code)

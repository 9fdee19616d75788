"""``python -m kurenai``: the command line of :mod:`kurenai.cli`."""

import signal

from kurenai.cli import main

if __name__ == "__main__":
    code = main()
    # The run is over (its output in place): a Ctrl-C or a SIGTERM now
    # changes nothing, and must neither print a traceback from the
    # interpreter's exit nor turn the run's exit status into a signal's.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise SystemExit(code)

"""``python -m kurenai``: the command line of :mod:`kurenai.cli`."""

import signal

from kurenai.cli import main

if __name__ == "__main__":
    code = main()
    # The run is over (its output in place): a Ctrl-C, a SIGTERM or a SIGHUP now
    # changes nothing, and must neither print a traceback from the
    # interpreter's exit nor turn the run's exit status into a signal's.
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)
    raise SystemExit(code)

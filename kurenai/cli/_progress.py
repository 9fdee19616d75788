"""What the command line tells on stderr while it runs and when it ends.

:class:`Progress` draws a one-line progress display on a terminal (records
scored, then bootstrap samples drawn), and ends it with the summary line,
``kurenai: 30900 records in 1.92 s (16094 records/s)``, which is printed
whether or not stderr is a terminal.
"""

from __future__ import annotations

import sys
import time
from typing import IO

__all__ = ["Progress"]


class Progress:
    """Progress on a terminal, redrawn at most every ``interval`` seconds.

    ``total`` is the number of records if known (not on stdin).  ``enabled``
    draws the display; the summary is written by :meth:`close` either way.
    """

    def __init__(
        self, total: int | None, enabled: bool, stream: IO[str] | None = None, interval: float = 0.2
    ) -> None:
        self._enabled, self._interval = enabled, interval
        self._stream = stream if stream is not None else sys.stderr
        self._phase, self._unit, self._total = "", "records", total
        self._done = self.records = 0
        self._start = time.monotonic()
        self._last = float("-inf")  # draw at the first update
        self._drawn = False

    def update(self, count: int) -> None:
        """Count ``count`` more records scored."""
        self.records += count
        self.step(count)

    def phase(self, name: str, total: int, unit: str) -> None:
        """Start counting ``total`` steps of another phase (e.g. bootstrap samples)."""
        self._phase, self._unit, self._total, self._done = f"{name}: ", unit, total, 0

    def step(self, count: int) -> None:
        """Count ``count`` more steps of the current phase."""
        self._done += count
        now = time.monotonic()
        if self._enabled and now - self._last >= self._interval:
            self._last = now
            self._draw()

    def close(self, summary: bool) -> None:
        """End the display; with ``summary``, on the summary line."""
        seconds = time.monotonic() - self._start
        rate = self.records / max(seconds, 1e-9)
        line = f"kurenai: {self.records} records in {seconds:.2f} s ({rate:.0f} records/s)"
        if summary:
            self._write(f"\r{line}\x1b[K\n" if self._drawn else line + "\n")
        elif self._drawn:
            self._write("\n")

    def _draw(self) -> None:
        if self._total:
            text = f"{self._done}/{self._total} {self._unit} ({100 * self._done // self._total}%)"
        else:
            text = f"{self._done} {self._unit}"
        self._write(f"\rkurenai: {self._phase}{text}\x1b[K")
        self._drawn = True

    def _write(self, text: str) -> None:
        self._stream.write(text)
        self._stream.flush()

"""What the command line tells on stderr while it runs and when it ends.

:class:`Progress` draws a one-line progress display on a terminal (records
scored, then bootstrap samples drawn), and ends it with the summary line,
printed whether or not stderr is a terminal.  The summary times the phases
apart: ``kurenai: 30900 records in 1.92 s (16094 records/s); loading 0.84 s;
bootstrap 0.31 s`` (loading: the tokenizer and its dictionary, shown when it
took at least 10 ms; the records' time is reading, scoring and writing them).
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
    ``loading`` is how long the tokenizer took to load, before this started.
    """

    def __init__(
        self,
        total: int | None,
        enabled: bool,
        stream: IO[str] | None = None,
        interval: float = 0.2,
        loading: float = 0.0,
    ) -> None:
        self._enabled, self._interval = enabled, interval
        self._stream = stream if stream is not None else sys.stderr
        self._phase, self._unit, self._total, self._types = "", "records", total, 1
        self._done = self.records = 0
        self._loading = loading
        # (name, start) of each phase after the records.
        self._start = time.monotonic()
        self._phases: list[tuple[str, float]] = []
        self._last = float("-inf")  # draw at the first update
        self._drawn = False

    def update(self, count: int) -> None:
        """Count ``count`` more records scored."""
        self.records += count
        self.step(count)

    def phase(self, name: str, total: int, unit: str, types: int = 1) -> None:
        """Start counting another phase: ``total`` steps (e.g. bootstrap
        samples), or ``total`` for each of ``types`` ROUGE types in turn."""
        self._phases.append((name, time.monotonic()))
        self._phase, self._unit, self._total, self._done = name, unit, total, 0
        self._types = max(types, 1)

    def step(self, count: int) -> None:
        """Count ``count`` more steps of the current phase."""
        self._done += count
        now = time.monotonic()
        if self._enabled and now - self._last >= self._interval:
            self._last = now
            self._draw()

    def close(self, summary: bool) -> None:
        """End the display; with ``summary``, on the summary line."""
        line = self.summary(time.monotonic())
        if summary:
            self._write(f"\r{line}\x1b[K\n" if self._drawn else line + "\n")
        elif self._drawn:
            self._write("\n")

    def summary(self, now: float) -> str:
        """The summary line if the run ended at ``now``."""
        ends = [start for _, start in self._phases] + [now]
        seconds = ends[0] - self._start
        rate = self.records / max(seconds, 1e-9)
        parts = [f"kurenai: {self.records} records in {seconds:.2f} s ({rate:.0f} records/s)"]
        if self._loading >= 0.01:
            parts.append(f"loading {self._loading:.2f} s")
        parts += [
            f"{name} {end - start:.2f} s" for (name, start), end in zip(self._phases, ends[1:])
        ]
        return "; ".join(parts)

    def _draw(self) -> None:
        phase = f"{self._phase}: " if self._phase else ""
        if self._total:
            # The count within the current type (1..total); the percentage
            # is of the whole phase.
            index = max(0, -(-self._done // self._total) - 1)
            done = self._done - index * self._total
            percent = 100 * self._done // (self._total * self._types)
            if self._types > 1:
                phase = f"{self._phase}, type {index + 1} of {self._types}: "
            text = f"{done}/{self._total} {self._unit} ({percent}%)"
        else:
            text = f"{self._done} {self._unit}"
        self._write(f"\rkurenai: {phase}{text}\x1b[K")
        self._drawn = True

    def _write(self, text: str) -> None:
        if self._stream is None:  # stderr closed (``2>&-``): Python made it None
            return
        self._stream.write(text)
        self._stream.flush()

"""A pool of analysers for a tokenizer whose analyser is not thread-safe
(MeCab, Sudachi): each call borrows one, and at most ``POOL_MAX`` are ever
made however many threads call, so short-lived threads do not load (and map)
a dictionary each."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Callable

__all__ = ["POOL_MAX", "Analyse", "AnalyserPool"]

Analyse = Callable[[str], Iterable[str]]
# The most analysers an instance makes of a class that is not thread-safe:
# the analysers hold the GIL (``holds_gil``), so more would not run faster.
POOL_MAX = max(1, min(4, os.cpu_count() or 1))


class AnalyserPool:
    """Analysers lent to one call at a time; at most ``size`` are ever made,
    a call finding none idle waiting for one."""

    def __init__(self, make: Callable[[], Analyse], size: int) -> None:
        self._make, self._size = make, size
        self._idle: list[Analyse] = []
        self.made = 0
        self._ready = threading.Condition()

    @contextmanager
    def lend(self) -> Iterator[Analyse]:
        analyse = self._take()
        try:
            yield analyse
        finally:
            self.put(analyse)

    def put(self, analyse: Analyse) -> None:
        with self._ready:
            self._idle.append(analyse)
            self._ready.notify()

    def make(self) -> Analyse:
        """A new analyser, counted against the size."""
        with self._ready:
            self.made += 1
        return self._made()

    def _take(self) -> Analyse:
        with self._ready:
            while not self._idle and self.made >= self._size:
                self._ready.wait()
            if self._idle:
                return self._idle.pop()
            self.made += 1  # counted before it is made: no other call makes it too
        return self._made()

    def _made(self) -> Analyse:
        try:
            return self._make()
        except BaseException:  # not made after all: a waiting call may make it
            with self._ready:
                self.made -= 1
                self._ready.notify()
            raise

"""Peak resident memory in bytes, whatever the platform.

``resource.getrusage(...).ru_maxrss`` is in KiB on Linux and the BSDs but in
bytes on macOS: the tests and the benchmarks read it only through here (a
child process prints the raw number; the parent converts it).
"""

from __future__ import annotations

import sys

__all__ = ["MIB", "maxrss_bytes", "peak_rss_bytes"]

MIB = 1 << 20


def maxrss_bytes(ru_maxrss: int, platform: str = sys.platform) -> int:
    """``ru_maxrss`` as ``getrusage`` gave it on ``platform``, in bytes.

    >>> maxrss_bytes(2048, "linux"), maxrss_bytes(2048, "darwin")
    (2097152, 2048)
    """
    return ru_maxrss if platform == "darwin" else ru_maxrss * 1024


def peak_rss_bytes() -> int:
    """This process's peak resident memory so far, in bytes."""
    import resource

    return maxrss_bytes(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)

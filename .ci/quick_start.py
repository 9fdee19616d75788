"""Print the Quick start commands of a README, one a line, for .ci/run to run.

They are the lines of the ``sh`` blocks between ``<!-- quick-start -->`` and
``<!-- /quick-start -->``, so CI runs exactly what a newcomer reads.
Usage: ``python .ci/quick_start.py README.md``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

BEGIN, END = "<!-- quick-start -->", "<!-- /quick-start -->"


def commands(readme: str) -> list[str]:
    """The commands of the marked Quick start block of ``readme``, in order."""
    start = readme.index(BEGIN)
    block = readme[start : readme.index(END, start)]
    bodies = re.findall(r"^```sh\n(.*?)^```", block, flags=re.M | re.S)
    return [line.strip() for body in bodies for line in body.splitlines() if line.strip()]


if __name__ == "__main__":
    print("\n".join(commands(Path(sys.argv[1]).read_text(encoding="utf-8"))))

"""The requirements of one of pyproject.toml's extras, one per line, with the
extras it names of kurenai itself expanded and kurenai left out::

    python .ci/requirements.py test-all

``.ci/run`` installs them before the README's Quick start builds kurenai, so
that kurenai is compiled once, by the Quick start's own command.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import tomllib

_SELF = re.compile(r"kurenai\[([^\]]+)\]$")


def requirements(
    extras: dict[str, list[str]], name: str, seen: set[str] | None = None
) -> list[str]:
    """``name``'s requirements, kurenai's own extras expanded (each once)."""
    seen = set() if seen is None else seen
    if name not in extras:
        raise SystemExit(f"no extra {name!r}; pyproject.toml has: {', '.join(sorted(extras))}")
    found: list[str] = []
    seen.add(name)
    for requirement in extras[name]:
        own = _SELF.match(requirement.replace(" ", ""))
        if own is None:
            found.append(requirement)
            continue
        for extra in own.group(1).split(","):
            if extra not in seen:
                found += requirements(extras, extra, seen)
    return list(dict.fromkeys(found))


def main(argv: list[str]) -> int:
    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text("utf-8"))
    for name in argv:
        print("\n".join(requirements(project["project"]["optional-dependencies"], name)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

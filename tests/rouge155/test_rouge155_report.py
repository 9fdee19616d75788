"""The whole printed report equals ROUGE-1.5.5.pl's, byte for byte.

Each case runs the real script once on a corpus of raw English summaries
(SciTLDR with 2-4 references, two systems) and hand-made corners (``$``,
non-ASCII, CJK, empty lines and summaries, CR line ends, hyphens), and
``python -m kurenai.rouge155``'s library entry on the same command line.
"""

from __future__ import annotations

import io
from contextlib import redirect_stderr
from pathlib import Path

import perl_rouge
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from perl_rouge import perl  # noqa: F401  (the fixture)
from rouge155_corpus import CORNERS, records, write_setup

from kurenai.rouge155._api import evaluate_command_line

PYROUGE = "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a -m"  # pyrouge 0.1.3 appends -m
CASES = {
    "pyrouge": PYROUGE,
    "pyrouge-without-m": "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a",
    "files2rouge": "-c 95 -r 1000 -n 2 -a -m",
    "stopwords": "-a -n 2 -s -m -r 200",
    "words": "-a -n 3 -l 12 -w 1.2 -2 4 -u -r 200",
    "bytes": "-a -n 2 -b 75 -w 1.2 -2 -1 -U -r 200",
    "best": "-a -n 4 -f B -w 1.2 -2 4 -U -r 200 -d",
    "tokens": "-a -n 2 -t 1 -w 1.5 -2 -1 -U -r 300 -d",
    "counts": "-a -n 3 -t 2 -w 1.2 -2 4 -d",
    "alpha": "-a -n 2 -p 0.2 -c 90 -r 500 -x -2 2 -U",
    "one-sample": "-a -n 1 -r 1 -c 99",
    # More metrics than the compiled kernel's arrays, and a gap beyond C's int.
    "many-orders": "-a -n 30 -r 100 -2 1000000000000000000 -U",
    "negative-gap": "-a -n 17 -r 100 -2 -100000000000000000000 -u",
}


def _ours(args: list[str]) -> bytes:
    with redirect_stderr(io.StringIO()):
        return evaluate_command_line(args).text().encode("utf-8")


def _compare(args: list[str], cwd: Path | None = None) -> None:
    script = perl_rouge.run_script(args, cwd=cwd)
    assert script.returncode == 0, script.stderr.decode()
    assert _ours(args) == script.stdout


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return write_setup(tmp_path_factory.mktemp("spl"), records())


@pytest.mark.slow
@pytest.mark.usefixtures("perl")
@pytest.mark.parametrize("case", sorted(CASES))
def test_report_equals_the_scripts(case: str, setup: tuple[Path, Path]) -> None:
    config, _ = setup
    args = ["-e", str(perl_rouge.data_dir()), *CASES[case].split(), str(config)]
    _compare(args)


@pytest.mark.slow
@pytest.mark.usefixtures("perl")
def test_one_system_by_its_id(setup: tuple[Path, Path]) -> None:
    config, _ = setup
    _compare(["-e", str(perl_rouge.data_dir()), "-n", "2", "-r", "100", str(config), "alt"])


@pytest.mark.slow
@pytest.mark.usefixtures("perl")
def test_see_files_as_pyrouge_writes_them(tmp_path: Path) -> None:
    config, _ = write_setup(tmp_path, records(15), fmt="SEE")
    _compare(["-e", str(perl_rouge.data_dir()), *PYROUGE.split(), str(config)])


@pytest.mark.slow
@pytest.mark.usefixtures("perl")
def test_a_file_list_with_z(setup: tuple[Path, Path]) -> None:
    _, file_list = setup
    args = ["-e", str(perl_rouge.data_dir()), "-n", "2", "-2", "4", "-U", "-r", "100", "-d"]
    _compare([*args, "-z", "SPL", str(file_list), "sys"])


_WORDS = st.sampled_from(["the", "Cat", "cats", "sat", "on", "mat", "$5", "-", "a", "é", "猫"])
_TEXT = st.lists(st.lists(_WORDS, max_size=8).map(" ".join), max_size=3).map("\n".join)


@pytest.mark.slow
@pytest.mark.usefixtures("perl")
@settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    rows=st.lists(
        st.tuples(st.lists(_TEXT.map(lambda t: t + " ref"), min_size=1, max_size=4), _TEXT, _TEXT),
        min_size=1,
        max_size=30,
    )
)
def test_generated_corpora_equal_the_script(
    rows: list[tuple[list[str], str, str]], tmp_path_factory: pytest.TempPathFactory
) -> None:
    records = [(refs, {"lead": a, "alt": b}) for refs, a, b in rows]
    config, _ = write_setup(tmp_path_factory.mktemp("gen"), records)
    args = ["-e", str(perl_rouge.data_dir()), "-a", "-n", "2", "-w", "1.2", "-2", "1", "-U"]
    _compare([*args, "-m", "-r", "50", "-d", str(config)])


def test_the_corners_are_there() -> None:
    assert len(CORNERS) >= 5

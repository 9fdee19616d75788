"""``FilesRouge``: pltrdy's scoring of two files, line i against line i."""

from __future__ import annotations

import os
from typing import Any

from kurenai._core.runner import counts_differ
from kurenai.compat._rouge import Rouge, RougeChinese

__all__ = ["FilesRouge", "FilesRougeChinese"]


class FilesRouge:
    """pltrdy's ``rouge.FilesRouge``: the arguments are ``Rouge``'s.

    Each line is read as UTF-8 and, as the package does, loses its last
    character (the newline; on a last line without one, its last letter).
    """

    ROUGE = Rouge

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.rouge = self.ROUGE(*args, **kwargs)

    def _check_files(self, hyp_path: str, ref_path: str) -> None:
        for path in (hyp_path, ref_path):
            if not os.path.isfile(path):
                raise AssertionError(f"not a file: {path}")
        hyp_lines, ref_lines = _line_count(hyp_path), _line_count(ref_path)
        if hyp_lines != ref_lines:
            counts = counts_differ(hyp_path, hyp_lines, ref_path, ref_lines)
            raise AssertionError(str(counts))  # the package's exception, kurenai's words

    def get_scores(
        self, hyp_path: str, ref_path: str, avg: bool = False, ignore_empty: bool = False
    ) -> Any:
        """``Rouge.get_scores`` of the lines of ``hyp_path`` against those of ``ref_path``.

        Raises AssertionError when a path is not a file or the line counts differ.
        """
        self._check_files(hyp_path, ref_path)
        with open(hyp_path, encoding="utf-8") as hyp_file:
            hyps = [line[:-1] for line in hyp_file]
        with open(ref_path, encoding="utf-8") as ref_file:
            refs = [line[:-1] for line in ref_file]
        return self.rouge.get_scores(hyps, refs, avg=avg, ignore_empty=ignore_empty)


class FilesRougeChinese(FilesRouge):
    """rouge-chinese's ``FilesRouge``."""

    ROUGE = RougeChinese


def _line_count(path: str) -> int:
    # Counted in bytes, as the package does; the lines are then read as text.
    with open(path, "rb") as file:
        return sum(1 for _ in file)

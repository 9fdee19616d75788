"""Meet users where their code already is: other ROUGE packages' APIs on kurenai.

pltrdy's ``rouge`` (``pip install rouge``) and its fork ``rouge-chinese``:
change the import, keep the code, keep every figure.

>>> from kurenai.compat import Rouge
>>> Rouge().get_scores("the cat sat", "the cat")[0]["rouge-1"]["r"]
1.0

* :class:`Rouge` / :class:`FilesRouge`: ``rouge`` 1.0.1 (default) or
  ``version="1.0.0"``; :class:`RougeChinese` / :class:`FilesRougeChinese`
  (also as ``kurenai.compat.rouge_chinese.Rouge``): ``rouge-chinese`` 1.0.3.
  ``mode="rouge-score"`` gives rouge-score's numbers in the same shapes.
* :func:`patch_rouge_score` / :func:`unpatch_rouge_score`: code that calls
  ``rouge_score.rouge_scorer.RougeScorer`` runs on kurenai, same numbers;
  ``python -m kurenai.compat.patched script.py`` for code you cannot edit.
* ``kurenai rouge ...`` / ``kurenai rouge-chinese ...``: their command lines.
* :mod:`kurenai.compat.xlsum`: XL-Sum's multilingual ROUGE
  (``multilingual_rouge``'s ``RougeScorer``, its ``calculate_rouge``, and
  ``kurenai xlsum``), imported on its own.
"""

from kurenai.compat._dialects import DIALECTS
from kurenai.compat._files import FilesRouge, FilesRougeChinese
from kurenai.compat._patch import (
    ENV_VAR,
    is_patched,
    patch_from_env,
    patch_rouge_score,
    rouge_score_patched,
    unpatch_rouge_score,
)
from kurenai.compat._rouge import COMPAT_MODES, Rouge, RougeChinese

__all__ = [
    "COMPAT_MODES",
    "DIALECTS",
    "ENV_VAR",
    "FilesRouge",
    "FilesRougeChinese",
    "Rouge",
    "RougeChinese",
    "is_patched",
    "patch_from_env",
    "patch_rouge_score",
    "rouge_score_patched",
    "unpatch_rouge_score",
]


def __getattr__(name: str) -> object:
    # The modes' table was called MODES in kurenai 0.2.0, a name three tables
    # shared; the old spelling still reads it, with a warning.
    if name == "MODES":
        import warnings

        warnings.warn(
            "kurenai.compat.MODES is now kurenai.compat.COMPAT_MODES",
            DeprecationWarning,
            stacklevel=2,
        )
        return COMPAT_MODES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

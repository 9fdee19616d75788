"""kurenai (紅): rouge-score's ROUGE, exact and fast, for text in any language.

>>> from kurenai.rouge_scorer import RougeScorer
>>> RougeScorer(["rouge1"]).score("いぬ ねこ", "いぬ ねこ")
{'rouge1': Score(precision=1.0, recall=1.0, fmeasure=1.0)}
"""

# _startup first (before NumPy and the compiled modules): a Ctrl-C while
# the command line starts; _moved imports nothing heavy.
from kurenai import _moved, _startup  # noqa: F401
from kurenai._backend import IMPLEMENTATION
from kurenai.rouge_scorer import ROUGE_TYPES, RougeScorer

__version__ = "0.2.0"

_moved.install()

__all__ = ["IMPLEMENTATION", "ROUGE_TYPES", "RougeScorer", "__version__"]

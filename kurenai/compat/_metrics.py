"""pltrdy's metrics, one ``Metric`` per name: the counts of a pair and the
floats made from them, with the packages' exact operations and errors."""

from __future__ import annotations

from typing import Union

from kurenai.compat import _counts
from kurenai.compat._dialects import Dialect

__all__ = ["Metric", "Result", "frp"]

Result = dict[str, Union[float, int]]


def frp(hyp: int, ref: int, overlap: int) -> dict[str, float]:
    """F, precision and recall as the packages compute them: a zero count
    gives 0.0, and the F-measure carries its ``1e-8`` guard."""
    precision = 0.0 if hyp == 0 else overlap / hyp
    recall = 0.0 if ref == 0 else overlap / ref
    f_score = 2.0 * ((precision * recall) / (precision + recall + 1e-8))
    return {"f": f_score, "p": precision, "r": recall}


class Metric:
    """One metric (``rouge-2``, ``rouge-l``, ...) of one dialect.

    Calling it is calling the package's function from ``AVAILABLE_METRICS``:
    hypothesis and reference sentences (strings whose words are separated by
    single spaces) in, ``{"f", "p", "r"}`` or the raw counts out.

    >>> from kurenai.compat._dialects import DIALECTS
    >>> Metric("rouge-1", DIALECTS["rouge", "1.0.1"])(["the cat sat"], ["the cat"])
    {'f': 0.7999999952000001, 'p': 0.6666666666666666, 'r': 1.0}
    """

    def __init__(self, name: str, dialect: Dialect) -> None:
        self.name = name
        self._n = 0 if name == "rouge-l" else int(name[len("rouge-") :])
        self._lcs = dialect.lcs

    def counts(self, pair: _counts.Pair, exclusive: bool) -> _counts.Counts:
        """``(hyp, ref, overlap)`` of a pair whose sides both have sentences."""
        if self._n:
            return _counts.ngrams(pair, self._n, exclusive)
        if self._lcs == "flat":
            return _counts.flat_lcs(pair)
        return _counts.summary_lcs(pair, exclusive or self._lcs == "summary-exclusive")

    def empty_error(self, hyp_empty: bool) -> ValueError:
        """The package's error for a side without sentences."""
        if not self._n:
            return ValueError("Collections must contain at least 1 sentence.")
        return ValueError("Hypothesis is empty." if hyp_empty else "Reference is empty.")

    def result(self, counts: _counts.Counts, raw_results: bool) -> Result:
        """The raw counts, or the floats made from them."""
        if raw_results:
            return {"hyp": counts[0], "ref": counts[1], "overlap": counts[2]}
        return dict(frp(*counts))

    def __call__(
        self, hyp: list[str], ref: list[str], raw_results: bool = False, exclusive: bool = True
    ) -> Result:
        if len(hyp) == 0 or len(ref) == 0:
            raise self.empty_error(len(hyp) == 0)
        pair = _counts.Pair([s.split(" ") for s in hyp], [s.split(" ") for s in ref])
        return self.result(self.counts(pair, exclusive), raw_results)

    def __repr__(self) -> str:
        return f"<kurenai.compat metric {self.name}>"

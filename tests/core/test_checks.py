"""The same mistake gets the same answer from every surface.

One row per mistake: the exception type and message kurenai._core.checks
gives, and per surface (``RougeScorer`` and its batch methods,
``kurenai.metrics``, DuckDB, polars, Spark, the command line) the call that
makes that mistake there.  A surface that cannot make a mistake (the command
line has no bool objects) has no call for it.  The command line reports on
stderr, after the option's name, with exit status 2: its rows compare the
message text.  Spark's rows only build Columns (the checks run on the
driver, before any JVM), but importing pyspark is slow: they are marked so.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable

import pytest

from kurenai import cli
from kurenai._core import checks as _checks
from kurenai._core import inputs as _inputs
from kurenai.metrics import Rouge, compute
from kurenai.rouge_scorer import RougeScorer
from kurenai.tokenizers import CharTokenizer

FILES = ["--target-file", "t.txt", "--prediction-file", "p.txt"]


def _scorer(**options: Any) -> Any:
    return RougeScorer(options.pop("rouge_types", ["rouge1"]), **options)


def _batch_call(**options: Any) -> Any:
    return RougeScorer(["rouge1"]).score_batch(["a"], ["a"], **options)


def _metrics(**options: Any) -> Any:
    return Rouge(**options)


def _duckdb(**options: Any) -> Any:
    duckdb = pytest.importorskip("duckdb")
    from kurenai.frames.duckdb import register

    return register(duckdb.connect(), **options)


def _polars(**options: Any) -> Any:
    pl = pytest.importorskip("polars")
    importlib.import_module("kurenai.frames.polars")
    namespace = pl.col("p").rouge
    if "rouge_types" in options:
        return namespace.scores("t", **options)
    return namespace.score("t", **options)


def _spark(**options: Any) -> Any:
    pytest.importorskip("pyspark")
    from kurenai.spark import rouge_score, rouge_scores

    function = rouge_scores if "rouge_types" in options else rouge_score
    return function(prediction="p", target="t", **options)


def _xlsum_batch(n_jobs: Any) -> Any:
    from kurenai.compat import xlsum

    return xlsum.RougeScorer(["rouge1"]).score_batch(["a"], ["a"], n_jobs=n_jobs)


def _cli(*argv: str) -> Callable[[], Any]:
    return lambda: cli.main([*FILES, *argv])


def _keywords(scorer: Callable[..., Any], **options: Any) -> dict[str, Callable[[], Any]]:
    """The calls making one keyword mistake on the scorer (through ``scorer``),
    kurenai.metrics, DuckDB, polars and Spark, which all take it by that name."""
    return {
        "scorer": lambda: scorer(**options),
        "metrics": lambda: _metrics(**options),
        "duckdb": lambda: _duckdb(**options),
        "polars": lambda: _polars(**options),
        "spark": lambda: _spark(**options),
    }


def _row(
    mistake: str, error: type[Exception], message: str, **calls: Callable[[], Any]
) -> list[Any]:
    """One param per surface; ``message`` is the whole message, or its start
    where it ends in a space or a bracket (what follows may differ: the list
    of valid names, score_batch's word on nulls)."""
    return [
        pytest.param(
            error,
            message,
            surface,
            call,
            id=f"{mistake}-{surface}",
            marks=[pytest.mark.slow] if surface == "spark" else [],
        )
        for surface, call in calls.items()
    ]


LIMIT = "max_tokens must be None or an int >= 0, got"
ROWS = [
    *_row(
        "negative-limit",
        ValueError,
        f"{LIMIT} -1",
        **_keywords(_batch_call, max_tokens=-1),
        multi=lambda: RougeScorer(["rouge1"]).score_multi_batch([["a"]], ["a"], max_tokens=-1),
        cli=_cli("--max-tokens", "-1"),
    ),
    *_row(
        "float-limit",
        TypeError,
        "max_chars must be None or an int >= 0, got float",
        **_keywords(_batch_call, max_chars=1.5),
    ),
    *_row(
        "bool-limit",
        TypeError,
        f"{LIMIT} bool",
        **_keywords(_batch_call, max_tokens=True),
    ),
    *_row(
        "string-flag",
        TypeError,
        "use_stemmer must be a bool, got str",
        **_keywords(_scorer, use_stemmer="no"),
        compute=lambda: compute(["a"], ["a"], use_stemmer="no"),
    ),
    *_row(
        "int-flag",
        TypeError,
        "split_summaries must be a bool, got int",
        scorer=lambda: _scorer(split_summaries=1),
        duckdb=lambda: _duckdb(split_summaries=1),
        polars=lambda: _polars(split_summaries=1),
        spark=lambda: _spark(split_summaries=1),
    ),
    *_row(
        "bare-string-types",
        TypeError,
        "rouge_types must be a list of ROUGE types, e.g. ['rouge1'], not a single string",
        scorer=lambda: _scorer(rouge_types="rouge1"),
        metrics=lambda: _metrics(rouge_types="rouge1"),
        polars=lambda: _polars(rouge_types="rouge1"),
        spark=lambda: _spark(rouge_types="rouge1"),
    ),
    *_row(
        "no-types",
        ValueError,
        "rouge_types must name at least one ROUGE type",
        scorer=lambda: RougeScorer([]).score_arrow(["a"], ["a"]),
        metrics=lambda: _metrics(rouge_types=[]),
        polars=lambda: _polars(rouge_types=[]),
        spark=lambda: _spark(rouge_types=[]),
        cli=_cli("--rouge-types", ","),
    ),
    *_row(
        "twice",
        ValueError,
        "ROUGE type 'rougeL' asked for twice",
        polars=lambda: _polars(rouge_types=["rougeL", "rougeL"]),
        spark=lambda: _spark(rouge_types=["rougeL", "rougeL"]),
        cli=_cli("--rouge-types", "rougeL,rougeL"),
    ),
    *_row(
        "unknown-type",
        ValueError,
        "invalid ROUGE type 'rougeX'; valid types: ",
        scorer=lambda: _scorer(rouge_types=["rougeX"]),
        metrics=lambda: _metrics(rouge_types=["rougeX"]),
        polars=lambda: _polars(rouge_type="rougeX"),
        spark=lambda: _spark(rouge_type="rougeX"),
        cli=_cli("--rouge-types", "rougeX"),
    ),
    *_row(
        "bare-string-texts",
        TypeError,
        "predictions must be a sequence of str, not a single string",
        scorer=lambda: RougeScorer(["rouge1"]).score_batch(["a"], "a"),
        multi=lambda: RougeScorer(["rouge1"]).score_multi_batch([["a"]], "a"),
        metrics=lambda: compute("a", ["a"]),
    ),
    *_row(
        "non-str-text",
        TypeError,
        "predictions[1] must be a str, got int",
        scorer=lambda: RougeScorer(["rouge1"]).score_batch(["a", "b"], ["a", 3]),
        multi=lambda: RougeScorer(["rouge1"]).score_multi_batch([["a"], ["b"]], ["a", 3]),
        metrics=lambda: compute(["a", 3], ["a", "b"]),
    ),
    *_row(
        # A NaN is a null, as None is; score_batch adds how to take nulls.
        "null-text",
        TypeError,
        "predictions[1] must be a str, got a null (None, NaN or NA)",
        scorer=lambda: RougeScorer(["rouge1"]).score_batch(["a", "b"], ["a", float("nan")]),
        multi=lambda: RougeScorer(["rouge1"]).score_multi_batch([["a"], ["b"]], ["a", None]),
        metrics=lambda: compute(["a", float("nan")], ["a", "b"]),
    ),
    *_row(
        "unknown-language",
        ValueError,
        "unknown language 'xx'; known: am, ar, az, ",
        **_keywords(_scorer, lang="xx"),
        compute=lambda: compute(["a"], ["a"], lang="xx"),
        cli=_cli("--lang", "xx"),
    ),
    *_row(
        # A country's code for its language's: the registry's "did you mean".
        "country-code-language",
        ValueError,
        "unknown language 'jp' (did you mean 'ja'?); known: am, ar, az, ",
        **_keywords(_scorer, lang="jp"),
        cli=_cli("--lang", "jp"),
    ),
    *_row(
        "unknown-tokenizer",
        ValueError,
        "unknown tokenizer 'whitspace' (did you mean 'whitespace'?); available: ",
        **_keywords(_scorer, tokenizer="whitspace"),
        cli=_cli("--tokenizer", "whitspace"),
    ),
    *_row(
        "negative-n-jobs",
        ValueError,
        "n_jobs must be a positive count, 0 or -1, got -2",
        scorer=lambda: _batch_call(n_jobs=-2),
        multi=lambda: RougeScorer(["rouge1"]).score_multi_batch([["a"]], ["a"], n_jobs=-2),
        xlsum=lambda: _xlsum_batch(-2),
        metrics=lambda: compute(["a"], ["a"], n_jobs=-2),
    ),
    *_row(
        "bool-n-jobs",
        TypeError,
        "n_jobs must be an int, got bool",
        scorer=lambda: _batch_call(n_jobs=True),
        xlsum=lambda: _xlsum_batch(True),
    ),
    *_row(
        "zero-threads",
        ValueError,
        "threads must be a positive count or -1 (every core), got 0",
        scorer=lambda: _scorer(threads=0),
        resolve=lambda: _checks.resolve_threads(0),
    ),
    *_row(
        "non-str-language",
        TypeError,
        "lang must be None or a language such as 'de', got int",
        **_keywords(_scorer, lang=7),
    ),
    *_row(
        "language-with-tokenizer-object",
        TypeError,
        "lang= chooses the tokenizer by name: give tokenizer=None or a tokenizer name "
        "with it, not a CharTokenizer",
        **_keywords(_scorer, lang="de", tokenizer=CharTokenizer()),
    ),
]


@pytest.mark.parametrize(("error", "message", "surface", "call"), ROWS)
def test_every_surface_gives_the_same_error(
    error: type[Exception],
    message: str,
    surface: str,
    call: Callable[[], Any],
    capsys: pytest.CaptureFixture[str],
) -> None:
    if surface == "cli":
        assert call() == 2
        line = capsys.readouterr().err.strip()
        assert line.startswith("kurenai: error: argument --")
        assert message in line
        return
    with pytest.raises(error) as raised:
        call()
    assert type(raised.value) is error
    if message.endswith((" ", ")")):
        assert str(raised.value).startswith(message)
    else:
        assert str(raised.value) == message


def test_every_mistake_is_made_on_several_surfaces() -> None:
    """A row with one surface proves nothing about sameness."""
    mistakes: dict[str, set[str]] = {}
    for row in ROWS:
        mistakes.setdefault(row.id.rpartition("-")[0], set()).add(row.values[2])
    assert all(len(surfaces) >= 2 for surfaces in mistakes.values()), mistakes


def test_n_jobs_minus_one_is_every_core_everywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    """RougeScorer and XL-Sum's dialect read ``n_jobs=-1`` alike: every
    available core (the dialect's workers are asked for that many)."""
    from kurenai._core import processes
    from kurenai.compat import xlsum

    monkeypatch.setattr(_checks, "available_cores", lambda: 6)
    asked: list[int] = []

    def workers(recipe: Any, chunks: Any, n_jobs: int) -> None:
        asked.append(n_jobs)
        return None  # as when no worker could start: scored here

    monkeypatch.setattr(processes, "score_in_workers", workers)
    monkeypatch.setattr(xlsum.RougeScorer, "_in_workers", lambda self, pairs: True)
    scorer = xlsum.RougeScorer(["rouge1"])
    assert scorer.score_batch(["a"], ["a"], n_jobs=-1) == [scorer.score("a", "a")]
    assert asked == [6] == [_checks.resolve_jobs(-1)]


def test_score_batch_reads_a_plain_str_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """score_batch takes its sides in one pass: a str item is taken by its
    type alone; only the other items (here the nulls) are looked into."""
    looked: list[Any] = []
    is_null = _inputs.is_null

    def counted(value: Any) -> bool:
        looked.append(value)
        return is_null(value)

    for module in (_inputs, _checks):
        monkeypatch.setattr(module, "is_null", counted, raising=False)
    targets = ["a b"] * 200
    predictions = ["a"] * 199 + [float("nan")]
    results = RougeScorer(["rouge1"]).score_batch(targets, predictions, allow_none=True)
    assert results[-1] is None and results[0] is not None
    assert len([value for value in looked if isinstance(value, str)]) <= 1

"""The command line on random input: never a traceback, always a documented exit.

hypothesis draws the files (random bytes; records in UTF-8, UTF-16,
Latin-1 or broken UTF-8; plain, gzip, truncated or corrupt gzip; JSONL
fields of every JSON type, nested, missing or extra; mismatched line counts)
and the options (size limits, formats, corpus reports, leaderboards, HTML
reports, outputs naming inputs, bounded lines, out-of-range numbers), and
runs ``kurenai.cli.main`` in process.  Whatever the input: no Python
traceback on stderr, an exit status of the documented set (0, 1, 2, 3), no
input ever changed, an existing ``--output`` untouched (and no report) unless
the run succeeded, and no temporary file left beside it.  The signal cases
run processes: ``test_cli_fuzz_signals.py``.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import traceback
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kurenai import cli

BEFORE = "before\n"
EXIT_STATUSES = {0, 1, 2, 3}

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4), children, max_size=3)
    ),
    max_leaves=6,
)
TEXTS = st.text(
    st.characters(blacklist_categories=("Cs",)) | st.sampled_from(["a", "b", " ", "\n"]),
    max_size=30,
)


VALID_TEXTS = st.lists(
    st.sampled_from(["a", "b", "cat", " ", "猫", "é", "\n", "a b c d e f g h i j k l"]), max_size=40
).map("".join)
# A lone surrogate (a JSON escape) reaches the scores, the output and the report.
JSON_TEXTS = VALID_TEXTS | VALID_TEXTS.map(lambda text: text + " \ud800")


@st.composite
def field_value(draw: st.DrawFn, valid: bool) -> Any:
    """A JSONL field: mostly text (or a list of texts), else any JSON value."""
    if valid or draw(st.integers(0, 3)):
        return (
            draw(JSON_TEXTS) if draw(st.integers(0, 4)) else draw(st.lists(JSON_TEXTS, max_size=3))
        )
    return draw(JSON_VALUES | st.lists(TEXTS | JSON_VALUES, max_size=3) | TEXTS)


@st.composite
def jsonl_records(draw: st.DrawFn, count: int, valid: bool) -> str:
    lines = []
    for index in range(count):
        record: dict[str, Any] = {"id": f"r{index}"}
        for field in ("target", "prediction"):
            if valid or draw(st.integers(0, 5)):
                record[field] = draw(field_value(valid))
        if not valid and not draw(st.integers(0, 3)):
            record[draw(st.text(max_size=5))] = draw(JSON_VALUES)  # an extra field
        line = json.dumps(record, ensure_ascii=draw(st.booleans()))
        if not valid and draw(st.integers(0, 9)) == 0:
            line = line[: draw(st.integers(0, len(line)))]  # a cut line
        lines.append(line)
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "\r\n"]))


@st.composite
def text_lines(draw: st.DrawFn, count: int, valid: bool) -> str:
    texts = VALID_TEXTS if valid else TEXTS
    return "\n".join(
        draw(st.lists(texts.map(lambda t: t.replace("\n", " ")), min_size=count, max_size=count))
    )


@st.composite
def csv_rows(draw: st.DrawFn, count: int, valid: bool) -> str:
    header = "id,target,prediction"
    if not valid:
        header = draw(st.sampled_from([header, "prediction,target", "x,y", ""]))
    texts = (VALID_TEXTS if valid else TEXTS).map(lambda t: t.replace("\n", " "))
    cells = 3 if valid else draw(st.integers(1, 4))
    rows = [",".join(draw(st.lists(texts, min_size=cells, max_size=cells))) for _ in range(count)]
    return "\n".join(
        [header, *(f"r{i}{row[row.find(',') :]}" if valid else row for i, row in enumerate(rows))]
    )


def encoded(draw: st.DrawFn, content: str, valid: bool) -> bytes:
    encoding = "utf-8"
    if not valid:
        encoding = draw(st.sampled_from(["utf-8", "utf-16", "latin-1", "broken"]))
    if encoding == "latin-1":
        return content.encode("latin-1", errors="replace")
    if encoding == "broken":
        data = bytearray(content.encode("utf-8", errors="surrogatepass"))
        for _ in range(draw(st.integers(1, 3))):
            data.insert(draw(st.integers(0, len(data))), draw(st.sampled_from([0x80, 0xFF, 0xC3])))
        return bytes(data)
    return content.encode(encoding, errors="surrogatepass")


@st.composite
def input_file(draw: st.DrawFn, fmt: str, count: int, gzipped: bool) -> bytes:
    """A file of ``count`` records; mostly valid, else damaged at one layer."""
    valid = draw(st.integers(0, 2)) > 0
    if not valid and draw(st.integers(0, 7)) == 0:
        return draw(st.binary(max_size=80))
    if not valid and draw(st.booleans()):
        count += draw(st.sampled_from([-1, 1]))  # mismatched line counts
    make = {"jsonl": jsonl_records, "text": text_lines, "csv": csv_rows}[fmt]
    data = encoded(draw, draw(make(max(count, 0), valid)), valid)
    if not gzipped:
        return data
    body = gzip.compress(data, mtime=0)
    damage = "none" if valid else draw(st.sampled_from(["none", "truncated", "corrupt", "plain"]))
    if damage == "truncated":
        return body[: draw(st.integers(0, len(body) - 1))]
    if damage == "corrupt":
        damaged = bytearray(body)
        damaged[draw(st.integers(0, len(body) - 1))] ^= 0xFF
        return bytes(damaged)
    return data if damage == "plain" else body


OPTIONS = st.lists(
    st.sampled_from(
        [
            ["--max-tokens", "3"],
            ["--max-tokens", "0"],
            ["--max-chars", "10"],
            ["--aggregate", "mean"],
            ["--aggregate", "bootstrap", "--bootstrap-samples", "20", "--seed", "1"],
            ["--output-format", "jsonl"],
            ["--output-format", "json"],
            ["--tokenizer", "char"],
            ["--tokenizer", "unicode"],
            ["--rouge-types", "rouge1,rougeLsum"],
            ["--fail-under", "rouge1=0.5"],
            ["--id-field", "id"],
            ["--target-field", "prediction"],
            ["--baseline-file", "BASELINE"],
            ["--multi-ref-mode", "average"],
            ["--newline-escape"],
            ["--chunk-size", "2"],
            # the audit's classes: leaderboards and reports under size limits,
            # outputs that name inputs or each other, bounded lines, huge numbers
            ["--systems", "PREDICTION", "--bootstrap-samples", "20"],
            ["--report", "REPORT", "--report-explain", "3"],
            ["--report", "TARGET"],
            ["--report", "OUTPUT"],
            ["--output", "PREDICTION"],
            ["--max-line-bytes", "40"],
            ["--rouge-types", "rougeS99999999999,rougeSU4"],
            ["--max-chars", "4", "--max-line-bytes", "16"],
        ]
    ),
    max_size=4,
)


def run_main(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(argv)
        except BaseException:  # an escaped exception is the failure
            raise AssertionError(f"main raised on {argv}:\n{traceback.format_exc()}") from None
    return code, out.getvalue(), err.getvalue()


@settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_random_input_never_gives_a_traceback(tmp_path_factory: Any, data: st.DataObject) -> None:
    directory: Path = tmp_path_factory.mktemp("fuzz")
    fmt = data.draw(st.sampled_from(["jsonl", "text", "csv"]))
    suffix = data.draw(st.sampled_from(["", ".gz"]))
    extension = {"jsonl": ".jsonl", "text": ".txt", "csv": ".csv"}[fmt] + suffix
    target, prediction = directory / f"t{extension}", directory / f"p{extension}"
    count = data.draw(st.integers(1, 12))
    target.write_bytes(data.draw(input_file(fmt, count, bool(suffix))))
    same = fmt != "text" and data.draw(st.booleans())  # both sides in one file
    if same:
        prediction = target
    else:
        prediction.write_bytes(data.draw(input_file(fmt, count, bool(suffix))))
    output = directory / "scores.out"
    output.write_text(BEFORE)
    report = directory / "report.html"
    named = {"BASELINE": prediction, "PREDICTION": prediction, "TARGET": target,
             "OUTPUT": output, "REPORT": report}  # fmt: skip
    options = [item for option in data.draw(OPTIONS) for item in option]
    options = [str(named.get(item, item)) for item in options]
    argv = ["--target-file", str(target), "--prediction-file", str(prediction)]
    read = {path: path.read_bytes() for path in (target, prediction)}
    code, _, err = run_main([*argv, "--output", str(output), *options])
    assert "Traceback" not in err, err
    assert code in EXIT_STATUSES, (code, err)
    if code not in (0, 3):
        assert output.read_text() == BEFORE, err
        assert err.count("\n") >= 1 and err.startswith("kurenai: "), err
        assert not report.exists()
    assert {path: path.read_bytes() for path in read} == read  # no input is ever replaced
    inputs = {target.name, prediction.name, output.name, report.name}
    assert sorted(p.name for p in directory.iterdir() if p.name not in inputs) == []
    formats = [options[i + 1] for i, item in enumerate(options) if item == "--output-format"]
    if code in (0, 3) and formats:  # strict JSON (null, never NaN), as the last option asks
        text = output.read_text()
        documents = text.splitlines() if formats[-1] == "jsonl" else [text]
        for document in documents:
            json.loads(document, parse_constant=lambda name: pytest.fail(f"{name} in {text}"))

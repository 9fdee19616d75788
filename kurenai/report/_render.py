"""The report's one HTML file: Jinja2 with auto-escaping, everything inlined.

The page loads nothing: its style, script, Plotly's bundle (from the
installed ``plotly`` package) and data are all in the file, and its content
security policy forbids any fetch.  Every value the template prints is
escaped; the data goes in as JSON inside ``<script type="application/json">``
with every ``<`` written ``\\u003c``, so no text in it (``</script>``,
``<!--``) can end the element.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
from importlib import resources
from typing import IO, Any

from kurenai._data.extras import pip_install
from kurenai.stats._paired import check_test

__all__ = ["check_installed", "embedded_json", "render", "render_page"]

_SURROGATE = re.compile("[\ud800-\udfff]")


def check_installed() -> None:
    """The ImportError :func:`render` would raise without the ``report``
    extra, found without importing it (the command line asks before it
    reads any input)."""
    missing = [name for name in ("jinja2", "plotly") if _spec(name) is None]
    if missing:
        raise ImportError(f"the HTML report needs {' and '.join(missing)}: {pip_install('report')}")


def _spec(name: str) -> object:
    try:
        return importlib.util.find_spec(name)
    except (ImportError, ValueError):  # a broken install, or a module set to None
        return None


def embedded_json(data: Any) -> str:
    """``data`` as JSON that is safe inside a ``<script>`` element.

    >>> embedded_json({"t": "</script><!--"})
    '{"t":"\\\\u003c/script>\\\\u003c!--"}'
    """
    try:  # orjson (the cli extra) writes a 100 MB page's data ten times faster
        import orjson

        text = orjson.dumps(data).decode("utf-8")
    except (ImportError, TypeError):  # TypeError: orjson refuses lone surrogates
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        # A lone surrogate (a JSON "\ud800" escape in the input) has no UTF-8
        # encoding: the page gets the escape back, which JSON.parse reads as it.
        text = _SURROGATE.sub(lambda found: f"\\u{ord(found.group()):04x}", text)
    # U+2028/2029 are fine in JSON.parse; "<" is the only character that can
    # close the element or open a comment in a script's raw text.
    return text.replace("<", "\\u003c")


def render(stream: IO[str], data: dict[str, Any], board: Any, title: str) -> None:
    """Write the page of ``data`` (``_data.document``) to ``stream``."""
    render_page(
        stream,
        "report.html.j2",
        data,
        title=title,
        signature=data["signature"],
        count=data["count"],
        systems=data["systems"],
        types=data["types"],
        main=data["main"],
        baseline=data["baseline"],
        comparison=data.get("comparison"),
        board=board,
        explained=data["explained"],
        too_costly=data["too_costly"],
        samples=data["resampling"]["samples"],
        confidence=data["resampling"]["confidence"],
        seed=data["resampling"]["seed"],
        paired_test=data["resampling"]["test"],
        paired_summary=check_test(data["resampling"]["test"]).summary,
        trials=data["resampling"]["trials"],
        stability=data["leaderboard"].get("rank_stability"),
        script_name="report.js",
    )


def render_page(
    stream: IO[str], template: str, data: Any, script_name: str, **context: Any
) -> None:
    """Write ``template`` (in ``templates/``) to ``stream`` with ``context``,
    the shared style, the shared chart rule (``charts.js``), the script
    ``script_name``, Plotly's bundle and ``data`` as the page's embedded
    JSON (``data_json``)."""
    try:
        import jinja2
        from plotly.offline import get_plotlyjs
    except ImportError as error:
        needs = f"the HTML report needs jinja2 and plotly: {pip_install('report')}"
        raise ImportError(needs) from error
    templates = resources.files("kurenai.report") / "templates"
    env = jinja2.Environment(
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        loader=jinja2.FunctionLoader(lambda name: (templates / name).read_text("utf-8")),
    )
    plotly = get_plotlyjs()
    if "</script" in plotly.lower() or "<!--" in plotly:  # pragma: no cover - checked per release
        raise RuntimeError("the installed plotly.js cannot be inlined: it holds '</script'")
    page = env.get_template(template).stream(
        **context,
        css=(templates / "report.css").read_text("utf-8"),
        charts=(templates / "charts.js").read_text("utf-8"),
        script=(templates / script_name).read_text("utf-8"),
        plotly=plotly,
        data_json=embedded_json(data),
    )
    for chunk in page:
        stream.write(chunk)


def default_title(path: str | os.PathLike[str]) -> str:
    """The page title for a report written to ``path``."""
    return f"kurenai report — {os.path.basename(os.fspath(path))}"

"""Summary files and configurations for the ROUGE-1.5.5 report tests.

:func:`records` gives raw English summaries (SciTLDR when the shared corpora
are present: case, punctuation, digits, hyphens; each with its 1-4 TLDRs as
references) plus hand-made ones for the corners (``$``, non-ASCII, CJK,
empty lines, an empty summary, CR line ends).  :func:`write_setup` writes
them as the script reads them: SPL files or pyrouge's SEE HTML, an XML
configuration with two systems, or a ``-z`` file list.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path

from corpora import shared_file

Record = tuple[list[str], dict[str, str]]  # (references, system ID -> summary)

CORNERS: list[Record] = [
    (
        ["The U.S. economy grew 3.5% in Q2, well-known analysts said.", "GDP rose $1,000."],
        {"lead": "U.S. GDP grew 3.5 percent; analysts were surprised.", "alt": "$1,000 GDP"},
    ),
    (
        ["Le café naïve à Paris.\n\nIt's open-ended — really.", "猫が好きです。\r\nCats!"],
        {"lead": "Café in Paris; it's open\n\n", "alt": "猫 cats CATS cat's"},
    ),
    (["a b c d e", "b c a", "e d c b a", "a"], {"lead": "a b c", "alt": ""}),
    (
        ["x-ray  results: 12-year-olds", "Results!"],
        {"lead": "X-RAY results of 12 year olds", "alt": "-"},
    ),
    (
        ["The geese were running; the mice ran.", "Running geese, happier mice."],
        {"lead": "Geese run happily; mice are happy.", "alt": "the the the of and"},
    ),
]


def records(count: int = 40) -> list[Record]:
    """SciTLDR summaries (two systems: lead-3 and lead-1) and the corners."""
    found: list[Record] = []
    path = shared_file("en_scitldr_test.jsonl")
    if path is not None:
        import json

        lines = path.read_text(encoding="utf-8").splitlines()[:count]
        for line in lines:
            row = json.loads(line)
            found.append(
                (
                    row["target"].split("\n"),
                    {"lead": row["prediction"], "alt": row["prediction_lead1"]},
                )
            )
    return found + CORNERS


def to_see(text: str) -> str:
    """pyrouge's SEE HTML for a text of one sentence per line."""
    sentences = text.split("\n")
    elements = "\n".join(
        f'<a name="{i}">[{i}]</a> <a href="#{i}" id={i}>{s}</a>'
        for i, s in enumerate(sentences, start=1)
    )
    return (
        f'<html>\n<head>\n<title>t</title>\n</head>\n<body bgcolor="white">\n{elements}\n'
        "</body>\n</html>"
    )


def write_setup(root: Path, rows: Sequence[Record], fmt: str = "SPL") -> tuple[Path, Path]:
    """The summaries under ``root`` and (XML configuration, -z file list)."""
    peers, models = root / "peers", root / "models"
    peers.mkdir(parents=True)
    models.mkdir()
    evals, listed = [], []
    for index, (references, systems) in enumerate(rows):
        names = []
        for number, reference in enumerate(references):
            name = f"{index}.{number}.txt"
            text = to_see(reference) if fmt == "SEE" else reference + "\n"
            (models / name).write_bytes(text.encode())
            names.append(f'<M ID="{chr(65 + number)}">{html.escape(name)}</M>')
        elements = []
        for system, summary in systems.items():
            name = f"{index}.{system}.txt"
            text = to_see(summary) if fmt == "SEE" else summary
            (peers / name).write_bytes(text.encode())
            elements.append(f'<P ID="{system}">{name}</P>')
        evals.append(
            f'<EVAL ID="{index + 1}"><MODEL-ROOT>{models}</MODEL-ROOT>'
            f"<PEER-ROOT>{peers}</PEER-ROOT>"
            f'<INPUT-FORMAT TYPE="{fmt}"></INPUT-FORMAT><PEERS>{"".join(elements)}</PEERS>'
            f"<MODELS>{''.join(names)}</MODELS></EVAL>"
        )
        files = [peers / f"{index}.lead.txt"]
        files += [models / f"{index}.{k}.txt" for k in range(len(references))]
        listed.append(" ".join(map(str, files)))
    config = root / "config.xml"
    config.write_text(f'<ROUGE-EVAL version="1.55">\n{chr(10).join(evals)}\n</ROUGE-EVAL>\n')
    file_list = root / "files.txt"
    file_list.write_text("# peer model...\n\n" + "\n".join(listed) + "\n")
    return config, file_list

"""pytorch-ignite's own ROUGE tests, run against kurenai.ignite's classes.

The installed pytorch-ignite's sdist (from the package index, at test time:
none of its code is in this repository) ships
``tests/ignite/metrics/nlp/test_rouge.py`` with its package ``__init__.py``
(the corpus) and ``_pyrouge.py`` (py-rouge, its reference numbers).  They
run in a pytest of their own whose conftest binds kurenai's ``Rouge``,
``RougeN`` and ``RougeL`` where the file imports ignite's, and provides the
fixtures it takes from ignite's test tree: ``available_device`` (the CPU) and
``distributed_context_single_node_gloo`` (a gloo group of one process).

Left out: ``test_compute_ngram_scores``, which tests ignite's helper
function, not a metric class; the GPU, Horovod, multi-node and TPU tests
(they skip themselves here anyway).

``_pyrouge.py`` tokenizes with NLTK's ``word_tokenize`` and
``sent_tokenize``, whose punkt tables NLTK downloads from GitHub.  The
conftest gives it a stand-in ``nltk``: ``str.split`` and one sentence per
text.  On this corpus that is exactly NLTK's result, which the test checks
first: py-rouge's tokenizer sees only ASCII letters, digits and spaces (it
blanks everything else), with none of the words the Treebank tokenizer
splits (``cannot``, ``gonna``...), and no text has a sentence end.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from importlib import metadata
from pathlib import Path

import pytest
from optional import missing

pytestmark = [pytest.mark.slow, pytest.mark.index]

FILES = ("__init__.py", "_pyrouge.py", "test_rouge.py")
PACKAGE = "ignite_rouge_tests"
# The words NLTK's Treebank tokenizer splits (its CONTRACTIONS2 and 3).
SPLIT_WORDS = {"cannot", "gimme", "gonna", "gotta", "lemme", "wanna", "more'n", "'tis", "'twas"}

CONFTEST = """
import os, socket, sys, types
import pytest

# The stand-in nltk (see tests/torch_frontends/test_ignite_upstream.py in kurenai).
nltk = types.ModuleType("nltk")
nltk.download = lambda *args, **kwargs: True
nltk.word_tokenize = lambda text, language="english": text.split()
nltk.sent_tokenize = lambda text, language="english": [text]
sys.modules["nltk"] = nltk

import ignite.metrics.nlp as nlp
import ignite.metrics.nlp.rouge as rouge
import kurenai.ignite as ours

for module in (nlp, rouge):
    module.Rouge, module.RougeN, module.RougeL = ours.Rouge, ours.RougeN, ours.RougeL

if os.environ.get("KURENAI_BREAK") == "1":  # the negative control
    import kurenai.ignite._counts as counts
    counts._f = lambda precision, recall, alpha: recall


def pytest_collection_modifyitems(items):
    for item in items:
        module = item.module
        assert module.Rouge is ours.Rouge and module.RougeN is ours.RougeN
        assert module.RougeL is ours.RougeL


@pytest.fixture
def available_device():
    return "cpu"


@pytest.fixture
def distributed_context_single_node_gloo():
    import torch.distributed as dist
    from ignite.distributed.utils import _SerialModel, _set_model

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    dist.init_process_group(
        "gloo", init_method=f"tcp://127.0.0.1:{port}", rank=0, world_size=1
    )
    yield {"local_rank": 0, "world_size": 1, "rank": 0}
    dist.destroy_process_group()
    _set_model(_SerialModel())
"""
INI = """[pytest]
markers =
    distributed
    multinode_distributed
    tpu
filterwarnings =
    ignore::DeprecationWarning
"""


@functools.cache
def _upstream() -> Path:
    """The sdist's ROUGE tests, extracted once into a directory of their own."""
    try:
        version = metadata.version("pytorch-ignite")
    except metadata.PackageNotFoundError:
        missing("pytorch-ignite (the ignite extra, with torch) is not installed")
    root = Path(tempfile.gettempdir()) / f"kurenai-ignite-{version}-sdist"
    target = root / PACKAGE
    if not (target / "test_rouge.py").is_file():
        command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
        command += ["--no-binary", ":all:", "--disable-pip-version-check", "-d", str(root)]
        result = subprocess.run(
            [*command, f"pytorch-ignite=={version}"], capture_output=True, text=True, timeout=300
        )
        if result.returncode != 0:
            missing(f"cannot download pytorch-ignite's sdist: {result.stderr.strip()[-300:]}")
        (archive,) = root.glob("pytorch*ignite-*.tar.gz")
        target.mkdir(parents=True, exist_ok=True)
        with tarfile.open(archive) as tar:
            for name in FILES:
                member = tar.getmember(
                    f"{archive.name[: -len('.tar.gz')]}/tests/ignite/metrics/nlp/{name}"
                )
                source = tar.extractfile(member)
                assert source is not None
                (target / name).write_bytes(source.read())
    (root / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (root / "pytest.ini").write_text(INI, encoding="utf-8")
    return root


def _run(
    root: Path, select: str = "not test_compute_ngram_scores", **env: str
) -> subprocess.CompletedProcess[str]:
    kurenai_root = Path(__file__).resolve().parents[2]
    path = os.pathsep.join([str(kurenai_root), str(root), os.environ.get("PYTHONPATH", "")])
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly"]
    command += ["-c", str(root / "pytest.ini"), "--rootdir", str(root), "-n", "0"]
    command += ["-k", select, f"{PACKAGE}/test_rouge.py"]
    return subprocess.run(
        command,
        cwd=root,
        env={**os.environ, "PYTHONPATH": path, **env},
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_stand_in_nltk_is_exact_on_their_corpus() -> None:
    root = _upstream()
    sys.path.insert(0, str(root))
    try:
        from ignite_rouge_tests import CorpusForTest
    finally:
        sys.path.remove(str(root))
    corpus = CorpusForTest()
    texts = [corpus.cand_1, corpus.cand_2a, corpus.cand_2b, corpus.cand_3]
    texts += [corpus.ref_1a, corpus.ref_1b, corpus.ref_2a, corpus.ref_2b, corpus.ref_2c]
    for text in texts:
        assert not re.search(r"[.!?]", text), text  # one sentence each
        blanked = re.sub("[^A-Za-z0-9]", " ", text)  # what _pyrouge tokenizes
        assert not SPLIT_WORDS & set(blanked.lower().split())


def test_their_rouge_tests_pass_on_kurenais_classes() -> None:
    out = _run(_upstream())
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    # test_wrong_inputs, test_rouge_n_alpha (4), test_rouge_metrics (5),
    # test_distrib_gloo_cpu_or_gpu: every one ran.
    assert re.search(r"\b11 passed\b", out.stdout), out.stdout[-2000:]


def test_their_tests_catch_a_wrong_f() -> None:
    out = _run(_upstream(), "test_rouge_n_alpha", KURENAI_BREAK="1")
    assert out.returncode != 0
    assert re.search(r"\b[1-4] failed\b", out.stdout), out.stdout[-2000:]

"""MeCab's dictionary is mapped once per process, whatever the number of
scorer copies: every ``fugashi.Tagger`` maps it anew (UniDic-lite: ~250 MB
of address space), and scorers are pickled into workers, closures and
DataLoader copies.  Thirty unpickled copies (and ten XL-Sum scorers) must
not grow the address space by even one dictionary."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest
from optional import missing

REPO = Path(__file__).resolve().parents[2]

_PROBE = """
import os, pickle, re, sys
def vm_size():
    return int(re.search(r"VmSize:\\s+(\\d+)", open("/proc/self/status").read()).group(1)) << 10
def dictionary_maps():
    return sum(1 for line in open("/proc/self/maps") if line.rstrip().endswith("sys.dic"))
import unidic_lite
dictionary = os.path.getsize(os.path.join(unidic_lite.DICDIR, "sys.dic"))
if sys.argv[1] == "mecab":
    from kurenai.tokenizers import get_tokenizer
    first = get_tokenizer("mecab")
    first.tokenize("東京都")
    blob = pickle.dumps(first)
    make = lambda: pickle.loads(blob)
    use = lambda copy: copy.tokenize("今日はいい天気")
else:
    try:
        import unidic
        if not os.path.exists(os.path.join(unidic.DICDIR, "mecabrc")):
            unidic.DICDIR = unidic_lite.DICDIR  # full UniDic is a download
    except ImportError:
        pass
    from kurenai.compat import xlsum
    make = lambda: xlsum.RougeScorer(["rouge1"], lang="japanese")
    make().score("東京都", "東京")
    use = lambda copy: copy.score("今日はいい天気", "今日は")
size, maps = vm_size(), dictionary_maps()
copies = [make() for _ in range(30)]
for copy in copies:
    use(copy)
print(vm_size() - size, dictionary_maps() - maps, dictionary)
"""


@pytest.mark.slow
@pytest.mark.parametrize("surface", ["mecab", "xlsum"])
def test_thirty_copies_map_the_dictionary_at_most_once_more(surface: str) -> None:
    for module in ("fugashi", "unidic_lite"):
        if importlib.util.find_spec(module) is None:
            missing(f"{module} is not installed (pip install -e '.[ja]')")
    if not os.path.exists("/proc/self/maps"):
        pytest.skip("needs Linux's /proc")
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])
    )
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, surface],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    grown, maps, dictionary = map(int, done.stdout.split())
    assert maps == 0
    assert grown < dictionary, f"{grown >> 20} MB more address space for 30 copies"

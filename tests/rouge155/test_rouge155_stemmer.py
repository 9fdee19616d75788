"""The script's stemmer: its Porter port and the WordNet exception lookup.

The Porter port is held to the script's own ``stem`` (loaded from
ROUGE-1.5.5.pl) on every word of the English corpora, every word of the
exception lists and generated words, in one Perl run.
"""

from __future__ import annotations

import glob
import json
import re
import subprocess
import tempfile
from pathlib import Path

import perl_rouge
import pytest
from corpora import shared_file
from hypothesis import given, settings
from hypothesis import strategies as st
from perl_rouge import perl  # noqa: F401  (the fixture)

from kurenai.rouge155 import _data
from kurenai.rouge155._stemmer import PerlStemmer, porter_stem
from kurenai.rouge155._tokenizer import Words

_PERL_STEM = r"""
my $script = shift;
my $source = do { local $/; open(my $f, '<', $script) or die; <$f> };
$source =~ /^(local %step2list;.*)\z/ms or die "no Porter stemmer";
eval $1; die $@ if $@;
&initialise();
while (defined(my $w = <STDIN>)) { chomp($w); print stem($w), "\n"; }
"""


def perl_stems(words: list[str]) -> list[str]:
    assert perl_rouge.perl_cmd is not None
    with tempfile.TemporaryDirectory() as tmp:
        harness = Path(tmp) / "stem.pl"
        harness.write_text(_PERL_STEM)
        out = subprocess.run(
            ["perl", str(harness), perl_rouge.perl_cmd.ROUGE_EXEC],
            input="".join(f"{w}\n" for w in words).encode(),
            capture_output=True,
            check=True,
        ).stdout
    return out.decode().split("\n")[: len(words)]


def _vocabulary() -> list[str]:
    words: set[str] = set()
    for name in ("en_scitldr_test.jsonl", "en_cnndm_chen2018.jsonl", "en_cnndm_pltrdy.jsonl"):
        path = shared_file(name)
        if path is None:
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            for value in json.loads(line).values():
                if isinstance(value, str):
                    words.update(re.findall(r"[a-z0-9]+", value.lower()))
    assert perl_rouge.perl_cmd is not None
    for path in glob.glob(f"{perl_rouge.perl_cmd.ROUGE_WORDNET_DIR}/*.exc"):
        for word in Path(path).read_text().split():
            words.update(re.findall(r"[a-z0-9]+", word))
    return sorted(words)


@pytest.mark.slow
@pytest.mark.usefixtures("perl")
def test_porter_equals_the_scripts_stem_on_real_words() -> None:
    words = _vocabulary()
    assert len(words) > 5000
    expected = perl_stems(words)
    assert [w for w, s in zip(words, expected) if porter_stem(w) != s] == []


@pytest.mark.slow
@pytest.mark.usefixtures("perl")
@settings(max_examples=5, deadline=None)
@given(st.lists(st.text(alphabet="aeiouybcdlmnrstgzYx", min_size=1, max_size=12), max_size=300))
def test_porter_equals_the_scripts_stem_on_generated_words(words: list[str]) -> None:
    words = [w for w in words if not w.startswith("Y")]  # the script's input is lower-case
    assert [porter_stem(w) for w in words] == perl_stems(words)


def test_exceptions_come_before_porter_and_only_for_long_words() -> None:
    rules = Words(stemmer=PerlStemmer({"mice": "mouse", "oxen": "ox", "ran": "run"}))
    assert rules("mice ran oxen dogs") == ["mouse", "ran", "ox", "dog"]


def test_the_exception_files_are_read_in_name_order() -> None:
    table = _data.exceptions(_data.data_dir())
    assert table["aardwolves"] == "aardwolf"
    assert table["best"] == "well"  # adv.exc after adj.exc
    assert table["is"] == "be"  # verb.exc after noun.exc


def test_a_data_directory_without_exception_files_is_named(tmp_path: Path) -> None:
    with pytest.raises(_data.DataError, match=str(tmp_path)):
        _data.exceptions(tmp_path)

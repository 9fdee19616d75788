"""The words ROUGE-1.5.5.pl's own text subroutines make of summary files.

A small Perl harness loads the script's ``readText``, ``readText_LCS``,
``tokenizeText``, ``tokenizeText_LCS``, ``MorphStem`` and its Porter stemmer
out of ROUGE-1.5.5.pl itself (their source, unchanged) and,
for every file given, prints the words of the n-gram text and of each
ROUGE-L unit.  One Perl process reads all the files of a test.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

import perl_rouge

Words = tuple[list[str], list[list[str]]]  # (readText words, readText_LCS units' words)

_HARNESS = r"""
use DB_File;
my ($script, $data, $format, $words, $bytes, $stem, $stop, $list) = @ARGV;
my $source = do { local $/; open(my $f, '<', $script) or die "$script: $!"; <$f> };
for my $name (qw(readText readText_LCS tokenizeText tokenizeText_LCS MorphStem)) {
  $source =~ /^(sub $name \{.*?^\})/ms or die "no sub $name";
  eval $1; die $@ if $@;
}
# The Porter section (stem, initialise and their globals) runs to the end of the file.
$source =~ /^(local %step2list;.*)\z/ms or die "no Porter stemmer";
eval $1; die $@ if $@;
$debug = 0;
$opt_m = $stem ? 1 : undef;
$useStopwords = $stop ? 0 : 1;
%stopwords = ();
open(STOP, "$data/smart_common_words.txt") or die;
while (defined($line = <STOP>)) { chomp($line); $stopwords{$line} = 1; }
close(STOP);
tie %exceptiondb, 'DB_File', "$data/WordNet-2.0.exc.db", O_RDONLY, 0440, $DB_HASH or die;
&initialise();
open(LIST, $list) or die;
while (defined($path = <LIST>)) {
  chomp($path);
  my ($text, @units, @whole, @lcs);
  &readText($path, \$text, $format, $words, $bytes);
  &tokenizeText($text, \@whole);
  &readText_LCS($path, \@units, $format, $words, $bytes);
  &tokenizeText_LCS(\@units, \@lcs);
  print join(" ", @whole), "\n";
  print scalar(@lcs), "\n";
  print join(" ", @$_), "\n" for @lcs;
}
"""


def perl_words(
    files: Sequence[bytes],
    fmt: str = "SPL",
    words: int = 0,
    size: int = 0,
    stem: bool = False,
    stop: bool = False,
) -> list[Words]:
    """Per file content, the script's words with ``-l words`` / ``-b size`` /
    ``-m`` / ``-s``: the n-gram text's and each ROUGE-L unit's."""
    assert perl_rouge.perl_cmd is not None
    with tempfile.TemporaryDirectory(prefix="kurenai-perl-text-") as tmp:
        root = Path(tmp)
        paths = []
        for index, content in enumerate(files):
            path = root / f"{index}.txt"
            path.write_bytes(content)
            paths.append(str(path))
        (root / "list").write_text("".join(f"{path}\n" for path in paths))
        (root / "harness.pl").write_text(_HARNESS)
        command = [
            "perl",
            str(root / "harness.pl"),
            perl_rouge.perl_cmd.ROUGE_EXEC,
            str(perl_rouge.data_dir()),
            fmt,
            str(words),
            str(size),
            "1" if stem else "0",
            "1" if stop else "0",
            str(root / "list"),
        ]
        done = subprocess.run(command, capture_output=True)
        if done.returncode:
            raise RuntimeError(done.stderr.decode("latin-1"))
        out = done.stdout.decode("latin-1")
    lines = out.split("\n")
    found: list[Words] = []
    at = 0
    for _ in files:
        whole = lines[at].split()
        count = int(lines[at + 1])
        units = [line.split() for line in lines[at + 2 : at + 2 + count]]
        found.append((whole, units))
        at += 2 + count
    return found


if __name__ == "__main__":  # pragma: no cover - manual inspection aid
    print(json.dumps(perl_words([b"The Cat-like $5 dogs\nran."], stem=True)))
